//! python-blosc2's `BatchArray` (`.b2b`, and the `vlstring` / `vlbytes` columns of a CTable):
//! an SChunk tagged by the metalayer `batcharray` (`{"version", "serializer", "items_per_block",
//! "arrow_schema"}`) whose every chunk is one *batch*: a VL-block chunk (see
//! [`b2schema_chunk::VlBlocks`]) whose blocks are each a msgpack array of items. The vlmetalayer
//! `_batch_array_metadata` (`{"batch_lengths": [...]}`) gives each batch's item count; it is
//! checked against the items read.
//!
//! ```
//! # fn main() -> Result<(), b2schema::Error> {
//! # let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/tables/batch.b2b");
//! use b2schema::{Value, table::BatchArray};
//!
//! let batches = BatchArray::open(&path)?;
//! let first = batches.batch(0)?;           // the items of batch 0
//! assert_eq!(first[1], Value::from("two"));
//! assert_eq!(first[2], Value::Bin(b"three".to_vec()));
//! let all = batches.items()?;              // every item, as python-blosc2's `.items[:]` gives them
//! assert_eq!(all.len() as u64, batches.len_items()?);
//! # Ok(())
//! # }
//! ```

use std::path::Path;

use alloc::string::String;
use alloc::vec::Vec;

use crate::container::error::{Error, Result, Segment};
use crate::container::frame::{ChunkInfo, FrameFile};
use crate::container::limits::{Limit, Limits, try_reserve};
use crate::format::value::Cursor;
use crate::format::value::Value;

/// The metalayer that tags a BatchArray.
pub const METALAYER: &str = "batcharray";
/// The vlmetalayer that holds the batch lengths.
pub const LENGTHS_VLMETA: &str = "_batch_array_metadata";

/// What one item takes in memory beyond its bytes: its vector, then its decoded [`Value`].
const ITEM_COST: u64 = (core::mem::size_of::<Vec<u8>>() + core::mem::size_of::<Value>()) as u64;

/// What the `batcharray` metalayer says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BatchMeta {
    /// Its `version` (python-blosc2 4.x writes 1).
    pub version: u64,
    /// How items are serialized: `"msgpack"` (read here) or `"arrow"` (refused).
    pub serializer: String,
    /// Items per VL block (the last block of a batch may hold fewer), if set.
    pub items_per_block: Option<u64>,
}

/// A BatchArray opened for reading: its batches are read one at a time, on demand.
#[derive(Debug)]
pub struct BatchArray {
    frame: FrameFile,
    meta: BatchMeta,
    chunks: Vec<ChunkInfo>,
    lengths: Option<Vec<u64>>,
}

impl BatchArray {
    /// Opens the BatchArray frame at `path` (within the default [`Limits`]).
    pub fn open(path: impl AsRef<Path>) -> Result<Self> {
        Self::new(FrameFile::open_with_limits(path, Limits::default())?)
    }

    /// The BatchArray in `frame` (a `.b2b` file, a store's member): its metalayer, batch
    /// lengths and chunk list are read now (at most [`Limits::max_chunks`] chunks).
    pub fn new(frame: FrameFile) -> Result<Self> {
        let view = frame.view()?;
        let Some(meta) = view.metalayer(METALAYER) else {
            return Err(Error::invalid(
                "a BatchArray: a frame with the metalayer",
                METALAYER,
                "a frame without it",
                87,
            )
            .in_field("metalayers"));
        };
        let meta = read_meta(meta).map_err(|e| e.in_field(METALAYER).in_field("metalayers"))?;
        if meta.serializer != "msgpack" {
            return Err(Error::invalid(
                "a BatchArray serializer b2schema reads",
                "msgpack",
                alloc::format!("{}", meta.serializer.escape_debug()),
                0,
            )
            .in_field("serializer")
            .in_field(METALAYER));
        }
        drop(view);
        let lengths = match frame.vlmeta_data(LENGTHS_VLMETA)? {
            Some(map) => Some(read_lengths(&map).map_err(|e| e.in_field(LENGTHS_VLMETA))?),
            None => None,
        };
        let chunks = frame.chunks()?;
        if let Some(l) = &lengths
            && l.len() != chunks.len()
        {
            return Err(Error::invalid("a batch length per chunk, that is", chunks.len(), l.len(), 0)
                .in_field("batch_lengths")
                .in_field(LENGTHS_VLMETA));
        }
        Ok(BatchArray { frame, meta, chunks, lengths })
    }

    /// What the `batcharray` metalayer says.
    pub fn meta(&self) -> &BatchMeta {
        &self.meta
    }

    /// The frame it is read from.
    pub fn frame(&self) -> &FrameFile {
        &self.frame
    }

    /// How many batches (chunks).
    pub fn len(&self) -> usize {
        self.chunks.len()
    }

    /// Whether there is no batch.
    pub fn is_empty(&self) -> bool {
        self.chunks.is_empty()
    }

    /// Each batch's item count, as the vlmetalayer `_batch_array_metadata` says (python-blosc2
    /// writes it with every append); `None` when it is absent.
    pub fn batch_lengths(&self) -> Option<&[u64]> {
        self.lengths.as_deref()
    }

    /// The number of items of every batch: from `batch_lengths` when present (every batch's
    /// items are counted against it when read), else by reading every batch.
    pub fn len_items(&self) -> Result<u64> {
        match &self.lengths {
            Some(l) => l.iter().try_fold(0u64, |a, &n| a.checked_add(n)).ok_or_else(|| {
                Error::invalid("batch lengths whose sum fits in 64 bits", "<= 2^64 - 1", "more", 0)
                    .in_field("batch_lengths")
            }),
            None => {
                let mut n = 0u64;
                for i in 0..self.len() {
                    n += self.raw_batch(i)?.len() as u64;
                }
                Ok(n)
            }
        }
    }

    /// The items of batch `i`, each as its msgpack bytes, in order. The chunk is decompressed
    /// within [`Limits::max_decompressed`]; each VL block must be one msgpack array, whole.
    pub fn raw_batch(&self, i: usize) -> Result<Vec<Vec<u8>>> {
        let at = |e: Error| e.in_segment(Segment::Index(i)).in_field("batches");
        let info = self.chunks.get(i).ok_or_else(|| {
            Error::invalid("a batch index, below", self.chunks.len(), i, 0).in_field("batches")
        })?;
        if info.special.is_some() {
            return Err(at(Error::invalid(
                "a batch stored as a VL-block chunk",
                "a stored chunk",
                "a special chunk",
                0,
            )));
        }
        let limits = self.frame.limits();
        limits.require("a batch (nbytes)", info.nbytes, Limit::Decompressed, 0).map_err(at)?;
        let bytes = self.frame.read_chunk(info.location).map_err(at)?;
        let blocks = b2schema_chunk::Decoder::new(self.frame.registry())
            .max_nbytes(usize::try_from(limits.max_decompressed()).unwrap_or(usize::MAX))
            .decompress_vl_blocks(&bytes)
            .map_err(|e| at(Error::chunk(e, 0)))?;
        let mut items: Vec<Vec<u8>> = Vec::new();
        for (b, block) in blocks.iter().enumerate() {
            let in_block = |e: Error| at(e.in_segment(Segment::Index(b)).in_field("blocks"));
            let mut c = Cursor::new(block);
            let n = c.array_len().map_err(|e| in_block(e.into()))?;
            // An item of one byte becomes a vector (and, decoded, a Value): what the items
            // take in memory is checked against the budget, not only their bytes.
            let cost = ((items.len() + n) as u64).saturating_mul(ITEM_COST);
            Limits::check(
                "the items of a batch (in memory)",
                cost,
                Limit::Decompressed,
                limits.max_decompressed(),
                0,
            )
            .map_err(in_block)?;
            try_reserve(&mut items, n, "the items of a batch", 0).map_err(in_block)?;
            for _ in 0..n {
                let v = c.value().map_err(|e| in_block(e.into()))?;
                let mut item = Vec::new();
                try_reserve(&mut item, v.len(), "an item", c.offset()).map_err(in_block)?;
                item.extend_from_slice(v);
                items.push(item);
            }
            if !c.is_done() {
                return Err(in_block(Error::invalid(
                    "a block that is one msgpack array and nothing after it: a block of",
                    c.offset(),
                    block.len(),
                    c.offset(),
                )));
            }
        }
        if let Some(&want) = self.lengths.as_ref().and_then(|l| l.get(i))
            && want != items.len() as u64
        {
            return Err(at(Error::invalid("as many items as batch_lengths says", want, items.len(), 0)
                .in_field(LENGTHS_VLMETA)));
        }
        Ok(items)
    }

    /// The items of batch `i`, decoded (python-blosc2's `batches[i][:]`).
    pub fn batch(&self, i: usize) -> Result<Vec<Value>> {
        decode_all(self.raw_batch(i)?)
    }

    /// Every item of every batch, decoded, in order (python-blosc2's `batches.items[:]`); see
    /// [`BatchArray::raw_items`] for the budget.
    pub fn items(&self) -> Result<Vec<Value>> {
        decode_all(self.raw_items()?)
    }

    /// Every item of every batch, each as its msgpack bytes, in order; at most
    /// [`Limits::max_decompressed_total`] bytes of batches are decompressed.
    pub fn raw_items(&self) -> Result<Vec<Vec<u8>>> {
        let total = self.frame.limits().max_decompressed_total();
        let mut spent = 0u64;
        let mut out = Vec::new();
        for (i, info) in self.chunks.iter().enumerate() {
            spent = spent.saturating_add(info.nbytes);
            Limits::check("the batches of a BatchArray (nbytes)", spent, Limit::DecompressedTotal, total, 0)
                .map_err(|e| e.in_segment(Segment::Index(i)).in_field("batches"))?;
            let batch = self.raw_batch(i)?;
            let cost = ((out.len() + batch.len()) as u64).saturating_mul(ITEM_COST);
            Limits::check("the items of a BatchArray (in memory)", cost, Limit::DecompressedTotal, total, 0)
                .map_err(|e| e.in_segment(Segment::Index(i)).in_field("batches"))?;
            try_reserve(&mut out, batch.len(), "the items of a BatchArray", 0)?;
            out.extend(batch);
        }
        Ok(out)
    }
}

fn decode_all(raw: Vec<Vec<u8>>) -> Result<Vec<Value>> {
    let mut out = Vec::new();
    try_reserve(&mut out, raw.len(), "the items of a batch", 0)?;
    for (i, b) in raw.iter().enumerate() {
        out.push(Value::from_msgpack(b).map_err(|e| e.in_segment(Segment::Index(i)).in_field("items"))?);
    }
    Ok(out)
}

/// The `batcharray` metalayer: a map of `version`, `serializer`, `items_per_block` (nil or an
/// integer) and `arrow_schema` (skipped).
fn read_meta(bytes: &[u8]) -> Result<BatchMeta> {
    let mut c = Cursor::new(bytes);
    let n = c.map_len()?;
    let (mut version, mut serializer, mut items_per_block) = (None, None, None);
    for _ in 0..n {
        match c.str()? {
            "version" => version = Some(c.uint().map_err(|e| e.in_field("version"))?),
            "serializer" => serializer = Some(c.string().map_err(|e| e.in_field("serializer"))?),
            "items_per_block" => {
                items_per_block =
                    if c.nil() { None } else { Some(c.uint().map_err(|e| e.in_field("items_per_block"))?) }
            }
            _ => c.skip()?,
        }
    }
    Ok(BatchMeta {
        version: version.unwrap_or(1),
        serializer: serializer.unwrap_or_else(|| "msgpack".into()),
        items_per_block,
    })
}

/// The vlmetalayer `_batch_array_metadata`: `{"batch_lengths": [n, ...]}`.
fn read_lengths(map: &[u8]) -> Result<Vec<u64>> {
    let mut c = Cursor::new(map);
    let mut out = Vec::new();
    let top = c.map_len()?;
    for _ in 0..top {
        if c.str()? != "batch_lengths" {
            c.skip()?;
            continue;
        }
        let count = c.array_len().map_err(|e| e.in_field("batch_lengths"))?;
        try_reserve(&mut out, count, "the batch lengths", c.offset())?;
        for j in 0..count {
            out.push(c.uint().map_err(|e| e.in_segment(Segment::Index(j)).in_field("batch_lengths"))?);
        }
    }
    Ok(out)
}
