//! A store changed in place ([`StoreMut`]): members added, replaced and removed, and the store's
//! own vlmeta set and deleted, in a `.b2d` directory, a `.b2z` ZIP or a `.b2e` EmbedStore, so
//! that python-blosc2 (`DictStore`, `TreeStore`, `EmbedStore`) opens the result with those
//! members and that vlmeta.
//!
//! # Where the bytes go
//!
//! - A `.b2z` is rewritten whole, as python-blosc2's `to_b2z` rewrites it: a temporary file
//!   beside it (the members kept copied from the old ZIP, their CRC-32 checked on the way; the
//!   new ones; `embed.b2e` last), synced, then renamed onto it and the directory synced. Until
//!   the rename nothing is visible; a write killed before it leaves the old store whole.
//! - A `.b2e` (and a `.b2d`'s or `.b2z`'s `embed.b2e`, when an embedded member changes) is
//!   rewritten whole the same way, without the bytes of members deleted or replaced.
//! - A `.b2d`'s member files are each written to a temporary file in their directory and renamed
//!   onto their name; a removed member's file is removed. Each file switches at once; a change
//!   that touches several files (a member replaced by one of another kind, `x.b2nd` by `x.b2f`;
//!   a TreeStore group removed) switches them one by one: new files first, removals last.
//!
//! A new member goes where python-blosc2 puts it by default (`threshold=0`): a file of the
//! `.b2d` or `.b2z` (`g/x.b2nd`, `.b2f`, `.b2b` by its kind), or the `.b2e`'s data; a replaced
//! one stays where the old one was (embedded, or a file).
//!
//! # Keys
//!
//! Keys are checked as the reader checks them (`/a/b`: no empty, `.` or `..` part, no control
//! character, `\` or `:`), so a `.b2d`'s files never land outside its directory; the directories
//! on the way to a member's file must be directories, not symbolic links. `__vlmeta__` keys are
//! the store's vlmeta ([`StoreMut::set_vlmeta`]). In a TreeStore (`embed.b2e` of metalayer
//! `b2tree`), as python-blosc2's `TreeStore` refuses them: a leaf where a group is (a key with
//! members below it), a member below a leaf, and anything at or inside a CTable's members (an
//! object root); removing a group removes everything below it, as `del tstore[group]` does.
//!
//! # Store vlmeta
//!
//! python-blosc2 keeps a store's vlmeta (`tstore.vlmeta`) as the vlmetalayers of an empty SChunk,
//! the member `/__vlmeta__`; [`StoreMut::set_vlmeta`] sets one in it (creating the member as
//! `blosc2.SChunk()` would, when there is none), [`StoreMut::delete_vlmeta`] deletes one.
//!
//! # Concurrency
//!
//! A [`StoreMut`] holds an advisory exclusive lock while it lives (as [`FrameMut`](crate::writer::FrameMut)
//! does): on the `.b2d` directory, or on the `.b2z` or `.b2e` file (each rewrite's new file is
//! locked before it is renamed into place, so the lock passes to it); a second writer is refused,
//! not made to wait. Readers take no lock.
//!
//! ```
//! use b2schema::store::{Flavour, Store, StoreMut, StoreWriter};
//! use b2schema::writer::Array;
//! # let dir = std::env::temp_dir().join(format!("b2schema-doc-store-edit-{}", std::process::id()));
//! # std::fs::create_dir_all(&dir)?;
//! # let path = dir.join("data.b2z");
//! # StoreWriter::new(Flavour::Tree).write_zip(&path)?;
//! let mut s = StoreMut::open(&path)?; // data.b2z (a .b2d or .b2e the same)
//! s.insert("/g/x", Array::from_slice(&[3], &[1i32, 2, 3])?.to_vec()?)?;
//! s.set_vlmeta("title", "run 7")?;
//! s.remove("/g/x")?;
//! drop(s);
//! let store = Store::open(&path)?;
//! assert!(store.members().is_empty());
//! assert_eq!(store.vlmeta_as::<String>("title")?.as_deref(), Some("run 7"));
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use alloc::collections::BTreeSet;
use alloc::string::String;
use alloc::vec::Vec;

use super::edit_embed::{self, EmbedChange, OBJECT_REGISTRY, at_or_below};
use super::edit_files::Plan;
use super::{Embedded, Form, Place, Store, VLMETA_KEY, key};
use crate::container::error::{Error, ErrorKind, Result, Segment};
use crate::container::frame::{FrameView, open_regular};
use crate::container::limits::{Limit, Limits};
use crate::container::source::LocalFile;
use crate::container::writer::replace::{lock, replace_file_locked};

/// A python-blosc2 store opened for changes (see the [`store`](crate::store) module and `docs/store-edits.md`).
#[derive(Debug)]
pub struct StoreMut {
    path: PathBuf,
    limits: Limits,
    store: Store,
    /// The lock held: the `.b2d` directory, or the `.b2z` or `.b2e` file as it is now.
    lock: File,
}

/// Whether `a` and `b` are the same file (device and inode); elsewhere than on Unix, `true`.
fn same_file(a: &std::fs::Metadata, b: &std::fs::Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        a.dev() == b.dev() && a.ino() == b.ino()
    }
    #[cfg(not(unix))]
    {
        let _ = (a, b);
        true
    }
}

impl StoreMut {
    /// Opens the store at `path` (a `.b2d` directory, a `.b2z` or a `.b2e`) for changes, locked
    /// while the handle lives; another writer holding the lock is an error, not a wait.
    pub fn open(path: impl AsRef<Path>) -> Result<Self> {
        Self::open_with_limits(path, Limits::default())
    }

    /// [`StoreMut::open`] within `limits` (the store read as [`Store::open_with_limits`] reads it;
    /// a member's bytes within [`Limits::max_decompressed`], a rewritten embed store's data within
    /// [`Limits::max_decompressed_total`]).
    pub fn open_with_limits(path: impl AsRef<Path>, limits: Limits) -> Result<Self> {
        let path = path.as_ref();
        let named = |e: Error| e.in_file(path.display());
        let meta = std::fs::metadata(path).map_err(|e| named(Error::from(e).in_field("path")))?;
        if meta.is_dir() {
            let dir = File::open(path).map_err(|e| named(Error::from(e).in_field("path")))?;
            lock(&dir, path).map_err(named)?;
            let store = Store::open_with_limits(path, limits)?;
            return Ok(StoreMut { path: path.to_path_buf(), limits, store, lock: dir });
        }
        let (f, _) = open_regular(path).map_err(named)?;
        lock(&f, path).map_err(named)?;
        // Another writer may have renamed its new store onto the path between the opening and
        // the lock: the file locked must be the one the path names.
        let now = std::fs::metadata(path).map_err(|e| named(Error::from(e).in_field("path")))?;
        if !same_file(&now, &f.metadata().map_err(|e| named(Error::from(e)))?) {
            return Err(named(Error::invalid(
                "a store no other writer has locked",
                path.display(),
                "replaced by another writer while it was being opened",
                0,
            ))
            .in_field("path"));
        }
        let store = Self::read(path, &f, limits)?;
        Ok(StoreMut { path: path.to_path_buf(), limits, store, lock: f })
    }

    /// The `.b2z` or `.b2e` store in the locked file `f` (the inode locked, whatever the path
    /// names meanwhile).
    fn read(path: &Path, f: &File, limits: Limits) -> Result<Store> {
        let named = |e: Error| e.in_file(path.display());
        let len = f.metadata().map_err(|e| named(Error::from(e)))?.len();
        let f = f.try_clone().map_err(|e| named(Error::from(e)))?;
        Store::open_source(Arc::new(LocalFile::new(f, len)), path.to_path_buf(), limits)
    }

    /// The store as it is now (after the changes made through this handle).
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// The path opened.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Adds the member `key` (`/g/x`), the contiguous frame `frame` (a `.b2nd`'s, `.b2f`'s or
    /// `.b2b`'s bytes; bytes after its `frame_len` are dropped). A key the store has is refused
    /// ([`ErrorKind::KeyExists`]); so is a bad key, or in a TreeStore a key that clashes with its
    /// groups or CTables (see the [`store`](crate::store) module and `docs/store-edits.md`).
    pub fn insert(&mut self, key: &str, frame: Vec<u8>) -> Result<()> {
        self.put(key, frame, false)
    }

    /// Adds the member `key`, or replaces it when the store has it (python-blosc2's
    /// `store[key] = value`); see [`StoreMut::insert`].
    pub fn set(&mut self, key: &str, frame: Vec<u8>) -> Result<()> {
        self.put(key, frame, true)
    }

    fn put(&mut self, key: &str, frame: Vec<u8>, replace: bool) -> Result<()> {
        self.check_key(key)?;
        let frame = checked_frame(frame).map_err(|e| e.in_segment(Segment::Key(key.into())))?;
        if !replace && self.store.member(key).is_some() {
            return Err(Error::new(ErrorKind::KeyExists { key: key.into() }).in_file(self.path.display()));
        }
        if self.is_tree() {
            self.check_tree_leaf(key)?;
        }
        self.apply(Plan { puts: alloc::vec![(key.into(), frame)], ..Plan::default() })
    }

    /// Removes the member `key`; in a TreeStore also every member below it (a group removed with
    /// all it holds, as `del tstore[key]`), and the CTables among them from the store's registry.
    /// A key with nothing there is [`ErrorKind::NoSuchKey`].
    pub fn remove(&mut self, key: &str) -> Result<()> {
        self.check_key(key)?;
        let tree = self.is_tree();
        let mut gone = Vec::new();
        if self.store.member(key).is_some() {
            gone.push(String::from(key));
        }
        if tree {
            if let Some(root) = self.object_roots()?.into_iter().find(|r| r != key && at_or_below(key, r)) {
                return Err(self.in_object(key, &root));
            }
            let below = alloc::format!("{key}/");
            gone.extend(self.store.keys().filter(|k| k.starts_with(&below)).map(String::from));
        }
        if gone.is_empty() {
            return Err(self.no_such_key(key));
        }
        let prune = (tree && self.registry()?.iter().any(|r| at_or_below(r, key))).then(|| key.into());
        self.apply(Plan { removes: gone, prune, ..Plan::default() })
    }

    /// Sets the store's vlmeta `name` (python-blosc2's `tstore.vlmeta[name] = value`) to `value`,
    /// stored as msgpack as python-blosc2 stores it.
    pub fn set_vlmeta<T: serde_core::Serialize + ?Sized>(&mut self, name: &str, value: &T) -> Result<()> {
        let bytes = crate::format::to_vec_with(value, crate::format::Config::minimal())?;
        self.set_vlmeta_msgpack(name, &bytes)
    }

    /// Sets the store's vlmeta `name` to `msgpack` (the value's bytes as they are).
    pub fn set_vlmeta_msgpack(&mut self, name: &str, msgpack: &[u8]) -> Result<()> {
        let old = self.vlmeta_member()?;
        let frame = edit_embed::vlmeta_frame(old, name, Some(msgpack)).map_err(|e| e.in_field("vlmeta"))?;
        self.apply(Plan { puts: alloc::vec![(VLMETA_KEY.into(), frame)], ..Plan::default() })
    }

    /// Deletes the store's vlmeta `name` (`del tstore.vlmeta[name]`); one it does not have is
    /// [`ErrorKind::NoSuchKey`] (the member that held it stays, as python-blosc2 keeps it).
    pub fn delete_vlmeta(&mut self, name: &str) -> Result<()> {
        let names: Vec<String> = self.store.vlmeta()?.into_iter().map(|(k, _)| k).collect();
        let Some(old) = self.vlmeta_member()?.filter(|_| names.iter().any(|n| n == name)) else {
            let kind = ErrorKind::NoSuchKey {
                key: name.into(),
                keys: names.iter().take(5).cloned().collect(),
                members: names.len(),
            };
            return Err(Error::new(kind).in_field("vlmeta").in_file(self.path.display()));
        };
        let frame = edit_embed::vlmeta_frame(Some(old), name, None).map_err(|e| e.in_field("vlmeta"))?;
        self.apply(Plan { puts: alloc::vec![(VLMETA_KEY.into(), frame)], ..Plan::default() })
    }

    fn no_such_key(&self, key: &str) -> Error {
        let keys = self.store.keys().take(5).map(String::from).collect();
        let kind = ErrorKind::NoSuchKey { key: key.into(), keys, members: self.store.members().len() };
        Error::new(kind).in_file(self.path.display())
    }

    /// Checks `key` as the reader does; `__vlmeta__` keys are the store's vlmeta's.
    fn check_key(&self, key: &str) -> Result<()> {
        key::check(key).map_err(|e| e.in_field("key").in_file(self.path.display()))?;
        if key.rsplit('/').next() == Some("__vlmeta__") {
            return Err(Error::invalid(
                "a member's key, not a store's vlmeta (set with set_vlmeta: `b2schema store vlmeta`)",
                "a key",
                key.escape_debug(),
                0,
            )
            .in_field("key")
            .in_file(self.path.display()));
        }
        Ok(())
    }

    /// Whether the store is a TreeStore (its embed store's metalayer `b2tree`).
    fn is_tree(&self) -> bool {
        self.store.embed.as_ref().and_then(|f| f.view().ok()).is_some_and(|v| v.metalayer("b2tree").is_some())
    }

    /// TreeStore rules for a leaf at `key`: no member below it (it is a group), none above it
    /// (a leaf cannot hold children), and not at or in a CTable.
    fn check_tree_leaf(&self, key: &str) -> Result<()> {
        let refuse = |why: &'static str, found: &str| {
            Error::invalid(why, key.escape_debug(), found.escape_debug(), 0)
                .in_field("key")
                .in_file(self.path.display())
        };
        let below = alloc::format!("{key}/");
        if let Some(k) = self.store.keys().find(|k| k.starts_with(&below)) {
            return Err(refuse(
                "a TreeStore key that is no group of other keys (a leaf where a group is)",
                k,
            ));
        }
        if let Some(g) =
            key.match_indices('/').skip(1).map(|(i, _)| &key[..i]).find(|g| self.store.member(g).is_some())
        {
            return Err(refuse("a TreeStore key below no leaf (a leaf holds no children)", g));
        }
        if let Some(root) = self.object_roots()?.into_iter().find(|r| at_or_below(key, r)) {
            return Err(self.in_object(key, &root));
        }
        Ok(())
    }

    fn in_object(&self, key: &str, root: &str) -> Error {
        Error::unsupported(alloc::format!(
            "changing {} inside the CTable at {} (change the table with python-blosc2, or remove it whole)",
            key.escape_debug(),
            root.escape_debug()
        ))
        .in_file(self.path.display())
    }

    /// The object roots the embed store's registry names.
    fn registry(&self) -> Result<Vec<String>> {
        match self.store.embed.as_ref().map(|f| f.vlmeta_data(OBJECT_REGISTRY)).transpose()?.flatten() {
            Some(bytes) => edit_embed::registered(&bytes),
            None => Ok(Vec::new()),
        }
    }

    /// The CTables of the store: its registry's, and (as python-blosc2 probes for them) every `K`
    /// with a member `K/_meta` whose vlmeta `kind` is `ctable`.
    fn object_roots(&self) -> Result<Vec<String>> {
        let mut roots = self.registry()?;
        for k in self.store.keys() {
            let Some(root) = k.strip_suffix("/_meta").filter(|r| !r.is_empty()) else { continue };
            let kind = self.store.get(k).ok().and_then(|c| c.get::<String>("kind").ok().flatten());
            if kind.as_deref() == Some("ctable") {
                roots.push(root.into());
            }
        }
        Ok(roots)
    }

    /// The bytes of the store's vlmeta member, if it has one.
    fn vlmeta_member(&self) -> Result<Option<Vec<u8>>> {
        if self.store.member(VLMETA_KEY).is_none() {
            return Ok(None);
        }
        self.member_bytes(VLMETA_KEY).map(Some)
    }

    /// The frame bytes of member `key`, within [`Limits::max_decompressed`].
    pub(super) fn member_bytes(&self, key: &str) -> Result<Vec<u8>> {
        let m = self.store.member(key).ok_or_else(|| self.no_such_key(key))?;
        let at = |e: Error| e.in_segment(Segment::Key(key.into())).in_file(self.path.display());
        let within = |len: u64| self.limits.require("a store member's bytes", len, Limit::Decompressed, 0);
        match &m.place {
            Place::File(p) => {
                use std::io::Read;
                let (f, len) = open_regular(p).map_err(at)?;
                within(len).map_err(at)?;
                let mut out = Vec::new();
                crate::container::limits::try_reserve(&mut out, len as usize, "a store member's bytes", 0)?;
                f.take(len).read_to_end(&mut out).map_err(|e| at(Error::from(e)))?;
                Ok(out)
            }
            Place::Zip { name, local_offset, len, limit } => {
                within(*len).map_err(at)?;
                let src = self
                    .store
                    .file
                    .as_ref()
                    .ok_or_else(|| at(Error::invalid("a ZIP file", "open", "none", 0)))?;
                let entry = super::zip::Entry::stored(name, *local_offset, *len, *limit);
                let data = super::zip::data_offset(&**src, &entry, &mut 0).map_err(at)?;
                let mut out =
                    crate::container::limits::try_zeros(*len as usize, "a store member's bytes", 0)?;
                src.read_at(data, &mut out).map_err(at)?;
                Ok(out)
            }
            Place::Embedded(Embedded::Frame { offset, length }) => {
                let f = self
                    .store
                    .embed
                    .as_ref()
                    .ok_or_else(|| at(Error::invalid("an embed store", "one", "none", 0)))?;
                super::embed::bytes(f, key, *offset, *length)
            }
            _ => Err(at(Error::unsupported("a member that is not a stored frame"))),
        }
    }

    /// Applies `plan` in the store's way, then reads the store again.
    fn apply(&mut self, plan: Plan) -> Result<()> {
        let named = |e: Error| if e.file().is_some() { e } else { e.in_file(self.path.display()) };
        match self.store.form() {
            Form::Embed => {
                let mut drop: BTreeSet<String> = plan.removes.iter().cloned().collect();
                drop.extend(plan.puts.iter().map(|(k, _)| k.clone()));
                let change = EmbedChange { drop: &drop, add: &plan.puts, prune: plan.prune.as_deref() };
                let bytes =
                    edit_embed::rewritten(self.store.embed.as_ref(), "b2embed", &change, &self.limits)
                        .map_err(named)?;
                self.lock = replace_file_locked(&self.path, |f| f.write_all(&bytes).map_err(Error::from))
                    .map_err(named)?;
            }
            Form::Directory => {
                super::edit_files::apply_dir(&self.store, &self.path, &plan, &self.limits).map_err(named)?
            }
            Form::Zip => {
                self.lock = super::edit_files::apply_zip(&self.store, &self.path, &plan, &self.limits)
                    .map_err(named)?;
            }
        }
        self.store = match self.store.form() {
            Form::Directory => Store::open_with_limits(&self.path, self.limits)?,
            _ => Self::read(&self.path, &self.lock, self.limits)?,
        };
        Ok(())
    }
}

/// `frame` checked to be one contiguous frame, cut to its `frame_len`.
fn checked_frame(mut frame: Vec<u8>) -> Result<Vec<u8>> {
    let view = FrameView::from_slice(&frame)?;
    if view.header.flags.frame_type != 0 {
        return Err(Error::invalid("a contiguous frame", "contiguous", "a sparse frame's index", 25)
            .in_field("frame_type"));
    }
    let len = view.header.frame_len;
    if let Ok(len) = usize::try_from(len)
        && len < frame.len()
    {
        frame.truncate(len);
    }
    Ok(frame)
}
