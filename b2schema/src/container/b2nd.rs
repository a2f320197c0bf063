//! The `b2nd` metalayer of Blosc2 NDArrays (c-blosc2's `b2nd_serialize_meta`).

use alloc::vec::Vec;

use b2schema_derive::B2Layout;

/// The current 7-element `b2nd` metalayer: `97 00 <ndim> 9N [d3 ...] 9N [d2 ...] 9N [d2 ...]
/// <dtype_format> db <len> <dtype>`. Its length is `12 + 19 * ndim + len(dtype)`.
///
/// The three shape arrays are c-blosc2 counted arrays: their marker is `0x90 + ndim` computed in
/// a byte, so 16 dimensions write `a0`.
#[derive(B2Layout, Debug, Clone, PartialEq, Eq)]
pub struct B2nd<'a> {
    /// Metalayer format version (0).
    #[b2(fixint)]
    pub version: u8,
    /// Number of dimensions (0 to 16).
    #[b2(fixint, computed = self.shape.len())]
    pub ndim: u8,
    /// Array shape.
    #[b2(counted)]
    pub shape: Vec<i64>,
    /// Chunk shape.
    #[b2(counted)]
    pub chunkshape: Vec<i32>,
    /// Block shape.
    #[b2(counted)]
    pub blockshape: Vec<i32>,
    /// 0: the dtype is a NumPy dtype string.
    #[b2(fixint)]
    pub dtype_format: u8,
    /// The dtype (`"<f8"`, `"|u1"`, `"[('a', '<i4')]"`).
    #[b2(str32)]
    pub dtype: &'a str,
}

/// The legacy 5-element layout of caterva 0.2-0.5, python-caterva and c-blosc2 development
/// versions (metalayer `"caterva"`, or `"b2nd"` from January 2023): no dtype.
#[derive(B2Layout, Debug, Clone, PartialEq, Eq)]
pub struct Caterva {
    /// Metalayer format version.
    #[b2(fixint)]
    pub version: u8,
    /// Number of dimensions.
    #[b2(fixint, computed = self.shape.len())]
    pub ndim: u8,
    /// Array shape.
    #[b2(counted)]
    pub shape: Vec<i64>,
    /// Chunk shape.
    #[b2(counted)]
    pub chunkshape: Vec<i32>,
    /// Block shape.
    #[b2(counted)]
    pub blockshape: Vec<i32>,
}

/// The 6-element development layout of c-blosc2 1e65a17e (February 2023, never released):
/// a dtype written as `str(np.dtype)` and no dtype_format. Current c-blosc2 cannot read it.
#[derive(B2Layout, Debug, Clone, PartialEq, Eq)]
pub struct B2ndDev6<'a> {
    /// Metalayer format version.
    #[b2(fixint)]
    pub version: u8,
    /// Number of dimensions.
    #[b2(fixint, computed = self.shape.len())]
    pub ndim: u8,
    /// Array shape.
    #[b2(counted)]
    pub shape: Vec<i64>,
    /// Chunk shape.
    #[b2(counted)]
    pub chunkshape: Vec<i32>,
    /// Block shape.
    #[b2(counted)]
    pub blockshape: Vec<i32>,
    /// The dtype, as `str(np.dtype)` (`"uint8"`).
    #[b2(str32)]
    pub dtype: &'a str,
}

/// Which layout a `b2nd`/`caterva` metalayer was written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LayoutKind {
    /// The current 7-element layout (`97`).
    B2nd7,
    /// The 6-element development layout (`96`, no dtype_format).
    B2nd6,
    /// The 5-element caterva layout (`95`, no dtype).
    Caterva5,
}

impl LayoutKind {
    /// `"b2nd-7"`, `"b2nd-6"` or `"caterva-5"`.
    pub const fn name(self) -> &'static str {
        match self {
            LayoutKind::B2nd7 => "b2nd-7",
            LayoutKind::B2nd6 => "b2nd-6",
            LayoutKind::Caterva5 => "caterva-5",
        }
    }

    /// Whether current c-blosc2 (and so python-blosc2) can open an array with this layout.
    pub const fn readable_by_c_blosc2(self) -> bool {
        !matches!(self, LayoutKind::B2nd6)
    }
}

/// The most dimensions c-blosc2 accepts (`B2ND_MAX_DIM`; 8 before v2.22.0).
pub const MAX_DIM: usize = 16;

/// A `b2nd` or `caterva` metalayer in any layout, owned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NdMeta {
    /// The layout it was read from.
    pub layout: LayoutKind,
    /// Metalayer format version.
    pub version: u8,
    /// Array shape.
    pub shape: Vec<i64>,
    /// Chunk shape.
    pub chunkshape: Vec<i32>,
    /// Block shape.
    pub blockshape: Vec<i32>,
    /// 0 for NumPy dtype strings; `None` in layouts without it.
    pub dtype_format: Option<u8>,
    /// The dtype string; `None` in the caterva layout.
    pub dtype: Option<alloc::string::String>,
}

/// Reads a metalayer as the readers of this crate do: strictly ([`read`]), else as c-blosc2's
/// own reader accepts it ([`read_compat`]), whose error is the one returned.
pub fn read_any(content: &[u8]) -> crate::format::error::Result<NdMeta> {
    read(content).or_else(|_| read_compat(content))
}

/// Reads a metalayer strictly: the layout is recognized by its array marker (`97`, `96`, `95`)
/// and every marker must be the one c-blosc2 writes.
pub fn read(content: &[u8]) -> crate::format::error::Result<NdMeta> {
    use alloc::string::ToString;
    let m = content.first().copied().unwrap_or(0);
    let meta = match m {
        0x97 => {
            let v: B2nd = crate::schema::codec::decode_from_slice(content).map_err(|e| e.or_field("b2nd"))?;
            NdMeta {
                layout: LayoutKind::B2nd7,
                version: v.version,
                shape: v.shape,
                chunkshape: v.chunkshape,
                blockshape: v.blockshape,
                dtype_format: Some(v.dtype_format),
                dtype: Some(v.dtype.to_string()),
            }
        }
        0x96 => {
            let v: B2ndDev6 =
                crate::schema::codec::decode_from_slice(content).map_err(|e| e.or_field("b2nd"))?;
            NdMeta {
                layout: LayoutKind::B2nd6,
                version: v.version,
                shape: v.shape,
                chunkshape: v.chunkshape,
                blockshape: v.blockshape,
                dtype_format: None,
                dtype: Some(v.dtype.to_string()),
            }
        }
        _ => {
            let v: Caterva =
                crate::schema::codec::decode_from_slice(content).map_err(|e| e.or_field("b2nd"))?;
            NdMeta {
                layout: LayoutKind::Caterva5,
                version: v.version,
                shape: v.shape,
                chunkshape: v.chunkshape,
                blockshape: v.blockshape,
                dtype_format: None,
                dtype: None,
            }
        }
    };
    meta.check()?;
    Ok(meta)
}

/// Reads a metalayer by position, as c-blosc2's `b2nd_deserialize_meta` does: every array and
/// integer marker is skipped unread (so the `96` marker of 8123f7ea files with 7 values reads),
/// ndim must be 0..=16, and a dtype is read when bytes remain after the block shape (which then
/// must be `dtype_format`, `db`, a length and the text). Trailing bytes are ignored, as there.
pub fn read_compat(content: &[u8]) -> crate::format::error::Result<NdMeta> {
    let mut r = Positional { b: content, pos: 0 };
    r.skip(2, "array marker and version")?;
    let version = content[1];
    let ndim = r.byte("ndim")? as i8;
    if !(0..=MAX_DIM as i8).contains(&ndim) {
        return Err(crate::format::error::Error::invalid("0 <= ndim <=", MAX_DIM, ndim, 2).in_field("ndim"));
    }
    let n = ndim as usize;
    r.skip(1, "shape marker")?;
    let shape = (0..n).map(|_| r.int::<8>("shape")).collect::<crate::format::error::Result<Vec<_>>>()?;
    r.skip(1, "chunkshape marker")?;
    let chunkshape = (0..n)
        .map(|_| r.int::<4>("chunkshape").map(|v| v as i32))
        .collect::<crate::format::error::Result<Vec<_>>>()?;
    r.skip(1, "blockshape marker")?;
    let blockshape = (0..n)
        .map(|_| r.int::<4>("blockshape").map(|v| v as i32))
        .collect::<crate::format::error::Result<Vec<_>>>()?;
    let (layout, dtype_format, dtype) = if r.pos == content.len() {
        (LayoutKind::Caterva5, None, None)
    } else {
        let format = r.byte("dtype_format")?;
        let at = r.pos;
        if r.byte("dtype marker")? != crate::format::encoding::marker::STR32 {
            return Err(crate::format::error::Error::at(
                crate::format::error::ErrorKind::UnexpectedMarker {
                    expected: crate::format::encoding::Expected::any(
                        crate::format::encoding::Encoding::Str32,
                    ),
                    found: content[at],
                },
                at,
            )
            .in_field("dtype"));
        }
        let b = r.take(4, "dtype")?;
        let len = i32::from_be_bytes([b[0], b[1], b[2], b[3]]);
        let len = usize::try_from(len).map_err(|_| {
            crate::format::error::Error::invalid("a dtype length >=", 0, len, at + 1).in_field("dtype")
        })?;
        let text = r.take(len, "dtype")?;
        let dtype = core::str::from_utf8(text).map_err(|_| {
            crate::format::error::Error::at(crate::format::error::ErrorKind::InvalidUtf8, at + 5)
                .in_field("dtype")
        })?;
        (LayoutKind::B2nd7, Some(format), Some(dtype.into()))
    };
    let meta = NdMeta { layout, version, shape, chunkshape, blockshape, dtype_format, dtype };
    meta.check()?;
    Ok(meta)
}

struct Positional<'a> {
    b: &'a [u8],
    pos: usize,
}

impl<'a> Positional<'a> {
    fn take(&mut self, n: usize, what: &'static str) -> crate::format::error::Result<&'a [u8]> {
        let s = self.b.get(self.pos..self.pos.saturating_add(n)).ok_or_else(|| {
            crate::format::error::Error::at(
                crate::format::error::ErrorKind::UnexpectedEof {
                    needed: n,
                    available: self.b.len().saturating_sub(self.pos),
                },
                self.pos,
            )
            .in_field(what)
        })?;
        self.pos += n;
        Ok(s)
    }

    fn skip(&mut self, n: usize, what: &'static str) -> crate::format::error::Result<()> {
        self.take(n, what).map(|_| ())
    }

    fn byte(&mut self, what: &'static str) -> crate::format::error::Result<u8> {
        Ok(self.take(1, what)?[0])
    }

    /// Skips a marker and reads an N-byte big-endian integer.
    fn int<const N: usize>(&mut self, what: &'static str) -> crate::format::error::Result<i64> {
        self.skip(1, what)?;
        let b = self.take(N, what)?;
        let mut be = [0u8; 8];
        be[8 - N..].copy_from_slice(b);
        let v = u64::from_be_bytes(be);
        Ok(match N {
            4 => v as u32 as i32 as i64,
            _ => v as i64,
        })
    }
}

impl NdMeta {
    /// Checks what c-blosc2 checks: ndim <= 16, three shapes of ndim values, and no dimension
    /// with a zero chunk or block size unless the dimension itself is 0.
    pub fn check(&self) -> crate::format::error::Result<()> {
        let n = self.shape.len();
        if n > MAX_DIM {
            return Err(crate::format::error::Error::invalid("ndim <=", MAX_DIM, n, 2).in_field("ndim"));
        }
        // Where the values are in the encoded metalayer (the same in every layout): shape[i] at
        // 5 + 9i, chunkshape[i] at 6 + 9n + 5i, blockshape[i] at 7 + 14n + 5i; the arrays' markers
        // one byte before their first value.
        let (shape_at, chunk_at, block_at) = (|i| 5 + 9 * i, |i| 6 + 9 * n + 5 * i, |i| 7 + 14 * n + 5 * i);
        if self.chunkshape.len() != n || self.blockshape.len() != n {
            let (at, field) = if self.chunkshape.len() != n {
                (chunk_at(0) - 1, "chunkshape")
            } else {
                (block_at(0) - 1, "blockshape")
            };
            return Err(crate::format::error::Error::invalid(
                "chunkshape and blockshape of ndim values:",
                n,
                alloc::format!("{} and {}", self.chunkshape.len(), self.blockshape.len()),
                at,
            )
            .in_field(field));
        }
        for i in 0..n {
            let negative = if self.shape[i] < 0 {
                Some((shape_at(i), "shape"))
            } else if self.chunkshape[i] < 0 {
                Some((chunk_at(i), "chunkshape"))
            } else if self.blockshape[i] < 0 {
                Some((block_at(i), "blockshape"))
            } else {
                None
            };
            if let Some((at, field)) = negative {
                return Err(crate::format::error::Error::invalid(
                    "non-negative sizes in dimension",
                    i,
                    "a negative one",
                    at,
                )
                .in_segment(crate::format::error::Segment::Index(i))
                .in_field(field));
            }
            if self.shape[i] != 0 && (self.chunkshape[i] == 0 || self.blockshape[i] == 0) {
                let (at, field) = if self.chunkshape[i] == 0 {
                    (chunk_at(i), "chunkshape")
                } else {
                    (block_at(i), "blockshape")
                };
                return Err(crate::format::error::Error::invalid(
                    "non-zero chunk and block sizes in dimension",
                    i,
                    "zero",
                    at,
                )
                .in_segment(crate::format::error::Segment::Index(i))
                .in_field(field));
            }
        }
        Ok(())
    }

    /// Number of dimensions.
    pub fn ndim(&self) -> usize {
        self.shape.len()
    }

    /// The chunk shape padded to whole blocks: `ceil(chunk / block) * block` per dimension.
    pub fn extchunkshape(&self) -> Vec<i64> {
        self.chunkshape
            .iter()
            .zip(&self.blockshape)
            .map(|(&c, &b)| if b == 0 { 0 } else { (c as u64).div_ceil(b as u64) as i64 * b as i64 })
            .collect()
    }

    /// Number of chunks: `prod(ceil(shape / chunkshape))` (1 for a scalar, 0 for an empty
    /// dimension).
    pub fn nchunks(&self) -> u64 {
        self.shape
            .iter()
            .zip(&self.chunkshape)
            .map(|(&s, &c)| if s == 0 { 0 } else { (s as u64).div_ceil(c as u64) })
            .fold(1u64, |a, b| a.saturating_mul(b))
    }

    /// Items per array.
    pub fn nitems(&self) -> u64 {
        self.shape.iter().fold(1u64, |a, &s| a.saturating_mul(s as u64))
    }

    /// The chunk size in bytes c-blosc2 uses: `prod(extchunkshape) * typesize`.
    pub fn chunksize(&self, typesize: u64) -> u64 {
        self.extchunkshape().iter().fold(typesize, |a, &s| a.saturating_mul(s as u64))
    }

    /// The block size in bytes: `prod(blockshape) * typesize`.
    pub fn blocksize(&self, typesize: u64) -> u64 {
        self.blockshape.iter().fold(typesize, |a, &s| a.saturating_mul(s as u64))
    }

    /// The dtype parsed as a NumPy dtype string (`None` when the layout has no dtype).
    pub fn parsed_dtype(
        &self,
    ) -> Option<Result<crate::container::dtype::DType, crate::container::dtype::DTypeError>> {
        self.dtype.as_deref().map(crate::container::dtype::DType::parse)
    }
}

/// The geometry of an array's chunks: how the items of one chunk map to the array in C order.
///
/// c-blosc2 stores each chunk padded to the extended chunk shape (whole blocks), blocks in C
/// order over the chunk's block grid, items in C order inside each block. [`Geometry::rows`]
/// walks a chunk as runs of contiguous items, which the writer copies in and the reader out.
#[derive(Clone, Debug)]
pub struct Geometry {
    shape: Vec<usize>,
    chunks: Vec<usize>,
    blocks: Vec<usize>,
    ext: Vec<usize>,
}

/// One run of a chunk's items: `len` items at item `chunk_at` of the chunk buffer, which are
/// items `array_at..array_at + len` of the array in C order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Run {
    /// Item offset in the (padded, block-ordered) chunk buffer.
    pub chunk_at: usize,
    /// Item offset in the array, C order.
    pub array_at: usize,
    /// Items in the run.
    pub len: usize,
}

impl Geometry {
    /// The geometry of `meta` (checked by [`NdMeta::check`]).
    pub fn new(shape: &[i64], chunkshape: &[i32], blockshape: &[i32]) -> Self {
        let shape: Vec<usize> = shape.iter().map(|&s| usize::try_from(s).unwrap_or(0)).collect();
        let chunks: Vec<usize> = chunkshape.iter().map(|&c| c.max(0) as usize).collect();
        let blocks: Vec<usize> = blockshape.iter().map(|&b| b.max(0) as usize).collect();
        let ext = chunks
            .iter()
            .zip(&blocks)
            .map(|(&c, &b)| if b == 0 { 0 } else { c.div_ceil(b).saturating_mul(b) })
            .collect();
        Geometry { shape, chunks, blocks, ext }
    }

    /// Items per (padded) chunk; `None` when the product overflows (no real chunk is that big).
    pub fn chunk_items(&self) -> Option<usize> {
        self.ext.iter().try_fold(1usize, |a, &e| a.checked_mul(e))
    }

    /// The chunk grid: chunks per dimension.
    pub fn grid(&self) -> Vec<usize> {
        self.shape
            .iter()
            .zip(&self.chunks)
            .map(|(&s, &c)| if s == 0 || c == 0 { 0 } else { s.div_ceil(c) })
            .collect()
    }

    /// The runs of real (not padding) items of the chunk at grid `coords`, collected (see
    /// [`Geometry::each_run`], which does not collect them).
    pub fn rows(&self, coords: &[usize]) -> crate::container::error::Result<Vec<Run>> {
        let mut out = Vec::new();
        self.each_run(coords, |r| {
            crate::container::limits::try_reserve(&mut out, 1, "the runs of a chunk", 0)?;
            out.push(r);
            Ok(())
        })?;
        Ok(out)
    }

    /// Calls `f` on each run of real items of the chunk at grid `coords`, in the order of the
    /// array (C order). The walk follows the items of the array inside the chunk, not the
    /// padded chunk: it makes at most one call per real item, whatever the chunk shape claims.
    /// `coords` must have one coordinate per dimension, inside the grid; positions that do not
    /// fit a `usize` are errors.
    pub fn each_run(
        &self,
        coords: &[usize],
        mut f: impl FnMut(Run) -> crate::container::error::Result<()>,
    ) -> crate::container::error::Result<()> {
        let nd = self.shape.len();
        if coords.len() != nd {
            return Err(crate::container::error::Error::invalid(
                "chunk coordinates, one per dimension:",
                nd,
                coords.len(),
                0,
            ));
        }
        if nd == 0 {
            return f(Run { chunk_at: 0, array_at: 0, len: 1 });
        }
        let overflow = || {
            crate::container::error::Error::invalid(
                "a chunk position that fits in memory",
                "usize",
                "an overflow",
                0,
            )
        };
        // The chunk's real extent per dimension: items [start, start + len) of the array.
        let mut start = alloc::vec![0usize; nd];
        let mut len = alloc::vec![0usize; nd];
        for i in 0..nd {
            let s = coords[i].checked_mul(self.chunks[i]).ok_or_else(overflow)?;
            if s >= self.shape[i] || self.blocks[i] == 0 {
                return Ok(()); // outside the array: no real items
            }
            start[i] = s;
            len[i] = self.chunks[i].min(self.shape[i] - s);
        }
        // Strides of the array (C order), of the chunk's block grid and of a block.
        let mut astride = alloc::vec![1usize; nd];
        let mut gstride = alloc::vec![1usize; nd];
        let mut bstride = alloc::vec![1usize; nd];
        for i in (0..nd - 1).rev() {
            astride[i] = astride[i + 1].checked_mul(self.shape[i + 1]).ok_or_else(overflow)?;
            gstride[i] =
                gstride[i + 1].checked_mul(self.ext[i + 1] / self.blocks[i + 1]).ok_or_else(overflow)?;
            bstride[i] = bstride[i + 1].checked_mul(self.blocks[i + 1]).ok_or_else(overflow)?;
        }
        let block_items = bstride[0].checked_mul(self.blocks[0]).ok_or_else(overflow)?;
        let last = nd - 1;
        // One row per position of the first nd - 1 dimensions inside the real extent.
        let mut k = alloc::vec![0usize; last];
        loop {
            let mut array_row = start[last];
            let mut block_base = 0usize;
            let mut in_block = 0usize;
            for i in 0..last {
                let a = start[i] + k[i];
                array_row =
                    a.checked_mul(astride[i]).and_then(|x| x.checked_add(array_row)).ok_or_else(overflow)?;
                let (b, r) = (k[i] / self.blocks[i], k[i] % self.blocks[i]);
                block_base =
                    b.checked_mul(gstride[i]).and_then(|x| x.checked_add(block_base)).ok_or_else(overflow)?;
                in_block += r * bstride[i];
            }
            // Along the last dimension, one run per block crossed.
            let bl = self.blocks[last];
            let mut j = 0;
            while j < len[last] {
                let (b, r) = (j / bl, j % bl);
                let run = (bl - r).min(len[last] - j);
                let block = block_base.checked_add(b).ok_or_else(overflow)?;
                let chunk_at = block
                    .checked_mul(block_items)
                    .and_then(|x| x.checked_add(in_block + r))
                    .ok_or_else(overflow)?;
                f(Run { chunk_at, array_at: array_row + j, len: run })?;
                j += run;
            }
            if !odometer(&mut k, &len[..last]) {
                return Ok(());
            }
        }
    }
}

/// Advances a C-order multi-index within `bounds`; `false` when it wraps around to all zeros
/// (the walk is over).
pub(crate) fn odometer(idx: &mut [usize], bounds: &[usize]) -> bool {
    for i in (0..idx.len()).rev() {
        idx[i] += 1;
        if idx[i] < bounds[i] {
            return true;
        }
        idx[i] = 0;
    }
    false
}
