//! A store edit ([`StoreMut`](super::StoreMut)) written to a `.b2d` directory (member files
//! switched one by one, each by a rename) or a `.b2z` (the ZIP rewritten whole, then renamed).

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

use alloc::collections::BTreeSet;
use alloc::string::String;
use alloc::vec::Vec;

use super::edit_embed::{EmbedChange, rewritten};
use super::key::EMBED_NAME;
use super::zip_write::ZipOut;
use super::{Place, Store, zip};
use crate::container::error::{Error, Result, Segment};
use crate::container::frame::FrameView;
use crate::container::limits::Limits;
use crate::container::source::Source;
use crate::container::writer::replace::{replace_file, replace_file_locked, sync_parent};

/// The changes of one operation.
#[derive(Default)]
pub(super) struct Plan {
    /// Members written (key, frame bytes).
    pub puts: Vec<(String, Vec<u8>)>,
    /// Members removed.
    pub removes: Vec<String>,
    /// Object roots at or below this key leave the registry.
    pub prune: Option<String>,
}

/// Where the changes of a [`Plan`] go in a `.b2d` or `.b2z`.
struct Split<'a> {
    /// Embedded members dropped (removed or replaced).
    embed_drop: BTreeSet<String>,
    /// Embedded members (re)written.
    embed_add: Vec<(String, Vec<u8>)>,
    /// Member files written: name in the store (`g/x.b2nd`), frame.
    files: Vec<(String, &'a [u8])>,
    /// The places of member files that go (removed, or replaced under another name).
    gone: Vec<&'a Place>,
    /// Whether the embed store is rewritten.
    embed_changed: bool,
}

fn split<'a>(store: &'a Store, plan: &'a Plan) -> Result<Split<'a>> {
    let mut s = Split {
        embed_drop: BTreeSet::new(),
        embed_add: Vec::new(),
        files: Vec::new(),
        gone: Vec::new(),
        embed_changed: plan.prune.is_some(),
    };
    for (key, frame) in &plan.puts {
        let old = store.member(key).map(|m| &m.place);
        if let Some(Place::Embedded(_)) = old {
            s.embed_drop.insert(key.clone());
            s.embed_add.push((key.clone(), frame.clone()));
            continue;
        }
        let view = FrameView::from_slice(frame)?;
        let name = alloc::format!("{}{}", &key[1..], super::write::suffix_of(&view));
        match old {
            Some(p @ Place::File(path)) if !path.ends_with(&name) => s.gone.push(p),
            Some(p @ Place::Zip { name: old, .. }) if *old != name => s.gone.push(p),
            _ => {}
        }
        s.files.push((name, frame));
    }
    for key in &plan.removes {
        match store.member(key).map(|m| &m.place) {
            Some(Place::Embedded(_)) => {
                s.embed_drop.insert(key.clone());
            }
            Some(p) => s.gone.push(p),
            None => {}
        }
    }
    s.embed_changed |= !s.embed_drop.is_empty() || !s.embed_add.is_empty();
    Ok(s)
}

/// The embed store's metalayer for a new one: the store's, else `b2dict`.
fn new_embed_bytes(store: &Store, s: &Split<'_>, plan: &Plan, limits: &Limits) -> Result<Vec<u8>> {
    let change = EmbedChange { drop: &s.embed_drop, add: &s.embed_add, prune: plan.prune.as_deref() };
    rewritten(store.embed.as_ref(), "b2dict", &change, limits)
        .map_err(|e| e.in_segment(Segment::Key(EMBED_NAME.into())))
}

/// The path of the member file `name` (`g/x.b2nd`) of the directory store `root`: each
/// directory on the way must be a directory (not a symbolic link, not a file) and is made when
/// missing, so that the file lies inside `root` (the key was checked: no `.`, `..` or empty
/// part).
fn member_path(root: &Path, name: &str) -> Result<PathBuf> {
    let io = |e: std::io::Error, p: &Path| Error::from(e).in_field("path").in_file(p.display());
    let mut parts: Vec<&str> = name.split('/').collect();
    let file = parts.pop().unwrap_or_default();
    let mut at = root.to_path_buf();
    for part in parts {
        at.push(part);
        match std::fs::symlink_metadata(&at) {
            Ok(m) if m.is_dir() => {}
            Ok(m) => {
                let what = if m.file_type().is_symlink() { "a symbolic link" } else { "a file" };
                return Err(Error::invalid(
                    "a directory of the store on the way to a member",
                    "a directory",
                    what,
                    0,
                )
                .in_field("path")
                .in_file(at.display()));
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                std::fs::create_dir(&at).map_err(|e| io(e, &at))?;
                sync_parent(&at).map_err(|e| io(e, &at))?;
            }
            Err(e) => return Err(io(e, &at)),
        }
    }
    at.push(file);
    if std::fs::symlink_metadata(&at).is_ok_and(|m| m.is_dir()) {
        return Err(Error::invalid("a member file's name", "a file or nothing", "a directory", 0)
            .in_field("path")
            .in_file(at.display()));
    }
    Ok(at)
}

/// Applies `plan` to the directory store `root`: new member files first (each written beside
/// its name and renamed onto it), then `embed.b2e` rewritten, then the files that go removed.
pub(super) fn apply_dir(store: &Store, root: &Path, plan: &Plan, limits: &Limits) -> Result<()> {
    let s = split(store, plan)?;
    for (name, bytes) in &s.files {
        let path = member_path(root, name)?;
        replace_file(&path, |f| f.write_all(bytes).map_err(Error::from))
            .map_err(|e| e.in_file(path.display()))?;
    }
    if s.embed_changed {
        let bytes = new_embed_bytes(store, &s, plan, limits)?;
        let path = root.join(EMBED_NAME);
        replace_file(&path, |f| f.write_all(&bytes).map_err(Error::from))
            .map_err(|e| e.in_file(path.display()))?;
    }
    for place in &s.gone {
        if let Place::File(p) = place {
            let io = |e: std::io::Error| Error::from(e).in_field("path").in_file(p.display());
            match std::fs::remove_file(p) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(io(e)),
                _ => sync_parent(p).map_err(io)?,
            }
        }
    }
    Ok(())
}

/// A member's bytes, read from the old ZIP where they lie.
struct At<'a> {
    src: &'a Source,
    at: u64,
}

impl std::io::Read for At<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.src.read_at(self.at, buf).map_err(std::io::Error::other)?;
        self.at += buf.len() as u64;
        Ok(buf.len())
    }
}

/// What goes into the new ZIP under a name.
enum Item<'a> {
    /// An entry of the old ZIP, copied.
    Old(&'a zip::Entry),
    /// New bytes.
    New(&'a [u8]),
}

/// Applies `plan` to the `.b2z` at `path` (the store `store` read from it): a new ZIP of the
/// entries kept (copied where they lie in the old one, their CRC-32 checked), the new member
/// files, largest first, and `embed.b2e` last, as python-blosc2's `to_b2z` orders them; written
/// beside `path`, synced, then renamed onto it. Returns the new file, locked.
pub(super) fn apply_zip(store: &Store, path: &Path, plan: &Plan, limits: &Limits) -> Result<File> {
    let src = store.file.as_ref().ok_or_else(|| Error::invalid("a ZIP store's file", "open", "none", 0))?;
    let cd = zip::read_from(&**src, limits)?;
    if let Some(e) = cd.entries.iter().find(|e| e.method != zip::STORED || e.flags & 1 != 0) {
        return Err(Error::unsupported(alloc::format!(
            "changing a .b2z with a compressed or encrypted entry ({}: method {}); python-blosc2 writes \
             them stored: unzip it, change the directory, zip it stored",
            e.name,
            e.method
        )));
    }
    let s = split(store, plan)?;
    let mut replaced: BTreeSet<&str> = s.files.iter().map(|(n, _)| n.as_str()).collect();
    for p in &s.gone {
        if let Place::Zip { name, .. } = p {
            replaced.insert(name);
        }
    }
    let mut items: Vec<(&str, u64, Item<'_>)> = Vec::new();
    let mut embed = None;
    for e in &cd.entries {
        if e.name == EMBED_NAME {
            embed = Some(e);
        } else if !replaced.contains(e.name.as_str()) {
            items.push((&e.name, e.compressed_size, Item::Old(e)));
        }
    }
    for (name, bytes) in &s.files {
        items.push((name, bytes.len() as u64, Item::New(bytes)));
    }
    items.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(b.0)));
    let new_embed = if s.embed_changed { Some(new_embed_bytes(store, &s, plan, limits)?) } else { None };
    match (&new_embed, embed) {
        (Some(b), _) => items.push((EMBED_NAME, b.len() as u64, Item::New(b))),
        (None, Some(e)) => items.push((EMBED_NAME, e.compressed_size, Item::Old(e))),
        (None, None) => {}
    }
    replace_file_locked(path, |f| {
        let mut z = ZipOut::new(std::io::BufWriter::new(f));
        for (name, len, item) in &items {
            match item {
                Item::New(bytes) => {
                    z.add(name, *len, &mut &bytes[..])?;
                }
                Item::Old(e) => {
                    let at = |err: Error| {
                        err.in_segment(Segment::Key(e.name.clone())).in_field("central_directory")
                    };
                    let data = zip::data_offset(&**src, e, &mut 0).map_err(at)?;
                    let crc = z.add(name, *len, &mut At { src, at: data })?;
                    if crc != e.crc {
                        return Err(at(Error::invalid(
                            "a member whose bytes have its CRC-32",
                            alloc::format!("{:#010x}", e.crc),
                            alloc::format!("{crc:#010x}"),
                            e.central_offset as usize + 16,
                        )));
                    }
                }
            }
        }
        let mut out = z.finish()?;
        out.flush().map_err(Error::from)?;
        Ok(())
    })
}
