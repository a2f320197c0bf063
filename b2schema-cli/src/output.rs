//! Files the command writes (`cat -o`, `cat --npy -o`, `cat --csv -o`, `pack`, `unpack`): written
//! whole or not at all, and never onto what is being read; `-` is stdout ([`Sink`]). Arrays the
//! command changes in place (`append`, `resize`, `write`) are refused by the same rule
//! ([`refuse_input`]).
//!
//! The data goes to a new temporary file beside the destination (same directory, so the final
//! rename is atomic), which is renamed over the destination only when everything was written and
//! flushed; any error, or an interruption, leaves the destination as it was and the temporary
//! file removed.
//!
//! One rule for every output: a command never writes over, renames over or truncates a file it
//! has opened for reading in the same run. The command turns on the library's record of opened
//! files ([`b2schema::frame::opened`]) before it reads anything; every file the library opens is
//! noted there by device and inode (a `.b2z` or `.b2e` store, each member and CTable column
//! file of a `.b2d`, its `embed.b2e`, a sparse frame's index and chunk files, the `.npy` being
//! packed). A destination that is one of them, through whatever name (a symbolic or hard link,
//! `..`, another spelling), or one of the paths the command names, is refused when the output
//! is created, and again just before the final rename (a file opened later in the run counts
//! too): `unpack a.b2nd a.b2nd` once truncated its input, and `cat dict.b2z --key /x -o
//! dict.b2z` replaced the whole store.
//!
//! A destination that is a symbolic link is followed, as `cp` does: the file it leads to is
//! replaced (the link stays); a link that leads nowhere (its target, or the folder of it, is
//! missing) is refused, as `cp` refuses to write through a dangling link.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::Failure;

/// An output file being written: commit it, or drop it to leave the destination untouched.
/// A destination that exists and is not a regular file (`/dev/null`, a FIFO, a terminal) is
/// written straight through, as a shell redirection would: renaming a file over it replaced
/// the device node itself (`cat -o /dev/null` run as root left a 128 MB regular file there).
pub struct AtomicFile {
    /// The file replaced: the destination, or the file its symbolic link leads to.
    dest: PathBuf,
    /// The destination as the user named it (in messages).
    named: PathBuf,
    /// The paths the command names as its inputs.
    inputs: Vec<PathBuf>,
    /// The temporary file renamed over `dest` on commit; `None` when `dest` is written directly.
    tmp: Option<PathBuf>,
    file: Option<io::BufWriter<File>>,
    /// The object-store URL the temporary file is uploaded to on commit (instead of renamed).
    upload: Option<String>,
    /// The temporary file synced in the background as it grows (renamed destinations only).
    writeback: Option<crate::writeback::WriteBack>,
}

/// `true` when `a` and `b` are the same file (device and inode).
#[cfg(unix)]
fn same_file(a: &std::fs::Metadata, b: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    a.dev() == b.dev() && a.ino() == b.ino()
}

#[cfg(not(unix))]
fn same_file(_: &std::fs::Metadata, _: &std::fs::Metadata) -> bool {
    false
}

/// The file `dest` names, a symbolic link followed as `cp` follows it; a link that leads
/// nowhere is refused.
fn follow(dest: &Path) -> Result<PathBuf, Failure> {
    match std::fs::symlink_metadata(dest) {
        Ok(m) if m.file_type().is_symlink() => std::fs::canonicalize(dest).map_err(|e| {
            let to = std::fs::read_link(dest).map(|t| t.display().to_string()).unwrap_or_default();
            Failure::at(
                dest,
                format!("is a symbolic link to {to}, which leads nowhere ({e}): not writing through it"),
            )
        }),
        _ => Ok(dest.to_path_buf()),
    }
}

/// Refuses `dest` (named `named` by the user) when it is a file read in this run: one of
/// `inputs`, or a file the library opened for reading ([`b2schema::frame::opened`]).
/// Returns its metadata when it exists.
fn refuse_inputs(
    dest: &Path,
    named: &Path,
    inputs: &[PathBuf],
) -> Result<Option<std::fs::Metadata>, Failure> {
    let Ok(d) = std::fs::metadata(dest) else { return Ok(None) };
    let input = inputs
        .iter()
        .find(|input| std::fs::metadata(input).is_ok_and(|i| same_file(&i, &d)))
        .cloned()
        .or_else(|| b2schema::frame::opened::opened(&d, dest));
    match input {
        Some(input) => Err(Failure::at(
            named,
            format!("is the input {}: refusing to write over what is being read", input.display()),
        )),
        None => Ok(Some(d)),
    }
}

/// Refuses to change `file` in place when it is one of `inputs` or a file opened for reading in
/// this run (`append`, `resize`, `write`: see the module's documentation).
pub fn refuse_input(file: &Path, inputs: &[&Path]) -> Result<(), Failure> {
    let inputs: Vec<PathBuf> = inputs.iter().map(|p| p.to_path_buf()).collect();
    let real = follow(file)?;
    refuse_inputs(&real, file, &inputs).map(|_| ())
}

impl AtomicFile {
    /// Starts writing `dest`, refusing it when it is one of `inputs` (files or directories) or a
    /// file opened for reading in this run (see the module's documentation).
    pub fn create(dest: &Path, inputs: &[&Path]) -> Result<Self, Failure> {
        let named = dest.to_path_buf();
        let inputs: Vec<PathBuf> = inputs.iter().map(|p| p.to_path_buf()).collect();
        if let Some(url) = dest.to_str().filter(|_| crate::objects::is_object_path(dest)) {
            return Self::for_upload(url, named.clone(), inputs);
        }
        let real = follow(dest)?;
        let dest = real.as_path();
        if let Some(d) = refuse_inputs(dest, &named, &inputs)? {
            if d.is_dir() {
                return Err(Failure::at(&named, "is a directory"));
            }
            if !d.is_file() {
                let f =
                    std::fs::OpenOptions::new().write(true).open(dest).map_err(|e| Failure::at(&named, e))?;
                return Ok(AtomicFile {
                    dest: dest.to_path_buf(),
                    named,
                    inputs,
                    tmp: None,
                    file: Some(io::BufWriter::with_capacity(1 << 20, f)),
                    upload: None,
                    writeback: None,
                });
            }
        }
        let dir = match dest.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let name = dest.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        // A name no other writer uses at once: the process id and a counter, created only if new.
        static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        for _ in 0..64 {
            let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let tmp = dir.join(format!(".{name}.{}.{n}.b2schema-tmp", std::process::id()));
            match std::fs::OpenOptions::new().write(true).create_new(true).open(&tmp) {
                Ok(f) => {
                    return Ok(AtomicFile {
                        dest: dest.to_path_buf(),
                        named,
                        inputs,
                        tmp: Some(tmp),
                        writeback: crate::writeback::WriteBack::start(&f),
                        file: Some(io::BufWriter::with_capacity(1 << 20, f)),
                        upload: None,
                    });
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(Failure::at(&named, format!("cannot write beside it: {e}"))),
            }
        }
        Err(Failure::at(&named, "cannot make a temporary file beside it"))
    }

    /// An object-store destination `url`: the data goes to a temporary file in the system's
    /// temporary directory, uploaded whole on commit (never to one of `inputs`).
    fn for_upload(url: &str, named: PathBuf, inputs: Vec<PathBuf>) -> Result<Self, Failure> {
        if inputs.iter().any(|i| i.as_os_str() == url) {
            return Err(Failure::at(&named, "is the input: refusing to write over what is being read"));
        }
        static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let dir = std::env::temp_dir();
        for _ in 0..64 {
            let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let tmp = dir.join(format!(".upload.{}.{n}.b2schema-tmp", std::process::id()));
            match std::fs::OpenOptions::new().read(true).write(true).create_new(true).open(&tmp) {
                Ok(f) => {
                    return Ok(AtomicFile {
                        dest: named.clone(),
                        named,
                        inputs,
                        tmp: Some(tmp),
                        file: Some(io::BufWriter::with_capacity(1 << 20, f)),
                        upload: Some(url.to_string()),
                        writeback: None,
                    });
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(e) => {
                    return Err(Failure::at(&named, format!("cannot make a temporary file to upload: {e}")));
                }
            }
        }
        Err(Failure::at(&named, "cannot make a temporary file to upload"))
    }

    /// Flushes the data and renames the temporary file over the destination, unless the
    /// destination is now a file read in this run (the temporary file is removed then); for an
    /// object-store destination, uploads it whole.
    pub fn commit(mut self) -> Result<(), Failure> {
        let file = self.file.take().ok_or_else(|| Failure::at(&self.named, "written twice"))?;
        let file = file.into_inner().map_err(|e| Failure::at(&self.named, e.error()))?;
        let Some(tmp) = self.tmp.clone() else { return Ok(()) };
        if let Some(url) = self.upload.clone() {
            let len = file.metadata().map_err(|e| Failure::at(&self.named, e))?.len();
            drop(file);
            return crate::objects::upload(&url, &tmp, len)
                .map_err(|e| Failure::at(&self.named, e.without_file()));
        }
        if let Some(wb) = self.writeback.take() {
            wb.finish().map_err(|e| Failure::at(&self.named, e))?;
        }
        file.sync_all().map_err(|e| Failure::at(&self.named, e))?;
        drop(file);
        refuse_inputs(&self.dest, &self.named, &self.inputs)?;
        std::fs::rename(&tmp, &self.dest).map_err(|e| Failure::at(&self.named, e))?;
        self.tmp = None;
        Ok(())
    }

    /// `true` when the data goes to a temporary regular file (which can seek), `false` when
    /// straight to a device or a pipe.
    pub fn is_regular(&self) -> bool {
        self.tmp.is_some()
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = match &mut self.file {
            Some(f) => f.write(buf)?,
            None => return Err(io::Error::other("committed")),
        };
        if let Some(wb) = &mut self.writeback {
            wb.wrote(n);
        }
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        match &mut self.file {
            Some(f) => f.flush(),
            None => Ok(()),
        }
    }
}

/// Seeking flushes what is buffered first (the frame writer patches its header at the end).
impl io::Seek for AtomicFile {
    fn seek(&mut self, pos: io::SeekFrom) -> io::Result<u64> {
        match &mut self.file {
            Some(f) => f.seek(pos),
            None => Err(io::Error::other("committed")),
        }
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        drop(self.file.take());
        drop(self.writeback.take());
        if let Some(tmp) = &self.tmp {
            let _ = std::fs::remove_file(tmp);
        }
    }
}

/// Where `pack` and `unpack` write: a file written whole or not at all ([`AtomicFile`]), or stdout
/// for `-` (a reader that closes the pipe early ends the command quietly).
pub enum Sink {
    /// A file.
    File(AtomicFile),
    /// Stdout.
    Stdout(io::BufWriter<io::StdoutLock<'static>>),
}

impl Sink {
    /// Starts writing `dest` (stdout for `-`), refusing a file that is one of `inputs`.
    pub fn create(dest: &Path, inputs: &[&Path]) -> Result<Self, Failure> {
        if crate::walk::is_std(dest) {
            return Ok(Sink::Stdout(io::BufWriter::with_capacity(1 << 20, io::stdout().lock())));
        }
        AtomicFile::create(dest, inputs).map(Sink::File)
    }

    /// The file renamed into place, or stdout flushed.
    pub fn commit(self) -> Result<(), Failure> {
        match self {
            Sink::File(f) => f.commit(),
            Sink::Stdout(mut out) => crate::ended(out.flush()),
        }
    }
}

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Sink::File(f) => f.write(buf),
            Sink::Stdout(out) => out.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Sink::File(f) => f.flush(),
            Sink::Stdout(out) => out.flush(),
        }
    }
}

/// Writes what `body` writes to `output` (whole or not at all, never over `path`, the input)
/// or to stdout (a reader closing the pipe is a normal end).
pub fn write_rows(
    path: &Path,
    output: Option<&Path>,
    body: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<ExitCode, Failure> {
    match output {
        Some(out) => {
            let mut w = crate::output::AtomicFile::create(out, &[path])?;
            body(&mut w).map_err(|e| Failure::at(path, e))?;
            w.commit().map(|()| ExitCode::SUCCESS)
        }
        None => {
            let mut w = BufWriter::new(io::stdout().lock());
            match body(&mut w).and_then(|()| w.flush()) {
                Ok(()) => Ok(ExitCode::SUCCESS),
                Err(e) => Err(Failure::of(path, e)),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("b2schema-output-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn a_file_is_replaced_only_on_commit() {
        let d = dir("commit");
        let dest = d.join("out.bin");
        std::fs::write(&dest, b"old").unwrap();
        let mut f = AtomicFile::create(&dest, &[]).unwrap();
        f.write_all(b"new data").unwrap();
        assert_eq!(std::fs::read(&dest).unwrap(), b"old");
        drop(f);
        assert_eq!(std::fs::read(&dest).unwrap(), b"old");
        assert_eq!(std::fs::read_dir(&d).unwrap().count(), 1, "the temporary file is removed");
        let mut f = AtomicFile::create(&dest, &[]).unwrap();
        f.write_all(b"new data").unwrap();
        f.commit().unwrap();
        assert_eq!(std::fs::read(&dest).unwrap(), b"new data");
        assert_eq!(std::fs::read_dir(&d).unwrap().count(), 1);
    }

    #[cfg(unix)]
    #[test]
    fn the_input_is_never_the_output_whatever_its_name() {
        let d = dir("same");
        let input = d.join("a.b2nd");
        std::fs::write(&input, b"frame").unwrap();
        std::os::unix::fs::symlink(&input, d.join("link.b2nd")).unwrap();
        std::fs::hard_link(&input, d.join("hard.b2nd")).unwrap();
        for dest in ["a.b2nd", "link.b2nd", "hard.b2nd", "./a.b2nd"] {
            let dest = d.join(dest);
            let e = AtomicFile::create(&dest, &[&input]).err().unwrap();
            assert!(e.to_string().contains("refusing to write over what is being read"), "{e}");
        }
        assert_eq!(std::fs::read(&input).unwrap(), b"frame");
    }
}
