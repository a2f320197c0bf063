//! This crate's zstd encoder: every frame it writes decoded by libzstd and by this crate's
//! decoder to the original bytes, on generated inputs at every level it serves.

use super::block::off_base;
use super::frame::compress;
use crate::codec::zstd::decode::Decoder;
use crate::test_data::noise;
use alloc::vec::Vec;
use proptest::prelude::*;

/// The zstd levels of c-blosc2's clevels 1 to 5 and the dictionary's (1).
const LEVELS: [i32; 5] = [1, 3, 5, 7, 9];

/// Encodes `input` at `level` (with the raw-content dictionary `dict`) and checks that libzstd
/// and this crate's decoder both give it back; the frame's size.
pub(super) fn round_trip(level: i32, input: &[u8], dict: &[u8]) -> usize {
    let frame = compress(level, input, dict, 0).unwrap_or_else(|| panic!("level {level} is this encoder's"));
    let back = if dict.is_empty() {
        zstd::bulk::decompress(&frame, input.len()).expect("libzstd decodes the frame")
    } else {
        let mut d = zstd::bulk::Decompressor::with_dictionary(dict).expect("a raw dictionary");
        d.decompress(&frame, input.len()).expect("libzstd decodes the frame")
    };
    assert!(back == input, "libzstd: level {level}, {} bytes", input.len());
    let mut dec =
        if dict.is_empty() { Decoder::new() } else { Decoder::with_dict(dict).expect("a raw dictionary") };
    let mut out = alloc::vec![0u8; input.len()];
    let n = dec.decode(&frame, &mut out).expect("this crate's decoder decodes the frame");
    assert!(n == input.len() && out == input, "ours: level {level}, {} bytes", input.len());
    frame.len()
}

pub(super) fn shuffled_smooth(n: usize) -> Vec<u8> {
    let v: Vec<u8> =
        (0..n.div_ceil(8)).flat_map(|i| ((i as f64 * 1e-3).sin() * 100.0).to_le_bytes()).collect();
    let m = v.len() / 8;
    let mut out = alloc::vec![0u8; v.len()];
    for i in 0..m {
        for b in 0..8 {
            out[b * m + i] = v[i * 8 + b];
        }
    }
    out.truncate(n);
    out
}

pub(super) fn text(n: usize, seed: u64) -> Vec<u8> {
    let words: [&[u8]; 8] =
        [b"frame ", b"block ", b"literal ", b"match\n", b"offset ", b"the ", b"a ", b"zstd "];
    let mut out = Vec::with_capacity(n + 8);
    let mut x = seed | 1;
    while out.len() < n {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        out.extend_from_slice(words[(x % 8) as usize]);
    }
    out.truncate(n);
    out
}

/// One generated input of `n` bytes of kind `kind`.
pub(super) fn input(kind: u8, n: usize, seed: u64) -> Vec<u8> {
    match kind % 6 {
        0 => alloc::vec![(seed & 0xff) as u8; n],
        1 => noise(n, seed),
        2 => shuffled_smooth(n),
        3 => (0..n.div_ceil(4)).flat_map(|i| (i as u32 + seed as u32).to_le_bytes()).take(n).collect(),
        4 => text(n, seed),
        // Runs of random lengths with repeats at several distances.
        _ => {
            let base = noise(n.min(300) + 1, seed);
            (0..n).map(|i| base[(i / (1 + (i % 7))) % base.len()]).collect()
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]
    /// Sizes from empty to past two blocks, every kind, every level: both decoders agree.
    #[test]
    fn frames_decode_to_the_input(kind in 0u8..6, n in prop_oneof![0usize..300, 300usize..40_000, 131_000usize..263_000], seed in any::<u64>()) {
        let data = input(kind, n, seed);
        for level in LEVELS {
            round_trip(level, &data, &[]);
        }
    }
}

#[test]
fn block_boundaries_and_tiny_inputs() {
    for n in [0, 1, 2, 7, 8, 9, 63, 64, 256, 131_071, 131_072, 131_073, 262_145] {
        for kind in 0..6 {
            let data = input(kind, n, n as u64 + 17);
            for level in LEVELS {
                round_trip(level, &data, &[]);
            }
        }
    }
}

/// Incompressible input: blocks stored raw, the frame at most a few bytes over the input.
#[test]
fn incompressible_input_costs_only_headers() {
    let data = noise(300_000, 5);
    for level in LEVELS {
        let n = round_trip(level, &data, &[]);
        assert!(n <= data.len() + 20, "level {level}: {n} bytes");
    }
}

/// A raw-content dictionary at level 1, as c-blosc2 uses it: matches reach into it.
#[test]
fn raw_dictionary_frames_decode() {
    let dict = text(20_000, 3);
    let mut data = crate::test_data::dict_pieces(&dict);
    data.extend_from_slice(&dict[5_000..9_000]);
    let with = round_trip(1, &data, &dict);
    let without = round_trip(1, &data, &[]);
    assert!(with < without, "the dictionary helps: {with} against {without}");
}

/// A raw-content dictionary at the levels whose finder is the row one (the window over 16 KiB):
/// every position of the dictionary is in the rows before the first block (as libzstd's
/// `ZSTD_row_update` when it loads one), so pieces of it from anywhere are matches; inserted by
/// the first search instead, a gap that long would get only its first 96 and last 32 positions.
#[test]
fn raw_dictionary_positions_are_all_in_the_rows() {
    let dict = noise(20_000, 21);
    let mut data = dict[5_000..9_000].to_vec();
    data.extend_from_slice(&dict[12_000..15_000]);
    data.extend_from_slice(&dict[100..400]);
    for level in [5, 7, 9] {
        let p = super::params::params(level, data.len(), dict.len());
        assert!(super::frame::uses_rows(&p), "level {level}");
        let n = round_trip(level, &data, &dict);
        assert!(n < 100, "level {level}: {n} bytes for three pieces of the dictionary");
    }
}

/// Frames of the row finder (levels 5, 7 and 9 over 16 KiB) on data whose rows wrap around many
/// times (few symbols: few hashes, each row written over and over), repeats at long and short
/// distances, across block boundaries: decoded by libzstd and by this crate's decoder, and
/// within 1 % (plus a few bytes per block) of libzstd's size, whose finder it is.
#[test]
fn row_finder_frames_decode_and_stay_near_libzstd() {
    let mut cases: Vec<Vec<u8>> = Vec::new();
    // Four symbols at random: 256 four-byte strings, every row full.
    cases.push(noise(150_000, 31).iter().map(|b| b & 3).collect());
    // A block of noise repeated at a distance longer than the gap the update fills.
    let mut rep = noise(40_000, 32);
    rep.extend_from_within(..);
    rep.extend_from_slice(&noise(1_000, 33));
    rep.extend_from_within(10_000..50_000);
    cases.push(rep);
    cases.push(shuffled_smooth(262_144));
    cases.push(text(200_000, 34));
    cases.push(input(5, 100_000, 35));
    for data in &cases {
        for level in [5, 7, 9] {
            assert!(super::frame::uses_rows(&super::params::params(level, data.len(), 0)));
            let ours = round_trip(level, data, &[]);
            let theirs = zstd::bulk::compress(data, level).expect("libzstd").len();
            let slack = 8 * data.len().div_ceil(128 * 1024);
            assert!(
                ours * 100 <= theirs * 101 + slack * 100,
                "level {level}, {} bytes: {ours} against libzstd's {theirs}",
                data.len()
            );
        }
    }
}

/// The repeat offsets as RFC 8878 §3.1.2.5 updates them, the literal length 0 shift included.
#[test]
fn repeat_offset_codes_follow_the_decoder() {
    let mut rep = [1, 4, 8];
    assert_eq!(off_base(5, 4, &mut rep), 2);
    assert_eq!(rep, [4, 1, 8]);
    assert_eq!(off_base(0, 1, &mut rep), 1, "literal length 0: code 1 is the second offset");
    assert_eq!(rep, [1, 4, 8]);
    assert_eq!(off_base(0, 8, &mut rep), 2);
    assert_eq!(rep, [8, 1, 4]);
    assert_eq!(off_base(0, 7, &mut rep), 3, "literal length 0: code 3 is the first offset minus one");
    assert_eq!(rep, [7, 8, 1]);
    assert_eq!(off_base(3, 7, &mut rep), 1);
    assert_eq!(off_base(3, 100, &mut rep), 103);
    assert_eq!(rep, [100, 7, 8]);
}

/// RFC 8878 §3.1.2.5's repeat offsets as a cascade of compares in the RFC's order: the
/// reference of [`off_base`]'s selects.
fn off_base_rfc(ll: u32, off: u32, rep: &mut [u32; 3]) -> u32 {
    let idx = if ll > 0 {
        [rep[0], rep[1], rep[2]].iter().position(|&r| r == off).unwrap_or(4) as u32
    } else if off == rep[1] {
        1
    } else if off == rep[2] {
        2
    } else if off == rep[0].wrapping_sub(1) {
        3
    } else {
        4
    };
    match idx {
        0 => 1,
        4 => {
            *rep = [off, rep[0], rep[1]];
            off + 3
        }
        1 => {
            *rep = [off, rep[0], rep[2]];
            2 - u32::from(ll == 0)
        }
        _ => {
            *rep = [off, rep[0], rep[1]];
            idx + 1 - u32::from(ll == 0)
        }
    }
}

proptest! {
    /// [`off_base`] gives the codes and repeat offsets of the RFC's cascade, on offsets drawn
    /// from few values so that they meet the repeat offsets (equal ones included) often.
    #[test]
    fn off_base_matches_the_rfc_cascade(
        steps in proptest::collection::vec((0u32..3, 1u32..7), 1..64),
        start in [1u32..7, 1u32..7, 1u32..7],
    ) {
        let (mut ours, mut rfc) = (start, start);
        for (ll, off) in steps {
            prop_assert_eq!(off_base(ll, off, &mut ours), off_base_rfc(ll, off, &mut rfc));
            prop_assert_eq!(ours, rfc);
        }
    }
}

/// The sizes stay libzstd's on these inputs (within 1 % plus a few bytes per frame).
#[test]
fn sizes_near_libzstd() {
    for (kind, n) in [(2u8, 200_000usize), (3, 100_000), (4, 200_000), (5, 60_000)] {
        let data = input(kind, n, 9);
        for level in LEVELS {
            let ours = round_trip(level, &data, &[]);
            assert!(ours > 0);
            let theirs = zstd::bulk::compress(&data, level).expect("libzstd").len();
            assert!(ours * 100 <= theirs * 101 + 800, "kind {kind} level {level}: {ours} against {theirs}");
        }
    }
}

/// Inputs past the window of the fast and double-fast finders (levels 1 to 4 of an input over
/// 256 KiB have a 512 KiB window): from the window's length on, a block's candidates start
/// where the window does, not at the frame's start, and the fast finder counts its positions
/// from there. Decoded by both decoders, within 1 % of libzstd's size.
#[test]
fn fast_finders_past_their_window() {
    for (kind, seed) in [(2u8, 41u64), (3, 42), (4, 43), (5, 44)] {
        let data = input(kind, 1_300_000, seed);
        for level in 1..=4 {
            let ours = round_trip(level, &data, &[]);
            let theirs = zstd::bulk::compress(&data, level).expect("libzstd").len();
            assert!(ours * 100 <= theirs * 101 + 800, "kind {kind} level {level}: {ours} against {theirs}");
        }
    }
}

/// Literals whose Huffman tree is 20 deep (symbol `i` about twice as frequent as `i + 1`, in
/// an order without repeats): the codes are limited to 11 bits and stay complete.
#[test]
fn huffman_codes_deeper_than_11_bits_are_limited() {
    let mut data = Vec::new();
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    while data.len() < 100_000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        // The number of trailing ones: geometric, 20 symbols.
        data.push(b'A' + (x.trailing_ones() as u8).min(19));
    }
    let mut count = [0u32; 256];
    data.iter().for_each(|&b| count[b as usize] += 1);
    let mut code = super::huffman::HufCode::new();
    code.build(&count, usize::from(b'A') + 19);
    assert_eq!(code.len.iter().copied().max(), Some(11));
    for level in LEVELS {
        round_trip(level, &data, &[]);
    }
}

/// The chunk path (`encode` at a clevel): the frame decodes through the chunk's zstd state; one
/// byte less room is "does not fit" (0); every level is this encoder's (btlazy2 to btultra2
/// included).
#[test]
fn clevels_frames_fit_the_chunk_path() {
    let data = input(4, 50_000, 1);
    for clevel in 1..=9u8 {
        let level = super::levels::level(clevel);
        let mut out = alloc::vec![0u8; data.len()];
        let n = super::encode(clevel, &data, &mut out);
        assert!(n > 0 && n < data.len() / 2, "level {level}: {n} bytes");
        let mut back = alloc::vec![0u8; data.len()];
        assert_eq!(crate::codec::zstd::ZstdState::new().decode(&out[..n], &mut back), Ok(data.len()));
        assert!(back == data);
        assert_eq!(super::encode(clevel, &data, &mut out[..n - 1]), 0);
    }
}

/// A context reused from frame to frame writes the same frames as a new one: the entries its
/// tables keep from earlier frames are below the frame's base and never candidates (a stale
/// position from the previous input would be a candidate the new frame's finder verifies
/// against other bytes, and parse differently), whatever the level,
/// table size and input before it (a
/// stale position checked against a stream of two symbols is a match a new context lacks).
#[test]
fn a_reused_context_writes_the_frames_of_a_new_one() {
    use super::context::Context;
    use super::frame::compress_with;
    let text: Vec<u8> = (0..200_000u32).flat_map(|i| ((i / 7) % 251).to_le_bytes()).collect();
    // Two symbols at random: most stale positions the finder verified would match 4 to 8 bytes.
    let other: Vec<u8> = noise(150_000, 11).iter().map(|b| b'a' + (b & 1)).collect();
    let mut kept = Context::new();
    for level in [9, 1, 5, 3, 7, 1, 9] {
        for input in [&text[..], &other[..], &text[..4096]] {
            let fresh = compress_with(&mut Context::new(), level, input, &[], 0).map(<[u8]>::to_vec);
            let reused = compress_with(&mut kept, level, input, &[], 0).map(<[u8]>::to_vec);
            assert!(fresh == reused, "level {level}, {} bytes", input.len());
        }
    }
}

/// The tables are not emptied between frames but told apart by a base added to positions that
/// grows from frame to frame ([`super::context::Context::base`]); near 2^31 they are emptied and
/// the base starts again at 0. Frames on both sides of that point, and frames that would cross
/// it, are the frames of a new context.
#[test]
fn a_context_whose_base_nears_2_pow_31_writes_the_frames_of_a_new_one() {
    use super::context::Context;
    use super::frame::compress_with;
    let text: Vec<u8> = (0..70_000u32).flat_map(|i| ((i / 5) % 241).to_le_bytes()).collect();
    let other: Vec<u8> = noise(50_000, 13).iter().map(|b| b'a' + (b & 1)).collect();
    for level in [1, 3, 5, 9] {
        let mut kept = Context::new();
        kept.base = (1 << 31) - 3 * 50_000;
        for input in [&other[..], &text[..], &other[..], &text[..], &other[..4096]] {
            let fresh = compress_with(&mut Context::new(), level, input, &[], 0).map(<[u8]>::to_vec);
            let reused = compress_with(&mut kept, level, input, &[], 0).map(<[u8]>::to_vec);
            assert!(fresh == reused, "level {level}, {} bytes, base {}", input.len(), kept.base);
        }
        assert!(kept.base < 1 << 20, "the base started again: {}", kept.base);
    }
}

/// The sequences' extra bits are written as the low bits of the literal length and of the
/// match length minus 3 (as libzstd's `BIT_addBits`), which is the value minus its code's
/// baseline only while every baseline with extra bits is a multiple of 2^bits.
#[test]
fn baselines_with_extra_bits_are_multiples_of_their_range() {
    use crate::codec::zstd::tables::{LL_BASE, LL_BITS, ML_BASE, ML_BITS};
    for (b, n) in LL_BASE.iter().zip(LL_BITS) {
        assert_eq!(b % (1 << n), 0, "literal length baseline {b}");
    }
    for (b, n) in ML_BASE.iter().zip(ML_BITS) {
        assert_eq!((b - 3) % (1 << n), 0, "match length baseline {b}");
    }
}

/// The entries earlier frames left in the tables are never candidates (their base is below the
/// frame's): on random streams of 8 symbols, where fast and dfast insert few positions (so
/// earlier frames' entries stay in many slots) and most 4-byte reads of an entry would match,
/// a kept context writes the frames of a new one. (With the base not advanced, some of these
/// frames differ.)
#[test]
fn a_reused_context_ignores_the_positions_of_earlier_frames() {
    use super::context::Context;
    use super::frame::compress_with;
    for n in [8192usize, 32_768, 100_000] {
        for level in [1, 3, 5, 7] {
            for seed in 0..6u64 {
                let symbols =
                    |seed: u64| -> Vec<u8> { noise(n, seed).iter().map(|b| b'a' + (b & 7)).collect() };
                let (earlier, input) = (symbols(2 * seed + 100), symbols(2 * seed + 101));
                let mut kept = Context::new();
                assert!(compress_with(&mut kept, level, &earlier, &[], 0).is_some());
                let reused = compress_with(&mut kept, level, &input, &[], 0).map(<[u8]>::to_vec);
                let fresh = compress_with(&mut Context::new(), level, &input, &[], 0).map(<[u8]>::to_vec);
                assert!(reused == fresh, "{n} bytes, level {level}, seed {seed}");
            }
        }
    }
}

/// When the base starts again at 0 the tables are emptied: entries of the frames before (their
/// stamps near 2^31) would otherwise be taken for positions of a frame whose base comes round
/// to them again (set here by hand; naturally after 2 GiB of frames). The first frame's entries
/// are placed where the third frame holds the same bytes again, and the third frame repeats them
/// once more after that: a stale entry there is a match a new context lacks (fast and dfast
/// skip positions in random bytes, differently after another prefix).
#[test]
fn tables_are_emptied_when_the_base_starts_again() {
    use super::context::Context;
    use super::frame::compress_with;
    const K: usize = 32 * 1024;
    for level in [1, 3, 5, 9] {
        for seed in 0..4u64 {
            let earlier = noise(K, 2 * seed + 200);
            let mut input = noise(K, 2 * seed + 201);
            input.extend_from_slice(&earlier);
            input.extend_from_slice(&earlier);
            let mut kept = Context::new();
            let top = (1u32 << 31) - 2 * K as u32 - 1000;
            kept.base = top;
            assert!(compress_with(&mut kept, level, &earlier, &[], 0).is_some());
            assert!(compress_with(&mut kept, level, &alloc::vec![0u8; K + 1000], &[], 0).is_some());
            assert_eq!(kept.base, K as u32 + 1000, "the second frame starts the base again");
            // The first frame's position p now reads as K + p: the first copy of `earlier`.
            kept.base = top - K as u32;
            let reused = compress_with(&mut kept, level, &input, &[], 0).map(<[u8]>::to_vec);
            let fresh = compress_with(&mut Context::new(), level, &input, &[], 0).map(<[u8]>::to_vec);
            assert!(reused == fresh, "level {level}, seed {seed}");
        }
    }
}

/// As [`tables_are_emptied_when_the_base_starts_again`], for the row finder's tables (levels 5,
/// 7 and 9 over 16 KiB): the first frame as long as the third, so that both hash to the same
/// rows, and the third frame holds the first one's first third twice, after noise. The first
/// frame's entries, not emptied, would read as positions of the third frame's first copy: matches
/// for the second copy that a new context, which inserted fewer of the noise's positions
/// (skipped), lacks.
#[test]
fn row_tables_are_emptied_when_the_base_starts_again() {
    use super::context::Context;
    use super::frame::compress_with;
    const K: usize = 32 * 1024;
    for level in [5, 7, 9] {
        for seed in 0..4u64 {
            let earlier = noise(3 * K, 2 * seed + 300);
            let mut input = noise(K, 2 * seed + 301);
            input.extend_from_slice(&earlier[..K]);
            input.extend_from_slice(&earlier[..K]);
            assert!(super::frame::uses_rows(&super::params::params(level, input.len(), 0)));
            let mut kept = Context::new();
            let top = (1u32 << 31) - 3 * K as u32 - 1000;
            kept.base = top;
            assert!(compress_with(&mut kept, level, &earlier, &[], 0).is_some());
            assert!(compress_with(&mut kept, 1, &[0u8; 1000], &[], 0).is_some());
            assert_eq!(kept.base, 1000, "the second frame starts the base again");
            // The first frame's position p now reads as K + p: the first copy of `earlier`.
            kept.base = top - K as u32;
            let reused = compress_with(&mut kept, level, &input, &[], 0).map(<[u8]>::to_vec);
            let fresh = compress_with(&mut Context::new(), level, &input, &[], 0).map(<[u8]>::to_vec);
            assert!(reused == fresh, "level {level}, seed {seed}");
        }
    }
}
