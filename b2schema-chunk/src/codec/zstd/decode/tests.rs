//! Differential tests against libzstd (the `zstd` crate, a dev-dependency): streams it writes at
//! levels -5..=22, with and without dictionaries (raw content and trained), checksums, long
//! distance matching, tiny and 128 KiB blocks, data from random to constant, several frames and
//! skippable frames, decode to the same bytes; mutants of them decode to what libzstd decodes, or
//! are refused where libzstd refuses them. With a dictionary, libzstd decodes as c-blosc2 calls
//! it (`ZSTD_createDDict`, `ZSTD_decompress_usingDDict`), whose match history is a formatted
//! dictionary's whole bytes (`history`: frames whose matches start anywhere in it).
//!
//! Wherever libzstd 1.5.7 refuses a stream, we refuse it; wherever both decode, the bytes are the
//! same. The differences kept are refusals of ours on streams libzstd decodes, each named by
//! [`super::libzstd_may_accept`] and found by the mutants:
//! - `HUF_END`, a Huffman stream whose bits do not end exactly with its last literal: libzstd's
//!   double-symbol decoder (`HUF_decompress4X2`, chosen by a size heuristic) clamps the bit count
//!   at the end of a stream (`HUF_decodeLastSymbolX2`), so it accepts a stream whose last code is
//!   cut short (read past the stream's first byte); its single-symbol decoder refuses it as we
//!   do (RFC 8878 §4.2.2: the stream is consumed exactly).
//! - `HUF_MARKER`, a Huffman stream whose last byte is zero (no start marker): libzstd's fast
//!   4-stream loop (`HUF_DecompressFastArgs_init`, streams of 8 bytes or more) does not check the
//!   marker; RFC 8878 §4.2.2 requires it and libzstd's other paths refuse it.
//! - `WINDOW_TOO_LARGE`, a window descriptor above 2^27 bytes: libzstd's one-shot
//!   `ZSTD_decompressDCtx` does not apply its window limit (its streaming API does,
//!   `ZSTD_WINDOWLOG_LIMIT_DEFAULT`); we refuse such frames, as the streaming API does, since no
//!   Blosc2 writer makes them.
//! - `LEGACY_FRAME`, a legacy (pre-1.0, v0.1 to v0.7) zstd frame: libzstd built with
//!   `ZSTD_LEGACY_SUPPORT` (as the `zstd` crate builds it) decodes those formats; RFC 8878 defines
//!   only magic 0xFD2FB528, and no Blosc2 writer makes them (found by the fuzz target: a 7-byte
//!   v0.2 frame, `tests::legacy_frames_are_refused`).
//! - `BLOCK_TOO_LARGE`, a raw or RLE block larger than the frame's block maximum size (its window,
//!   at most 128 KiB), or a compressed block that decodes to more: libzstd's one-shot
//!   `ZSTD_decompressFrame` checks only a compressed block's own size; its streaming decoder
//!   refuses such blocks ("Decompressed Block Size Exceeds Maximum"), as RFC 8878 §3.1.1.2.3 asks
//!   and as we do (found by the fuzz target: an RLE block of 12,032 bytes in a frame of 1 KiB
//!   window, `tests::oversized_rle_blocks_are_refused`; and by the mutants: a frame header
//!   descriptor deleted, which left a 4 KiB window over a compressed block of 4,372 bytes, seed
//!   in `proptest-regressions/codec/zstd/decode/tests.txt`).
//!
//! In a run of 100,000 mutants (`PROPTEST_CASES=100000`, flipped, inserted and deleted bytes in
//! streams of every level, with and without dictionaries, 2026-11-25): 92,286 refused by both,
//! 6,867 decoded by both to the same bytes, 850 refused by us only: 796 `HUF_END`, 48
//! `HUF_MARKER`, 6 `WINDOW_TOO_LARGE`; none decoded by us only, none decoded differently.

use super::{DecodeError, Decoder};
use alloc::vec;
use alloc::vec::Vec;
use proptest::prelude::*;
use zstd::zstd_safe::CParameter;

mod history;

fn rng(seed: u64) -> impl FnMut() -> u64 {
    let mut s = seed | 1;
    move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    }
}

/// Test data of `len` bytes: `kind` 0 random, 1 constant, 2 small alphabet, 3 text-like repeats,
/// 4 smooth float64, 5 int32 counters, 6 mixed runs.
fn data(kind: u8, len: usize, seed: u64) -> Vec<u8> {
    let mut r = rng(seed);
    match kind % 7 {
        0 => (0..len).map(|_| r() as u8).collect(),
        1 => vec![(seed as u8) | 1; len],
        2 => (0..len).map(|_| b"abcd"[(r() % 4) as usize]).collect(),
        3 => {
            let words: [&[u8]; 8] =
                [b"zstd ", b"blosc ", b"chunk ", b"frame ", b"the ", b"of ", b"decoder ", b"\n"];
            let mut v = Vec::with_capacity(len + 8);
            while v.len() < len {
                v.extend_from_slice(words[(r() % 8) as usize]);
            }
            v.truncate(len);
            v
        }
        4 => {
            let mut v = Vec::with_capacity(len + 8);
            let mut i = 0f64;
            while v.len() < len {
                v.extend_from_slice(&(i * 0.001).sin().to_le_bytes());
                i += 1.0;
            }
            v.truncate(len);
            v
        }
        5 => {
            let mut v = Vec::with_capacity(len + 4);
            let mut i = 0u32;
            while v.len() < len {
                v.extend_from_slice(&(i / 3).to_le_bytes());
                i += 1;
            }
            v.truncate(len);
            v
        }
        _ => {
            let mut v = Vec::with_capacity(len);
            while v.len() < len {
                let n = (r() % 300) as usize;
                let b = r() as u8;
                if r() & 1 == 0 {
                    v.extend(core::iter::repeat_n(b, n));
                } else {
                    v.extend((0..n).map(|_| r() as u8));
                }
            }
            v.truncate(len);
            v
        }
    }
}

#[derive(Debug, Clone)]
struct Opts {
    level: i32,
    checksum: bool,
    ldm: bool,
    /// 0: default blocks, 1: tiny target blocks, 2: small max block size.
    blocks: u8,
    content_size: bool,
}

fn compress(src: &[u8], o: &Opts, dict: Option<&[u8]>) -> Vec<u8> {
    let mut c = match dict {
        Some(d) => zstd::bulk::Compressor::with_dictionary(o.level, d).unwrap(),
        None => zstd::bulk::Compressor::new(o.level).unwrap(),
    };
    c.set_parameter(CParameter::ChecksumFlag(o.checksum)).unwrap();
    c.set_parameter(CParameter::ContentSizeFlag(o.content_size)).unwrap();
    if o.ldm {
        c.set_parameter(CParameter::EnableLongDistanceMatching(true)).unwrap();
    }
    match o.blocks {
        1 => c.set_parameter(CParameter::TargetCBlockSize(1340)).unwrap(),
        2 => c.set_parameter(CParameter::MaxBlockSize(1024)).unwrap(),
        _ => {}
    }
    c.compress(src).unwrap()
}

/// libzstd's decoding of `src` into a buffer of `cap` bytes: with a dictionary, c-blosc2's
/// calls (`ZSTD_createDDict`, `ZSTD_decompress_usingDDict`).
fn reference(src: &[u8], cap: usize, dict: Option<&[u8]>) -> Option<Vec<u8>> {
    let mut out = vec![0u8; cap];
    let mut d = zstd::zstd_safe::DCtx::create();
    let n = match dict {
        Some(x) => d.decompress_using_ddict(&mut out[..], src, &zstd::zstd_safe::DDict::try_create(x)?),
        None => d.decompress(&mut out[..], src),
    }
    .ok()?;
    out.truncate(n);
    Some(out)
}

/// A decoder with the dictionary `dict`, or with none.
fn decoder(dict: Option<&[u8]>) -> Result<Decoder, DecodeError> {
    match dict {
        Some(x) => Decoder::with_dict(x),
        None => Ok(Decoder::new()),
    }
}

fn ours(src: &[u8], cap: usize, dict: Option<&[u8]>) -> Result<Vec<u8>, DecodeError> {
    ours_by(decoder(dict)?, src, cap)
}

/// The decoding of `src` by `d` into a buffer of `cap` bytes.
fn ours_by(mut d: Decoder, src: &[u8], cap: usize) -> Result<Vec<u8>, DecodeError> {
    let mut out = vec![0u8; cap];
    let n = d.decode(src, &mut out)?;
    assert!(n <= cap);
    out.truncate(n);
    Ok(out)
}

fn opts() -> impl Strategy<Value = Opts> {
    (-5i32..=22, any::<bool>(), any::<bool>(), 0u8..3, any::<bool>()).prop_map(
        |(level, checksum, ldm, blocks, content_size)| Opts { level, checksum, ldm, blocks, content_size },
    )
}

/// What a frame is made from: data of a kind, length and seed ([`data`]), libzstd's options,
/// and a dictionary of kind `dk` 0 or 1 ([`dictionary`]; none for 2).
#[derive(Debug, Clone)]
struct Source {
    kind: u8,
    len: usize,
    seed: u64,
    opts: Opts,
    dk: u8,
}

impl Source {
    fn data(&self) -> Vec<u8> {
        data(self.kind, self.len, self.seed)
    }

    fn dict(&self) -> Option<Vec<u8>> {
        (self.dk < 2).then(|| dictionary(self.dk, self.seed))
    }
}

/// Sources of any kind, shorter than `max_len`, with and without a dictionary.
fn source(max_len: usize) -> impl Strategy<Value = Source> {
    (0u8..7, 0..max_len, any::<u64>(), opts(), 0u8..3).prop_map(|(kind, len, seed, opts, dk)| Source {
        kind,
        len,
        seed,
        opts,
        dk,
    })
}

fn dictionary(kind: u8, seed: u64) -> Vec<u8> {
    if kind == 0 {
        // Raw content.
        return data(3, 3000, seed);
    }
    // Trained dictionaries: four, trained once (training is slow).
    static TRAINED: std::sync::OnceLock<Vec<Vec<u8>>> = std::sync::OnceLock::new();
    let all = TRAINED.get_or_init(|| {
        (0..4u64)
            .map(|k| {
                let samples: Vec<Vec<u8>> =
                    (0..64).map(|i| data(if i % 2 == 0 { 3 } else { 5 }, 700, k * 1000 + i)).collect();
                zstd::dict::from_samples(&samples, 4096).unwrap()
            })
            .collect()
    });
    all[(seed % 4) as usize].clone()
}

/// A change to a stream: at an index, flip the bits of a byte (op 0), insert a byte (1) or
/// delete one (2).
type Edit = (prop::sample::Index, u8, u8);

fn edit() -> impl Strategy<Value = Edit> {
    (any::<prop::sample::Index>(), 0u8..3, any::<u8>())
}

fn apply(z: &mut Vec<u8>, edits: &[Edit]) {
    for (at, op, b) in edits {
        match op {
            0 if !z.is_empty() => {
                let i = at.index(z.len());
                z[i] ^= b | 1;
            }
            1 => {
                let i = at.index(z.len() + 1);
                z.insert(i, *b);
            }
            _ if !z.is_empty() => {
                let i = at.index(z.len());
                z.remove(i);
            }
            _ => {}
        }
    }
}

/// Proptest cases: `PROPTEST_CASES` if set, else `default`.
fn proptest_cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: proptest_cases(192), ..ProptestConfig::default() })]

    #[test]
    fn decodes_what_libzstd_writes(kind in 0u8..7, len in 0usize..300_000, seed in any::<u64>(), o in opts()) {
        let len = if seed.is_multiple_of(3) { len % 2000 } else { len };
        let src = data(kind, len, seed);
        let z = compress(&src, &o, None);
        let got = ours(&z, src.len(), None).unwrap();
        prop_assert!(got == src);
        // One byte short: refused.
        if !src.is_empty() {
            prop_assert!(ours(&z, src.len() - 1, None).is_err());
        }
    }

    #[test]
    fn decodes_with_dictionaries(kind in 0u8..7, len in 0usize..40_000, seed in any::<u64>(), o in opts(), dk in 0u8..2) {
        let d = dictionary(dk, seed);
        let src = data(kind, len, seed ^ 5);
        let z = compress(&src, &o, Some(&d));
        let got = ours(&z, src.len(), Some(&d)).unwrap();
        prop_assert!(got == src);
    }

    #[test]
    fn several_frames_and_skippable_frames(
        parts in prop::collection::vec((0u8..7, 0usize..20_000, any::<u64>(), opts(), any::<bool>()), 1..5),
    ) {
        let mut z = Vec::new();
        let mut want = Vec::new();
        for (kind, len, seed, o, skip) in &parts {
            if *skip {
                z.extend_from_slice(&(0x184D_2A50u32 + (*seed as u32 & 15)).to_le_bytes());
                let n = (*seed % 40) as u32;
                z.extend_from_slice(&n.to_le_bytes());
                z.extend((0..n).map(|i| i as u8));
            }
            let src = data(*kind, *len, *seed);
            z.extend(compress(&src, o, None));
            want.extend(src);
        }
        prop_assert_eq!(reference(&z, want.len(), None).unwrap(), want.clone());
        prop_assert!(ours(&z, want.len(), None).unwrap() == want);
    }

    #[test]
    fn mutants_agree_with_libzstd(s in source(20_000), edits in prop::collection::vec(edit(), 1..4)) {
        let d = s.dict();
        let src = s.data();
        let mut z = compress(&src, &s.opts, d.as_deref());
        apply(&mut z, &edits);
        let cap = src.len() + 64;
        let want = reference(&z, cap, d.as_deref());
        let got = ours(&z, cap, d.as_deref());
        match (&want, &got) {
            (Some(w), Ok(g)) => prop_assert!(w == g, "both decode, to different bytes"),
            (None, Err(_)) => {}
            (Some(_), Err(e)) => prop_assert!(allowed(e), "libzstd decodes, we refuse: {:?}", e),
            (None, Ok(_)) => prop_assert!(false, "libzstd refuses, we decode"),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: proptest_cases(256), ..ProptestConfig::default() })]

    /// The build of the sequence and Huffman loops chosen at run time (x86-64-v3, BMI2, on a CPU
    /// that has it) and the baseline build decode every stream alike: frames of libzstd's every
    /// level (with and without a dictionary) and of this crate's encoder at every clevel, whole,
    /// truncated, and with bits flipped, bytes inserted or deleted, to the same bytes or the same
    /// error.
    #[test]
    fn both_builds_decode_alike(
        s in source(100_000),
        own in prop::option::of(1u8..=9),
        cut in prop::option::of(any::<prop::sample::Index>()),
        edits in prop::collection::vec(edit(), 0..4),
    ) {
        // Where the CPU has no x86-64-v3 both builds are the baseline (what
        // `the_v3_build_runs_where_the_cpu_has_it` checks and says).
        let d = s.dict();
        let src = s.data();
        // Our encoder's frame at clevel `own` (none where it gives the stream up), else libzstd's.
        let ours_frame = own.and_then(|clevel| {
            let mut f = vec![0u8; src.len() + 1024];
            let n = crate::codec::zstd::encode::encode(clevel, &src, &mut f);
            f.truncate(n);
            (n > 0).then_some(f)
        });
        let d = if ours_frame.is_some() { None } else { d };
        let mut z = ours_frame.unwrap_or_else(|| compress(&src, &s.opts, d.as_deref()));
        if let Some(at) = cut {
            z.truncate(at.index(z.len() + 1));
        }
        apply(&mut z, &edits);
        let cap = src.len() + 64;
        let detect = ours_by(decoder(d.as_deref()).unwrap(), &z, cap);
        let baseline = ours_by(decoder(d.as_deref()).unwrap().baseline(), &z, cap);
        prop_assert_eq!(&detect, &baseline);
        if cut.is_none() && edits.is_empty() {
            prop_assert!(detect.unwrap() == src);
        }
    }
}

/// The refusals of ours that libzstd may not share (see the module's documentation).
fn allowed(e: &DecodeError) -> bool {
    super::libzstd_may_accept(e.what)
}

/// On an x86-64 CPU with x86-64-v3 (AVX2, FMA, BMI2) the decoder runs the v3 build of its
/// loops, so that `both_builds_decode_alike` compares two builds; elsewhere it runs the baseline
/// (then that test compares the baseline with itself, as this one prints), and the baseline
/// build never runs the v3 one.
#[test]
fn the_v3_build_runs_where_the_cpu_has_it() {
    #[cfg(all(feature = "std", target_arch = "x86_64"))]
    {
        let v3 = std::is_x86_feature_detected!("avx2")
            && std::is_x86_feature_detected!("fma")
            && std::is_x86_feature_detected!("bmi2");
        assert_eq!(super::Build::Detect.v3().is_some(), v3);
        assert!(super::Build::Baseline.v3().is_none());
        println!("zstd decoding's x86-64-v3 build in use: {v3}");
    }
    #[cfg(not(all(feature = "std", target_arch = "x86_64")))]
    println!("zstd decoding's x86-64-v3 build: not in this build (std on x86-64 only)");
}

#[test]
fn every_level_on_every_kind() {
    for kind in 0..7 {
        for level in -5..=22 {
            let src = data(kind, 150_000, (level + 10) as u64);
            for checksum in [false, true] {
                let o = Opts { level, checksum, ldm: level > 15, blocks: 0, content_size: true };
                let z = compress(&src, &o, None);
                let got = ours(&z, src.len(), None);
                assert!(got.as_ref().ok() == Some(&src), "kind {kind} level {level} {:?}", got.err());
            }
        }
    }
}

#[test]
fn legacy_frames_are_refused() {
    // The fuzz target's finding: a v0.2 frame (magic 0xFD2FB522) that libzstd decodes to nothing.
    let v02 = [0x22, 0xb5, 0x2f, 0xfd, 0xd1, 0x00, 0xc5];
    let e = ours(&v02, 0, None).unwrap_err();
    assert_eq!((e.offset, e.what), (0, super::frame::LEGACY_FRAME));
    assert!(super::libzstd_may_accept(e.what));
    assert_eq!(reference(&v02, 0, None), Some(Vec::new()));
}

#[test]
fn oversized_rle_blocks_are_refused() {
    // The fuzz target's finding: a 1 KiB window, 21 empty raw blocks, then an RLE block of
    // 12,032 bytes.
    let mut z = vec![0x28, 0xb5, 0x2f, 0xfd, 0x01, 0x00, 0x00];
    z.extend([0u8; 63]);
    z.extend([0x03, 0x78, 0x01, 0x71]);
    let e = ours(&z, 65536, None).unwrap_err();
    assert_eq!(e.what, super::frame::BLOCK_TOO_LARGE);
    assert!(super::libzstd_may_accept(e.what));
    assert_eq!(reference(&z, 65536, None).map(|v| v.len()), Some(12032));
}

#[test]
fn empty_input_is_no_frame() {
    assert_eq!(ours(&[], 10, None).unwrap().len(), 0);
    assert_eq!(reference(&[], 10, None).unwrap().len(), 0);
}
