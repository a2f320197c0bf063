//! The encoder against zlib-rs 0.6.8 (`compress_slice`, zlib's `compress2`): the same bytes at
//! every level, and the same refusal when the output slice is too small.

use super::{MAX_DIST, compress};
use alloc::vec;
use alloc::vec::Vec;
use proptest::prelude::*;

/// zlib-rs's stream, or `None` when it does not fit in `room` bytes.
fn reference(level: u8, input: &[u8], room: usize) -> Option<Vec<u8>> {
    let mut out = vec![0u8; room];
    let config = zlib_rs::DeflateConfig::new(i32::from(level));
    let (got, code) = zlib_rs::compress_slice(&mut out, input, config);
    let n = got.len();
    (code == zlib_rs::ReturnCode::Ok).then(|| out[..n].to_vec())
}

fn ours(level: u8, input: &[u8], room: usize) -> Option<Vec<u8>> {
    let mut out = vec![0u8; room];
    let n = compress(level, input, &mut out);
    (n != 0).then(|| out[..n].to_vec())
}

/// Both agree at `level`, with room to spare and at every size near the stream's.
fn check(level: u8, input: &[u8]) -> Result<(), TestCaseError> {
    let room = zlib_rs::compress_bound(input.len()) + 64;
    let want = reference(level, input, room).expect("zlib-rs compresses within its bound");
    let got = ours(level, input, room);
    prop_assert!(
        got.as_deref() == Some(&want[..]),
        "level {} len {}: {:?} bytes, want {}",
        level,
        input.len(),
        got.map(|g| g.len()),
        want.len()
    );
    for room in (0..4).chain(want.len().saturating_sub(9)..=want.len() + 1) {
        prop_assert_eq!(
            ours(level, input, room),
            reference(level, input, room),
            "level {} room {}",
            level,
            room
        );
    }
    Ok(())
}

/// Inputs over the whole space: runs, text-like repeats (near and far), noise, shuffled-float-like
/// bytes, in pieces up to 300 KiB in all so that the window slides and matches cross 32 KiB.
fn data() -> impl Strategy<Value = Vec<u8>> {
    let piece = (0u8..7, any::<u64>(), 1usize..40_000);
    prop::collection::vec(piece, 0..12).prop_map(|parts| {
        let mut v: Vec<u8> = Vec::new();
        for (kind, seed, n) in parts {
            let mut x = seed | 1;
            let mut rnd = move || {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x
            };
            match kind {
                0 => v.extend(core::iter::repeat_n(seed as u8, n / 8 + 1)),
                1 => {
                    let words: [&[u8]; 6] = [b"blosc2 ", b"chunk ", b"zlib ", b"deflate ", b"window ", b"\n"];
                    let end = v.len() + n;
                    while v.len() < end {
                        v.extend_from_slice(words[(rnd() % 6) as usize]);
                    }
                }
                2 => v.extend((0..n).map(|_| rnd() as u8)),
                3 => {
                    // Shuffled float64 of a smooth series: byte planes of slowly changing values.
                    let len = n / 8 + 1;
                    let vals: Vec<u64> = (0..len)
                        .map(|i| (1000.0 + (i as f64 * 0.001).sin() * (seed % 97) as f64).to_bits())
                        .collect();
                    for b in 0..8 {
                        v.extend(vals.iter().map(|x| (x >> (8 * b)) as u8));
                    }
                }
                4 => {
                    // A copy of earlier bytes (matches near, at the window's limits and past them),
                    // with a few, some or many bytes changed (hash chains whose candidates differ
                    // in the middle).
                    if !v.is_empty() {
                        let back = match rnd() % 4 {
                            0 => (rnd() % 16) as usize + 1,
                            1 => MAX_DIST - 2 + (rnd() % 5) as usize,
                            _ => (rnd() % 40_000) as usize + 1,
                        }
                        .min(v.len());
                        let every = [0u64, 8, 64, 500][(rnd() % 4) as usize];
                        let start = v.len() - back;
                        for i in 0..n.min(3000) {
                            let b = v[start + i % back];
                            v.push(if every != 0 && rnd() % every == 0 { b ^ 1 } else { b });
                        }
                    }
                }
                5 => {
                    // A short phrase repeated with changes: long chains of near matches.
                    let phrase: Vec<u8> =
                        (0..(rnd() % 24) as usize + 3).map(|_| b"abcdefgh"[(rnd() % 8) as usize]).collect();
                    for _ in 0..n / phrase.len() / 8 + 1 {
                        for &b in &phrase {
                            v.push(if rnd() % 16 == 0 { b ^ 2 } else { b });
                        }
                    }
                }
                _ => v.extend((0..n / 4).map(|i| (i as u8 % 7).wrapping_mul(seed as u8) ^ (rnd() % 3) as u8)),
            }
        }
        v
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn same_bytes_as_zlib_rs(input in data(), level in 1u8..=9) {
        check(level, &input)?;
    }

    /// Short inputs (the end-of-input paths), every level.
    #[test]
    fn short_inputs(input in prop::collection::vec(prop_oneof![Just(0u8), 0u8..4], 0..300)) {
        for level in 1..=9 {
            check(level, &input)?;
        }
    }
}

/// Copies at every distance near the window's limit (`MAX_DIST`), before and after a slide.
#[test]
fn matches_at_the_distance_limit() {
    let noise = crate::test_data::noise(80_000, 0x2545_f491_4f6c_dd1d);
    for prefix in [0usize, 40_000] {
        for back in MAX_DIST - 3..=MAX_DIST + 3 {
            let mut input = noise[..prefix + back].to_vec();
            input.extend_from_slice(&noise[prefix..prefix + 600]);
            input.extend_from_slice(&noise[..300]);
            for level in 1..=9 {
                check(level, &input).unwrap();
            }
        }
    }
}

/// Blocks at the boundary between stored and static: distinct bytes of 9-bit static codes
/// (144-255) cost as much as stored at 15 bytes (152 bits, 19 bytes each way).
#[test]
fn blocks_at_the_stored_static_boundary() {
    for len in 1..=112 {
        let high: Vec<u8> = (0..len).map(|i| 144 + i as u8).collect();
        let low: Vec<u8> = (0..len).map(|i| i as u8).collect();
        for level in 1..=9 {
            check(level, &high).unwrap();
            check(level, &low).unwrap();
        }
    }
}

/// Inputs whose last match could run on past their end: into the window's zeros (a tail of
/// zeros), or into its stale upper half after a slide (a period that divides 32 KiB).
#[test]
fn matches_that_could_run_past_the_end() {
    let periodic: Vec<u8> = (0..70_000u32).map(|i| (i % 256) as u8 ^ (i % 7 == 0) as u8).collect();
    for level in 1..=9 {
        for n in [1, 3, 4, 5, 8, 9, 260, 263, 600] {
            check(level, &vec![0u8; n]).unwrap();
            let mut tail = b"blosc2 blosc2 zlib".to_vec();
            tail.extend(core::iter::repeat_n(0u8, n));
            check(level, &tail).unwrap();
        }
        for cut in [65_537, 66_000, 68_313, 70_000] {
            check(level, &periodic[..cut]).unwrap();
        }
    }
}

/// A shuffled float64 block of normal-like values (the Blosc case), 1 MiB, and 1 MiB of text.
#[test]
fn large_blocks() {
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let vals: Vec<u64> = (0..131_072)
        .map(|_| {
            let mut s = 0.0;
            for _ in 0..4 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                s += (x >> 11) as f64 / (1u64 << 53) as f64;
            }
            (s - 2.0).to_bits()
        })
        .collect();
    let mut shuffled = Vec::with_capacity(vals.len() * 8);
    for b in 0..8 {
        shuffled.extend(vals.iter().map(|v| (v >> (8 * b)) as u8));
    }
    let text: Vec<u8> = (0..1 << 20)
        .map(|i: usize| b"the quick brown fox jumps over the lazy dog; "[(i * 7 + i / 45) % 45])
        .collect();
    for level in 1..=9 {
        check(level, &shuffled).unwrap();
        check(level, &text).unwrap();
    }
}
