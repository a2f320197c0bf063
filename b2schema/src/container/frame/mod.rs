//! Blosc2 frames: header, metalayers, trailer and chunk offsets index, read from a buffer, a
//! file (at any offset) or a sparse-frame directory, validated by the reference reader's
//! checklist, and re-encoded byte for byte.
//!
//! ```
//! # use b2schema::writer::{Fill, NdArray};
//! # let dir = std::env::temp_dir().join(format!("b2schema-doc-frame-{}", std::process::id()));
//! # std::fs::create_dir_all(&dir)?;
//! # let path = dir.join("array.b2nd");
//! # NdArray::new(&[1000], &[100], &[10], "<i4", 4, Fill::Zeros).to_frame()?.write_file(&path)?;
//! let frame = b2schema::frame::FrameFile::open(&path)?; // array.b2nd
//! let view = frame.view()?;
//! println!("{} chunks, typesize {}", view.nchunks()?, view.header.typesize);
//! if let Some(meta) = view.metalayer("b2nd") {
//!     let b2nd = b2schema::b2nd::read(meta)?;
//!     println!("shape {:?}, dtype {:?}", b2nd.shape, b2nd.dtype);
//!     assert_eq!(b2nd.shape, [1000]);
//! }
//! # std::fs::remove_dir_all(&dir).unwrap();
//! # Ok::<(), b2schema::Error>(())
//! ```

mod codes;
#[cfg(feature = "std")]
mod confine;
mod consistency;
#[cfg(feature = "std")]
mod data;
#[cfg(feature = "std")]
mod file;
#[cfg(feature = "std")]
mod first_words;
mod header;
mod index;
#[cfg(feature = "std")]
mod kept_tables;
mod metalayers;
#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub mod opened;
#[cfg(feature = "std")]
mod recent;
#[cfg(feature = "std")]
mod regular;
#[cfg(feature = "http")]
mod remote;
#[cfg(feature = "std")]
mod siblings;
mod trailer;
mod view;
#[cfg(feature = "std")]
mod vlmeta;

#[cfg(feature = "std")]
pub(crate) use crate::container::source::pread;
pub use codes::{Codec, Filter, FrameType, SplitMode};
#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub use confine::{OUTSIDE, confine_reads_to};
#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub use file::{FrameFile, SPARSE_INDEX, max_cbytes};
#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub use first_words::first_words;
pub use header::{FilterPipeline, FrameFlags, FrameHeader};
#[cfg(feature = "std")]
pub(crate) use index::entry as index_entry;
pub use index::{ChunkInfo, ChunkLocation, DEFAULT_MAX_LOCATIONS, MAX_NCHUNKS, SpecialValue, special_entry};
pub use metalayers::{Content, MetaLayers, NameOffsets};
#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub use regular::open_regular;
#[cfg(feature = "std")]
pub(crate) use regular::open_regular_rw;
#[cfg(feature = "http")]
pub(crate) use remote::source_of;
pub use trailer::{Fingerprint, TRAILER_FIXED_LEN, Trailer};
pub use view::{FrameView, HEADER_FIXED_LEN, MAX_METALAYERS, MAX_VLMETALAYERS, TRAILER_MIN_LEN};
