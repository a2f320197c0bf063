//! Writing a python-blosc2 `BatchArray` (`.b2b`): each batch becomes one VL-block chunk
//! ([`b2schema_chunk::compress_vl_blocks`]) whose blocks are msgpack arrays of at most
//! `items_per_block` items (every block but a batch's last one holds exactly that many, as
//! python-blosc2 reads them), tagged by the metalayer `batcharray` and with the vlmetalayer
//! `_batch_array_metadata` = `{"batch_lengths": [...]}`. python-blosc2 opens the frame with
//! `blosc2.open(path)` and reads the same items.
//!
//! ```
//! use b2schema::{Value, table::{BatchArray, BatchArrayWriter}};
//! # let path = std::env::temp_dir().join(format!("b2schema-doc-batch-{}.b2b", std::process::id()));
//!
//! let mut w = BatchArrayWriter::new(b2schema::chunk::Params::new(1), Some(2));
//! w.push(&[Value::from("one"), Value::Int(2), Value::Nil])?;   // a batch of 3 items, 2 blocks
//! w.push(&[Value::Bin(b"four".to_vec())])?;
//! w.write_file(&path)?;
//! let b = BatchArray::open(&path)?;
//! assert_eq!(b.batch_lengths(), Some(&[3u64, 1][..]));
//! assert_eq!(b.items()?[3], Value::Bin(b"four".to_vec()));
//! # std::fs::remove_file(&path)?;
//! # Ok::<(), b2schema::Error>(())
//! ```

use alloc::string::String;
use alloc::vec::Vec;

use super::batch::{LENGTHS_VLMETA, METALAYER};
use crate::container::error::{Error, Result, Segment};
use crate::container::writer::{CParams, Chunk, Frame};
use crate::format::value::Value;

/// A BatchArray being written: its batches are compressed as they are pushed.
#[derive(Clone, Debug)]
pub struct BatchArrayWriter {
    params: b2schema_chunk::Params,
    items_per_block: Option<u64>,
    chunks: Vec<Vec<u8>>,
    lengths: Vec<u64>,
    /// Metalayers before `batcharray` (a list's `listarray`).
    tags: Vec<(String, Vec<u8>)>,
}

impl BatchArrayWriter {
    /// A writer compressing with `params` (codec, level, typesize and filters; no delta),
    /// `items_per_block` items to a VL block (`None`: the first batch's length, as
    /// python-blosc2 picks it for a first batch that small).
    pub fn new(params: b2schema_chunk::Params, items_per_block: Option<u64>) -> Self {
        BatchArrayWriter {
            params,
            items_per_block: items_per_block.filter(|&n| n > 0),
            chunks: Vec::new(),
            lengths: Vec::new(),
            tags: Vec::new(),
        }
    }

    /// The writer with the metalayer `name` (its msgpack `content`) before `batcharray`, as
    /// python-blosc2's ListArray tags its BatchArray `listarray`.
    pub fn with_metalayer(mut self, name: &str, content: Vec<u8>) -> Self {
        self.tags.push((name.into(), content));
        self
    }

    /// Appends one batch of `items` (at least one); returns the number of batches.
    pub fn push(&mut self, items: &[Value]) -> Result<usize> {
        let at = |e: Error| e.in_segment(Segment::Index(self.chunks.len())).in_field("batches");
        if items.is_empty() {
            return Err(at(Error::invalid("a batch of at least one item", 1, 0, 0)));
        }
        let per = *self.items_per_block.get_or_insert(items.len() as u64);
        let per = usize::try_from(per).unwrap_or(usize::MAX);
        let mut blocks = Vec::new();
        for group in items.chunks(per) {
            blocks.push(Value::Array(group.to_vec()).to_msgpack().map_err(|e| at(e.into()))?);
        }
        let refs: Vec<&[u8]> = blocks.iter().map(Vec::as_slice).collect();
        let chunk =
            b2schema_chunk::compress_vl_blocks(&refs, &self.params).map_err(|e| at(Error::chunk(e, 0)))?;
        self.chunks.push(chunk);
        self.lengths.push(items.len() as u64);
        Ok(self.chunks.len())
    }

    /// The frame of the batches pushed so far.
    pub fn to_frame(&self) -> Result<Frame> {
        let p = &self.params;
        let mut f = Frame::new(i32::try_from(p.typesize).unwrap_or(1).max(1));
        f.cparams = CParams {
            codec: p.codec,
            codec_meta: p.codec_meta,
            clevel: p.clevel,
            filters: p.filters,
            filters_meta: p.filters_meta,
            ..CParams::default()
        };
        f.chunksize = 0;
        let ipb = match self.items_per_block {
            Some(n) => Value::Int(n.into()),
            None => Value::Nil,
        };
        let meta = Value::Map(alloc::vec![
            (Value::from("version"), Value::Int(1)),
            (Value::from("serializer"), Value::from("msgpack")),
            (Value::from("items_per_block"), ipb),
            (Value::from("arrow_schema"), Value::Nil),
        ]);
        f.metalayers = self.tags.clone();
        f.metalayers.push((METALAYER.into(), meta.to_msgpack()?));
        let lengths = Value::Map(alloc::vec![(
            Value::from("batch_lengths"),
            Value::Array(self.lengths.iter().map(|&n| Value::Int(n.into())).collect()),
        )]);
        f.vlmetalayers = alloc::vec![(LENGTHS_VLMETA.into(), lengths.to_msgpack()?)];
        f.chunks = self.chunks.iter().map(|c| Chunk::from_compressed(c.clone())).collect::<Result<_>>()?;
        Ok(f)
    }

    /// The `.b2b` frame's bytes.
    pub fn to_vec(&self) -> Result<Vec<u8>> {
        self.to_frame()?.to_vec()
    }

    /// Writes the `.b2b` frame to `path`, whole or not at all (a temporary file beside it,
    /// synced, then renamed onto it).
    pub fn write_file(&self, path: impl AsRef<std::path::Path>) -> Result<()> {
        self.to_frame()?.write_file(path)
    }
}
