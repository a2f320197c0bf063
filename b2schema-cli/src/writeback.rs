//! Writing a large output back to disk while the rest of it is being made.
//!
//! An output file is synced before it is renamed into place ([`crate::output`]), so that after
//! a crash the destination holds the whole new file or the old one. Synced only at the end, the
//! disk writes everything at once after the work is done: `pack` of a 128 MB array spent 130 to
//! 180 ms of its 0.35-0.45 s in that last `fsync`. A [`WriteBack`] starts the disk's writing of
//! each further [`WriteBack::EVERY`] bytes as soon as they are written: a thread of its own
//! asks the kernel (`posix_fadvise(POSIX_FADV_DONTNEED)` on that range, which on Linux starts the
//! write-back of its dirty pages without waiting for it), so the disk writes while the command
//! still compresses and the final sync finds little left. A background `fdatasync` instead was
//! slower: it commits the file system's journal each time, which holds up the writer.
//!
//! Linux only; elsewhere the output is synced at the end only.

use std::fs::File;
use std::io;
use std::sync::mpsc::{self, SyncSender, TrySendError};
use std::thread::JoinHandle;

/// Starts the write-back of a file's ranges as it grows.
pub struct WriteBack {
    kick: Option<SyncSender<(u64, u64)>>,
    thread: Option<JoinHandle<io::Result<()>>>,
    /// Bytes written so far, and up to where the write-back was asked.
    written: u64,
    asked: u64,
}

impl WriteBack {
    /// Bytes written between two requests.
    pub const EVERY: u64 = 16 << 20;

    /// A write-back thread for `file` (a clone of its handle: the same open file), written from
    /// its start. `None` when not on Linux, when the handle cannot be cloned or the thread
    /// cannot start: the output is then synced at the end only.
    pub fn start(file: &File) -> Option<Self> {
        if !cfg!(target_os = "linux") {
            return None;
        }
        let clone = file.try_clone().ok()?;
        // One request waiting at most: the next one covers the bytes of a request refused.
        let (kick, rx) = mpsc::sync_channel::<(u64, u64)>(1);
        let thread = std::thread::Builder::new()
            .name("b2schema-writeback".into())
            .spawn(move || {
                for (from, to) in rx {
                    start_writeback(&clone, from, to)?;
                }
                Ok(())
            })
            .ok()?;
        Some(WriteBack { kick: Some(kick), thread: Some(thread), written: 0, asked: 0 })
    }

    /// Counts `n` more bytes written; past [`WriteBack::EVERY`] bytes not yet asked for, asks
    /// for them (unless a request is still waiting: the next one takes these bytes too).
    pub fn wrote(&mut self, n: usize) {
        self.written = self.written.saturating_add(n as u64);
        if self.written - self.asked < Self::EVERY {
            return;
        }
        if let Some(kick) = &self.kick {
            match kick.try_send((self.asked, self.written)) {
                Ok(()) => self.asked = self.written,
                Err(TrySendError::Full(_)) => {}
                // The thread ended on an error: `finish` reports it.
                Err(TrySendError::Disconnected(_)) => self.kick = None,
            }
        }
    }

    /// Waits for the request under way and returns the first error of any (the output's sync
    /// after it makes the data durable).
    pub fn finish(mut self) -> io::Result<()> {
        self.stop()
    }

    fn stop(&mut self) -> io::Result<()> {
        drop(self.kick.take());
        match self.thread.take().map(JoinHandle::join) {
            Some(Ok(done)) => done,
            Some(Err(_)) => Err(io::Error::other("the write-back thread panicked")),
            None => Ok(()),
        }
    }
}

impl Drop for WriteBack {
    fn drop(&mut self) {
        let _ = self.stop();
    }
}

/// Starts the write-back of the bytes `from..to` of `file`. Pages of the range already clean
/// are dropped from the page cache; the ones just written are dirty, so they are written, not
/// dropped.
#[cfg(target_os = "linux")]
fn start_writeback(file: &File, from: u64, to: u64) -> io::Result<()> {
    let len = core::num::NonZeroU64::new(to.saturating_sub(from));
    if len.is_none() {
        return Ok(());
    }
    rustix::fs::fadvise(file, from, len, rustix::fs::Advice::DontNeed).map_err(io::Error::from)
}

#[cfg(not(target_os = "linux"))]
fn start_writeback(_: &File, _: u64, _: u64) -> io::Result<()> {
    Ok(())
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn starts_the_write_back_as_the_file_grows_and_passes_on_its_errors() {
        let dir = std::env::temp_dir().join(format!("b2schema-writeback-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut f = File::create(dir.join("out")).unwrap();
        let mut wb = WriteBack::start(&f).unwrap();
        let piece: Vec<u8> = (0..1u32 << 20).map(|i| i as u8).collect();
        let pieces = 2 * (WriteBack::EVERY as usize >> 20) + 1;
        for _ in 0..pieces {
            f.write_all(&piece).unwrap();
            wb.wrote(piece.len());
        }
        assert!(wb.asked >= WriteBack::EVERY, "no write-back asked for");
        wb.finish().unwrap();
        let back = std::fs::read(dir.join("out")).unwrap();
        assert_eq!(back.len(), pieces << 20);
        assert!(back.chunks(1 << 20).all(|c| c == piece));
        // A handle the kernel refuses the advice for (a pipe: ESPIPE): the error reaches `finish`.
        let (r, _w) = std::io::pipe().unwrap();
        let pipe: File = std::os::fd::OwnedFd::from(r).into();
        let mut wb = WriteBack::start(&pipe).unwrap();
        wb.wrote(WriteBack::EVERY as usize);
        assert!(wb.finish().is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
