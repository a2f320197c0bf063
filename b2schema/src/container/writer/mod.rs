//! Writing Blosc2 frames that c-blosc2 and python-blosc2 open, without the C library.
//!
//! [`Frame`] is a whole frame: compression parameters, metalayers, vlmetalayers and chunks; it
//! writes a contiguous frame ([`Frame::to_vec`], [`Frame::write_file`]) or a sparse-frame
//! directory ([`Frame::write_sparse`]), computing header_len, frame_len, nbytes, cbytes, the
//! offsets index and every metalayer offset. [`NdArray`] builds the frame of an array (the `b2nd`
//! metalayer, edge padding and block order as c-blosc2), [`schunk`] one of plain bytes. Chunks
//! are compressed with the frame's [`CParams`] by [`crate::chunk::compress`] (zero chunks become
//! special values that take no space).
//!
//! ```
//! use b2schema::writer::{Fill, NdArray};
//! let data: Vec<u8> = (0..12i32).flat_map(|v| v.to_le_bytes()).collect();
//! let frame = NdArray::new(&[3, 4], &[2, 4], &[1, 2], "<i4", 4, Fill::Data(&data)).to_frame().unwrap();
//! let bytes = frame.to_vec().unwrap();
//! let view = b2schema::frame::FrameView::from_slice(&bytes).unwrap();
//! assert_eq!(view.nchunks().unwrap(), 2);
//! ```

mod append;
#[cfg(feature = "std")]
mod array;
pub mod chunk;
mod cparams;
#[cfg(feature = "std")]
pub(crate) mod edit;
#[cfg(feature = "std")]
mod edit_array;
#[cfg(feature = "std")]
mod item;
mod ndarray;
#[cfg(feature = "std")]
pub(crate) mod replace;
mod shapes;
mod stream;

#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub use append::{
    FrameIo, append_chunk, append_chunk_to, delete_vlmetalayer, delete_vlmetalayer_from, set_vlmetalayer,
    set_vlmetalayer_to,
};
#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub use array::Array;
pub use cparams::CParams;
#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub use edit::{ChunkReader, Edit, FrameMut, compact_file};
#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub use edit_array::ArrayMut;
#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub use item::Item;
pub use ndarray::{Fill, NdArray, schunk, schunk_with};
pub use shapes::{default_blocks, default_shapes};

use alloc::string::String;
use alloc::vec::Vec;

use crate::container::error::{Error, Result};
use crate::container::frame::{
    FilterPipeline, Fingerprint, FrameFlags, FrameHeader, MAX_METALAYERS, MetaLayers, SpecialValue, Trailer,
};

/// One chunk of a frame.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Chunk {
    /// A complete Blosc chunk (see [`chunk`] for building one).
    Stored(Vec<u8>),
    /// A chunk of `nbytes` with no stored bytes: zeros, NaN or uninitialized.
    Special {
        /// Zeros, NaN or uninit (a repeated value is a stored chunk).
        kind: SpecialValue,
        /// Uncompressed bytes.
        nbytes: u64,
    },
}

impl Chunk {
    /// Bytes it decompresses to.
    pub fn nbytes(&self) -> u64 {
        match self {
            Chunk::Stored(c) => u32::from_le_bytes([c[4], c[5], c[6], c[7]]) as u64,
            Chunk::Special { nbytes, .. } => *nbytes,
        }
    }

    /// A compressed chunk as a frame holds it: zero, NaN and uninit chunks become index entries
    /// with no stored bytes (as c-blosc2's `frame_append_chunk` does), others are stored.
    pub fn from_compressed(bytes: Vec<u8>) -> Result<Chunk> {
        let h = b2schema_chunk::ChunkHeader::parse(&bytes).map_err(|e| Error::chunk(e, 0))?;
        Ok(Self::of_header(&h, bytes))
    }

    /// [`from_compressed`](Self::from_compressed) of a chunk whose bytes after its block table
    /// were partly taken by the writer as it was made ([`b2schema_chunk::compress::Watch`]):
    /// only its header is checked here; the streamed writer puts the rest back in place.
    #[cfg(feature = "std")]
    pub(crate) fn from_streamed(bytes: Vec<u8>) -> Result<Chunk> {
        let h = b2schema_chunk::ChunkHeader::peek(&bytes).map_err(|e| Error::chunk(e, 0))?;
        Ok(Self::of_header(&h, bytes))
    }

    /// A stored chunk, or the index entry of a special one (`h` its header).
    fn of_header(h: &b2schema_chunk::ChunkHeader, bytes: Vec<u8>) -> Chunk {
        let kind = match h.special() {
            b2schema_chunk::Special::Zero => SpecialValue::Zeros,
            b2schema_chunk::Special::Nan => SpecialValue::Nan,
            b2schema_chunk::Special::Uninit => SpecialValue::Uninit,
            b2schema_chunk::Special::None | b2schema_chunk::Special::Value => return Chunk::Stored(bytes),
        };
        Chunk::Special { kind, nbytes: h.uncompressed_len() as u64 }
    }

    /// The index entry of a chunk with no stored bytes.
    pub(crate) fn special_entry(kind: SpecialValue) -> Result<i64> {
        crate::container::frame::special_entry(kind).ok_or_else(|| {
            Error::invalid("a special kind without bytes (zeros, NaN, uninit)", "", "value", 0)
        })
    }

    /// Checks a stored chunk's header and returns its length.
    fn check(&self) -> Result<()> {
        if let Chunk::Stored(c) = self {
            let h = b2schema_chunk::ChunkHeader::parse(c).map_err(|e| Error::chunk(e, 0))?;
            if h.compressed_len() != c.len() {
                return Err(Error::invalid(
                    "a chunk whose cbytes is its length",
                    c.len(),
                    h.compressed_len(),
                    12,
                ));
            }
        }
        Ok(())
    }
}

/// A whole frame to write.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frame {
    /// Compression parameters.
    pub cparams: CParams,
    /// Bytes per item (the header's typesize).
    pub typesize: i32,
    /// The header's blocksize (0: automatic).
    pub blocksize: i32,
    /// The header's chunksize: -1 before any chunk, 0 for variable-size chunks.
    pub chunksize: i32,
    /// Metalayers (name, content), in order; at most 16, names under 32 bytes.
    pub metalayers: Vec<(String, Vec<u8>)>,
    /// Vlmetalayers (name, value bytes, e.g. msgpack); each is stored as a chunk compressed
    /// with python-blosc2's vlmeta parameters ([`chunk::vlmeta`]).
    pub vlmetalayers: Vec<(String, Vec<u8>)>,
    /// The chunks, in order.
    pub chunks: Vec<Chunk>,
}

/// Where a frame's chunks go.
#[derive(Clone, Copy, PartialEq, Eq)]
#[cfg_attr(not(feature = "std"), allow(dead_code))]
enum Kind {
    Contiguous,
    Sparse,
}

/// A sparse frame's files ([`Frame::sparse_files`]).
#[derive(Debug)]
pub struct SparseFiles<'a> {
    /// The chunk files (`%08X.chunk`, the stored chunks in order) and their bytes.
    pub chunks: Vec<(String, &'a [u8])>,
    /// The index file's bytes (`chunks.b2frame`: header, offsets index of chunk ids, trailer).
    pub index: Vec<u8>,
}

/// The pieces of an encoded frame.
struct Encoded {
    pub header: Vec<u8>,
    pub chunks: Vec<u8>,
    pub index: Vec<u8>,
    pub trailer: Vec<u8>,
}

impl Frame {
    /// An empty frame of items of `typesize` bytes with the default parameters.
    pub fn new(typesize: i32) -> Self {
        Frame {
            cparams: CParams::default(),
            typesize,
            blocksize: 0,
            chunksize: -1,
            metalayers: Vec::new(),
            vlmetalayers: Vec::new(),
            chunks: Vec::new(),
        }
    }

    /// The contiguous frame's bytes.
    pub fn to_vec(&self) -> Result<Vec<u8>> {
        let e = self.encode(Kind::Contiguous)?;
        let mut out = e.header;
        out.extend_from_slice(&e.chunks);
        out.extend_from_slice(&e.index);
        out.extend_from_slice(&e.trailer);
        Ok(out)
    }

    /// Writes the contiguous frame to `path` (a new file, or replacing one).
    #[cfg(feature = "std")]
    #[cfg_attr(docsrs, doc(cfg(feature = "std")))]
    pub fn write_file(&self, path: impl AsRef<std::path::Path>) -> Result<()> {
        std::fs::write(path, self.to_vec()?)?;
        Ok(())
    }

    /// Writes a sparse-frame directory: `chunks.b2frame` (header, offsets index of chunk ids,
    /// trailer) and one `%08X.chunk` file per stored chunk. The directory must not exist yet.
    #[cfg(feature = "std")]
    #[cfg_attr(docsrs, doc(cfg(feature = "std")))]
    pub fn write_sparse(&self, dir: impl AsRef<std::path::Path>) -> Result<()> {
        let dir = dir.as_ref();
        let files = self.sparse_files()?;
        std::fs::create_dir(dir)?;
        for (name, bytes) in &files.chunks {
            std::fs::write(dir.join(name), bytes)?;
        }
        std::fs::write(dir.join(crate::container::frame::SPARSE_INDEX), files.index)?;
        Ok(())
    }

    /// The files of the sparse frame, to be stored where the caller keeps them (an object
    /// store's prefix): its chunk files, and its index, which names them and is to be stored
    /// last.
    pub fn sparse_files(&self) -> Result<SparseFiles<'_>> {
        let e = self.encode(Kind::Sparse)?;
        let stored = self.chunks.iter().filter_map(|c| match c {
            Chunk::Stored(bytes) => Some(bytes.as_slice()),
            Chunk::Special { .. } => None,
        });
        let chunks =
            stored.enumerate().map(|(id, bytes)| (alloc::format!("{id:08X}.chunk"), bytes)).collect();
        let mut index = e.header;
        index.extend_from_slice(&e.index);
        index.extend_from_slice(&e.trailer);
        Ok(SparseFiles { chunks, index })
    }

    fn check(&self) -> Result<()> {
        if self.typesize <= 0 {
            return Err(Error::invalid("typesize > 0, not", "positive", self.typesize, 0));
        }
        if self.metalayers.len() > MAX_METALAYERS {
            return Err(Error::invalid(
                "at most this many metalayers:",
                MAX_METALAYERS,
                self.metalayers.len(),
                0,
            ));
        }
        if self.vlmetalayers.len() > MAX_METALAYERS {
            // c-blosc2's trailer writer refuses a 17th vlmetalayer.
            return Err(Error::invalid(
                "at most this many vlmetalayers:",
                MAX_METALAYERS,
                self.vlmetalayers.len(),
                0,
            ));
        }
        for (name, _) in self.metalayers.iter().chain(&self.vlmetalayers) {
            if name.len() > 31 {
                return Err(Error::invalid("a layer name of at most 31 bytes:", name, name.len(), 0));
            }
        }
        for c in &self.chunks {
            c.check()?;
        }
        Ok(())
    }

    fn encode(&self, kind: Kind) -> Result<Encoded> {
        self.check()?;
        let nbytes: u64 = self.chunks.iter().map(Chunk::nbytes).sum();
        let mut chunks = Vec::new();
        let mut offsets = Vec::with_capacity(self.chunks.len());
        let mut stored = 0u64;
        let mut next_id = 0i64;
        for c in &self.chunks {
            match c {
                Chunk::Stored(bytes) => {
                    match kind {
                        Kind::Contiguous => {
                            offsets.push(chunks.len() as i64);
                            chunks.extend_from_slice(bytes);
                        }
                        Kind::Sparse => {
                            offsets.push(next_id);
                            next_id += 1;
                        }
                    }
                    stored += bytes.len() as u64;
                }
                Chunk::Special { kind, .. } => offsets.push(Chunk::special_entry(*kind)?),
            }
        }
        let index = if nbytes == 0 { Vec::new() } else { chunk::offsets_index(&offsets)? };

        let header = self.header(nbytes, stored, kind, 0)?;
        let trailer = self.vl_trailer()?;
        let frame_len = (header.len() + chunks.len() + index.len() + trailer.len()) as i64;
        let header = self.header(
            nbytes,
            stored,
            kind,
            match kind {
                // A sparse frame's frame_len is the length of its index file.
                Kind::Contiguous => frame_len,
                Kind::Sparse => (header.len() + index.len() + trailer.len()) as i64,
            },
        )?;
        Ok(Encoded { header, chunks, index, trailer })
    }

    /// The trailer's bytes: the vlmetalayers, each compressed as a chunk.
    fn vl_trailer(&self) -> Result<Vec<u8>> {
        let vl_chunks: Vec<(String, Vec<u8>)> = self
            .vlmetalayers
            .iter()
            .map(|(n, v)| Ok((n.clone(), chunk::vlmeta(v)?)))
            .collect::<Result<_>>()?;
        trailer(&vl_chunks)
    }

    /// The header's bytes for these totals.
    fn header(&self, nbytes: u64, cbytes: u64, kind: Kind, frame_len: i64) -> Result<Vec<u8>> {
        let layers: Vec<(&str, &[u8])> =
            self.metalayers.iter().map(|(n, c)| (n.as_str(), c.as_slice())).collect();
        let metalayers = MetaLayers::build(&layers, crate::container::frame::HEADER_FIXED_LEN);
        let p = &self.cparams;
        let variable = self.chunksize == 0;
        let header = FrameHeader {
            magic: *b"b2frame\0",
            header_len: 0, // computed by the encoder
            frame_len,
            flags: FrameFlags {
                // Format 2 with 64-bit offsets; 3 with the variable-chunks bit for chunksize 0.
                general: if variable { 0x53 } else { 0x12 },
                frame_type: match kind {
                    Kind::Contiguous => 0,
                    Kind::Sparse => 1,
                },
                codec: p.codec.id().min(6) | (p.clevel.min(15) << 4),
                other: p.splitmode.value() - 1,
            },
            nbytes: nbytes as i64,
            cbytes: cbytes as i64,
            typesize: self.typesize,
            blocksize: self.blocksize,
            chunksize: self.chunksize,
            nthreads_comp: p.nthreads,
            nthreads_decomp: p.nthreads,
            has_vlmetalayers: !self.vlmetalayers.is_empty(),
            filter_pipeline: FilterPipeline {
                nfilters: 6,
                filters: p.filters.map(|f| f.id()),
                udcodec: p.codec.id(),
                codec_meta: p.codec_meta,
                filters_meta: p.filters_meta,
                other_flags2: p.use_dict as u8,
                reserved: 0,
            },
            metalayers,
        };
        Ok(crate::schema::codec::encode_to_vec(&header)?)
    }
}

/// The trailer's bytes for vlmetalayers whose values are already chunks.
pub(crate) fn trailer(vl_chunks: &[(String, Vec<u8>)]) -> Result<Vec<u8>> {
    let layers: Vec<(&str, &[u8])> = vl_chunks.iter().map(|(n, c)| (n.as_str(), c.as_slice())).collect();
    let t = Trailer {
        version: 1,
        vlmetalayers: MetaLayers::build(&layers, 2),
        trailer_len: 0, // computed by the encoder
        fingerprint: Fingerprint::default(),
    };
    Ok(crate::schema::codec::encode_to_vec(&t)?)
}
