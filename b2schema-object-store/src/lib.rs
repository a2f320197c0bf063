//! Blosc2 frames and stores read from and written to object stores: any
//! [`object_store::ObjectStore`] (the Arrow project's client: S3, Google Cloud Storage, Azure Blob
//! Storage) as a [`b2schema::source::ReadAt`], the byte source every b2schema opener takes.
//!
//! By URL, the client configured from the environment as object_store reads it
//! (`AWS_ENDPOINT_URL`, `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_REGION`,
//! `AWS_ALLOW_HTTP`, ...): `ObjectSource::open_url("s3://bucket/big.b2nd", limits, &options)`.
//! Or over a store you built, here an in-memory one:
//!
//! ```
//! use std::sync::Arc;
//! use b2schema_object_store::object_store::{memory::InMemory, path::Path};
//! use b2schema_object_store::{ObjectOptions, ObjectSource, ObjectUrl, upload_to};
//!
//! let frame = b2schema::writer::Array::from_slice(&[4], &[1.0f64, 2.0, 3.0, 4.0])?.to_vec()?;
//! let object = ObjectUrl::from_store("memory://x.b2nd", Arc::new(InMemory::new()), Path::from("x.b2nd"));
//! let options = ObjectOptions::default();
//! upload_to(&object, &mut frame.as_slice(), frame.len() as u64, &options)?;
//!
//! let limits = b2schema::Limits::default();
//! let src = ObjectSource::open(object, limits, &options)?;
//! let array = b2schema::open_source(src.clone(), "memory://x.b2nd", limits)?;
//! assert_eq!(array.read_as::<f64>("1:3")?, [2.0, 3.0]);
//! let fetched = b2schema::source::ReadAt::fetched(&*src).unwrap();
//! assert_eq!(fetched.requests, 1); // the whole small object came with the first request
//! # Ok::<(), b2schema::Error>(())
//! ```
//!
//! The adapter owns a small tokio runtime on which object_store's calls run: the synchronous
//! core blocks on them (as zarrs' async-to-sync adapter does). Its methods must not be called
//! from inside another tokio runtime's task: they answer an error there rather than block it.
//!
//! Reading: the first request asks for the first [`ObjectOptions::prefix`] bytes and learns the
//! object's length; the second the last as many (the trailer and the offsets index): both are
//! kept for the handle's life, as the chunk tables a read learns are kept by the frame. The
//! ranges of one read are joined where they touch or nearly ([`ObjectOptions::gap`]) and
//! fetched in parallel, at most [`ObjectOptions::concurrency`] at once. Every answer is checked:
//! its body is read into the buffer asked for, and a body longer or shorter than the range is an
//! error naming the URL and the range; requests and bytes count against
//! [`Limits::max_requests`](b2schema::Limits::max_requests) and
//! [`Limits::max_fetched`](b2schema::Limits::max_fetched), and every request has a deadline.
//! A whole read (which the array reader announces) is served by one ranged GET read in the
//! background as the reads consume it, within [`ObjectOptions::readahead`] bytes of memory.
//!
//! Writing ([`upload`]): an object is uploaded whole, by one PUT or, past
//! [`ObjectOptions::part_size`], by a multipart upload completed last (nothing is visible until
//! then; a failed upload is aborted). A sparse frame ([`upload_sparse`], [`open_sparse`]) is
//! stored under a prefix: its chunk objects in parallel, its index last, so that a reader never
//! finds an index whose chunks are not all there.

#![forbid(unsafe_code)]

mod ahead;
mod counting;
mod get;
mod list;
mod open;
mod options;
mod source;
mod sparse;
mod upload;
mod url;

pub use list::{Listed, list, list_at};
pub use object_store;
pub use open::{open_frame, open_store};
pub use options::ObjectOptions;
pub use source::ObjectSource;
pub use sparse::{open_sparse, open_sparse_at, sparse_prefix, upload_sparse, upload_sparse_to};
pub use upload::{Upload, upload, upload_to};
pub use url::{ObjectUrl, is_object_url};
