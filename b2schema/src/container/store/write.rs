//! Writing a python-blosc2 store: a `.b2d` directory or a `.b2z` ZIP of frames that
//! `blosc2.DictStore(path, mode="r")` (or `TreeStore`) opens with the same members.
//!
//! Every member is a file of its own, as python-blosc2 lays out a store with its default
//! `threshold=0`: `g/x.b2nd` for an NDArray, `.b2b` for a BatchArray or ListArray, `.b2f` for
//! another SChunk; beside them `embed.b2e`, an EmbedStore with no member (metalayer `b2dict`
//! or `b2tree`, vlmetalayer `estore_metadata` = `{"embed_map": {}, "current_offset": 0}`). A
//! `.b2z` holds the same files as stored ZIP members, largest first and `embed.b2e` last, as
//! `DictStore.to_b2z` writes them. Both are written whole or not at all: into a temporary name
//! beside the destination, synced, then renamed onto it (a `.b2d` must not exist yet, or is
//! swapped with the old one in one step: [`StoreWriter::replace_dir`]), and the
//! directory that holds it synced so that the rename survives a crash.
//!
//! ```
//! use b2schema::store::{Flavour, Store, StoreWriter};
//! use b2schema::writer::{Fill, NdArray};
//! # let dir = std::env::temp_dir().join(format!("b2schema-doc-store-write-{}", std::process::id()));
//! # std::fs::create_dir_all(&dir)?;
//!
//! let mut w = StoreWriter::new(Flavour::Tree);
//! let items: Vec<u8> = (0u16..5).flat_map(|i| i.to_le_bytes()).collect();
//! w.insert("/g/x", NdArray::new(&[5], &[5], &[5], "<u2", 2, Fill::Data(&items)).to_frame()?.to_vec()?)?;
//! w.write_zip(dir.join("data.b2z"))?;             // or w.write_dir(dir.join("data.b2d"))
//! let store = Store::open(dir.join("data.b2z"))?;
//! assert_eq!(store.members()[0].key, "/g/x");
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::io::Write;
use std::path::Path;

use alloc::string::String;
use alloc::vec::Vec;

use super::embed::METADATA;
use super::key::{self, EMBED_NAME};
use crate::container::error::{Error, Result, Segment};
use crate::container::frame::FrameView;
use crate::container::writer::Frame;
use crate::container::writer::replace::{replace_file, sync_parent, temporary};
use crate::format::value::Value;

/// Which python-blosc2 class the store is for (the embed store's metalayer).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flavour {
    /// `blosc2.DictStore` (metalayer `b2dict`).
    Dict,
    /// `blosc2.TreeStore` (metalayer `b2tree`): no key may also be a group of another.
    Tree,
}

impl Flavour {
    /// The embed store's metalayer name.
    pub const fn metalayer(self) -> &'static str {
        match self {
            Flavour::Dict => "b2dict",
            Flavour::Tree => "b2tree",
        }
    }
}

/// A store to write: its members' frames by key.
#[derive(Clone, Debug)]
pub struct StoreWriter {
    flavour: Flavour,
    /// Members whose data (a frame's `nbytes`) is below it go into `embed.b2e`.
    threshold: u64,
    /// (key, file name in the store, frame bytes, embedded), in insertion order.
    members: Vec<(String, String, Vec<u8>, bool)>,
    /// The keys of `members`, sorted: a new key is checked against them in logarithmic time.
    keys: alloc::collections::BTreeSet<String>,
}

impl StoreWriter {
    /// An empty store.
    pub fn new(flavour: Flavour) -> Self {
        StoreWriter { flavour, threshold: 0, members: Vec::new(), keys: Default::default() }
    }

    /// Members inserted from now on whose data is smaller than `threshold` bytes (their
    /// frame's `nbytes`) are embedded in `embed.b2e`, the others written as files: python-blosc2's
    /// `DictStore(..., threshold=n)` rule (its default, 0, embeds nothing).
    pub fn with_threshold(mut self, threshold: u64) -> Self {
        self.threshold = threshold;
        self
    }

    /// Adds the contiguous frame `frame` (its bytes, e.g. from
    /// [`Frame::to_vec`](crate::writer::Frame::to_vec)) as the member `key` (`/g/x`). The key is
    /// checked as the reader checks keys; the frame is parsed to choose the file's suffix. A key
    /// given twice, or (TreeStore) a key that is also a group of another, is refused.
    pub fn insert(&mut self, key: &str, frame: Vec<u8>) -> Result<()> {
        key::check(key).map_err(|e| e.in_field("key"))?;
        let at = |e: Error| e.in_segment(Segment::Key(key.into()));
        let view = FrameView::from_slice(&frame).map_err(at)?;
        let suffix = suffix_of(&view);
        let embedded = (view.header.nbytes.max(0) as u64) < self.threshold;
        // The key itself; in a TreeStore also each of its groups (`/a`, `/a/b` for `/a/b/c`)
        // and the first key below it (`/a/b/c/...`), all looked up in the sorted keys.
        let below = alloc::format!("{key}/");
        let clash = if self.keys.contains(key) {
            Some(key)
        } else if self.flavour == Flavour::Tree {
            let mut groups = key.match_indices('/').skip(1).map(|(i, _)| &key[..i]);
            let first_below = self
                .keys
                .range::<str, _>((core::ops::Bound::Included(below.as_str()), core::ops::Bound::Unbounded))
                .next()
                .filter(|k| k.starts_with(&below));
            groups.find(|g| self.keys.contains(*g)).or(first_below.map(String::as_str))
        } else {
            None
        };
        if let Some(k) = clash {
            return Err(at(Error::invalid(
                "a key not yet in the store (and, in a TreeStore, not a group of another)",
                "new",
                k,
                0,
            )));
        }
        let name = alloc::format!("{}{suffix}", &key[1..]);
        self.keys.insert(key.into());
        self.members.push((key.into(), name, frame, embedded));
        Ok(())
    }

    /// The bytes of `embed.b2e`: an EmbedStore holding the embedded members' frames one after
    /// another (in insertion order, chunks of 8 KiB as python-blosc2's EmbedStore cuts them),
    /// mapped by its vlmetalayer `estore_metadata`.
    pub fn embed_store(&self) -> Result<Vec<u8>> {
        let mut data = Vec::new();
        let mut entries = Vec::new();
        for (key, _, frame, _) in self.members.iter().filter(|m| m.3) {
            let place = Value::Map(alloc::vec![
                (Value::from("offset"), Value::Int(data.len() as i128)),
                (Value::from("length"), Value::Int(frame.len() as i128)),
            ]);
            entries.push((Value::from(key.as_str()), place));
            data.extend_from_slice(frame);
        }
        const CHUNKSIZE: usize = 1 << 13; // EmbedStore's default chunksize
        let mut f = if data.is_empty() {
            Frame::new(1)
        } else {
            crate::container::writer::schunk(
                &data,
                1,
                CHUNKSIZE,
                crate::container::writer::CParams::default(),
            )?
        };
        f.chunksize = CHUNKSIZE as i32;
        let meta = Value::Map(alloc::vec![(Value::from("version"), Value::Int(1))]);
        let map = Value::Map(alloc::vec![
            (Value::from("embed_map"), Value::Map(entries)),
            (Value::from("current_offset"), Value::Int(data.len() as i128)),
        ]);
        f.metalayers = alloc::vec![(self.flavour.metalayer().into(), meta.to_msgpack()?)];
        f.vlmetalayers = alloc::vec![(METADATA.into(), map.to_msgpack()?)];
        f.to_vec()
    }

    /// The files of the store (name, bytes): the members largest first, then `embed.b2e`.
    fn files(&self, embed: &[u8]) -> Vec<(String, Vec<u8>)> {
        let mut files: Vec<(String, Vec<u8>)> = self
            .members
            .iter()
            .filter(|m| !m.3)
            .map(|(_, name, bytes, _)| (name.clone(), bytes.clone()))
            .collect();
        files.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then_with(|| a.0.cmp(&b.0)));
        files.push((EMBED_NAME.into(), embed.to_vec()));
        files
    }

    /// The `.b2z` bytes.
    pub fn to_zip(&self) -> Result<Vec<u8>> {
        let embed = self.embed_store()?;
        let files = self.files(&embed);
        let members: Vec<(&str, &[u8])> = files.iter().map(|(n, b)| (n.as_str(), b.as_slice())).collect();
        super::zip_write::zip(&members)
    }

    /// Writes the `.b2z` at `path`, whole or not at all (a temporary file beside it, synced,
    /// then renamed onto it; an existing file is replaced).
    pub fn write_zip(&self, path: impl AsRef<Path>) -> Result<()> {
        write_atomically(path.as_ref(), &self.to_zip()?)
    }

    /// Writes the `.b2d` directory at `path`, which must not exist, whole or not at all (a
    /// temporary directory beside it, every file synced, then renamed onto `path`).
    pub fn write_dir(&self, path: impl AsRef<Path>) -> Result<()> {
        let path = path.as_ref();
        if std::fs::symlink_metadata(path).is_ok() {
            return Err(Error::invalid(
                "a new directory store: a path that does not exist",
                "none",
                path.display(),
                0,
            )
            .in_field("path"));
        }
        let tmp = self.write_beside(path)?;
        let moved = std::fs::rename(&tmp, path).and_then(|()| sync_parent(path));
        moved.map_err(|e| {
            let _ = std::fs::remove_dir_all(&tmp);
            Error::from(e).in_field("path")
        })
    }

    /// Writes the `.b2d` directory at `path` in place of the directory there, whole or not at
    /// all: the new one is written beside it (every file synced), then the two are swapped in
    /// one step (`renameat2(RENAME_EXCHANGE)` on Linux, `renamex_np(RENAME_SWAP)` on Apple
    /// systems), and the old one is removed. Killed at any point, `path` is the old directory
    /// or the new one, whole (a temporary directory `.NAME.PID.tmp` may be left beside it).
    /// Elsewhere the old directory is moved aside first, then the new one in (killed between
    /// the two renames, `path` is missing and the old table lies at `.NAME.PID.tmp.old`).
    pub fn replace_dir(&self, path: impl AsRef<Path>) -> Result<()> {
        let path = path.as_ref();
        if !std::fs::symlink_metadata(path).is_ok_and(|m| m.is_dir()) {
            return Err(Error::invalid("a directory store to replace", "a directory", path.display(), 0)
                .in_field("path"));
        }
        let tmp = self.write_beside(path)?;
        let swapped = swap(&tmp, path).and_then(|()| sync_parent(path));
        if let Err(e) = swapped {
            let _ = std::fs::remove_dir_all(&tmp);
            return Err(Error::from(e).in_field("path"));
        }
        // `tmp` now holds the old table.
        std::fs::remove_dir_all(&tmp).map_err(|e| Error::from(e).in_field("path"))
    }

    /// Writes the store's files into a new temporary directory beside `path`, each synced;
    /// returns its path.
    fn write_beside(&self, path: &Path) -> Result<std::path::PathBuf> {
        let embed = self.embed_store()?;
        let tmp = temporary(path)?;
        let written = (|| -> std::io::Result<()> {
            std::fs::create_dir(&tmp)?;
            for (name, bytes) in self.files(&embed) {
                let p = tmp.join(&name);
                if let Some(parent) = p.parent() {
                    std::fs::create_dir_all(parent)?;
                }
                let mut f = std::fs::OpenOptions::new().write(true).create_new(true).open(&p)?;
                f.write_all(&bytes)?;
                f.sync_all()?;
            }
            // The directories' entries too.
            for d in walk_dirs(&tmp)? {
                std::fs::File::open(&d)?.sync_all()?;
            }
            Ok(())
        })();
        written.map_err(|e| {
            let _ = std::fs::remove_dir_all(&tmp);
            Error::from(e).in_field("path")
        })?;
        Ok(tmp)
    }
}

/// `dir` and the directories below it.
fn walk_dirs(dir: &Path) -> std::io::Result<Vec<std::path::PathBuf>> {
    let mut out = alloc::vec![dir.to_path_buf()];
    let mut i = 0;
    while let Some(d) = out.get(i).cloned() {
        for e in std::fs::read_dir(&d)? {
            let e = e?;
            if e.file_type()?.is_dir() {
                out.push(e.path());
            }
        }
        i += 1;
    }
    Ok(out)
}

/// Swaps the directories `a` and `b` in one step.
#[cfg(any(target_os = "linux", target_os = "android", target_vendor = "apple"))]
fn swap(a: &Path, b: &Path) -> std::io::Result<()> {
    use rustix::fs::{CWD, RenameFlags, renameat_with};
    renameat_with(CWD, a, CWD, b, RenameFlags::EXCHANGE).map_err(std::io::Error::from)
}

/// Moves `b` aside and `a` onto it, then the old `b` to `a` (two steps: see
/// [`StoreWriter::replace_dir`]).
#[cfg(not(any(target_os = "linux", target_os = "android", target_vendor = "apple")))]
fn swap(a: &Path, b: &Path) -> std::io::Result<()> {
    let mut aside = a.as_os_str().to_owned();
    aside.push(".old");
    let aside = std::path::PathBuf::from(aside);
    std::fs::rename(b, &aside)?;
    if let Err(e) = std::fs::rename(a, b) {
        let _ = std::fs::rename(&aside, b);
        return Err(e);
    }
    std::fs::rename(&aside, a)
}

/// The suffix of a member file of the frame `view`, by its kind as python-blosc2 names them:
/// `.b2nd` an NDArray, `.b2b` a BatchArray or ListArray, `.b2f` another SChunk.
pub(super) fn suffix_of(view: &FrameView<'_>) -> &'static str {
    if view.metalayer("b2nd").is_some() || view.metalayer("caterva").is_some() {
        ".b2nd"
    } else if view.metalayer("batcharray").is_some() || view.metalayer("listarray").is_some() {
        ".b2b"
    } else {
        ".b2f"
    }
}

/// Writes `bytes` to the file `path`, whole or not at all (the writer's
/// [`replace_file`](crate::container::writer::replace::replace_file)).
pub(super) fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    replace_file(path, |f| f.write_all(bytes).map_err(|e| Error::from(e).in_field("path")))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A key given twice is refused in both flavours; in a TreeStore also a key below another
    /// (`/a` then `/a/b`) or above one (`/a/b` then `/a`), but not a key that only shares a
    /// prefix of characters (`/a` and `/ab`, `/a/b` and `/a/bc`).
    #[test]
    fn keys_that_clash_are_refused() {
        let frame = || crate::container::writer::Frame::new(1).to_vec().unwrap();
        for flavour in [Flavour::Dict, Flavour::Tree] {
            let mut w = StoreWriter::new(flavour);
            for key in ["/a/b", "/ab", "/a/bc", "/a/b0"] {
                w.insert(key, frame()).unwrap();
            }
            assert!(w.insert("/a/b", frame()).is_err());
            let tree = flavour == Flavour::Tree;
            for (key, clashes) in [("/a", tree), ("/a/b/c", tree), ("/a/b/c/d", tree), ("/b", false)] {
                let e = w.clone().insert(key, frame());
                assert_eq!(e.is_err(), clashes, "{flavour:?} {key}: {e:?}");
            }
        }
    }
}
