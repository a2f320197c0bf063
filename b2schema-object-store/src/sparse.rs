//! Sparse frames under an object store's prefix: `PREFIX/chunks.b2frame` (the index) and a
//! `PREFIX/%08X.chunk` object per stored chunk, as a sparse frame's directory holds them.
//!
//! Written ([`upload_sparse`]) chunk objects first, in parallel (at most
//! [`ObjectOptions::concurrency`] at once), the index last and only once every chunk object is
//! stored: a reader finds either no index (no frame) or an index whose chunks are all there.
//! A prefix that already holds an index is refused (its chunk objects would be overwritten
//! under it). Read ([`open_sparse`]): the index, then each chunk object when a read needs it,
//! every request counted against one budget.

use std::sync::Arc;

use b2schema::frame::FrameFile;
use b2schema::source::{Siblings, Source};
use b2schema::writer::Frame;
use b2schema::{Error, Limits, Result};
use futures_util::{StreamExt, TryStreamExt};
use object_store::path::Path;
use object_store::{ObjectStoreExt, PutPayload};

use crate::get::chain;
use crate::options::ObjectOptions;
use crate::source::{ObjectSource, not_in_runtime, runtime};
use crate::upload::Upload;
use crate::url::ObjectUrl;

/// The index object's name under the prefix.
const INDEX: &str = "chunks.b2frame";

/// The prefix of the sparse frame `url` names (`.../x.b2nd/` or `.../x.b2nd/chunks.b2frame`),
/// ending in `/`; `None` for any other URL.
pub fn sparse_prefix(url: &str) -> Option<&str> {
    let path = url.split(['?', '#']).next().unwrap_or(url);
    if path.ends_with('/') {
        return Some(path);
    }
    path.strip_suffix(INDEX).filter(|dir| dir.ends_with('/'))
}

/// The object `name` under the prefix `dir` (its client and counts shared).
fn beside(dir: &ObjectUrl, name: &str) -> ObjectUrl {
    let text = format!("{}{name}", dir.text);
    let path = Path::from_iter(dir.path.parts().chain(std::iter::once(name.into())));
    ObjectUrl { text, path, ..dir.clone() }
}

/// The prefix `url` as an [`ObjectUrl`] ending in `/`, or an error saying what was expected.
fn prefix_of(url: &str, options: &ObjectOptions) -> Result<ObjectUrl> {
    let dir = sparse_prefix(url).ok_or_else(|| {
        Error::invalid("a sparse frame's prefix", "a URL ending in '/' or '/chunks.b2frame'", url, 0)
    })?;
    ObjectUrl::parse(dir, options)
}

/// Uploads `frame` as a sparse frame under the prefix `url` (`s3://bucket/x.b2nd/`): its chunk
/// objects in parallel, then its index (see the module's documentation). On an error nothing
/// names the chunk objects already stored: no frame is visible.
pub fn upload_sparse(url: &str, frame: &Frame, options: &ObjectOptions) -> Result<Upload> {
    upload_sparse_to(&prefix_of(url, options)?, frame, options)
}

/// [`upload_sparse`] under the prefix `dir` names (its text ending in `/`; a store of yours:
/// [`ObjectUrl::from_store`]).
pub fn upload_sparse_to(dir: &ObjectUrl, frame: &Frame, options: &ObjectOptions) -> Result<Upload> {
    let files = frame.sparse_files().map_err(|e| e.in_file(&dir.text))?;
    let index = beside(dir, INDEX);
    not_in_runtime(&dir.text)?;
    let rt = runtime(&dir.text)?;
    let at =
        |url: &str, e: object_store::Error| Error::invalid("an upload", "stored", chain(&e), 0).in_file(url);
    match rt.block_on(index.store.head(&index.path)) {
        Err(object_store::Error::NotFound { .. }) => {}
        Ok(_) => {
            return Err(Error::invalid("a prefix with no sparse frame", "none", "an index there", 0)
                .in_file(&index.text));
        }
        Err(e) => return Err(at(&index.text, e)),
    }
    let mut bytes = 0u64;
    for (_, b) in &files.chunks {
        bytes += b.len() as u64;
    }
    rt.block_on(
        futures_util::stream::iter(
            files.chunks.iter().map(|(name, b)| {
                let object = beside(dir, name);
                let payload = PutPayload::from(b.to_vec());
                async move {
                    object.store.put(&object.path, payload).await.map(drop).map_err(|e| at(&object.text, e))
                }
            }),
        )
        .buffer_unordered(options.concurrency.max(1))
        .try_collect::<()>(),
    )?;
    bytes += files.index.len() as u64;
    rt.block_on(index.store.put(&index.path, PutPayload::from(files.index)))
        .map_err(|e| at(&index.text, e))?;
    Ok(Upload { requests: dir.counts.requests(), bytes, parts: 0 })
}

/// Opens the sparse frame under the prefix `url` (`s3://bucket/x.b2nd/`, or its
/// `.../chunks.b2frame`): its index now, each chunk object when a read needs it.
pub fn open_sparse(url: &str, limits: Limits, options: &ObjectOptions) -> Result<FrameFile> {
    open_sparse_at(prefix_of(url, options)?, limits, options)
}

/// [`open_sparse`] under the prefix `dir` names.
pub fn open_sparse_at(dir: ObjectUrl, limits: Limits, options: &ObjectOptions) -> Result<FrameFile> {
    let name = dir.text.clone();
    let index: Source = ObjectSource::open(beside(&dir, INDEX), limits, options)?;
    let chunks = ChunkObjects { dir, limits, options: options.clone() };
    FrameFile::from_sparse_source(index, chunks, &name, limits).map_err(|e| e.in_file(&name))
}

/// A sparse frame's chunk objects, opened by name under its prefix.
#[derive(Debug)]
struct ChunkObjects {
    dir: ObjectUrl,
    limits: Limits,
    options: ObjectOptions,
}

impl Siblings for ChunkObjects {
    fn open(&self, name: &str) -> Result<Source> {
        Ok(ObjectSource::open(beside(&self.dir, name), self.limits, &self.options)? as Arc<_>)
    }
}
