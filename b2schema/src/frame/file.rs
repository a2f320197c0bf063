//! Frames in files: a contiguous frame (possibly at an offset inside a larger file) or a
//! sparse-frame directory. Opening reads the header, the offsets index and the trailer, never
//! the chunks.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use alloc::vec::Vec;

use super::codes::FrameType;
use super::header::FrameHeader;
use super::index::{ChunkInfo, ChunkLocation, SpecialValue};
use super::view::{self, FrameView, HEADER_FIXED_LEN, Parts};
use crate::chunk::ChunkHeader;
use crate::error::{Error, Result};

/// The index file of a sparse frame's directory.
pub const SPARSE_INDEX: &str = "chunks.b2frame";

/// A frame's metadata bytes, read from a file or a sparse directory.
#[derive(Debug, Clone)]
pub struct FrameFile {
    path: PathBuf,
    offset: u64,
    frame_type: FrameType,
    header: Vec<u8>,
    index: Vec<u8>,
    trailer: Vec<u8>,
    index_offset: u64,
    trailer_offset: u64,
    frame_len: u64,
    bytes_read: u64,
}

impl FrameFile {
    /// Opens `path`: a contiguous frame file, or a sparse-frame directory (its
    /// `chunks.b2frame`). Lock sidecars (`.b2lock`) are not part of the format and are ignored.
    pub fn open(path: impl AsRef<Path>) -> Result<Self> {
        let f = Self::locate(path)?;
        f.view()?;
        Ok(f)
    }

    /// Reads the header, index and trailer bytes of the frame at `path` without validating
    /// them (only what is needed to find them: `header_len`, `frame_len`, `trailer_len`); see
    /// [`FrameFile::view`] for the checks. For tools that report on broken frames.
    pub fn locate(path: impl AsRef<Path>) -> Result<Self> {
        let path = path.as_ref();
        if path.is_dir() {
            Self::read(path.join(SPARSE_INDEX), 0, FrameType::Sparse, path.to_path_buf())
        } else {
            Self::read(path.to_path_buf(), 0, FrameType::Contiguous, path.to_path_buf())
        }
    }

    /// Opens a contiguous frame that starts at byte `offset` of `path` (bytes after the frame
    /// are allowed, as `blosc2_schunk_open_offset` allows them).
    pub fn open_at(path: impl AsRef<Path>, offset: u64) -> Result<Self> {
        let path = path.as_ref();
        let f = Self::read(path.to_path_buf(), offset, FrameType::Contiguous, path.to_path_buf())?;
        f.view()?;
        Ok(f)
    }

    fn read(file: PathBuf, offset: u64, frame_type: FrameType, path: PathBuf) -> Result<Self> {
        let mut f = File::open(&file)?;
        let file_len = f.metadata()?.len();
        Self::read_from(&mut f, file_len, offset, frame_type, path)
    }

    /// Reads (and validates) the metadata of the contiguous frame at `offset` in `reader`, which
    /// holds `len` bytes. The result has no path: its chunks are not read through it.
    pub fn from_reader<R: Read + Seek>(reader: &mut R, len: u64, offset: u64) -> Result<Self> {
        let f = Self::read_from(reader, len, offset, FrameType::Contiguous, PathBuf::new())?;
        f.view()?;
        Ok(f)
    }

    fn read_from<R: Read + Seek>(
        f: &mut R,
        file_len: u64,
        offset: u64,
        frame_type: FrameType,
        path: PathBuf,
    ) -> Result<Self> {
        let available = file_len.saturating_sub(offset);
        let mut bytes_read = 0;
        let mut fixed = [0u8; HEADER_FIXED_LEN];
        if available < HEADER_FIXED_LEN as u64 {
            return Err(Error::invalid(
                "a frame of at least",
                "87 bytes",
                alloc::format!("{available} bytes"),
                0,
            )
            .in_field("header"));
        }
        read_at(f, offset, &mut fixed, &mut bytes_read)?;
        let header_len = view::header_len(&fixed)? as u64;
        let frame_len = view::frame_len(&fixed)?;
        if frame_len > available {
            return Err(Error::invalid("frame_len within the file, at most", available, frame_len, 16)
                .in_field("frame_len"));
        }
        if !(HEADER_FIXED_LEN as u64..=frame_len).contains(&header_len) {
            return Err(Error::invalid("header_len", alloc::format!("in 87..={frame_len}"), header_len, 11)
                .in_field("header_len"));
        }
        let mut header = vec![0u8; header_len as usize];
        header[..HEADER_FIXED_LEN].copy_from_slice(&fixed);
        read_at(f, offset + HEADER_FIXED_LEN as u64, &mut header[HEADER_FIXED_LEN..], &mut bytes_read)?;

        let mut tail = [0u8; 23];
        read_at(f, offset + frame_len - 23, &mut tail, &mut bytes_read)?;
        let (trailer_offset, trailer_len) = view::trailer_position(&tail, frame_len)?;
        let mut trailer = vec![0u8; trailer_len as usize];
        read_at(f, offset + trailer_offset, &mut trailer, &mut bytes_read)?;

        let nbytes: i64 = FrameHeader::NBYTES.read(&header)?;
        let cbytes: i64 = FrameHeader::CBYTES.read(&header)?;
        let index_offset = match frame_type {
            FrameType::Contiguous => header_len.saturating_add(cbytes.max(0) as u64),
            FrameType::Sparse => header_len,
        };
        let mut index = Vec::new();
        if nbytes > 0 && index_offset < trailer_offset {
            index = vec![0u8; (trailer_offset - index_offset) as usize];
            read_at(f, offset + index_offset, &mut index, &mut bytes_read)?;
        }
        Ok(FrameFile {
            path,
            offset,
            frame_type,
            header,
            index,
            trailer,
            index_offset,
            trailer_offset,
            frame_len,
            bytes_read,
        })
    }

    /// The decoded, validated metadata.
    pub fn view(&self) -> Result<FrameView<'_>> {
        FrameView::from_parts(
            Parts {
                header: &self.header,
                index: &self.index,
                trailer: &self.trailer,
                index_offset: self.index_offset,
                trailer_offset: self.trailer_offset,
                frame_len: self.frame_len,
            },
            self.frame_type,
        )
    }

    /// The path opened (the directory, for a sparse frame).
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The frame's length (`frame_len`).
    pub fn frame_len(&self) -> u64 {
        self.frame_len
    }

    /// Where the frame starts in its file.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// Contiguous or sparse.
    pub fn frame_type(&self) -> FrameType {
        self.frame_type
    }

    /// Bytes read from disk to open the frame: the header, the offsets index and the trailer.
    pub fn bytes_read(&self) -> u64 {
        self.bytes_read
    }

    /// The raw header bytes.
    pub fn header_bytes(&self) -> &[u8] {
        &self.header
    }

    /// The raw trailer bytes.
    pub fn trailer_bytes(&self) -> &[u8] {
        &self.trailer
    }

    /// The raw offsets-index bytes (empty for a frame without data).
    pub fn index_bytes(&self) -> &[u8] {
        &self.index
    }

    /// Where the offsets index starts in the frame.
    pub fn index_offset(&self) -> u64 {
        self.index_offset
    }

    /// Where the trailer starts in the frame.
    pub fn trailer_offset(&self) -> u64 {
        self.trailer_offset
    }

    /// The file holding the frame's header (the frame file, or the directory's index).
    fn frame_path(&self) -> PathBuf {
        match self.frame_type {
            FrameType::Contiguous => self.path.clone(),
            FrameType::Sparse => self.path.join(SPARSE_INDEX),
        }
    }

    /// The file and position of a stored chunk.
    pub(crate) fn chunk_place(&self, loc: ChunkLocation) -> Result<(PathBuf, u64)> {
        match loc {
            ChunkLocation::Offset(o) => Ok((self.frame_path(), self.offset + self.header.len() as u64 + o)),
            ChunkLocation::File(id) => Ok((self.path.join(alloc::format!("{id:08X}.chunk")), 0)),
            ChunkLocation::Special(_) => Err(Error::invalid("a stored chunk", "bytes", "a special value", 0)),
        }
    }

    /// The 32-byte header of a stored chunk (reads only those bytes).
    pub fn chunk_header(&self, loc: ChunkLocation) -> Result<ChunkHeader> {
        let (path, at) = self.chunk_place(loc)?;
        let mut f = File::open(&path)?;
        let len = f.metadata()?.len().saturating_sub(at).min(32) as usize;
        let mut buf = [0u8; 32];
        let mut n = 0;
        read_at(&mut f, at, &mut buf[..len], &mut n)?;
        ChunkHeader::peek(&buf[..len]).map_err(|e| Error::chunk(e, at as usize))
    }

    /// The bytes of a stored chunk, as long as its header says.
    pub fn read_chunk(&self, loc: ChunkLocation) -> Result<Vec<u8>> {
        let (path, at) = self.chunk_place(loc)?;
        let h = self.chunk_header(loc)?;
        let mut f = File::open(&path)?;
        let end = match loc {
            ChunkLocation::Offset(_) => self.offset + self.index_offset,
            _ => f.metadata()?.len(),
        };
        let len = h.compressed_len() as u64;
        if at + len > end {
            return Err(Error::invalid("a chunk inside its section, ending by", end, at + len, at as usize));
        }
        let mut buf = vec![0u8; len as usize];
        let mut n = 0;
        read_at(&mut f, at, &mut buf, &mut n)?;
        Ok(buf)
    }

    /// What each chunk is: where it is, its sizes and whether it is special (by its index entry
    /// or by its own header). Reads the 32-byte header of every stored chunk, nothing more.
    pub fn chunks(&self) -> Result<Vec<ChunkInfo>> {
        let v = self.view()?;
        let locs = v.chunk_locations()?;
        let h = &v.header;
        let n = locs.len();
        locs.into_iter()
            .enumerate()
            .map(|(i, loc)| match loc {
                ChunkLocation::Special(kind) => {
                    let chunksize = h.chunksize.max(0) as u64;
                    let rem = if chunksize > 0 { h.nbytes as u64 % chunksize } else { 0 };
                    let nbytes = if i + 1 == n && rem != 0 { rem } else { chunksize };
                    Ok(ChunkInfo {
                        index: i,
                        location: loc,
                        special: Some(kind),
                        cbytes: 0,
                        nbytes,
                        header: None,
                    })
                }
                _ => {
                    let ch = self.chunk_header(loc)?;
                    Ok(ChunkInfo {
                        index: i,
                        location: loc,
                        special: SpecialValue::of_chunk(&ch),
                        cbytes: ch.compressed_len() as u64,
                        nbytes: ch.uncompressed_len() as u64,
                        header: Some(ch),
                    })
                }
            })
            .collect()
    }

    /// The decompressed bytes of a chunk (special chunks built from their kind: zeros, NaN of
    /// the typesize, uninit as zeros), refusing more than `max_nbytes`.
    pub fn chunk_data(&self, info: &ChunkInfo, max_nbytes: usize) -> Result<Vec<u8>> {
        let n = usize::try_from(info.nbytes).unwrap_or(usize::MAX);
        if n > max_nbytes {
            return Err(Error::invalid("a chunk within the size limit of", max_nbytes, n, 0));
        }
        match info.location {
            ChunkLocation::Special(SpecialValue::Nan) => {
                let ts = FrameHeader::TYPESIZE.read(&self.header)?;
                let item: &[u8] = match ts {
                    4 => &f32::NAN.to_le_bytes(),
                    8 => &f64::NAN.to_le_bytes(),
                    _ => {
                        return Err(Error::invalid(
                            "NaN chunks of 4- or 8-byte items, not",
                            "4 or 8",
                            ts,
                            48,
                        ));
                    }
                };
                Ok(item.iter().copied().cycle().take(n).collect())
            }
            ChunkLocation::Special(_) => Ok(vec![0u8; n]),
            loc => {
                let bytes = self.read_chunk(loc)?;
                crate::chunk::decompress_with_limit(&bytes, max_nbytes).map_err(|e| Error::chunk(e, 0))
            }
        }
    }

    /// The items of the NDArray in this frame, in C order, with the chunk padding and the block
    /// order undone; at most `max_bytes` (the array's `prod(shape) * typesize`).
    pub fn ndarray_data(&self, max_bytes: usize) -> Result<Vec<u8>> {
        let v = self.view()?;
        let raw = v.metalayer("b2nd").or_else(|| v.metalayer("caterva")).ok_or_else(|| {
            Error::invalid("an NDArray (a b2nd or caterva metalayer)", "b2nd", "an SChunk", 87)
        })?;
        let meta = crate::b2nd::read(raw).or_else(|_| crate::b2nd::read_compat(raw))?;
        let ts = v.header.typesize as usize;
        let total =
            meta.nitems().checked_mul(ts as u64).filter(|&t| t <= max_bytes as u64).ok_or_else(|| {
                Error::invalid(
                    "an array within the size limit of",
                    max_bytes,
                    meta.nitems().saturating_mul(ts as u64),
                    87,
                )
            })? as usize;
        let geometry = crate::b2nd::Geometry::new(&meta.shape, &meta.chunkshape, &meta.blockshape);
        let grid = geometry.grid();
        let infos = self.chunks()?;
        if infos.len() as u64 != meta.nchunks() {
            return Err(Error::invalid(
                "one chunk per cell of the chunk grid:",
                meta.nchunks(),
                infos.len(),
                87,
            ));
        }
        let chunk_bytes = geometry.chunk_items() * ts;
        let mut out = vec![0u8; total];
        let mut coords = vec![0usize; grid.len()];
        for info in &infos {
            let data = self.chunk_data(info, chunk_bytes.max(ts))?;
            for r in geometry.rows(&coords) {
                let src = data.get(r.chunk_at * ts..(r.chunk_at + r.len) * ts).ok_or_else(|| {
                    Error::invalid("a chunk of the extended chunk shape, bytes:", chunk_bytes, data.len(), 0)
                        .in_segment(crate::Segment::Index(info.index))
                        .in_field("chunks")
                })?;
                out[r.array_at * ts..(r.array_at + r.len) * ts].copy_from_slice(src);
            }
            crate::b2nd::odometer(&mut coords, &grid);
        }
        Ok(out)
    }

    /// Writes `content` over the content of metalayer `name`, which must have the same length
    /// (how the `b2nd` shape changes on resize). Everything is checked before the single write;
    /// no other byte changes.
    pub fn update_metalayer(&mut self, name: &str, content: &[u8]) -> Result<()> {
        let (at, len) = {
            let v = self.view()?;
            let (_, offset, old) = v
                .header
                .metalayers
                .iter()
                .find(|(n, _, _)| *n == name)
                .ok_or_else(|| Error::invalid("an existing metalayer named", name, "none", 87))?;
            (offset as u64 + 5, old.len())
        };
        if content.len() != len {
            return Err(Error::invalid(
                "new content of the same length as the old,",
                len,
                content.len(),
                at as usize,
            )
            .in_segment(crate::Segment::Key(name.into()))
            .in_field("metalayers"));
        }
        let mut f = std::fs::OpenOptions::new().read(true).write(true).open(self.frame_path())?;
        // The file must still hold the layer as it was read (its c6 marker, length and bytes):
        // if the frame changed since it was opened, the write could land on anything else.
        let cached = &self.header[at as usize - 5..at as usize + len];
        let mut on_disk = vec![0u8; cached.len()];
        read_at(&mut f, self.offset + at - 5, &mut on_disk, &mut 0)?;
        if on_disk != cached {
            return Err(Error::invalid(
                "the metalayer's bytes as read when the frame was opened (the file changed since):",
                name,
                "other bytes",
                at as usize - 5,
            )
            .in_segment(crate::Segment::Key(name.into()))
            .in_field("metalayers"));
        }
        f.seek(SeekFrom::Start(self.offset + at))?;
        f.write_all(content)?;
        f.flush()?;
        self.header[at as usize..at as usize + len].copy_from_slice(content);
        Ok(())
    }
}

pub(crate) fn read_at<R: Read + Seek>(f: &mut R, at: u64, buf: &mut [u8], counter: &mut u64) -> Result<()> {
    f.seek(SeekFrom::Start(at)).map_err(|e| Error::from(e).with_offset(at as usize))?;
    f.read_exact(buf).map_err(|e| Error::from(e).with_offset(at as usize))?;
    *counter += buf.len() as u64;
    Ok(())
}
