//! `/api/files`, the viewer's file list: every entry under the roots with its size and what it
//! is (a frame's kind, shape and dtype, a store's member count), or why it is not a frame; and
//! what a frame is in a few fields ([`FrameSummary`], also on its file page).

use std::path::Path;

use b2schema::b2nd;
use b2schema::frame::FrameFile;
use serde::Serialize;

use super::paths::{Entry as Found, Roots};
use super::stores;

/// `/api/files`'s answer: the roots as given and the entries under them.
#[derive(Serialize)]
pub struct FileList {
    /// Each root, as given on the command line.
    roots: Vec<String>,
    /// Each entry.
    files: Vec<Listed>,
}

/// An entry of the list: made here, or a remote root's, made off the request path and kept as
/// its JSON by [`super::remote::Listings`] (which knows no entry's fields).
#[derive(Serialize)]
#[serde(untagged)]
enum Listed {
    Here(Entry),
    Remote(serde_json::Value),
}

/// One entry of the list: where it is, its size, and what it is.
#[derive(Serialize)]
pub struct Entry {
    /// The root's number.
    root: usize,
    /// Its path under the root (empty for a root that is one file).
    path: String,
    /// What the list shows it as.
    name: String,
    /// Its bytes (a sparse frame's: the files of its directory).
    size: u64,
    /// What it is.
    #[serde(flatten)]
    what: What,
}

/// What an entry is.
#[derive(Serialize)]
#[serde(untagged)]
enum What {
    /// A frame.
    Frame(FrameSummary),
    /// A store.
    Store(stores::Summary),
    /// Not a frame, or not read yet: why.
    Failed { error: String },
}

/// A frame in a few fields: sparse or contiguous, its chunk count and its kind.
#[derive(Serialize)]
pub struct FrameSummary {
    /// `sparse` or `contiguous`.
    frame: &'static str,
    /// Its chunks.
    nchunks: u64,
    /// Its kind (and what that kind adds).
    #[serde(flatten)]
    kind: Kind,
}

/// What kind of frame: an NDArray (with its shape and dtype), a BatchArray, an ObjectArray, or
/// an SChunk (with its typesize).
#[derive(Serialize)]
#[serde(tag = "kind")]
enum Kind {
    NDArray { shape: Vec<i64>, dtype: Option<String> },
    BatchArray,
    ObjectArray,
    SChunk { typesize: i32 },
}

impl FrameSummary {
    /// What `file` is.
    pub fn of(file: &FrameFile) -> b2schema::Result<FrameSummary> {
        let v = file.view()?;
        let frame = if v.is_sparse() { "sparse" } else { "contiguous" };
        let nd = v.metalayer("b2nd").or_else(|| v.metalayer("caterva"));
        let kind = match nd.and_then(|raw| b2nd::read_any(raw).ok()) {
            Some(nd) => Kind::NDArray { shape: nd.shape, dtype: nd.dtype },
            None if v.metalayer("batcharray").is_some() => Kind::BatchArray,
            None if v.metalayer("vlarray").is_some() => Kind::ObjectArray,
            None => Kind::SChunk { typesize: v.header.typesize },
        };
        Ok(FrameSummary { frame, nchunks: v.nchunks()?, kind })
    }
}

/// The list: every entry with its size, kind, shape and dtype (or the reason it is not a frame).
/// A remote root's entry is made off the request path ([`super::remote::Listings`]): one that
/// does not answer is listed as pending, never blocking the list.
pub fn list(roots: &Roots) -> FileList {
    let entries = with_store_dirs(roots.list());
    let remote: Vec<(super::remote::Key, super::remote::Make)> = entries
        .iter()
        .filter(|e| crate::open::is_url(&e.path))
        .map(|e| {
            let e = e.clone();
            let key = (e.root, e.rel.clone());
            (key, Box::new(move || crate::report::to_value(&Entry::of(&e))) as super::remote::Make)
        })
        .collect();
    let mut remote_entries = roots
        .1
        .entries(remote, |(root, rel)| {
            let name = match rel.is_empty() {
                true => roots.all().get(*root).map(|p| p.display().to_string()).unwrap_or_default(),
                false => rel.clone(),
            };
            let error = "pending: the server has not answered yet (asked in the background)".into();
            let pending =
                Entry { root: *root, path: rel.clone(), name, size: 0, what: What::Failed { error } };
            crate::report::to_value(&pending)
        })
        .into_iter();
    let files = entries
        .iter()
        .map(|e| match crate::open::is_url(&e.path) {
            true => Listed::Remote(remote_entries.next().unwrap_or_default()),
            false => Listed::Here(Entry::of(e)),
        })
        .collect();
    let roots = roots.all().iter().map(|r| r.display().to_string()).collect();
    FileList { roots, files }
}

impl Entry {
    /// The entry of `e`.
    fn of(e: &Found) -> Entry {
        let name = if e.rel.is_empty() {
            e.path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
        } else {
            e.rel.clone()
        };
        let (root, path) = (e.root, e.rel.clone());
        if stores::is_store(&e.path) {
            let size = match crate::open::is_url(&e.path) {
                true => stores::file_len(&e.path),
                false => size_of(&e.path),
            };
            return Entry { root, path, name, size, what: What::Store(stores::summary(&e.path)) };
        }
        let opened = open_frame(&e.path, b2schema::Limits::default());
        let size = match &opened {
            Ok(f) if crate::open::is_url(&e.path) => f.frame_len(),
            _ => size_of(&e.path),
        };
        let what = match opened.and_then(|f| FrameSummary::of(&f)) {
            Ok(s) => What::Frame(s),
            Err(err) => What::Failed { error: err.to_string() },
        };
        Entry { root, path, name, size, what }
    }
}

/// The entries, with every `.b2d` store directory that holds some of them listed too (before
/// its first member), so that the list shows the store as well as its files.
fn with_store_dirs(entries: Vec<Found>) -> Vec<Found> {
    let mut out: Vec<Found> = Vec::new();
    for e in entries {
        let parts: Vec<&str> = e.rel.split('/').collect();
        for n in 1..parts.len() {
            let rel = parts[..n].join("/");
            if !rel.ends_with(".b2d") || out.iter().any(|o| o.root == e.root && o.rel == rel) {
                continue;
            }
            let Some(path) = e.path.ancestors().nth(parts.len() - n) else { continue };
            if stores::is_store(path) {
                out.push(Found { root: e.root, rel, path: path.to_path_buf() });
            }
        }
        out.push(e);
    }
    out
}

/// The frame at `path`: a file, a sparse frame's directory, or a URL (a root given as one).
pub fn open_frame(path: &Path, limits: b2schema::Limits) -> b2schema::Result<FrameFile> {
    match crate::open::is_url(path) {
        true => crate::open::open_url(path, 0, limits),
        false => FrameFile::open_with_limits(path, limits),
    }
}

/// Bytes of a file, or of the files directly inside a sparse frame's directory.
fn size_of(p: &Path) -> u64 {
    if p.is_dir() {
        std::fs::read_dir(p)
            .map(|rd| {
                rd.flatten().filter_map(|e| e.metadata().ok()).filter(|m| m.is_file()).map(|m| m.len()).sum()
            })
            .unwrap_or(0)
    } else {
        p.metadata().map(|m| m.len()).unwrap_or(0)
    }
}
