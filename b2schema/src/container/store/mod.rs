//! python-blosc2's stores: a `DictStore` or `TreeStore` as a ZIP (`.b2z`) or a directory
//! (`.b2d`), and an `EmbedStore` (`.b2e`).
//!
//! A `.b2z` is a ZIP whose *stored* members are frames (`g/x.b2nd` is the key `/g/x`) beside
//! an `embed.b2e`, the embed store of the small members; a `.b2d` is the same as a directory.
//! An EmbedStore is one frame whose data holds the members' frames one after another, mapped
//! by its vlmetalayer `estore_metadata`. Opening a store reads the ZIP's central directory (or
//! lists the directory) and the embed store's map; opening a member reads only that member's
//! frame (its metadata, then the chunks read from it). With feature `http`,
//! `Store::open_url` opens a `.b2z` or `.b2e` on a web server the same way, by ranged GETs.
//!
//! ```
//! use b2schema::store::Store;
//! # use b2schema::writer::{Fill, NdArray};
//! # let dir = std::env::temp_dir().join(format!("b2schema-doc-store-{}", std::process::id()));
//! # let data = dir.join("data.b2d");
//! # std::fs::create_dir_all(data.join("g")).unwrap();
//! # NdArray::new(&[4, 3], &[2, 3], &[1, 3], "<f4", 4, Fill::Zeros).to_frame()?.write_file(data.join("g/x.b2nd"))?;
//! let store = Store::open(&data)?; // data.b2d (a directory store); a .b2z or .b2e opens the same way
//! for m in store.members() {
//!     println!("{} {:?}", m.key, m.place);
//! }
//! let frame = store.open_member("/g/x")?;
//! let reader = b2schema::array::ArrayReader::new(&frame)?;
//! assert_eq!(reader.shape(), [4, 3]);
//! # std::fs::remove_dir_all(&dir).unwrap();
//! # Ok::<(), b2schema::Error>(())
//! ```

mod access;
mod describe;
mod dir;
mod edit;
mod edit_embed;
mod edit_files;
mod embed;
mod key;
mod member;
#[cfg(feature = "http")]
mod url;
mod write;
mod zip;
mod zip_write;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use alloc::string::String;
use alloc::vec::Vec;

pub use access::VLMETA_KEY;
pub use describe::{Description, Kind};
pub use edit::StoreMut;
pub use embed::Embedded;
pub use key::{EMBED_NAME, MEMBER_SUFFIXES};
pub use member::{Form, Member, Place};
pub use write::{Flavour, StoreWriter};

use crate::container::error::{Error, ErrorKind, Result, Segment};
use crate::container::frame::{FrameFile, FrameHeader, HEADER_FIXED_LEN};
use crate::container::limits::Limits;
use crate::container::source::{Fetched, LocalFile, Source, Window};

/// A python-blosc2 store opened for reading. A clone shares the opened file (no byte is read
/// again): a [`CTable`](crate::table::CTable) can be made of one while the store is still used.
#[derive(Clone, Debug)]
pub struct Store {
    path: PathBuf,
    form: Form,
    members: Vec<Member>,
    /// The embed store's frame (`embed.b2e`, or the `.b2e` itself), if any.
    embed: Option<FrameFile>,
    limits: Limits,
    bytes_read: u64,
    /// A `.b2z`'s or `.b2e`'s file (local, or by URL); a `.b2z`'s members are windows of it.
    file: Option<Source>,
    /// The member in which python-blosc2 keeps the store's own vlmeta ([`VLMETA_KEY`]), kept
    /// apart from [`Store::members`] (python-blosc2 does not list it either).
    vlmeta_member: Option<Member>,
}

/// The frame of the stored ZIP member `e` of `src`: its local header read (over a remote
/// source, with the start of its bytes in one request), then the frame opened over the window
/// of its bytes, outside which nothing is read, now or later.
fn zip_member(
    src: &Source,
    name: &Path,
    e: &zip::Entry,
    limits: Limits,
    bytes_read: &mut u64,
) -> Result<FrameFile> {
    let at_entry = |err: Error| err.in_segment(Segment::Key(e.name.clone()));
    let mut around = Window::new(Arc::clone(src), e.local_offset, e.limit);
    around.fetch_head().map_err(at_entry)?;
    let data = zip::data_offset(&around, e, bytes_read).map_err(at_entry)?;
    let mut window = around.narrow(data, data.saturating_add(e.compressed_size)).map_err(at_entry)?;
    window.fetch_tail().map_err(at_entry)?;
    FrameFile::from_source_at(Arc::new(window), data, name.to_path_buf(), limits, None).map_err(at_entry)
}

impl Store {
    /// Opens the store at `path`: a directory is a `.b2d`, a file that starts with a frame is
    /// a `.b2e`, any other file a `.b2z`. Within a budget: [`OpenOptions::store`](crate::OpenOptions::store).
    pub fn open(path: impl AsRef<Path>) -> Result<Self> {
        Self::open_with_limits(path, Limits::default())
    }

    /// [`Store::open`] within `limits` (the central directory and the embed store's map are
    /// read within [`Limits::max_decompressed`]; members count against [`Limits::max_chunks`]).
    #[doc(hidden)]
    pub fn open_with_limits(path: impl AsRef<Path>, limits: Limits) -> Result<Self> {
        let path = path.as_ref();
        if path.is_dir() {
            return Self::open_directory(path, limits);
        }
        let (f, len) = crate::container::frame::open_regular(path).map_err(|e| e.in_file(path.display()))?;
        Self::open_source(Arc::new(LocalFile::new(f, len)), path.to_path_buf(), limits)
    }

    /// Opens the `.b2z` or `.b2e` store whose bytes `source` reads, through your own transport
    /// (any [`ReadAt`](crate::source::ReadAt)): the ZIP's central directory read from its end,
    /// each member later over a window of its bytes, as `Store::open_with_limits` reads a
    /// file. `name` stands for its path in messages.
    pub fn from_source(source: Source, name: impl Into<PathBuf>, limits: Limits) -> Result<Self> {
        Self::open_source(source, name.into(), limits)
    }

    /// The store in `src` (a `.b2e` when it starts with a frame, else a `.b2z`), named `name`
    /// (its path, or its URL).
    fn open_source(src: Source, name: PathBuf, limits: Limits) -> Result<Self> {
        let mut head = [0u8; 11];
        let n = head.len().min(src.len() as usize);
        src.read_at(0, &mut head[..n])?;
        if head[..n].get(2..10) == Some(b"b2frame\0".as_slice()) {
            Self::open_embed(src, name, limits)
        } else {
            Self::open_zip(src, name, limits)
        }
    }

    fn open_zip(src: Source, path: PathBuf, limits: Limits) -> Result<Self> {
        let cd = zip::read_from(&*src, &limits)?;
        let mut bytes_read = cd.bytes_read;
        let mut members = Vec::new();
        crate::container::limits::try_reserve(&mut members, cd.entries.len(), "the members of a store", 0)?;
        let mut embed = None;
        for e in &cd.entries {
            let at_entry =
                |err: Error| err.in_segment(Segment::Key(e.name.clone())).in_field("central_directory");
            if e.name == EMBED_NAME {
                if embed.is_some() {
                    return Err(at_entry(Error::invalid(
                        "one embed.b2e",
                        "one",
                        "two",
                        e.central_offset as usize + 46,
                    )));
                }
                if e.method != zip::STORED || e.flags & 1 != 0 {
                    let why = alloc::format!(
                        "a compressed or encrypted embed.b2e (method {}, flags {:#06x}; a .b2z is read in \
                         place, its members stored: unzip it and open the directory)",
                        e.method,
                        e.flags
                    );
                    return Err(at_entry(
                        Error::unsupported(why).with_offset(e.central_offset as usize + 10),
                    ));
                }
                let frame = zip_member(&src, &path, e, limits, &mut bytes_read)?;
                bytes_read += frame.bytes_read();
                embed = Some(frame);
                continue;
            }
            let Some(key) = key::of_member(&e.name)
                .map_err(|err| at_entry(err.shift_offset(e.central_offset as usize + 46)))?
            else {
                continue;
            };
            // An encrypted member (flag bit 0) is no frame where it lies either.
            let encrypted = e.flags & 1 != 0;
            let place = if encrypted || e.method != zip::STORED {
                Place::Compressed { name: e.name.clone(), method: e.method, encrypted }
            } else {
                Place::Zip {
                    name: e.name.clone(),
                    local_offset: e.local_offset,
                    len: e.compressed_size,
                    limit: e.limit,
                }
            };
            members.push(Member { key, place });
        }
        let mut store = Store {
            path,
            form: Form::Zip,
            members,
            embed,
            limits,
            bytes_read,
            file: Some(src),
            vlmeta_member: None,
        };
        store.add_embedded()?;
        Ok(store)
    }

    fn open_directory(path: &Path, limits: Limits) -> Result<Self> {
        let (members, has_embed) = dir::members(path, &limits)?;
        let mut bytes_read = 0;
        let embed = if has_embed {
            let f = FrameFile::open_with_limits(path.join(EMBED_NAME), limits)
                .map_err(|e| e.in_segment(Segment::Key(EMBED_NAME.into())))?;
            bytes_read += f.bytes_read();
            Some(f)
        } else {
            None
        };
        let mut store = Store {
            path: path.to_path_buf(),
            form: Form::Directory,
            members,
            embed,
            limits,
            bytes_read,
            file: None,
            vlmeta_member: None,
        };
        store.add_embedded()?;
        Ok(store)
    }

    fn open_embed(src: Source, path: PathBuf, limits: Limits) -> Result<Self> {
        let f = FrameFile::from_source_at(Arc::clone(&src), 0, path.clone(), limits, None)?;
        let v = f.view()?;
        if !["b2embed", "b2dict", "b2tree"].iter().any(|n| v.metalayer(n).is_some()) {
            return Err(Error::invalid(
                "a store: a ZIP, a directory, or an EmbedStore frame (metalayer b2embed, b2dict or b2tree)",
                "b2embed",
                "a frame without them",
                87,
            )
            .in_field("metalayers"));
        }
        let bytes_read = f.bytes_read();
        let mut store = Store {
            path,
            form: Form::Embed,
            members: Vec::new(),
            embed: Some(f),
            limits,
            bytes_read,
            file: Some(src),
            vlmeta_member: None,
        };
        store.add_embedded()?;
        Ok(store)
    }

    /// Adds the embed store's keys, then sorts the members by key (which [`Store::member`]'s
    /// binary search relies on); a key both there and outside is an error (python-blosc2 would
    /// show one of them only). One sort, then one pass over neighbours: linear in the members
    /// but for the sort, however many there are.
    fn add_embedded(&mut self) -> Result<()> {
        if let Some(f) = &self.embed {
            let entries = embed::entries(f)?;
            crate::container::limits::try_reserve(
                &mut self.members,
                entries.len(),
                "the members of a store",
                0,
            )?;
            for (key, place) in entries {
                self.members.push(Member { key, place: Place::Embedded(place) });
            }
        }
        self.members.sort_by(|a, b| a.key.cmp(&b.key));
        if let Some(w) = self.members.windows(2).find(|w| w[0].key == w[1].key) {
            let embedded = |m: &Member| matches!(m.place, Place::Embedded(_));
            let e = if embedded(&w[0]) != embedded(&w[1]) {
                Error::invalid("keys in one place only (embed.b2e or a member file)", "once", "twice", 0)
                    .in_segment(Segment::Key(w[0].key.clone()))
                    .in_field("embed_map")
            } else {
                // Two names for one key (`x.b2nd` and `x.b2f`, or a ZIP name twice): python-blosc2
                // would show one of them, whichever it met last; b2schema refuses to guess.
                Error::invalid("one member per key", "one", "two", 0)
                    .in_segment(Segment::Key(w[0].key.clone()))
            };
            return Err(e);
        }
        if let Ok(i) = self.members.binary_search_by(|m| m.key.as_str().cmp(VLMETA_KEY)) {
            self.vlmeta_member = Some(self.members.remove(i));
        }
        Ok(())
    }

    /// The path opened (a store opened by URL: the URL, as [`FrameFile::path`] holds it).
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The length of the store's file (a `.b2z` or `.b2e`, local or by URL); `None` for a
    /// directory.
    pub fn file_len(&self) -> Option<u64> {
        self.file.as_ref().map(|f| f.len())
    }

    /// Which kind of store it is.
    pub fn form(&self) -> Form {
        self.form
    }

    /// The members, sorted by key; the member that holds the store's own vlmeta
    /// ([`VLMETA_KEY`], read through [`Store::vlmeta`]) is not one of them, as python-blosc2 does
    /// not list it.
    pub fn members(&self) -> &[Member] {
        &self.members
    }

    /// The member of `key`.
    pub fn member(&self, key: &str) -> Option<&Member> {
        if key == VLMETA_KEY {
            return self.vlmeta_member.as_ref();
        }
        // Sorted by key when opened ([`Store::add_embedded`]): a binary search, so that listing
        // every member is not quadratic in their number.
        let i = self.members.binary_search_by(|m| m.key.as_str().cmp(key)).ok()?;
        self.members.get(i)
    }

    /// Bytes read so far to open the store (central directory, local headers, the embed
    /// store's metadata).
    pub fn bytes_read(&self) -> u64 {
        self.bytes_read
    }

    /// Requests made and bytes fetched over the network to this point, by the opening and by
    /// every read of its members since (`None` for a local store). One budget
    /// ([`Limits::max_requests`], [`Limits::max_fetched`]) bounds them all.
    pub fn fetched(&self) -> Option<Fetched> {
        self.file.as_ref().and_then(|f| f.fetched())
    }

    /// The budget the store is read within.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The frame of the member `key`, read in place (a ZIP member at its offset, a file) or
    /// from the embed store's chunks that hold it; an [`ArrayReader`](crate::container::array::ArrayReader)
    /// slices it. A compressed ZIP member or a remote reference is an error that names it.
    pub fn open_member(&self, key: &str) -> Result<FrameFile> {
        let m = self.member(key).ok_or_else(|| {
            let keys = self.members.iter().take(5).map(|m| m.key.clone()).collect();
            let kind = ErrorKind::NoSuchKey { key: String::from(key), keys, members: self.members.len() };
            Error::new(kind).in_file(self.path().display())
        })?;
        let at = |e: Error| e.in_segment(Segment::Key(m.key.clone()));
        match &m.place {
            Place::Zip { name, local_offset, len, limit } => {
                let entry = zip::Entry::stored(name, *local_offset, *len, *limit);
                let src =
                    self.file.as_ref().filter(|_| self.form == Form::Zip).ok_or_else(|| {
                        Error::invalid("a ZIP store's file", "open", "none (not a .b2z)", 0)
                    })?;
                zip_member(src, &self.path, &entry, self.limits, &mut 0).map_err(at)
            }
            Place::Compressed { name, method, encrypted } => Err(at(Error::unsupported(alloc::format!(
                "a compressed ZIP member ({name}: method {method}{}{}; a .b2z is read in place, its members \
                 stored: unzip it and open the directory)",
                if *method == 8 { " (deflate)" } else { "" },
                if *encrypted { ", encrypted" } else { "" }
            )))),
            Place::File(p) => FrameFile::open_with_limits(p, self.limits).map_err(at),
            Place::Embedded(Embedded::Frame { offset, length }) => {
                let f = self
                    .embed
                    .as_ref()
                    .ok_or_else(|| Error::invalid("an embed store", EMBED_NAME, "none", 0))?;
                let bytes = embed::bytes(f, &m.key, *offset, *length)?;
                let mut frame = FrameFile::from_bytes(bytes, m.key.as_str(), self.limits).map_err(at)?;
                frame = frame.with_registry(f.registry().clone());
                Ok(frame)
            }
            Place::Embedded(Embedded::Remote { urlbase, path }) => Err(at(Error::unsupported(
                alloc::format!("a member that refers to {path} at {urlbase} (open that URL)"),
            ))),
        }
    }

    /// What the member `key` is (kind, shape, dtype, codec), from its frame's metadata. An
    /// embedded member is described from its frame header alone (the chunks that hold its
    /// first bytes are decompressed, not the whole member): [`Store::open_member`] checks the
    /// rest.
    pub fn describe(&self, key: &str) -> Result<Description> {
        if let (Some(m), Some(f)) = (self.member(key), &self.embed)
            && let Place::Embedded(Embedded::Frame { offset, length }) = m.place
        {
            let at = |e: Error| e.in_segment(Segment::Key(m.key.clone()));
            embed::check_range(f, &m.key, offset, length)?;
            let fixed = embed::bytes(f, &m.key, offset, length.min(HEADER_FIXED_LEN as u64))?;
            let header_len: i32 = FrameHeader::HEADER_LEN.read(&fixed).map_err(|e| at(e.into()))?;
            let header_len = u64::try_from(header_len).unwrap_or(0);
            if !(HEADER_FIXED_LEN as u64..=length).contains(&header_len) {
                return Err(at(Error::invalid(
                    "a header_len within the member, in",
                    alloc::format!("87..={length}"),
                    header_len,
                    11,
                )
                .in_field("header_len")));
            }
            let header = embed::bytes(f, &m.key, offset, header_len)?;
            return describe::of_header_bytes(&header).map_err(at);
        }
        let f = self.open_member(key)?;
        describe::describe(&f)
    }
}
