//! Pure-Rust chunk compressor: writes Blosc2 chunks as c-blosc2's `blosc2_compress_ctx` does,
//! and Blosc1 chunks ([`Format::Blosc1`]) as c-blosc 1.x's `blosc_compress_ctx` does (its
//! decisions are in the `blosc1` module; the blocks are cut, filtered, coded and assembled by
//! the same code, without runs).
//!
//! [`compress`] takes one chunk's bytes and [`Params`] (codec, clevel, typesize, the six
//! filter slots with their metas, split mode, blocksize, threads) and returns a complete
//! chunk with the 32-byte extended header. The decisions are c-blosc2's:
//!
//! * **blocksize**: the caller's, or c-blosc2's automatic one from clevel, typesize, codec and
//!   filters (`blosc_stune_next_blocksize`), so that blocks are cut alike;
//! * **split**: one stream per byte of the type, or one per block (always, never, or the auto
//!   rule: blosclz, lz4 and zstd up to clevel 5 with a shuffle, typesize <= 16, >= 32 items);
//! * **runs**: a stream whose bytes are all equal is stored as a run (no codec);
//! * **memcpy fallback**: clevel 0, chunks under 32 bytes, and chunks whose compressed form
//!   would exceed `nbytes + 32` bytes are stored raw after the header;
//! * **special zeros**: a chunk whose every stream is a run of zeros becomes a 32-byte
//!   `BLOSC2_SPECIAL_ZERO` chunk.
//!
//! Blocks are independent: with `nthreads > 1` (and the `std` feature) they are filtered and
//! compressed on scoped threads, then assembled in block order, so the output does not depend
//! on the thread count (c-blosc2 itself stores blocks in the order its threads finish them).
//!
//! With [`Params::use_dict`], a zstd, lz4 or lz4hc chunk carries a dictionary made from its
//! own filtered blocks, as c-blosc2's `use_dict` does (its samples and size limits; zstd:
//! level 1 for every stream, raw content where c-blosc2 trains one; lz4 and lz4hc: c-blosc2's
//! raw samples, every stream an LZ4 block with the dictionary as its history; see the `dict`
//! module).

use alloc::vec::Vec;

use super::buffers::{alloc_error, try_copy, try_zeroed};
use super::header::{
    B2_USEDICT, COMPFORMAT_SHIFT, EXTENDED_HEADER_LEN, FLAG_DELTA, FLAG_DONT_SPLIT, FLAG_EXTENDED,
    FLAG_MEMCPYED, MAX_TYPESIZE, SPECIAL_SHIFT, Special,
};
use super::header::{CODEC_VERSION_FORMAT, MAX_FILTERS, MIN_HEADER_LEN};
use super::params::param_error;
use super::stored;
use super::{blocksize, blosc1};
use crate::codec::{Encoder, dict};
use crate::error::{Error, Expected, num};
use crate::filter::Forward;
use crate::id::{Codec, Filter};
use crate::registry::{BUILTIN, PluginContext, Registry};

pub use super::blocksize::MIN_BUFFERSIZE;
pub use super::params::{Format, MAX_BUFFERSIZE, MAX_SPLIT_TYPESIZE, Params, Split};
pub use super::stored::{memcpy, repeat_value};
pub use crate::codec::dict::{MAX_TRAINED_DICT, MIN_USEFUL_DICT};

/// Geometry and settings of one chunk being compressed.
struct Plan<'a> {
    src: &'a [u8],
    encoder: Encoder<'a>,
    /// Typesize as c-blosc2 uses it for streams (1 above 255).
    typesize: usize,
    blocksize: usize,
    nblocks: usize,
    dont_split: bool,
    forward: Forward<'a>,
    clevel: u8,
    /// c-blosc2's output limit: `nbytes + 32`.
    destsize: usize,
    /// The chunk's dictionary, when it has one.
    dict: Option<dict::Dict>,
    /// Length of the header before the bstarts (16 for Blosc1, 32 for Blosc2).
    header_len: usize,
    /// Streams of one repeated byte stored as runs (Blosc2; c-blosc 1.x has no runs).
    runs: bool,
    /// c-blosc 1.x's bitshuffle: a block whose item count is not a multiple of 8 is left as is.
    bitshuffle1: bool,
}

/// One stream of a block, encoded with the full output limit.
enum Stream {
    /// All bytes equal to this one.
    Run(u8),
    /// Compressed bytes, or `None` when the codec gave up (stored raw unless it is retried).
    Coded(Option<Vec<u8>>),
}

/// A block after the filters and the codec, before assembly.
struct Block {
    /// The filtered block (kept for raw streams and retries under a smaller limit).
    filtered: Vec<u8>,
    streams: Vec<Stream>,
}

impl Plan<'_> {
    /// Size and stream count of block `j`.
    fn block_geometry(&self, j: usize) -> (usize, usize) {
        let off = j * self.blocksize;
        let bsize = (self.src.len() - off).min(self.blocksize);
        let leftover = bsize < self.blocksize;
        let nstreams = if !self.dont_split && !leftover { self.typesize } else { 1 };
        (bsize, nstreams)
    }

    /// Block `j` through the filters.
    fn filter_block(&self, j: usize) -> Result<Vec<u8>, Error> {
        let (bsize, _) = self.block_geometry(j);
        let off = j * self.blocksize;
        Ok(
            if self.forward.is_empty()
                || (self.bitshuffle1 && blosc1::bitshuffle_copies(self.typesize, bsize))
            {
                try_copy(&self.src[off..off + bsize])?
            } else {
                let mut a = try_zeroed(bsize)?;
                let mut b = try_zeroed(bsize)?;
                let mut tmp = try_zeroed(bsize)?;
                match self.forward.apply(self.src, off, bsize, &mut a, &mut b, &mut tmp, self.clevel)? {
                    Some(true) => b,
                    Some(false) => a,
                    None => try_copy(&self.src[off..off + bsize])?,
                }
            },
        )
    }

    /// Every block through the filters, end to end: c-blosc2's dictionary training pass.
    fn filter_all(&self) -> Result<Vec<u8>, Error> {
        let mut all = Vec::new();
        all.try_reserve_exact(self.src.len()).map_err(|_| alloc_error(self.src.len()))?;
        for j in 0..self.nblocks {
            all.extend_from_slice(&self.filter_block(j)?);
        }
        Ok(all)
    }

    /// Filters and compresses block `j` with each stream's limit its own length.
    fn encode_block(&self, j: usize) -> Result<Block, Error> {
        let (bsize, nstreams) = self.block_geometry(j);
        let filtered = self.filter_block(j)?;
        let neblock = bsize / nstreams;
        let mut streams = Vec::new();
        streams.try_reserve_exact(nstreams).map_err(|_| alloc_error(nstreams))?;
        let mut scratch = try_zeroed(neblock)?;
        for s in 0..nstreams {
            let data = &filtered[s * neblock..(s + 1) * neblock];
            if let Some(v) = run_value(data).filter(|_| self.runs) {
                streams.push(Stream::Run(v));
                continue;
            }
            let n = self.encoder.encode(self.dict.as_ref(), data, &mut scratch)?;
            streams.push(Stream::Coded(if n == 0 || n >= neblock {
                None
            } else {
                Some(try_copy(&scratch[..n])?)
            }));
        }
        Ok(Block { filtered, streams })
    }

    /// Encodes every block, on `nthreads` scoped threads when there are several.
    fn encode_blocks(&self, nthreads: usize) -> Result<Vec<Block>, Error> {
        #[cfg(feature = "std")]
        if super::usable_threads(nthreads) > 1 && self.nblocks > 1 {
            let workers = nthreads.min(self.nblocks);
            let results: Vec<Result<Vec<(usize, Block)>, Error>> = std::thread::scope(|scope| {
                let handles: Vec<_> = (0..workers)
                    .map(|t| {
                        scope.spawn(move || {
                            (t..self.nblocks)
                                .step_by(workers)
                                .map(|j| self.encode_block(j).map(|b| (j, b)))
                                .collect::<Result<Vec<_>, _>>()
                        })
                    })
                    .collect();
                handles.into_iter().map(|h| h.join().unwrap_or_else(|_| Err(alloc_error(0)))).collect()
            });
            let mut slots: Vec<Option<Block>> = Vec::new();
            slots.try_reserve_exact(self.nblocks).map_err(|_| alloc_error(self.nblocks))?;
            slots.resize_with(self.nblocks, || None);
            for r in results {
                for (j, b) in r? {
                    slots[j] = Some(b);
                }
            }
            return Ok(slots.into_iter().flatten().collect());
        }
        let _ = nthreads;
        let mut blocks = Vec::new();
        blocks.try_reserve_exact(self.nblocks).map_err(|_| alloc_error(self.nblocks))?;
        for j in 0..self.nblocks {
            blocks.push(self.encode_block(j)?);
        }
        Ok(blocks)
    }

    /// Lays the blocks out after the header as c-blosc2's serial loop does, with its output
    /// limit; `None` when the chunk does not fit (stored as memcpy instead). Returns the body
    /// (bstarts and streams) and whether every stream was a run of zeros.
    fn assemble(&self, blocks: &[Block], out: &mut Vec<u8>) -> Option<bool> {
        let mut ntbytes = self.header_len + 4 * self.nblocks;
        out.resize(ntbytes, 0);
        if let Some(d) = &self.dict {
            // After the bstarts: the dictionary's size, then its bytes (at most 32 KiB).
            ntbytes += 4 + d.bytes.len();
            if ntbytes > self.destsize {
                return None;
            }
            out.extend_from_slice(&(d.bytes.len() as i32).to_le_bytes());
            out.extend_from_slice(&d.bytes);
        }
        let mut all_zero_runs = true;
        for (j, block) in blocks.iter().enumerate() {
            let at = self.header_len + 4 * j;
            out[at..at + 4].copy_from_slice(&(ntbytes as i32).to_le_bytes());
            let (bsize, nstreams) = self.block_geometry(j);
            let neblock = bsize / nstreams;
            for (s, stream) in block.streams.iter().enumerate() {
                ntbytes += 4;
                let data = &block.filtered[s * neblock..(s + 1) * neblock];
                match stream {
                    Stream::Run(v) => {
                        if ntbytes > self.destsize {
                            return None;
                        }
                        out.extend_from_slice(&(-i32::from(*v)).to_le_bytes());
                        if *v > 0 {
                            all_zero_runs = false;
                            ntbytes += 1;
                            if ntbytes > self.destsize {
                                return None;
                            }
                            out.push(1);
                        }
                    }
                    Stream::Coded(coded) => {
                        all_zero_runs = false;
                        let retried;
                        let mut cbytes: Option<&[u8]> = coded.as_deref();
                        if ntbytes + neblock > self.destsize {
                            let maxout = self.destsize.checked_sub(ntbytes).filter(|&m| m > 0)?;
                            let mut buf = try_zeroed(maxout).ok()?;
                            let n = self.encoder.encode(self.dict.as_ref(), data, &mut buf).ok()?;
                            buf.truncate(n);
                            retried = buf;
                            cbytes = if n == 0 || n >= neblock { None } else { Some(&retried) };
                        }
                        match cbytes {
                            Some(c) => {
                                out.extend_from_slice(&(c.len() as i32).to_le_bytes());
                                out.extend_from_slice(c);
                                ntbytes += c.len();
                            }
                            None => {
                                if ntbytes + neblock > self.destsize {
                                    return None;
                                }
                                out.extend_from_slice(&(neblock as i32).to_le_bytes());
                                out.extend_from_slice(data);
                                ntbytes += neblock;
                            }
                        }
                    }
                }
            }
        }
        Some(all_zero_runs)
    }
}

/// The byte every byte of `data` equals, if any (c-blosc2's `get_run`), 32 bytes at a time.
fn run_value(data: &[u8]) -> Option<u8> {
    let &first = data.first()?;
    let word = u64::from_ne_bytes([first; 8]);
    let mut groups = data.chunks_exact(32);
    for g in &mut groups {
        let differs = g
            .chunks_exact(8)
            .map(|w| u64::from_ne_bytes(<[u8; 8]>::try_from(w).unwrap_or_default()) ^ word)
            .fold(0, |acc, d| acc | d);
        if differs != 0 {
            return None;
        }
    }
    groups.remainder().iter().all(|&b| b == first).then_some(first)
}

/// Compresses one chunk as c-blosc2 3.x does (see the module documentation); the result
/// decodes with [`decompress`](crate::decompress) and with c-blosc2.
///
/// Errors (offset 0, the parameter named): clevel above 9, typesize 0 or above
/// [`MAX_TYPESIZE`], more than [`MAX_BUFFERSIZE`] bytes, a codec or filter this build cannot
/// apply, a trunc_prec meta c-blosc2 refuses.
pub fn compress(src: &[u8], p: &Params) -> Result<Vec<u8>, Error> {
    compress_with(src, p, &BUILTIN)
}

/// [`compress`] with the codecs and filters of `registry` besides the built-in ones (a user
/// codec or filter id in `p` is compressed with its registered plugin).
pub fn compress_with(src: &[u8], p: &Params, registry: &Registry) -> Result<Vec<u8>, Error> {
    let nbytes = src.len();
    if p.clevel > 9 {
        return Err(param_error("clevel", Expected::InRange(0, 9), p.clevel.into()));
    }
    if p.typesize == 0 || p.typesize > MAX_TYPESIZE as usize {
        return Err(param_error("typesize", Expected::InRange(1, MAX_TYPESIZE.into()), p.typesize));
    }
    if nbytes > MAX_BUFFERSIZE {
        return Err(param_error("nbytes", Expected::AtMost(num(MAX_BUFFERSIZE)), nbytes));
    }
    if p.format == Format::Blosc1 {
        return compress_blosc1(src, p, registry);
    }
    if matches!(p.codec, Codec::ZfpAcc | Codec::ZfpPrec | Codec::ZfpRate)
        && let Some(i) = p.filters.iter().position(|f| matches!(f, Filter::Shuffle | Filter::BitShuffle))
    {
        // c-blosc2: "ZFP cannot be run in presence of SHUFFLE / BITSHUFFLE".
        return Err(param_error(
            "filters",
            Expected::Text("no shuffle or bitshuffle with ZFP (c-blosc2 refuses them)"),
            usize::from(p.filters[i].id()),
        ));
    }
    let typesize = if p.typesize > MAX_SPLIT_TYPESIZE { 1 } else { p.typesize };
    let ctx = PluginContext { meta: p.codec_meta, clevel: p.clevel, ..PluginContext::new(typesize, 0) };
    let encoder = Encoder::new(p.codec, p.clevel, registry, ctx)?;
    if p.use_dict && p.clevel > 0 {
        dict::check(p.codec)?;
    }
    let blocksize = p.blocksize_for(nbytes).max(1);
    let forward = Forward::new(&p.filters, &p.filters_meta, typesize, registry)?;
    let nblocks = nbytes.div_ceil(blocksize);
    let destsize = nbytes + EXTENDED_HEADER_LEN;
    let mut memcpyed = p.clevel == 0 || nbytes < MIN_BUFFERSIZE;
    if !memcpyed && EXTENDED_HEADER_LEN + 4 * nblocks > destsize {
        memcpyed = true;
    }
    let dont_split =
        !blocksize::split_block(p.split, p.codec, p.clevel, p.has_shuffle(), typesize, blocksize);
    let mut flags = FLAG_EXTENDED;
    if !memcpyed {
        if p.filters.contains(&Filter::Delta) {
            flags |= FLAG_DELTA;
        }
        if dont_split {
            flags |= FLAG_DONT_SPLIT;
        }
        flags |= p.codec.compformat() << COMPFORMAT_SHIFT;
    }
    let mut header = stored::header(0, typesize, nbytes, blocksize.min(nbytes.max(1)), 0, Some(p));
    header[1] = encoder.version();

    let mut out = Vec::new();
    out.try_reserve_exact(destsize).map_err(|_| alloc_error(destsize))?;
    if !memcpyed {
        let mut plan = Plan {
            src,
            encoder,
            clevel: p.clevel,
            typesize,
            blocksize,
            nblocks,
            dont_split,
            forward,
            destsize,
            dict: None,
            header_len: EXTENDED_HEADER_LEN,
            runs: true,
            bitshuffle1: false,
        };
        if p.use_dict {
            // c-blosc2 counts a split chunk's streams as nblocks * typesize (leftover included).
            let nstreams = if dont_split { nblocks } else { nblocks.saturating_mul(typesize) };
            if dict::sampling(nbytes, nstreams).is_some() {
                plan.dict = dict::make(&plan.filter_all()?, nstreams, nblocks, p.codec);
            }
        }
        let blocks = plan.encode_blocks(p.nthreads)?;
        match plan.assemble(&blocks, &mut out) {
            Some(zeros) => {
                // c-blosc2 reads a special chunk only when nbytes is a multiple of the
                // typesize; other all-zero chunks stay regular (runs of zeros). With a
                // dictionary, c-blosc2's all-runs test never holds (it leaves the dictionary out).
                if plan.dict.is_some() {
                    header[31] |= B2_USEDICT;
                } else if zeros && nbytes.is_multiple_of(typesize) {
                    out.truncate(EXTENDED_HEADER_LEN);
                    header[31] |= Special::Zero.id() << SPECIAL_SHIFT;
                }
                header[2] = flags;
                let cbytes = out.len() as i32;
                header[12..16].copy_from_slice(&cbytes.to_le_bytes());
                out[..EXTENDED_HEADER_LEN].copy_from_slice(&header);
                return Ok(out);
            }
            // A memcpy chunk without the dictionary flag (c-blosc2 keeps the flag on its memcpy
            // fallback, and then cannot read the chunk: it looks for a dictionary there).
            None => out.clear(),
        }
    }
    header[2] = flags | FLAG_MEMCPYED;
    header[12..16].copy_from_slice(&(destsize as i32).to_le_bytes());
    out.extend_from_slice(&header);
    out.extend_from_slice(src);
    Ok(out)
}

/// [`compress_with`] for [`Format::Blosc1`]: c-blosc 1.x's `blosc_compress_ctx` (its
/// blocksize, split rule and flags; no runs; memcpy under 128 bytes, at clevel 0 and when the
/// streams do not fit in `nbytes + 16`). The caller checked clevel, typesize and nbytes.
fn compress_blosc1(src: &[u8], p: &Params, registry: &Registry) -> Result<Vec<u8>, Error> {
    let shuffle = p.blosc1_shuffle()?;
    let nbytes = src.len();
    let typesize = if p.typesize > MAX_SPLIT_TYPESIZE { 1 } else { p.typesize };
    let ctx = PluginContext { clevel: p.clevel, ..PluginContext::new(typesize, 0) };
    let blocksize = p.blocksize_for(nbytes).max(1);
    let nblocks = nbytes.div_ceil(blocksize);
    let destsize = nbytes + MIN_HEADER_LEN;
    let dont_split = !blosc1::split_block(p.split, p.codec, typesize, blocksize);
    let encoder = Encoder::new(p.codec, p.clevel, registry, ctx)?.blosc1(!dont_split);
    let mut header = [0u8; MIN_HEADER_LEN];
    header[0] = blosc1::VERSION_FORMAT;
    header[1] = CODEC_VERSION_FORMAT;
    header[2] = blosc1::flags(shuffle, dont_split, p.codec);
    header[3] = typesize as u8;
    // nbytes <= MAX_BUFFERSIZE and blocksize <= nbytes (or 1): both fit an i32.
    header[4..8].copy_from_slice(&(nbytes as i32).to_le_bytes());
    header[8..12].copy_from_slice(&(blocksize as i32).to_le_bytes());

    let mut out = Vec::new();
    out.try_reserve_exact(destsize).map_err(|_| alloc_error(destsize))?;
    if p.clevel > 0 && nbytes >= blosc1::MIN_BUFFERSIZE {
        let last = match shuffle {
            blosc1::Shuffle::None => Filter::NoFilter,
            blosc1::Shuffle::Byte => Filter::Shuffle,
            blosc1::Shuffle::Bit => Filter::BitShuffle,
        };
        let filters = Params::new(typesize).with_filter(MAX_FILTERS - 1, last, 0).filters;
        let plan = Plan {
            src,
            encoder,
            clevel: p.clevel,
            typesize,
            blocksize,
            nblocks,
            dont_split,
            forward: Forward::new(&filters, &[0; MAX_FILTERS], typesize, registry)?,
            destsize,
            dict: None,
            header_len: MIN_HEADER_LEN,
            runs: false,
            bitshuffle1: shuffle == blosc1::Shuffle::Bit,
        };
        let blocks = plan.encode_blocks(p.nthreads)?;
        if plan.assemble(&blocks, &mut out).is_some() {
            header[12..16].copy_from_slice(&(out.len() as i32).to_le_bytes());
            out[..MIN_HEADER_LEN].copy_from_slice(&header);
            return Ok(out);
        }
        out.clear();
    }
    header[2] |= FLAG_MEMCPYED;
    header[12..16].copy_from_slice(&(destsize as i32).to_le_bytes());
    out.extend_from_slice(&header);
    out.extend_from_slice(src);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::{Format, Params, compress, run_value};
    use crate::id::{Codec, Filter};
    use alloc::string::ToString;
    use alloc::vec;

    /// What c-blosc 1.x cannot write is refused, naming the parameter.
    #[test]
    fn blosc1_refuses_what_c_blosc_1_cannot_write() {
        let data = vec![1u8; 1000];
        let p = Params::blosc1(4);
        let cases = [
            (p.with_codec(Codec::Ndlz), "codec"),
            (p.with_filter(4, Filter::Delta, 0), "filters"),
            (p.with_filter(4, Filter::BitShuffle, 0), "filters"),
            (p.with_filter(0, Filter::ByteDelta, 0), "filters"),
            (p.with_use_dict(true), "use_dict"),
        ];
        for (p, field) in cases {
            let e = compress(&data, &p).unwrap_err().to_string();
            assert!(e.contains(field), "{e}");
        }
        // The same parameters in Blosc2 chunks are fine (but the ndlz codec, a plugin).
        assert!(compress(&data, &p.with_filter(4, Filter::Delta, 0).with_format(Format::Blosc2)).is_ok());
        assert!(compress(&data, &p).is_ok());
    }

    proptest::proptest! {
        /// A stream is a run exactly when all its bytes are equal, whatever its length and
        /// wherever the one differing byte is.
        #[test]
        fn run_value_is_all_bytes_equal(len in 0usize..300, v in 0u8..=255, other in 0u8..=255) {
            let data = vec![v; len];
            proptest::prop_assert_eq!(run_value(&data), data.first().copied());
            for at in 0..len {
                let mut changed = data.clone();
                changed[at] = other;
                // (A single byte is a run of whatever it is.)
                let want = if other == v || len == 1 { Some(changed[0]) } else { None };
                proptest::prop_assert_eq!(run_value(&changed), want, "differing byte at {}", at);
            }
        }
    }
}
