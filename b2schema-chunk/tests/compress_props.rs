//! Properties of the chunk compressor over generated inputs and parameters: every chunk it
//! writes decodes to its input (trunc_prec: to the truncated input), is never larger than
//! `nbytes + 32`, does not depend on the thread count, and a chunk of zeros is a 32-byte special
//! chunk. Bad parameters are errors that name the parameter.

use b2schema_chunk::compress::{Params, Split, compress};
use b2schema_chunk::{self as chunk, ChunkHeader, Codec, ErrorKind, Filter, Special};
use proptest::prelude::*;

const CODECS: [Codec; 5] = [Codec::BloscLz, Codec::Lz4, Codec::Lz4hc, Codec::Zlib, Codec::Zstd];
const SPLITS: [Split; 4] = [Split::Always, Split::Never, Split::Auto, Split::ForwardCompat];
const LOSSLESS: [Filter; 5] =
    [Filter::NoFilter, Filter::Shuffle, Filter::BitShuffle, Filter::Delta, Filter::ByteDelta];

/// Data that exercises matches, runs, far matches and noise.
fn data() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        proptest::collection::vec(any::<u8>(), 0..3000),
        (1usize..200, 0usize..40_000, any::<u8>()).prop_map(|(period, len, x)| (0..len)
            .map(|i| ((i % period) as u8).wrapping_mul(x) ^ (i / 997) as u8)
            .collect()),
        (0usize..50_000, any::<u8>()).prop_map(|(len, v)| vec![v; len]),
        (0usize..20_000)
            .prop_map(|len| (0..len).flat_map(|i| ((i as f64 * 0.01).sin() as f32).to_le_bytes()).collect()),
    ]
}

/// Noise with some redundancy (a run of one byte somewhere, up to an eighth of the data):
/// chunks about as large as their input, where c-blosc2's output limit decides between
/// compressed and memcpy chunks block by block and stream by stream.
fn nearly_noise() -> impl Strategy<Value = Vec<u8>> {
    (any::<u64>(), 64usize..40_000, 0usize..=8, any::<prop::sample::Index>(), any::<u8>()).prop_map(
        |(seed, len, eighths, at, v)| {
            let mut out = noise(seed, len);
            let run = len * eighths / 64;
            let start = at.index(len - run + 1);
            out[start..start + run].fill(v);
            out
        },
    )
}

/// `len` bytes of xorshift noise from `seed`.
fn noise(seed: u64, len: usize) -> Vec<u8> {
    let mut x = seed | 1;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect()
}

fn params() -> impl Strategy<Value = Params> {
    (
        proptest::sample::select(CODECS.to_vec()),
        0u8..=9,
        prop_oneof![1usize..=17, Just(300usize)],
        proptest::array::uniform6(proptest::sample::select(LOSSLESS.to_vec())),
        proptest::array::uniform6(prop_oneof![4 => Just(0u8), 1 => 1u8..=16]),
        proptest::sample::select(SPLITS.to_vec()),
        prop_oneof![Just(0usize), 1usize..64],
        1usize..=4,
    )
        .prop_map(|(codec, clevel, typesize, mut filters, metas, split, blocks, nthreads)| {
            // Delta goes first (c-blosc2 cannot decode it after another filter).
            let first = filters.iter().position(|&f| f != Filter::NoFilter);
            for (i, f) in filters.iter_mut().enumerate() {
                if *f == Filter::Delta && Some(i) != first {
                    *f = Filter::NoFilter;
                }
            }
            Params::new(typesize)
                .with_codec(codec)
                .with_clevel(clevel)
                .with_filters(filters, metas)
                .with_split(split)
                .with_blocksize(blocks * typesize * 16)
                .with_nthreads(nthreads)
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn compressed_chunks_decode_to_their_input(src in data(), p in params()) {
        let c = compress(&src, &p).unwrap();
        let h = ChunkHeader::parse(&c).unwrap();
        prop_assert_eq!(h.compressed_len(), c.len());
        prop_assert!(c.len() <= src.len() + 32, "{} > {} + 32", c.len(), src.len());
        prop_assert_eq!(chunk::decompress(&c).unwrap(), src);
    }

    #[test]
    fn output_does_not_depend_on_threads(src in data(), p in params()) {
        let one = compress(&src, &{ let mut p = p; p.nthreads = 1; p }).unwrap();
        let many = compress(&src, &{ let mut p = p; p.nthreads = 3; p }).unwrap();
        prop_assert_eq!(one, many);
    }

    /// A buffer reused from chunk to chunk (`compress_into`, as the array writer's threads do)
    /// holds the chunk `compress` writes, whatever it held before (a longer or shorter chunk).
    #[test]
    fn compress_into_a_used_buffer_is_compress(src in data(), before in data(), p in params()) {
        let registry = chunk::Registry::builtin();
        let mut out = Vec::new();
        b2schema_chunk::compress::compress_into(&before, &p, registry, &mut out).unwrap();
        b2schema_chunk::compress::compress_into(&src, &p, registry, &mut out).unwrap();
        prop_assert_eq!(out, compress(&src, &p).unwrap());
    }

    /// Where the output limit bites (the threaded compressor gives up early, or hands the
    /// last blocks to the serial loop), the chunk is still the serial loop's, and decodes.
    #[test]
    fn chunks_at_the_output_limit_do_not_depend_on_threads(
        src in nearly_noise(),
        p in params(),
        nthreads in 2usize..=4,
    ) {
        let one = compress(&src, &{ let mut p = p; p.nthreads = 1; p }).unwrap();
        let many = compress(&src, &{ let mut p = p; p.nthreads = nthreads; p }).unwrap();
        prop_assert_eq!(&one, &many);
        prop_assert_eq!(chunk::decompress(&one).unwrap(), src);
    }

    #[test]
    fn zeros_are_a_special_chunk(items in 32usize..20_000, p in params()) {
        let len = items * p.typesize.min(255);
        let c = compress(&vec![0u8; len], &{ let mut p = p; p.clevel = p.clevel.max(1); p }).unwrap();
        prop_assert_eq!(c.len(), 32);
        prop_assert_eq!(ChunkHeader::parse(&c).unwrap().special(), Special::Zero);
    }

    #[test]
    fn trunc_prec_keeps_the_asked_bits(
        values in proptest::collection::vec(any::<f64>(), 4..3000),
        keep in 1u8..40,
        codec in proptest::sample::select(CODECS.to_vec()),
        clevel in 1u8..=9,
    ) {
        let src: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        let p = { let mut p = Params::new(8); p.codec = codec; p.clevel = clevel; p.filters[4] = Filter::TruncPrec; p.filters_meta = [0, 0, 0, 0, keep, 0]; p };
        let c = compress(&src, &p).unwrap();
        let got = chunk::decompress(&c).unwrap();
        let want: Vec<u8> = if ChunkHeader::parse(&c).unwrap().is_memcpyed() {
            src.clone()
        } else {
            let mask = !((1u64 << (52 - u32::from(keep))) - 1);
            values.iter().flat_map(|v| (v.to_bits() & mask).to_le_bytes()).collect()
        };
        prop_assert_eq!(got, want);
    }
}

#[test]
fn bad_parameters_are_errors_naming_them() {
    let e = compress(&[0; 64], &{
        let mut p = Params::new(4);
        p.clevel = 10;
        p
    })
    .unwrap_err();
    assert_eq!((e.kind, e.field), (ErrorKind::Invalid, "clevel"));
    let e = compress(&[0; 64], &{
        let mut p = Params::new(4);
        p.typesize = 0;
        p
    })
    .unwrap_err();
    assert_eq!(e.field, "typesize");
    let e = compress(&[0; 64], &{
        let mut p = Params::new(4);
        p.codec = Codec::Snappy;
        p
    })
    .unwrap_err();
    assert_eq!((e.kind, e.offset, e.field), (ErrorKind::Unsupported, 22, "udcompcode"));
    let e = compress(&[0; 64], &{
        let mut p = Params::new(4);
        p.filters[5] = Filter::from_id(40);
        p
    })
    .unwrap_err();
    assert_eq!((e.kind, e.offset), (ErrorKind::Unsupported, 21));
    // ndmean needs the array's block shape (`Registry::with_array_shapes`): without it, it says so.
    let e = compress(&[1; 4096], &{
        let mut p = Params::new(4);
        p.filters[5] = Filter::NdMean;
        p.filters_meta[5] = 4;
        p
    })
    .unwrap_err();
    assert_eq!(e.field, "filters");
    assert!(e.to_string().contains("block shape"), "{e}");
    let e = compress(&[0; 64], &{
        let mut p = Params::new(4);
        p.filters[4] = Filter::Shuffle;
        p.filters[5] = Filter::Delta;
        p
    })
    .unwrap_err();
    assert_eq!((e.kind, e.offset), (ErrorKind::Unsupported, 21));
    let mut p = Params::new(2);
    p.filters[0] = Filter::TruncPrec;
    assert_eq!(compress(&[0; 64], &p).unwrap_err().field, "typesize");
    p.typesize = 4;
    p.filters_meta[0] = 30;
    let e = compress(&[0; 64], &p).unwrap_err();
    assert_eq!((e.offset, e.field), (24, "filters_meta"));
    assert!(e.to_string().contains("found 30"), "{e}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Chunks of many blocks (up to 130, a short last one when the blocksize does not divide
    /// the chunk), each block noise, a counter, a run or zeros, so blocks take unlike times and
    /// sizes: the threads (taking blocks as they come and appending them in turn) write the
    /// serial loop's bytes, whatever the thread count.
    #[test]
    fn chunks_of_many_blocks_do_not_depend_on_threads(
        kinds in proptest::collection::vec(0u8..4, 1..12),
        block in 64usize..1024,
        extra in 0usize..1024,
        p in params(),
        nthreads in 2usize..=4,
        seed in any::<u64>(),
    ) {
        let mut x = seed | 1;
        let len = kinds.len() * 10 * block + extra;
        let src: Vec<u8> = (0..len)
            .map(|i| match kinds[i / block % kinds.len()] {
                0 => {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    x as u8
                }
                1 => (i / 3) as u8,
                2 => 7,
                _ => 0,
            })
            .collect();
        let p = p.with_blocksize(block);
        let one = compress(&src, &{ let mut p = p; p.nthreads = 1; p }).unwrap();
        let many = compress(&src, &{ let mut p = p; p.nthreads = nthreads; p }).unwrap();
        prop_assert!(one == many, "{} threads wrote other bytes", nthreads);
        prop_assert_eq!(chunk::decompress(&many).unwrap(), src);
    }
}

/// What [`arriving`] saw besides the chunk: whether the compressor let pieces go, how many, of
/// how many pieces, and whether the pusher waited in vain for the compressor.
#[derive(Debug)]
struct Let {
    releasing: bool,
    released: usize,
    pieces: usize,
    /// Pieces still held by anyone when the compressor returned (the source still alive).
    held: usize,
    starved: bool,
}

/// `src` compressed by `compress_arriving` while another thread pushes it in pieces of
/// `blocks` whole blocks (pausing a little before some of them, so that compressing threads wait
/// for pieces), or only its first `fail_after` pieces before the source fails. The pusher reads
/// ahead as `pack` does: `AHEAD` pieces ahead of those the compressor is done with, it waits for
/// the compressor (in vain after 5 s: `starved`).
fn arriving(
    src: &[u8],
    p: &Params,
    blocks: usize,
    fail_after: Option<usize>,
) -> Result<(Vec<u8>, Let), chunk::Error> {
    use b2schema_chunk::compress::{Arriving, compress_arriving};
    use std::sync::Arc;
    const AHEAD: usize = 2;
    let piece = p.blocksize_for(src.len()).max(1) * blocks;
    let arrived = Arriving::new(src.len(), piece)?;
    let mut out = Vec::new();
    let starved = std::sync::atomic::AtomicBool::new(false);
    let pushed = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|s| {
        s.spawn(|| {
            for (i, bytes) in src.chunks(piece).enumerate() {
                if fail_after == Some(i) {
                    arrived.fail();
                    return;
                }
                if i % 3 == 1 {
                    std::thread::sleep(std::time::Duration::from_micros(200));
                }
                loop {
                    let (ahead, done) = arrived.ahead();
                    if ahead < AHEAD {
                        break;
                    }
                    let (since, timeout) = (std::time::Instant::now(), std::time::Duration::from_secs(5));
                    arrived.wait_done(done, timeout);
                    if since.elapsed() >= timeout {
                        starved.store(true, std::sync::atomic::Ordering::Relaxed);
                        break;
                    }
                }
                let piece = Arc::new(bytes.to_vec());
                pushed.lock().unwrap().push(Arc::downgrade(&piece));
                arrived.push(piece).unwrap();
            }
        });
        compress_arriving(&arrived, p, chunk::Registry::builtin(), &mut out, None)
    })?;
    let (releasing, released) = arrived.released();
    let pieces = src.len().div_ceil(piece);
    let held = pushed.into_inner().unwrap().iter().filter(|w| w.strong_count() > 0).count();
    Ok((out, Let { releasing, released, pieces, held, starved: starved.into_inner() }))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    /// A chunk compressed as its pieces arrive is the chunk of the whole input, at any thread
    /// count and piece size, dictionaries included (or the same error).
    #[test]
    fn arriving_chunks_are_the_whole_chunks(src in prop_oneof![data(), nearly_noise()], p in params(), blocks in 1usize..5, dict in any::<bool>()) {
        let p = p.with_use_dict(dict);
        let whole = compress(&src, &p);
        match (arriving(&src, &p, blocks, None), whole) {
            (Ok((a, l)), Ok(w)) => {
                prop_assert!(a == w, "arriving chunk differs");
                // Pieces are let go as their blocks are done unless the chunk might end as a
                // memcpy chunk (then never), all of them by the end, and never too late for a
                // reader that waits for them.
                let memcpy = ChunkHeader::parse(&a).unwrap().is_memcpyed();
                prop_assert!(!(memcpy && l.releasing), "a memcpy chunk let its pieces go");
                prop_assert!(memcpy || l.pieces == 0 || (l.releasing && l.released >= l.pieces), "{} of {} pieces let go", l.released, l.pieces);
                prop_assert!(!l.starved, "the reader waited in vain for the compressor");
                // Let go means dropped: at most the first piece (a delta filter's) is still held.
                prop_assert!(memcpy || l.held <= 1, "{} pieces still held", l.held);
            }
            (Err(a), Err(w)) => prop_assert_eq!(a, w),
            (a, w) => prop_assert!(false, "arriving {:?}, whole {:?}", a.map(|v| v.0.len()), w.map(|v| v.len())),
        }
    }

    /// A source that fails before its last piece ends the compression with an error (no
    /// thread waits for the pieces that will not come).
    #[test]
    fn a_failed_source_is_an_error(src in data(), p in params(), blocks in 1usize..5, at in any::<prop::sample::Index>()) {
        let piece = p.blocksize_for(src.len()).max(1) * blocks;
        let pieces = src.len().div_ceil(piece);
        prop_assume!(pieces > 0);
        let e = arriving(&src, &p, blocks, Some(at.index(pieces))).unwrap_err();
        prop_assert_eq!((e.kind, e.field), (ErrorKind::ShortInput, "piece"));
    }
}

/// Pieces that cut a block in two, or pushed past the chunk, are errors naming the piece.
#[test]
fn pieces_must_hold_whole_blocks() {
    use b2schema_chunk::compress::{Arriving, compress_arriving};
    let p = Params::new(4).with_blocksize(1024);
    let src = Arriving::new(4096, 1000).unwrap();
    let e = compress_arriving(&src, &p, chunk::Registry::builtin(), &mut Vec::new(), None).unwrap_err();
    assert_eq!((e.kind, e.field), (ErrorKind::Invalid, "piece"));
    let src = Arriving::new(10, 8).unwrap();
    src.push(std::sync::Arc::new(vec![0u8; 8])).unwrap();
    assert_eq!(src.push(std::sync::Arc::new(vec![0u8; 8])).unwrap_err().field, "piece");
    assert_eq!(Arriving::new(10, 0).err().map(|e| e.field), Some("piece"));
}

/// A watch that takes the chunk's bytes at every `every`-th call: what it took, where the
/// first block starts.
struct Taker {
    every: usize,
    calls: std::sync::atomic::AtomicUsize,
    took: std::sync::Mutex<(Vec<u8>, usize)>,
}

impl b2schema_chunk::compress::Watch for Taker {
    fn appended(&self, chunk: &[u8], body_start: usize) -> bool {
        if !self.calls.fetch_add(1, std::sync::atomic::Ordering::Relaxed).is_multiple_of(self.every) {
            return false;
        }
        let mut t = self.took.lock().unwrap();
        let from = if t.0.is_empty() { 0 } else { body_start };
        t.0.extend_from_slice(&chunk[from..]);
        t.1 = body_start;
        true
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    /// The bytes a watch takes, put back between the output's header and block table and its
    /// last bytes, are the chunk `compress` writes (or the output is a whole memcpy chunk).
    #[test]
    fn bytes_taken_by_the_watch_complete_the_chunk(src in data(), p in params(), every in 1usize..4) {
        let whole = compress(&src, &p).unwrap();
        let taker = Taker { every, calls: 0.into(), took: Default::default() };
        let mut out = Vec::new();
        b2schema_chunk::compress::compress_into_watched(&src, &p, chunk::Registry::builtin(), &mut out, Some(&taker))
            .unwrap();
        let (took, body) = taker.took.into_inner().unwrap();
        let h = ChunkHeader::peek(&out).unwrap();
        prop_assert_eq!(h.compressed_len(), whole.len());
        if took.is_empty() || h.is_memcpyed() {
            prop_assert!(out == whole);
        } else {
            let mut back = out[..body].to_vec();
            back.extend_from_slice(&took[body..]);
            back.extend_from_slice(&out[body..]);
            prop_assert!(back == whole, "the chunk put back differs");
        }
    }
}

/// A chunk that saves bytes early (a run of one byte) then meets noise in streams so small that
/// their 4-byte sizes outweigh the saving: it ends as a memcpy chunk, which needs every piece
/// again, so none may be let go early. Run lengths from none to half the chunk put the saving
/// on both sides of what the streams left can cost (16-byte streams: 4 bytes more each when
/// stored raw, 4 or 5 bytes in all when a run).
#[test]
fn pieces_are_kept_while_the_chunk_may_end_as_memcpy() {
    let len = 16 * 1024;
    let noise = noise(0x2545_F491_4F6C_DD1D, len);
    let (mut memcpy, mut coded) = (0, 0);
    for sixtyfourths in 0..=32 {
        let mut src = noise.clone();
        src[..len * sixtyfourths / 64].fill(7);
        for nthreads in [1, 3] {
            let p = Params::new(8)
                .with_codec(Codec::Lz4)
                .with_filter(5, Filter::Shuffle, 0)
                .with_split(Split::Always)
                .with_blocksize(128)
                .with_nthreads(nthreads);
            let whole = compress(&src, &p).unwrap();
            // Pieces of 16 blocks and of one (a reader waiting for the compressor when it
            // turns to the memcpy chunk, which wants every piece: it must read on).
            for blocks in [16, 1] {
                let (a, l) = arriving(&src, &p, blocks, None).unwrap();
                assert!(a == whole, "run of {sixtyfourths}/64, pieces of {blocks}: arriving chunk differs");
                assert!(
                    !l.starved,
                    "run of {sixtyfourths}/64, pieces of {blocks}: the reader waited in vain"
                );
            }
            match ChunkHeader::parse(&whole).unwrap().is_memcpyed() {
                true => memcpy += 1,
                false => coded += 1,
            }
        }
    }
    // Both kinds met (else the sweep misses the window it is for).
    assert!(memcpy > 0 && coded > 0, "{memcpy} memcpy, {coded} coded");
}

/// A chunk with a dictionary trained on all its blocks wants every piece before it is done
/// with any: a reader that keeps a few pieces ahead of the compressor must read on (no wait
/// in vain), and the chunk is the whole input's.
#[test]
fn a_dictionary_chunk_reads_every_piece_first() {
    let src: Vec<u8> = (0..64 * 1024u32).map(|i| (i % 251) as u8 ^ (i / 4096) as u8).collect();
    for codec in [Codec::Zstd, Codec::Lz4] {
        let p = Params::new(4)
            .with_codec(codec)
            .with_filter(5, Filter::Shuffle, 0)
            .with_blocksize(1024)
            .with_use_dict(true)
            .with_nthreads(2);
        let whole = compress(&src, &p).unwrap();
        assert!(ChunkHeader::parse(&whole).unwrap().uses_dict(), "{codec:?}: no dictionary");
        let (a, l) = arriving(&src, &p, 1, None).unwrap();
        assert!(a == whole, "{codec:?}: arriving chunk differs");
        assert!(!l.starved, "{codec:?}: the reader waited in vain");
    }
}

/// A codec that writes a stream as its first byte and length (for streams of one byte then
/// zeros), holding the stream that starts with [`HELD_MARK`] until the other threads have
/// encoded `want` streams (or two seconds have passed).
struct HoldsTheFirst {
    want: usize,
    /// The streams the other threads encoded; whether they were `want` when the held one ended.
    seen: std::sync::Arc<(std::sync::atomic::AtomicUsize, std::sync::atomic::AtomicBool)>,
}

const HELD_MARK: u8 = 0xFF;

impl chunk::CodecPlugin for HoldsTheFirst {
    fn name(&self) -> &str {
        "holds the first"
    }
    fn encode(
        &self,
        src: &[u8],
        dst: &mut [u8],
        _: &chunk::PluginContext<'_>,
    ) -> Result<usize, chunk::PluginError> {
        use std::sync::atomic::Ordering::SeqCst;
        if src.first() == Some(&HELD_MARK) {
            let start = std::time::Instant::now();
            let (others, reached) = &*self.seen;
            while others.load(SeqCst) < self.want && start.elapsed() < std::time::Duration::from_secs(2) {
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
            reached.store(others.load(SeqCst) >= self.want, SeqCst);
        } else {
            self.seen.0.fetch_add(1, SeqCst);
        }
        let len = u32::try_from(src.len()).map_err(|_| chunk::PluginError("a stream under 4 GiB"))?;
        let out = dst.get_mut(..5).ok_or(chunk::PluginError("5 bytes of room"))?;
        out[0] = src.first().copied().unwrap_or(0);
        out[1..].copy_from_slice(&len.to_le_bytes());
        Ok(5)
    }
    fn decode(
        &self,
        src: &[u8],
        dst: &mut [u8],
        _: &chunk::PluginContext<'_>,
    ) -> Result<usize, chunk::PluginError> {
        let (&first, _) = src.split_first().ok_or(chunk::PluginError("a first byte"))?;
        dst.fill(0);
        if let Some(d) = dst.first_mut() {
            *d = first;
        }
        Ok(dst.len())
    }
}

/// A slow block does not hold up the other threads at every block: at 2 threads, while the
/// first block's stream is held, the other thread encodes the blocks after it (parking them
/// until their turn) instead of waiting after the first one it finishes. The chunk is the one
/// of 1 thread, and decodes to its input. (Planted: no parking, a thread waiting for its
/// turn at every block as before: the other thread encodes 1 block, not 3.)
#[test]
fn a_slow_block_does_not_hold_up_the_other_threads() {
    let (blocksize, nblocks) = (4096, 64);
    let mut src = vec![0u8; blocksize * nblocks];
    for (j, block) in src.chunks_exact_mut(blocksize).enumerate() {
        block[0] = if j == 0 { HELD_MARK } else { 1 + (j % 200) as u8 };
    }
    let id = Codec::from_id(200);
    let registry = |want| {
        let seen = std::sync::Arc::new((0.into(), false.into()));
        let mut registry = chunk::Registry::new();
        registry.register_codec(id, HoldsTheFirst { want, seen: seen.clone() }).unwrap();
        (registry, seen)
    };
    let mut p = Params::new(1).with_codec(id).with_blocksize(blocksize);
    p.nthreads = 1;
    let one = chunk::compress::compress_with(&src, &p, &registry(0).0).unwrap();
    let (registry, seen) = registry(3);
    p.nthreads = 2;
    let two = chunk::compress::compress_with(&src, &p, &registry).unwrap();
    assert!(seen.1.load(std::sync::atomic::Ordering::SeqCst), "the other thread waited at the first block");
    assert!(one == two, "the chunk of 2 threads differs from 1 thread's");
    assert!(!ChunkHeader::peek(&two).unwrap().is_memcpyed());
    assert_eq!(chunk::Decoder::new(&registry).decompress(&two).unwrap(), src);
}
