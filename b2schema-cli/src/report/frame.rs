//! The report of one frame (`inspect FRAME`): its `--json` object (the `report` of
//! `b2schema-cli/schema/inspect.schema.json`, keys in this order, a key that does not apply
//! left out) and its human view. Built by [`crate::inspect::report`].

use std::fmt::{self, Display, Formatter};

use b2schema::b2nd::NdMeta;
use b2schema::chunk::{ChunkHeader, Codec, Filter};
use b2schema::frame::{ChunkInfo, ChunkLocation, SpecialValue};
use serde::Serialize;
use serde_json::Value;

use super::FileName;
use crate::text;

/// A frame's report. With `--all-chunks` its `chunks` are not collected here but written as
/// they are read (then `chunks` is `None`).
#[derive(Debug, Serialize)]
pub struct Frame {
    /// The contract's version, [`super::SCHEMA_VERSION`].
    pub schema: u32,
    #[serde(flatten)]
    pub name: FileName,
    /// `"cframe"` (contiguous) or `"sframe"` (sparse).
    pub kind: &'static str,
    /// Where the frame starts in its file.
    pub offset: u64,
    pub header: Header,
    pub metalayers: Vec<Metalayer>,
    pub vlmetalayers: Vec<VlMetalayer>,
    /// The number of chunks; `None` when it could not be read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nchunks: Option<u64>,
    /// `None` when the offsets index could not be read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chunk_summary: Option<ChunkSummary>,
    /// The chunks listed (the first `--max-items`); `None` when the index could not be read or
    /// the chunks are streamed (`--all-chunks`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chunks: Option<Vec<Chunk>>,
    /// How many chunks are not listed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chunks_not_listed: Option<usize>,
    /// The parts that could not be read.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub errors: Vec<Problem>,
}

/// The frame's header, its fields as decoded.
#[derive(Debug, Serialize)]
pub struct Header {
    pub header_len: i32,
    pub frame_len: i64,
    pub format_version: u8,
    /// `"contiguous"` or `"sparse"`.
    pub frame_type: &'static str,
    pub variable_chunks: bool,
    pub vl_blocks: bool,
    pub codec_id: u8,
    /// The codec's name, when this build knows it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub codec: Option<&'static str>,
    pub codec_meta: u8,
    pub clevel: u8,
    pub splitmode: &'static str,
    pub use_dict: bool,
    pub nbytes: i64,
    pub cbytes: i64,
    pub typesize: i32,
    pub blocksize: i32,
    pub chunksize: i32,
    pub nthreads_comp: i16,
    pub nthreads_decomp: i16,
    pub has_vlmetalayers: bool,
    pub filters: [u8; 6],
    /// Each slot's filter by name ([`filter_name`]).
    pub filter_names: Vec<String>,
    pub filters_meta: [u8; 6],
}

/// A metalayer (in the header): where, how long, its bytes as far as shown, and what they hold.
#[derive(Debug, Serialize)]
pub struct Metalayer {
    pub name: String,
    pub offset: i32,
    pub len: usize,
    /// Its bytes (the first `--max-shown` of them when `truncated`) in hex.
    pub hex: String,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub truncated: bool,
    /// A `b2nd` (or `caterva`) metalayer, decoded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub b2nd: Option<Nd>,
    /// Any other metalayer shown whole, when it is msgpack.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<Value>,
}

/// An NDArray's `b2nd` metalayer.
#[derive(Debug, Serialize)]
pub struct Nd {
    pub layout: &'static str,
    pub version: u8,
    pub ndim: usize,
    pub shape: Vec<i64>,
    pub chunkshape: Vec<i32>,
    pub blockshape: Vec<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dtype_format: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dtype: Option<String>,
}

impl From<&NdMeta> for Nd {
    fn from(nd: &NdMeta) -> Self {
        Nd {
            layout: nd.layout.name(),
            version: nd.version,
            ndim: nd.ndim(),
            shape: nd.shape.clone(),
            chunkshape: nd.chunkshape.clone(),
            blockshape: nd.blockshape.clone(),
            dtype_format: nd.dtype_format,
            dtype: nd.dtype.clone(),
        }
    }
}

/// A vlmetalayer (in the trailer): where, its chunk's header, and its content as far as shown
/// (nothing but its place when its chunk cannot be read: that is a [`Problem`]).
#[derive(Debug, Serialize)]
pub struct VlMetalayer {
    pub name: String,
    pub offset: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chunk: Option<VlChunk>,
    /// The content (the first `--max-shown` bytes when `truncated`) in hex.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hex: Option<String>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub truncated: bool,
    /// Why the content was not decompressed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_shown: Option<String>,
    /// The whole content, when it is msgpack.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<Value>,
}

/// A vlmetalayer's chunk header.
#[derive(Debug, Serialize)]
pub struct VlChunk {
    pub cbytes: usize,
    pub nbytes: usize,
    pub codec: &'static str,
    pub memcpyed: bool,
}

impl From<&ChunkHeader> for VlChunk {
    fn from(ch: &ChunkHeader) -> Self {
        VlChunk {
            cbytes: ch.compressed_len(),
            nbytes: ch.uncompressed_len(),
            codec: ch.codec().map_or("unknown compressor format", Codec::label),
            memcpyed: ch.is_memcpyed(),
        }
    }
}

/// How many chunks of each kind the offsets index holds (stored chunks may still be special by
/// their own header: that shows in their listing).
#[derive(Debug, Default, Serialize)]
pub struct ChunkSummary {
    pub stored: u64,
    pub zeros: u64,
    pub nan: u64,
    pub uninit: u64,
}

impl ChunkSummary {
    /// The summary of the index `locations`.
    pub fn of(locations: &[ChunkLocation]) -> Self {
        let mut s = ChunkSummary::default();
        for loc in locations {
            match loc {
                ChunkLocation::Special(SpecialValue::Zeros) => s.zeros += 1,
                ChunkLocation::Special(SpecialValue::Nan) => s.nan += 1,
                ChunkLocation::Special(_) => s.uninit += 1,
                _ => s.stored += 1,
            }
        }
        s
    }

    /// The special chunks the index names.
    fn specials(&self) -> u64 {
        self.zeros + self.nan + self.uninit
    }
}

/// One chunk: its index, special value (`null` for a chunk with data), sizes and where its
/// bytes are (an offset in the frame, a sparse frame's chunk file, or nowhere).
#[derive(Debug, Serialize)]
pub struct Chunk {
    pub index: usize,
    pub special: Option<&'static str>,
    pub cbytes: u64,
    pub nbytes: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub offset: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file_id: Option<u32>,
}

impl From<&ChunkInfo> for Chunk {
    fn from(c: &ChunkInfo) -> Self {
        let (offset, file_id) = match c.location {
            ChunkLocation::Offset(o) => (Some(o), None),
            ChunkLocation::File(id) => (None, Some(id)),
            ChunkLocation::Special(_) => (None, None),
        };
        Chunk {
            index: c.index,
            special: c.special.map(|s| s.name()),
            cbytes: c.cbytes,
            nbytes: c.nbytes,
            offset,
            file_id,
        }
    }
}

/// A part of the frame that could not be read, and why.
#[derive(Clone, Debug, Serialize)]
pub struct Problem {
    pub part: String,
    pub error: String,
}

/// The first chunks the human view lists (the JSON lists up to `--max-items`).
const SHOWN: usize = 8;

impl Display for Frame {
    /// The human view: a few lines per part; text from the file is escaped, and the whole is
    /// meant to go through [`text::escape_lines`] (the chunk lines are not escaped again).
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let h = &self.header;
        writeln!(f, "{}: {} frame, {} bytes", self.name, h.frame_type, h.frame_len)?;
        writeln!(
            f,
            "header     {} bytes, format v{}{}{}",
            h.header_len,
            h.format_version,
            if h.variable_chunks { ", variable chunks" } else { "" },
            if h.vl_blocks { ", VL blocks" } else { "" },
        )?;
        let codec = h.codec.map(str::to_owned).unwrap_or_else(|| format!("codec {}", h.codec_id));
        writeln!(
            f,
            "  codec    {codec} (id {}), clevel {}, splitmode {}{}",
            h.codec_id,
            h.clevel,
            h.splitmode,
            if h.use_dict { ", dictionary" } else { "" }
        )?;
        let filters: Vec<String> = h
            .filters
            .iter()
            .zip(&h.filters_meta)
            .filter(|&(&id, _)| id != 0)
            .map(
                |(&id, &meta)| {
                    if meta == 0 { filter_name(id) } else { format!("{}({meta})", filter_name(id)) }
                },
            )
            .collect();
        writeln!(f, "  filters  {}", if filters.is_empty() { "none".into() } else { filters.join(", ") })?;
        writeln!(
            f,
            "  sizes    nbytes {}, cbytes {}, typesize {}, blocksize {}, chunksize {}",
            h.nbytes, h.cbytes, h.typesize, h.blocksize, h.chunksize
        )?;
        writeln!(
            f,
            "  threads  {} compression, {} decompression (as written)",
            h.nthreads_comp, h.nthreads_decomp
        )?;
        writeln!(f, "metalayers {}", self.metalayers.len())?;
        for m in &self.metalayers {
            writeln!(f, "{m}")?;
        }
        writeln!(f, "vlmeta     {}", self.vlmetalayers.len())?;
        for m in &self.vlmetalayers {
            writeln!(f, "{m}")?;
        }
        let chunks = self.chunks.as_deref().unwrap_or_default();
        // The special chunks: those the index names and those listed special by their own header
        // (a listed chunk without bytes is one the index names: counted once).
        let listed = chunks.iter().filter(|c| c.special.is_some()).count() as u64;
        let named = self.chunk_summary.as_ref().map_or(0, ChunkSummary::specials);
        let listed_named = chunks.iter().filter(|c| c.special.is_some() && c.cbytes == 0).count() as u64;
        let specials = listed + named - listed_named.min(named);
        match self.nchunks {
            Some(n) => writeln!(f, "chunks     {n} ({specials} special)")?,
            None => writeln!(f, "chunks     null ({specials} special)")?,
        }
        for c in chunks.iter().take(SHOWN) {
            writeln!(f, "{c}")?;
        }
        let total = self.nchunks.unwrap_or(chunks.len() as u64);
        if total > SHOWN as u64 && !chunks.is_empty() {
            writeln!(f, "  ... {} more", total - SHOWN as u64)?;
        }
        for e in &self.errors {
            writeln!(f, "!! {}: {}", text::escape(&e.part), text::escape(&e.error))?;
        }
        Ok(())
    }
}

impl Display for Metalayer {
    /// Its line of the human view.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "  {:<10} {} bytes at {}", text::escape(&self.name), self.len, self.offset)?;
        if let Some(nd) = &self.b2nd {
            write!(
                f,
                ": {}, shape {}, chunks {}, blocks {}",
                nd.layout,
                super::list(&nd.shape),
                super::list(&nd.chunkshape),
                super::list(&nd.blockshape)
            )?;
            if let Some(d) = &nd.dtype {
                write!(f, ", dtype {}", text::escape(d))?;
            }
        } else if let Some(v) = &self.value {
            write!(f, ": {}", text::escape(&short(&v.to_string())))?;
        }
        Ok(())
    }
}

impl Display for VlMetalayer {
    /// Its line of the human view.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "  {:<10}", text::escape(&self.name))?;
        if let Some(c) = &self.chunk {
            let how = if c.memcpyed { "memcpy" } else { c.codec };
            write!(f, " {} -> {} ({how})", c.cbytes, bytes(c.nbytes as u64))?;
        }
        match (&self.value, &self.hex) {
            (Some(v), _) => write!(f, ": {}", text::escape(&short(&v.to_string())))?,
            (None, Some(h)) => write!(f, ": raw {}", short(h))?,
            _ => {}
        }
        if let Some(why) = &self.not_shown {
            write!(f, ": not shown, {}", text::escape(why))?;
        }
        Ok(())
    }
}

impl Display for Chunk {
    /// Its line of the human view.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let place = match (self.offset, self.file_id) {
            (Some(o), _) => format!("offset {o}"),
            (_, Some(id)) => format!("file {id:08X}.chunk"),
            _ => "no bytes".into(),
        };
        let special = self.special.map(|k| format!(", {k}")).unwrap_or_default();
        // The index unpadded, as the human view has always shown it.
        write!(f, "  #{} {place:<20} {} -> {}{special}", self.index, self.cbytes, bytes(self.nbytes))
    }
}

/// A filter's name in `header.filter_names`: its name, `"none"` for 0 (no filter in that
/// slot), `"filter N"` for an id this build does not know.
pub fn filter_name(id: u8) -> String {
    match id {
        0 => "none".into(),
        _ => Filter::from_id(id).name().map(str::to_owned).unwrap_or_else(|| format!("filter {id}")),
    }
}

/// "1 byte", "N bytes".
fn bytes(n: u64) -> String {
    format!("{n} byte{}", if n == 1 { "" } else { "s" })
}

/// `s`, its first 60 characters and `...` when longer.
fn short(s: &str) -> String {
    const MAX: usize = 60;
    if s.chars().count() <= MAX {
        s.to_owned()
    } else {
        format!("{}...", s.chars().take(MAX).collect::<String>())
    }
}
