//! A BatchArray (`.b2b`, or a store's member) on the viewer's file page: what its metalayer and
//! `_batch_array_metadata` say, and one batch's items a page at a time. A batch is decompressed
//! within [`MAX_BATCH_BYTES`] (and its items in memory within the same budget, by the library);
//! items are cut as every value is ([`super::shown`]); what the lengths claim is shown as
//! claimed, and a batch that holds another count than claimed is an error of that batch's page.

use super::no_answer::NoAnswer;
use b2schema::Limits;
use b2schema::frame::FrameFile;
use b2schema::table::BatchArray;
use serde::Serialize;

use super::shown::{self, Shown};

/// The most bytes one batch may decompress to for the viewer.
pub const MAX_BATCH_BYTES: u64 = 64 << 20;
/// The most items one page of a batch holds.
pub const MAX_ITEMS: usize = 200;
/// The most batch lengths listed on the file page.
pub const MAX_LENGTHS: usize = 1000;

/// The viewer's budget for a BatchArray's frame.
pub fn limits() -> Limits {
    Limits::default().with_max_decompressed(MAX_BATCH_BYTES)
}

/// Whether the frame is a BatchArray (or a ListArray stored in batches).
pub fn is_batch_array(file: &FrameFile) -> bool {
    file.view().is_ok_and(|v| v.metalayer("batcharray").is_some())
}

/// The file page's `batches`: what a BatchArray's metadata says, or why it does not open as one.
#[derive(Serialize)]
#[serde(untagged)]
pub enum Summary {
    /// It opened.
    Opened {
        /// The batch count.
        batches: usize,
        /// The items claimed in all (when the lengths are stored and add up).
        items: Option<u64>,
        /// The items claimed per batch (the first [`MAX_LENGTHS`]), when stored.
        lengths: Option<Vec<u64>>,
        /// How items are serialized.
        serializer: String,
        /// Items per VL block, if set.
        items_per_block: Option<u64>,
        /// The metadata's version.
        version: u64,
    },
    /// Why not.
    Failed {
        /// The library's error.
        error: String,
    },
}

/// The file page's `batches`: the batch count, the items claimed in all and per batch (the first
/// [`MAX_LENGTHS`]), the serializer; or `{"error"}` when it does not open as one.
pub fn summary(file: FrameFile) -> Summary {
    match BatchArray::new(file) {
        Ok(b) => Summary::Opened {
            batches: b.len(),
            items: b.batch_lengths().and_then(|_| b.len_items().ok()),
            lengths: b.batch_lengths().map(|l| l.iter().take(MAX_LENGTHS).copied().collect()),
            serializer: b.meta().serializer.clone(),
            items_per_block: b.meta().items_per_block,
            version: b.meta().version,
        },
        Err(e) => Summary::Failed { error: e.to_string() },
    }
}

/// `/api/batch`'s answer: a page of one batch's items.
#[derive(Serialize)]
pub struct Page {
    /// The batch count.
    batches: usize,
    /// The batch shown.
    batch: usize,
    /// Its items.
    n_items: usize,
    /// The first item shown.
    offset: usize,
    /// The items shown.
    items: Vec<Shown>,
}

/// `/api/batch`: items `offset..offset + limit` (at most [`MAX_ITEMS`]) of batch `index`.
pub fn page(file: FrameFile, index: usize, offset: usize, limit: usize) -> Result<Page, NoAnswer> {
    let b = BatchArray::new(file)?;
    let items = b.batch(index)?;
    let n = items.len();
    let start = offset.min(n);
    let stop = offset.saturating_add(limit.min(MAX_ITEMS)).min(n);
    let items = items[start..stop].iter().map(shown::value).collect();
    Ok(Page { batches: b.len(), batch: index, n_items: n, offset: start, items })
}
