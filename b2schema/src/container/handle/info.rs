//! A container's compression parameters with their names ([`CParams`]) and a summary of it as
//! python-blosc2's `.info` gives one ([`Info`]).

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use super::{Container, Kind};
use crate::container::error::Result;
use crate::container::frame::SplitMode;
use b2schema_chunk::{Codec, Filter};

/// The compression parameters a frame was written with (its header's), as python-blosc2's
/// `cparams`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct CParams {
    /// The codec.
    pub codec: Codec,
    /// The codec's meta byte (`codec_meta`: a ZFP accuracy, precision or rate).
    pub codec_meta: u8,
    /// The compression level, 0-9.
    pub clevel: u8,
    /// The filter pipeline without its empty slots, in the order filters run when compressing,
    /// each with its meta byte (`filters_meta`).
    pub filters: Vec<(Filter, u8)>,
    /// Bytes per item.
    pub typesize: u32,
    /// Bytes per block (0: chosen per chunk).
    pub blocksize: u32,
    /// Bytes per chunk.
    pub chunksize: u32,
    /// How blocks are split in streams.
    pub splitmode: SplitMode,
    /// Whether a dictionary is used (zstd, lz4).
    pub use_dict: bool,
    /// Threads the writer compressed with (as the header records them).
    pub nthreads: u16,
}

impl CParams {
    /// The codec's name (`"zstd"`), or its decimal id for a codec that has none.
    pub fn codec_name(&self) -> String {
        self.codec.to_string()
    }

    /// The filters' names, in order (`["shuffle"]`).
    pub fn filter_names(&self) -> Vec<String> {
        self.filters.iter().map(|(f, _)| f.to_string()).collect()
    }
}

/// A summary of a container, as python-blosc2's `.info`: what it is, its geometry and dtype,
/// its sizes and ratio, its parameters and its metadata's names. `Display` writes it as
/// `name : value` lines.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Info {
    /// NDArray or SChunk.
    pub kind: Kind,
    /// The shape ([`Container::shape`]).
    pub shape: Vec<u64>,
    /// The chunk shape.
    pub chunks: Vec<u64>,
    /// The block shape.
    pub blocks: Vec<u64>,
    /// The dtype, as NumPy writes it (`"<f8"`), when there is one.
    pub dtype: Option<String>,
    /// Bytes of data (the header's `nbytes`: padded chunks included).
    pub nbytes: u64,
    /// Bytes the chunks take (the header's `cbytes`).
    pub cbytes: u64,
    /// The number of chunks.
    pub nchunks: u64,
    /// The compression parameters.
    pub cparams: CParams,
    /// The metalayers' names.
    pub meta: Vec<String>,
    /// The vlmetalayers' names.
    pub vlmeta: Vec<String>,
}

impl Info {
    /// `nbytes / cbytes` (0 for an empty container).
    pub fn cratio(&self) -> f64 {
        if self.cbytes == 0 { 0.0 } else { self.nbytes as f64 / self.cbytes as f64 }
    }
}

fn tuple(dims: &[u64]) -> String {
    match dims {
        [one] => alloc::format!("({one},)"),
        _ => {
            let parts: Vec<String> = dims.iter().map(|d| d.to_string()).collect();
            alloc::format!("({})", parts.join(", "))
        }
    }
}

impl fmt::Display for Info {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match self.kind {
            Kind::NdArray => "NDArray",
            Kind::SChunk => "SChunk",
        };
        let c = &self.cparams;
        writeln!(f, "type    : {kind}")?;
        writeln!(f, "shape   : {}", tuple(&self.shape))?;
        writeln!(f, "chunks  : {}", tuple(&self.chunks))?;
        writeln!(f, "blocks  : {}", tuple(&self.blocks))?;
        if let Some(d) = &self.dtype {
            writeln!(f, "dtype   : {d}")?;
        }
        writeln!(f, "nbytes  : {}", self.nbytes)?;
        writeln!(f, "cbytes  : {}", self.cbytes)?;
        writeln!(f, "cratio  : {:.2}", self.cratio())?;
        writeln!(f, "nchunks : {}", self.nchunks)?;
        let filters: Vec<String> = c
            .filters
            .iter()
            .map(|(flt, m)| if *m == 0 { flt.to_string() } else { alloc::format!("{flt}:{m}") })
            .collect();
        writeln!(
            f,
            "cparams : codec={}, codec_meta={}, clevel={}, filters=[{}], typesize={}, blocksize={}, splitmode={:?}, use_dict={}",
            c.codec,
            c.codec_meta,
            c.clevel,
            filters.join(", "),
            c.typesize,
            c.blocksize,
            c.splitmode,
            c.use_dict
        )?;
        writeln!(f, "meta    : [{}]", names(&self.meta))?;
        write!(f, "vlmeta  : [{}]", names(&self.vlmeta))
    }
}

fn names(list: &[String]) -> String {
    let quoted: Vec<String> = list.iter().map(|n| alloc::format!("{n:?}")).collect();
    quoted.join(", ")
}

impl Container {
    /// The compression parameters, from the frame's header.
    pub fn cparams(&self) -> CParams {
        let v = self.file.view().expect("a container's frame was checked when it was opened");
        let h = &v.header;
        let p = &h.filter_pipeline;
        let filters = p
            .filters()
            .iter()
            .zip(p.filters_meta)
            .filter(|(flt, _)| flt.id() != 0)
            .map(|(&flt, m)| (flt, m))
            .collect();
        CParams {
            codec: h.codec(),
            codec_meta: p.codec_meta,
            clevel: h.flags.clevel(),
            filters,
            typesize: u32::try_from(h.typesize).unwrap_or(0),
            blocksize: u32::try_from(h.blocksize).unwrap_or(0),
            chunksize: u32::try_from(h.chunksize).unwrap_or(0),
            splitmode: h.flags.splitmode(),
            use_dict: p.use_dict(),
            nthreads: u16::try_from(h.nthreads_comp).unwrap_or(0),
        }
    }

    /// A summary, as python-blosc2's `.info`.
    pub fn info(&self) -> Result<Info> {
        let v = self.file.view().map_err(|e| self.named(e))?;
        let meta = v.header.metalayers.iter().map(|(n, _, _)| n.into()).collect();
        let vlmeta = v.trailer.vlmetalayers.iter().map(|(n, _, _)| n.into()).collect();
        Ok(Info {
            kind: self.kind(),
            shape: self.shape().to_vec(),
            chunks: self.chunks().to_vec(),
            blocks: self.blocks().to_vec(),
            dtype: self.dtype().map(|d| d.to_numpy_str()),
            nbytes: u64::try_from(v.header.nbytes).unwrap_or(0),
            cbytes: u64::try_from(v.header.cbytes).unwrap_or(0),
            nchunks: v.nchunks().map_err(|e| self.named(e))?,
            cparams: self.cparams(),
            meta,
            vlmeta,
        })
    }
}
