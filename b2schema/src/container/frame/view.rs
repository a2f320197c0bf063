//! A frame's metadata, decoded and validated by the reference reader's checklist.

use alloc::vec::Vec;

use super::codes::FrameType;
use super::header::FrameHeader;
use super::index::{self, ChunkLocation};
use super::trailer::{TRAILER_LEN_FROM_END, Trailer};
use crate::container::error::{Error, Result};
use crate::format::encoding::marker;

/// Length of the fixed part of the header (`FRAME_HEADER_MINLEN`).
pub const HEADER_FIXED_LEN: usize = 87;
/// The smallest trailer c-blosc2 reads (`FRAME_TRAILER_MINLEN`; it writes at least 35).
pub const TRAILER_MIN_LEN: usize = 25;
/// The most metalayers in a header (`BLOSC2_MAX_METALAYERS`).
pub const MAX_METALAYERS: usize = 16;
/// The most vlmetalayers a reader accepts (`BLOSC2_MAX_VLMETALAYERS`).
pub const MAX_VLMETALAYERS: usize = 8192;

/// The metadata of one frame: header, trailer and offsets index, borrowed from their bytes.
#[derive(Debug, Clone)]
pub struct FrameView<'a> {
    /// The decoded header.
    pub header: FrameHeader<'a>,
    /// The decoded trailer.
    pub trailer: Trailer<'a>,
    /// The header's bytes (`header_len` of them).
    pub header_bytes: &'a [u8],
    /// The trailer's bytes (`trailer_len` of them).
    pub trailer_bytes: &'a [u8],
    /// The offsets chunk's bytes (empty when the frame holds no data).
    pub index_bytes: &'a [u8],
    /// Where the offsets chunk starts in the frame.
    pub index_offset: u64,
    /// Where the trailer starts in the frame.
    pub trailer_offset: u64,
}

/// The three byte ranges of a frame the metadata lives in, as read from a buffer or a file.
pub(crate) struct Parts<'a> {
    pub header: &'a [u8],
    pub index: &'a [u8],
    pub trailer: &'a [u8],
    pub index_offset: u64,
    pub trailer_offset: u64,
    pub frame_len: u64,
}

impl<'a> FrameView<'a> {
    /// Reads an in-memory contiguous frame (a cframe): `frame` must be exactly `frame_len` bytes.
    pub fn from_slice(frame: &'a [u8]) -> Result<Self> {
        let header_len = header_len(frame)?;
        let frame_len = frame_len(frame)?;
        if frame_len != frame.len() as u64 {
            return Err(Error::invalid("frame_len equal to the buffer length", frame.len(), frame_len, 16)
                .in_field("frame_len"));
        }
        if !(HEADER_FIXED_LEN as u64..=frame_len).contains(&(header_len as u64)) {
            return Err(Error::invalid("header_len", alloc::format!("in 87..={frame_len}"), header_len, 11)
                .in_field("header_len"));
        }
        let header = bytes_at(frame, 0, header_len as u64, "header")?;
        let (trailer_offset, trailer) = trailer_range(frame, frame_len)?;
        let probe: FrameHeader =
            crate::schema::codec::decode_take_from_slice(header).map_err(|e| e.or_field("header"))?.0;
        let index_offset = (header_len as u64).saturating_add(probe.cbytes.max(0) as u64);
        let index = if probe.nbytes > 0 && index_offset <= trailer_offset {
            bytes_at(frame, index_offset, trailer_offset - index_offset, "offsets index")?
        } else {
            &[]
        };
        Self::from_parts(
            Parts { header, index, trailer, index_offset, trailer_offset, frame_len },
            FrameType::Contiguous,
        )
    }

    /// Decodes and validates the parts of a frame of type `expect`.
    pub(crate) fn from_parts(p: Parts<'a>, expect: FrameType) -> Result<Self> {
        let (header, rest) = crate::schema::codec::decode_take_from_slice::<FrameHeader>(p.header)
            .map_err(|e| e.or_field("header"))?;
        if !rest.is_empty() {
            return Err(Error::invalid(
                "header_len equal to the header's encoded length",
                p.header.len() - rest.len(),
                p.header.len(),
                11,
            )
            .in_field("header_len"));
        }
        check_header(&header, expect, p.frame_len)?;
        header.metalayers.validate(HEADER_FIXED_LEN, HEADER_FIXED_LEN, MAX_METALAYERS, "metalayers")?;

        let t = p.trailer_offset as usize;
        let trailer: Trailer = crate::schema::codec::decode_from_slice(p.trailer)
            .map_err(|e| e.shift_offset(t).in_field("trailer"))?;
        if trailer.trailer_len as usize != p.trailer.len() {
            return Err(Error::invalid(
                "trailer_len as stored at frame_len - 22",
                p.trailer.len(),
                trailer.trailer_len,
                t,
            )
            .in_field("trailer_len"));
        }
        trailer
            .vlmetalayers
            .validate(2, t + 2, MAX_VLMETALAYERS, "vlmetalayers")
            .map_err(|e| e.in_field("trailer"))?;

        // The chunks section (cframe) ends where the offsets index starts, which ends at the trailer.
        let chunks_end =
            header.header_len as u64 + if expect == FrameType::Contiguous { header.cbytes as u64 } else { 0 };
        if header.nbytes > 0 {
            if chunks_end != p.index_offset || p.index.is_empty() {
                // header_len + cbytes says where the index starts: cbytes is the culprit.
                return Err(Error::invalid(
                    "an offsets index between the chunks and the trailer, at",
                    chunks_end,
                    alloc::format!(
                        "{} at {}",
                        crate::format::error::bytes(p.index.len() as u64),
                        p.index_offset
                    ),
                    39,
                )
                .in_field("cbytes"));
            }
        } else if p.trailer_offset != chunks_end {
            return Err(Error::invalid(
                "the trailer right after the header of an empty frame, at",
                chunks_end,
                p.trailer_offset,
                t,
            )
            .in_field("trailer"));
        }
        Ok(FrameView {
            header,
            trailer,
            header_bytes: p.header,
            trailer_bytes: p.trailer,
            index_bytes: p.index,
            index_offset: p.index_offset,
            trailer_offset: p.trailer_offset,
        })
    }

    /// The frame's length.
    pub fn frame_len(&self) -> u64 {
        self.header.frame_len as u64
    }

    /// Whether this is a sparse frame's index.
    pub fn is_sparse(&self) -> bool {
        self.header.flags.frame_type == 1
    }

    /// The location of every chunk, from the offsets index (decompressing it when needed).
    pub fn chunk_locations(&self) -> Result<Vec<ChunkLocation>> {
        self.chunk_locations_with_limit(index::DEFAULT_MAX_LOCATIONS)
    }

    /// [`FrameView::chunk_locations`] for frames of more than
    /// [`DEFAULT_MAX_LOCATIONS`](index::DEFAULT_MAX_LOCATIONS) chunks: the index is decoded only
    /// if it holds at most `max_locations` entries (the memory is then about 16 bytes each).
    pub fn chunk_locations_with_limit(&self, max_locations: u64) -> Result<Vec<ChunkLocation>> {
        if self.header.nbytes == 0 {
            return Ok(Vec::new());
        }
        let nchunks = self.header.nchunks_from_header().map(|n| n as u64);
        let locations = index::decode(
            self.index_bytes,
            self.index_offset as usize,
            nchunks,
            self.is_sparse(),
            max_locations,
        )?;
        // A stored chunk of a contiguous frame starts inside the chunks section, with room for
        // a chunk header before the section ends (`cbytes`).
        let cbytes = self.header.cbytes as u64;
        for (i, loc) in locations.iter().enumerate() {
            if let ChunkLocation::Offset(o) = *loc
                && o.saturating_add(b2schema_chunk::MIN_HEADER_LEN as u64) > cbytes
            {
                return Err(Error::invalid(
                    "a chunk offset inside the chunks section (cbytes - 16), at most",
                    cbytes.saturating_sub(b2schema_chunk::MIN_HEADER_LEN as u64),
                    o,
                    self.index_offset as usize,
                )
                .in_segment(crate::format::error::Segment::Index(i))
                .in_field("chunk_index"));
            }
        }
        Ok(locations)
    }

    /// The number of chunks (from the header, or from the index for variable chunks).
    pub fn nchunks(&self) -> Result<u64> {
        match self.header.nchunks_from_header() {
            Some(n) => Ok(n as u64),
            None if self.header.nbytes == 0 => Ok(0),
            // Variable chunks: the index says, from its chunk header alone.
            None => index::count(self.index_bytes, self.index_offset as usize),
        }
    }

    /// The header's metalayer `name`.
    pub fn metalayer(&self, name: &str) -> Option<&'a [u8]> {
        self.header.metalayers.get(name)
    }

    /// The trailer's vlmetalayer `name` (a Blosc chunk).
    pub fn vlmetalayer(&self, name: &str) -> Option<&'a [u8]> {
        self.trailer.vlmetalayers.get(name)
    }

    /// Re-encodes the header from the decoded values.
    pub fn encode_header(&self) -> Result<Vec<u8>> {
        Ok(crate::schema::codec::encode_to_vec(&self.header)?)
    }

    /// Re-encodes the trailer from the decoded values.
    pub fn encode_trailer(&self) -> Result<Vec<u8>> {
        Ok(crate::schema::codec::encode_to_vec(&self.trailer)?)
    }
}

/// The reader's checklist on the header values (`get_header_info`).
fn check_header(h: &FrameHeader<'_>, expect: FrameType, frame_len: u64) -> Result<()> {
    let version = h.flags.format_version();
    if version > 3 {
        return Err(Error::invalid("frame format version", "<= 3", version, 25).in_field("flags.general"));
    }
    let want = match expect {
        FrameType::Contiguous => 0,
        FrameType::Sparse => 1,
    };
    if h.flags.frame_type != want {
        return Err(Error::invalid("frame_type", want, h.flags.frame_type, 26).in_field("flags.frame_type"));
    }
    if h.frame_len as u64 != frame_len {
        return Err(Error::invalid("frame_len", frame_len, h.frame_len, 16).in_field("frame_len"));
    }
    if (h.header_len as u64) < HEADER_FIXED_LEN as u64 || h.header_len as u64 > frame_len {
        return Err(Error::invalid("header_len", alloc::format!("in 87..={frame_len}"), h.header_len, 11)
            .in_field("header_len"));
    }
    if h.typesize <= 0 {
        return Err(Error::invalid("typesize", "> 0", h.typesize, 48).in_field("typesize"));
    }
    if h.filter_pipeline.nfilters > 6 {
        return Err(Error::invalid("nfilters", "<= 6", h.filter_pipeline.nfilters, 70)
            .in_field("filter_pipeline.nfilters"));
    }
    if h.nbytes < 0 || h.cbytes < 0 {
        let (at, field, v) = if h.nbytes < 0 { (30, "nbytes", h.nbytes) } else { (39, "cbytes", h.cbytes) };
        return Err(Error::invalid(field, ">= 0", v, at).in_field(field));
    }
    if h.nbytes > 0 && h.chunksize < 0 {
        return Err(
            Error::invalid("chunksize in a frame with data", ">= 0", h.chunksize, 58).in_field("chunksize")
        );
    }
    if let Some(n) = h.nchunks_from_header()
        && n as u64 > index::MAX_NCHUNKS
    {
        return Err(Error::invalid(
            "chunks (nbytes / chunksize)",
            alloc::format!("<= {}", index::MAX_NCHUNKS),
            n,
            30,
        )
        .in_field("nbytes"));
    }
    Ok(())
}

/// `header_len`, read at its fixed place (the marker checked).
pub(crate) fn header_len(frame: &[u8]) -> Result<u32> {
    let len: i32 = FrameHeader::HEADER_LEN.read(frame)?;
    u32::try_from(len).map_err(|_| Error::invalid("header_len", ">= 0", len, 11).in_field("header_len"))
}

/// `frame_len`, read at its fixed place.
pub(crate) fn frame_len(frame: &[u8]) -> Result<u64> {
    let len: i64 = FrameHeader::FRAME_LEN.read(frame)?;
    if len < (HEADER_FIXED_LEN + TRAILER_MIN_LEN) as i64 {
        return Err(Error::invalid("frame_len", ">= 112", len, 16).in_field("frame_len"));
    }
    Ok(len as u64)
}

/// The trailer's position and length from the 23 bytes before `frame_len` (`ce` + u32 + the
/// fingerprint).
pub(crate) fn trailer_position(tail: &[u8; 23], frame_len: u64) -> Result<(u64, u64)> {
    let at = frame_len - 23;
    if tail[0] != marker::UINT32 {
        return Err(crate::format::error::Error::at(
            crate::format::error::ErrorKind::UnexpectedMarker {
                expected: crate::format::encoding::Expected::any(crate::format::encoding::Encoding::Uint32),
                found: tail[0],
            },
            at as usize,
        )
        .in_field("trailer_len")
        .into());
    }
    let len = u32::from_be_bytes([tail[1], tail[2], tail[3], tail[4]]) as u64;
    let max = (i32::MAX as u64).min(frame_len - HEADER_FIXED_LEN as u64);
    if len < TRAILER_MIN_LEN as u64 || len > max {
        return Err(Error::invalid(
            "25 <= trailer_len <=",
            max,
            len,
            (frame_len as usize) - TRAILER_LEN_FROM_END,
        )
        .in_field("trailer_len"));
    }
    Ok((frame_len - len, len))
}

fn trailer_range(frame: &[u8], frame_len: u64) -> Result<(u64, &[u8])> {
    let tail: &[u8; 23] =
        frame[frame.len() - 23..].try_into().map_err(|_| Error::invalid("23 bytes", 23, 0, 0))?;
    let (at, len) = trailer_position(tail, frame_len)?;
    Ok((at, bytes_at(frame, at, len, "trailer")?))
}

fn bytes_at<'a>(frame: &'a [u8], at: u64, len: u64, what: &'static str) -> Result<&'a [u8]> {
    usize::try_from(at)
        .ok()
        .and_then(|a| frame.get(a..a.checked_add(usize::try_from(len).ok()?)?))
        .ok_or_else(|| {
            Error::invalid(
                "bytes inside the frame for the",
                what,
                alloc::format!("{} at {at}", crate::format::error::bytes(len)),
                at as usize,
            )
            .in_field(what)
        })
}
