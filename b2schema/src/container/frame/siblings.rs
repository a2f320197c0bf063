//! A sparse frame's chunk files (`%08X.chunk` beside its index), opened by name: from a local
//! directory ([`LocalDir`]) or a web server's (`remote.rs`), the last [`KEPT_CHUNK_FILES`]
//! opened kept by [`Kept`] for both, since a read of a chunk's blocks comes back to its file
//! for every block.

use std::path::PathBuf;
use std::sync::Arc;

use alloc::string::String;

use super::recent::Recent;
use super::regular::open_regular;
use crate::container::error::Result;
use crate::container::source::{LocalFile, Siblings, Source};

/// Chunk files kept open per sparse frame.
pub(crate) const KEPT_CHUNK_FILES: usize = 16;

/// A sparse frame's local directory: its chunk files opened as regular files only.
#[derive(Debug)]
pub(crate) struct LocalDir(pub(crate) PathBuf);

impl Siblings for LocalDir {
    fn open(&self, name: &str) -> Result<Source> {
        let path = self.0.join(name);
        // The error keeps its kind (I/O, a link out of the confined roots, not a regular file),
        // naming the chunk file.
        let (f, len) = open_regular(&path).map_err(|e| e.in_file(path.display()).in_field("chunk_file"))?;
        Ok(Arc::new(LocalFile::new(f, len)))
    }
}

/// `S`'s files, the last [`KEPT_CHUNK_FILES`] opened kept open (shared by the threads reading
/// the frame, which open a file once when they ask for it at the same time).
#[derive(Debug)]
pub(crate) struct Kept<S> {
    inner: S,
    files: Recent<String, Source>,
}

impl<S: Siblings> Kept<S> {
    pub(crate) fn new(inner: S) -> Self {
        Kept { inner, files: Recent::new(KEPT_CHUNK_FILES) }
    }
}

impl<S: Siblings> Siblings for Kept<S> {
    fn open(&self, name: &str) -> Result<Source> {
        self.files.get_or_make(name.into(), || self.inner.open(name))
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicU64, Ordering};

    use super::*;
    use crate::container::array::{ArrayReader, ReadOptions, Selection};
    use crate::container::frame::FrameFile;

    /// A local directory that counts the files it opens, slowly (so that reading threads asking
    /// for one file meet).
    #[derive(Debug)]
    struct Counting(LocalDir, Arc<AtomicU64>);

    impl Siblings for Counting {
        fn open(&self, name: &str) -> Result<Source> {
            self.1.fetch_add(1, Ordering::SeqCst);
            std::thread::sleep(std::time::Duration::from_millis(5));
            self.0.open(name)
        }
    }

    fn sparse_fixture() -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/data/fixtures/sparse-2d-i4.b2nd")
    }

    #[test]
    fn a_local_sparse_frame_opens_each_chunk_file_once_per_read() {
        let dir = sparse_fixture();
        let opens = Arc::new(AtomicU64::new(0));
        let counted = Kept::new(Counting(LocalDir(dir.clone()), Arc::clone(&opens)));
        let frame = FrameFile::open(&dir).unwrap().with_siblings(Arc::new(counted));
        let files = std::fs::read_dir(&dir)
            .unwrap()
            .filter(|e| e.as_ref().unwrap().file_name().to_string_lossy().ends_with(".chunk"));
        let files = files.count() as u64;
        let all = |f: &FrameFile| {
            let reader = ArrayReader::new(f).unwrap();
            let sel = Selection::parse(":, :", reader.shape()).unwrap();
            let (bytes, stats) = reader.read(&sel, &ReadOptions::default()).unwrap();
            (bytes, stats.blocks)
        };
        let (mine, blocks) = all(&frame);
        // The same values as the frame opened as every caller opens it.
        assert_eq!(mine, all(&FrameFile::open(&dir).unwrap()).0);
        assert!(blocks > files, "the fixture has more blocks ({blocks}) than chunk files ({files})");
        assert_eq!(opens.load(Ordering::SeqCst), files, "each chunk file opened once");
    }

    #[test]
    fn threads_asking_for_one_chunk_file_at_once_open_it_once() {
        let dir = sparse_fixture();
        let opens = Arc::new(AtomicU64::new(0));
        let kept = Kept::new(Counting(LocalDir(dir), Arc::clone(&opens)));
        // The reading threads of one frame meet on a chunk file when their rows share a chunk.
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| kept.open("00000000.chunk").unwrap());
            }
        });
        assert_eq!(opens.load(Ordering::SeqCst), 1);
        assert_eq!(
            kept.open("00000000.chunk").unwrap().len(),
            kept.inner.open("00000000.chunk").unwrap().len()
        );
    }
}
