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
//!   `BLOSC2_SPECIAL_ZERO` chunk (whether or not `nbytes` is a whole number of items);
//! * **the header's blocksize**: the blocks' cut; for a memcpy or special zeros chunk with a set
//!   blocksize, the caller's cut to `nbytes`, as c-blosc2 writes it. (A chunk with coded blocks
//!   keeps its cut where c-blosc2 would write the caller's: c-blosc2 cannot read those back.)
//!
//! Blocks are written as c-blosc2's serial loop writes them (`serial_blosc`, `blosc_c`):
//! straight into the chunk, each stream's codec limited to what is left of `nbytes + 32`,
//! stopping at the first block that does not fit (the chunk is then stored as memcpy: c-blosc2's
//! early exit). The filters and the codec write into the thread's kept scratch buffers, grown
//! only when a block needs more; a block without filters is read in place.
//!
//! Blocks are independent: with `nthreads > 1` (and the `std` feature) they are filtered and
//! compressed on the calling thread and `nthreads - 1` scoped ones, as c-blosc2's
//! `parallel_blosc` does: each thread takes the next block, encodes it into a buffer it keeps
//! (its scratch comes from a pool shared by the command's threads) and appends it to the chunk
//! when the blocks before it are there (a block done before then is parked, a few a thread,
//! and the thread goes on to the next one), so each block is copied once. The first block that might meet the output limit stops the threads and the serial
//! loop writes it and the rest; so the output does not depend on the thread count (c-blosc2
//! itself stores blocks in the order its threads finish them).
//!
//! With [`Params::use_dict`], a zstd, lz4 or lz4hc chunk carries a dictionary made from its
//! own filtered blocks, as c-blosc2's `use_dict` does (its samples and size limits; zstd:
//! level 1 for every stream, raw content where c-blosc2 trains one; lz4 and lz4hc: c-blosc2's
//! raw samples, every stream an LZ4 block with the dictionary as its history; see the `dict`
//! module).

use alloc::vec::Vec;

use super::buffers::{Scratch, ScratchBlocks, alloc_error, with_scratch};
use super::header::{
    B2_USEDICT, COMPFORMAT_SHIFT, EXTENDED_HEADER_LEN, FLAG_DELTA, FLAG_DONT_SPLIT, FLAG_EXTENDED,
    FLAG_MEMCPYED, MAX_TYPESIZE, SPECIAL_SHIFT, Special,
};
use super::header::{CODEC_VERSION_FORMAT, MAX_FILTERS, MIN_HEADER_LEN};
use super::params::param_error;
use super::source::{Held, Src};
use super::stored;
use super::{blocksize, blosc1};
use crate::codec::{Encoder, dict};
use crate::error::{Error, Expected, num};
use crate::filter::Forward;
use crate::id::{Codec, Filter};
use crate::registry::{BUILTIN, PluginContext, Registry};

#[cfg(feature = "std")]
mod threaded;

#[cfg(feature = "std")]
pub use super::arriving::{Arriving, Piece};
pub use super::blocksize::MIN_BUFFERSIZE;
pub use super::params::{Format, MAX_BUFFERSIZE, MAX_SPLIT_TYPESIZE, Params, Split};
pub use super::stored::{memcpy, repeat_value};
pub use crate::codec::dict::{MAX_TRAINED_DICT, MIN_USEFUL_DICT};

/// Geometry and settings of one chunk being compressed.
struct Plan<'a> {
    src: Src<'a>,
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
    /// Told of the chunk's bytes as its blocks are appended ([`compress_into_watched`]).
    watch: Option<&'a (dyn Watch + 'a)>,
    /// The bytes the watch took, dropped from the output (changed only by the thread whose
    /// turn it is to append).
    taken: core::sync::atomic::AtomicUsize,
}

/// What [`compress_into_watched`] tells as a chunk's blocks are appended in order: a caller
/// that writes the chunk out as it grows (the bytes from its table's end on are final; the
/// header and block table before it are not, until the chunk is done).
pub trait Watch: Sync {
    /// Called after each block but the last is appended, in block order, with the chunk's
    /// bytes so far and where its first block starts (after the header, the block table and
    /// any dictionary). Called only once some stream is not a run of zeros, so that a chunk
    /// told of is never cut back to a special zeros chunk; it may still end as a memcpy chunk
    /// (its streams did not fit), whose bytes are then the header and the input, at least as
    /// long as any bytes told of.
    ///
    /// Returning `true` takes the bytes from `body_start` on: the compressor drops them from
    /// its output, so that a chunk written out as it grows is never whole in memory. The next
    /// call's `chunk` is then the bytes before `body_start` followed by those appended since,
    /// and the output at the end is the header, the block table, any dictionary, then the
    /// chunk's bytes after the last ones taken (its last `out.len() - body_start` bytes; the
    /// header's `cbytes` is the whole chunk's length), or a whole memcpy chunk.
    fn appended(&self, chunk: &[u8], body_start: usize) -> bool;
}

impl<'a> Plan<'a> {
    /// Size and stream count of block `j`.
    fn block_geometry(&self, j: usize) -> (usize, usize) {
        let off = j * self.blocksize;
        let bsize = (self.src.len() - off).min(self.blocksize);
        let leftover = bsize < self.blocksize;
        let nstreams = if !self.dont_split && !leftover { self.typesize } else { 1 };
        (bsize, nstreams)
    }

    /// Block `j` (its bytes `own`) through the filters: `own` itself when no filter runs, else
    /// one of the scratch buffers `bufs` (of at least the block's size).
    fn filtered<'s>(&'s self, j: usize, own: &'s [u8], bufs: ScratchBlocks<'s>) -> Result<&'s [u8], Error> {
        let bsize = own.len();
        if self.forward.is_empty() || (self.bitshuffle1 && blosc1::bitshuffle_copies(self.typesize, bsize)) {
            return Ok(own);
        }
        let (a, b, tmp) = bufs;
        // Delta codes every block but the first against the chunk's first bytes.
        let reference = match j {
            0 => None,
            _ if self.forward.has_delta() => Some(self.src.get(0, bsize.min(self.src.len()))?),
            _ => None,
        };
        let reference = reference.as_ref().map(Held::bytes);
        let which = self.forward.apply(own, reference, &mut *a, &mut *b, tmp, self.clevel)?;
        let (a, b): (&'s [u8], &'s [u8]) = (a, b);
        Ok(match which {
            Some(true) => &b[..bsize],
            Some(false) => &a[..bsize],
            None => own,
        })
    }

    /// Block `j`'s bytes (waiting for them when they are arriving).
    fn block(&self, j: usize) -> Result<Held<'a>, Error> {
        let (bsize, _) = self.block_geometry(j);
        self.src.get(j * self.blocksize, bsize)
    }

    /// Every block through the filters, end to end: c-blosc2's dictionary training pass.
    fn filter_all(&self) -> Result<Vec<u8>, Error> {
        self.src.read_on();
        let mut all = Vec::new();
        all.try_reserve_exact(self.src.len()).map_err(|_| alloc_error(self.src.len()))?;
        with_scratch(|scratch| {
            for j in 0..self.nblocks {
                let (bsize, _) = self.block_geometry(j);
                let own = self.block(j)?;
                all.extend_from_slice(self.filtered(j, own.bytes(), scratch.blocks(bsize, true)?)?);
            }
            Ok(all)
        })
    }

    /// Writes block `j`'s streams at the end of `out` as c-blosc2's `blosc_c` does, with its
    /// output limit: `out` may grow to `destsize` bytes. `false` when the block does not fit
    /// (c-blosc2's "non-compressible": the chunk is stored as memcpy instead). `zeros` is
    /// cleared by every stream that is not a run of zeros.
    fn write_block(
        &self,
        j: usize,
        scratch: &mut Scratch,
        out: &mut Vec<u8>,
        destsize: usize,
        zeros: &mut bool,
    ) -> Result<bool, Error> {
        let (bsize, nstreams) = self.block_geometry(j);
        let neblock = bsize / nstreams;
        let (bufs, coded) = scratch.blocks_and_coded(bsize, true, neblock)?;
        let own = self.block(j)?;
        let filtered = self.filtered(j, own.bytes(), bufs)?;
        for s in 0..nstreams {
            let data = &filtered[s * neblock..(s + 1) * neblock];
            let ntbytes = out.len() + 4;
            if self.runs
                && let Some(v) = run_value(data)
            {
                let needed = ntbytes + usize::from(v > 0);
                if needed > destsize {
                    return Ok(false);
                }
                out.extend_from_slice(&(-i32::from(v)).to_le_bytes());
                if v > 0 {
                    // The run-length token after a run of a non-zero byte.
                    *zeros = false;
                    out.push(1);
                }
                continue;
            }
            *zeros = false;
            // The codec's limit: the stream's size, or what is left of the output.
            let maxout = match destsize.checked_sub(ntbytes) {
                Some(left) if left < neblock => left,
                Some(_) => neblock,
                None => 0,
            };
            if maxout == 0 {
                return Ok(false);
            }
            // zstd appends its frame after the stream's size (no copy through `coded`).
            out.extend_from_slice(&[0; 4]);
            if let Some(n) = self.encoder.encode_onto(self.dict.as_ref(), data, out, maxout) {
                if n > 0 && n < neblock {
                    out[ntbytes - 4..ntbytes].copy_from_slice(&(n as i32).to_le_bytes());
                    continue;
                }
                out.truncate(ntbytes - 4);
                if ntbytes + neblock > destsize {
                    return Ok(false);
                }
                out.extend_from_slice(&(neblock as i32).to_le_bytes());
                out.extend_from_slice(data);
                continue;
            }
            out.truncate(ntbytes - 4);
            let n = self.encoder.encode(self.dict.as_ref(), data, &mut coded[..maxout])?;
            if n == 0 || n >= neblock {
                // Not compressed: the stream is stored as is, if it fits.
                if ntbytes + neblock > destsize {
                    return Ok(false);
                }
                out.extend_from_slice(&(neblock as i32).to_le_bytes());
                out.extend_from_slice(data);
            } else {
                out.extend_from_slice(&(n as i32).to_le_bytes());
                out.extend_from_slice(&coded[..n]);
            }
        }
        Ok(true)
    }

    /// Writes the chunk's body after the header in `out` (the bstarts, the dictionary, the
    /// blocks), as c-blosc2's serial loop does, stopping at the first block that does not fit
    /// (c-blosc2's early exit); `None` when the chunk does not fit (stored as memcpy instead),
    /// else whether every stream was a run of zeros. With `nthreads > 1` the blocks are
    /// encoded on scoped threads and the result is the same bytes.
    fn write(&self, nthreads: usize, out: &mut Vec<u8>) -> Result<Option<bool>, Error> {
        out.resize(self.header_len + 4 * self.nblocks, 0);
        if let Some(d) = &self.dict {
            // After the bstarts: the dictionary's size, then its bytes (at most 32 KiB).
            if out.len() + 4 + d.bytes.len() > self.destsize {
                return Ok(None);
            }
            out.extend_from_slice(&(d.bytes.len() as i32).to_le_bytes());
            out.extend_from_slice(&d.bytes);
        }
        let mut zeros = true;
        #[cfg(feature = "std")]
        if super::usable_threads(nthreads) > 1 && self.nblocks > 1 {
            return Ok(self.write_threaded(nthreads.min(self.nblocks), out, &mut zeros)?.then_some(zeros));
        }
        let _ = nthreads;
        Ok(with_scratch(|scratch| self.write_serial(0, scratch, out, &mut zeros))?.then_some(zeros))
    }

    /// Writes blocks `from..` after what `out` holds, one after the other (c-blosc2's
    /// `serial_blosc`); `false` at the first block that does not fit.
    fn write_serial(
        &self,
        from: usize,
        scratch: &mut Scratch,
        out: &mut Vec<u8>,
        zeros: &mut bool,
    ) -> Result<bool, Error> {
        for j in from..self.nblocks {
            self.set_bstart(out, j);
            // The limit less the bytes the watch took (no longer in `out`).
            let destsize = self.destsize.saturating_sub(self.taken());
            if !self.write_block(j, scratch, out, destsize, zeros)? {
                return Ok(false);
            }
            self.tell(j, out, *zeros);
            self.let_go(j, out.len());
        }
        Ok(true)
    }

    /// After block `j` is appended (`out_len` bytes in the output, besides those taken): tells
    /// the arriving source which pieces have all their blocks done, and lets go of them once the chunk can no longer end as
    /// a memcpy chunk, the one use of its bytes after their blocks are done: the output so far
    /// and every block left at its largest (each stream stored raw after its 4-byte size) fit
    /// the limit. The first piece is kept when a delta filter reads it for every block.
    #[cfg(feature = "std")]
    fn let_go(&self, j: usize, out_len: usize) {
        let Src::Arriving(a) = self.src else { return };
        let done = (j + 1).saturating_mul(self.blocksize).min(a.len());
        let left = a.len() - done;
        let streams = (self.nblocks - j - 1).saturating_mul(self.typesize.max(1));
        let most = streams.checked_mul(4).and_then(|s| s.checked_add(left));
        let fits =
            most.and_then(|m| m.checked_add(out_len + self.taken())).is_some_and(|end| end <= self.destsize);
        let upto = if left == 0 { usize::MAX } else { done / a.piece_len().max(1) };
        a.done_through(upto, fits, self.forward.has_delta());
    }

    #[cfg(not(feature = "std"))]
    fn let_go(&self, _j: usize, _out_len: usize) {}

    /// Tells the watch, if any, of the chunk so far after block `j` (once it is not all runs of
    /// zeros; not after the last block: the chunk is then done).
    /// Drops the bytes from the first block's start on when the watch takes them.
    fn tell(&self, j: usize, out: &mut Vec<u8>, zeros: bool) {
        if let Some(w) = self.watch
            && (!zeros || self.dict.is_some())
            && j + 1 < self.nblocks
        {
            let body = self.body_start();
            if w.appended(out, body) && out.len() > body {
                let n = out.len() - body;
                out.truncate(body);
                self.taken.fetch_add(n, core::sync::atomic::Ordering::Relaxed);
            }
        }
    }

    /// The bytes the watch took from the output so far.
    fn taken(&self) -> usize {
        self.taken.load(core::sync::atomic::Ordering::Relaxed)
    }

    /// Where the first block starts: after the header, the bstarts and the dictionary.
    fn body_start(&self) -> usize {
        let dict = self.dict.as_ref().map_or(0, |d| 4 + d.bytes.len());
        self.header_len + 4 * self.nblocks + dict
    }

    /// Records that block `j` starts where `out` ends.
    fn set_bstart(&self, out: &mut [u8], j: usize) {
        let at = self.header_len + 4 * j;
        let start = (out.len() + self.taken()) as i32;
        out[at..at + 4].copy_from_slice(&start.to_le_bytes());
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
    let mut out = Vec::new();
    compress_into(src, p, registry, &mut out)?;
    Ok(out)
}

/// [`compress_with`] into `out` (cleared first, its capacity kept and grown only when short):
/// a caller compressing chunk after chunk reuses one buffer instead of allocating, zeroing and
/// faulting in a fresh one per chunk. The bytes are those of [`compress_with`].
pub fn compress_into(src: &[u8], p: &Params, registry: &Registry, out: &mut Vec<u8>) -> Result<(), Error> {
    compress_into_watched(src, p, registry, out, None)
}

/// [`compress_into`] telling `watch` of the chunk's bytes after each block is appended (in
/// block order, whatever the thread count), so that a caller can write them out while the
/// rest compress. The bytes are those of [`compress_into`], less those the watch took
/// ([`Watch::appended`]).
pub fn compress_into_watched(
    src: &[u8],
    p: &Params,
    registry: &Registry,
    out: &mut Vec<u8>,
    watch: Option<&dyn Watch>,
) -> Result<(), Error> {
    compress_src(Src::Whole(src), p, registry, out, watch)
}

/// [`compress_into_watched`] of a chunk whose bytes arrive while it is compressed (std): each
/// block is compressed once its piece is there, on `p.nthreads` threads, while the caller's
/// thread pushes the rest. The bytes are those of [`compress_into`] of the whole chunk. The
/// pieces must hold whole blocks: `src.piece_len()` a multiple of the blocksize (`p.blocksize`,
/// or the automatic one), unless one piece holds the chunk. A source that fails
/// ([`Arriving::fail`]) ends the compression with an error.
#[cfg(feature = "std")]
pub fn compress_arriving(
    src: &Arriving,
    p: &Params,
    registry: &Registry,
    out: &mut Vec<u8>,
    watch: Option<&dyn Watch>,
) -> Result<(), Error> {
    let blocksize = p.blocksize_for(src.len()).max(1);
    if src.piece_len() < src.len() && !src.piece_len().is_multiple_of(blocksize) {
        out.clear();
        return Err(param_error("piece", Expected::MultipleOf(num(blocksize)), src.piece_len()));
    }
    // However it ends, a reader keeping a few pieces ahead must not wait for it once it returns.
    struct ReadOn<'a>(&'a Arriving);
    impl Drop for ReadOn<'_> {
        fn drop(&mut self) {
            self.0.read_on();
        }
    }
    let _read_on = ReadOn(src);
    if p.format == Format::Blosc1 {
        // c-blosc 1.x's chunks are compressed whole (none is this large in practice).
        let mut all = Vec::new();
        all.try_reserve_exact(src.len()).map_err(|_| alloc_error(src.len()))?;
        Src::Arriving(src).append_to(&mut all)?;
        return compress_src(Src::Whole(&all), p, registry, out, watch);
    }
    compress_src(Src::Arriving(src), p, registry, out, watch)
}

/// The chunk of `src`'s bytes: see [`compress_into_watched`].
fn compress_src(
    src: Src<'_>,
    p: &Params,
    registry: &Registry,
    out: &mut Vec<u8>,
    watch: Option<&dyn Watch>,
) -> Result<(), Error> {
    out.clear();
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
        // (Irrefutable without `std`, where no chunk arrives.)
        #[allow(irrefutable_let_patterns)]
        let Src::Whole(src) = src else {
            return Err(param_error("format", Expected::Text("a Blosc2 chunk"), 1));
        };
        *out = compress_blosc1(src, p, registry)?;
        return Ok(());
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
    // The header and the stream offsets alone past the room (checked: 4 bytes a block overflow
    // a 32-bit usize for over 2^30 blocks).
    let offsets_end = nblocks.checked_mul(4).and_then(|n| n.checked_add(EXTENDED_HEADER_LEN));
    if !memcpyed && offsets_end.is_none_or(|end| end > destsize) {
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
    let cut = blocksize.min(nbytes.max(1));
    let mut header = stored::header(0, typesize, nbytes, cut, 0, Some(p));
    header[1] = encoder.version();
    // The header of a memcpy or special zeros chunk, where the blocks' cut is not read back.
    let mut whole_header = header;
    whole_header[8..12].copy_from_slice(&(header_blocksize(p.blocksize, nbytes, cut) as i32).to_le_bytes());

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
            watch,
            taken: core::sync::atomic::AtomicUsize::new(0),
        };
        if p.use_dict {
            // c-blosc2 counts a split chunk's streams as nblocks * typesize (leftover included).
            let nstreams = if dont_split { nblocks } else { nblocks.saturating_mul(typesize) };
            if dict::sampling(nbytes, nstreams).is_some() {
                plan.dict = dict::make(&plan.filter_all()?, nstreams, nblocks, p.codec);
            }
        }
        match plan.write(p.nthreads, out)? {
            Some(zeros) => {
                // All runs of zeros: a special zeros chunk, for any nbytes (c-blosc2 3.3). With a
                // dictionary, c-blosc2's all-runs test never holds (it leaves the dictionary out).
                if plan.dict.is_some() {
                    header[31] |= B2_USEDICT;
                } else if zeros {
                    out.truncate(EXTENDED_HEADER_LEN);
                    header = whole_header;
                    header[31] |= Special::Zero.id() << SPECIAL_SHIFT;
                }
                header[2] = flags;
                let cbytes = (out.len() + plan.taken()) as i32;
                header[12..16].copy_from_slice(&cbytes.to_le_bytes());
                out[..EXTENDED_HEADER_LEN].copy_from_slice(&header);
                return Ok(());
            }
            // A memcpy chunk without the dictionary flag (c-blosc2 keeps the flag on its memcpy
            // fallback, and then cannot read the chunk: it looks for a dictionary there).
            None => out.clear(),
        }
    }
    let mut header = whole_header;
    header[2] = flags | FLAG_MEMCPYED;
    header[12..16].copy_from_slice(&(destsize as i32).to_le_bytes());
    out.extend_from_slice(&header);
    src.append_to(out)?;
    Ok(())
}

/// The blocksize the header of a chunk of `nbytes` says when its blocks are not read back (a
/// memcpy or special zeros chunk): c-blosc2's `blosc2_initialize_header_from_context` writes the
/// caller's blocksize (`user`, 0 for none) cut to `nbytes`, or else the blocks' `cut`.
///
/// A chunk with coded blocks says its `cut` instead: where the two differ (a set blocksize over
/// `nbytes`, or not a whole number of items, as c-blosc2 rounds the cut down to one), c-blosc2's
/// own chunk cannot be read back (python-blosc2 4.14.1: an error, or wrong bytes).
fn header_blocksize(user: usize, nbytes: usize, cut: usize) -> usize {
    match user {
        0 => cut,
        user if nbytes > 0 => user.min(nbytes),
        user => user,
    }
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
            src: Src::Whole(src),
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
            watch: None,
            taken: core::sync::atomic::AtomicUsize::new(0),
        };
        if plan.write(p.nthreads, &mut out)?.is_some() {
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

    /// The last block meets c-blosc2's output limit: 60 bytes are left for its stream, under
    /// blosclz's 66-byte floor, so the serial loop cannot compress it and the chunk is a memcpy
    /// chunk; unlimited, the stream compresses to far less than 60 bytes. Two threads must hand
    /// that block to the serial loop (not keep their own, smaller, encoding of it).
    #[cfg(feature = "std")]
    #[test]
    fn a_block_at_the_output_limit_is_written_by_the_serial_loop() {
        // Three 256-byte blocks of noise (stored raw), then 92 bytes of a short pattern.
        let mut src = crate::test_data::noise(3 * 256, 1);
        src.extend((0..92).map(|i| b"abcd"[i % 4]));
        let p = Params::new(1)
            .with_codec(Codec::BloscLz)
            .with_clevel(9)
            .with_filters([Filter::NoFilter; 6], [0; 6])
            .with_split(super::Split::Never)
            .with_blocksize(256);
        let one = compress(&src, &p).unwrap();
        assert!(crate::ChunkHeader::parse(&one).unwrap().is_memcpyed(), "the serial loop gives up");
        assert_eq!(one.len(), src.len() + 32);
        for nthreads in [2, 3, 4] {
            assert_eq!(compress(&src, &p.with_nthreads(nthreads)).unwrap(), one, "{nthreads} threads");
        }
        // The last block alone does compress (the limit, not the data, made the chunk memcpy).
        let last = compress(&src[3 * 256..], &p).unwrap();
        assert!(last.len() < 60 + 32, "{} bytes", last.len());
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
