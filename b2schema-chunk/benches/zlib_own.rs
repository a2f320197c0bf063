//! This crate's deflate encoder against zlib-rs 0.6.8 (`compress_slice`, zlib's `compress2`, the
//! encoder it replaces) on Blosc-like blocks, one thread:
//!
//!     cargo bench -p b2schema-chunk --bench zlib_own [-- LEVEL ...]
//!
//! Datasets (generated, 1 MiB each): float64 byte-shuffled from a normal distribution
//! (`normal`) and from a smooth series (`smooth`), text, random bytes; cut into 256 KiB and
//! 1 MiB blocks. Prints per level, dataset and block size whether the streams are the same bytes,
//! the compressed size, and the speed ratio ours / zlib-rs (wall time, the best of three runs of
//! at least 0.2 s each, alternated; other processes share the CPU). Levels 1, 5 and 9 by default.
//!
//! `ZLIB_OWN_DATA=normal|smooth|text|random` runs that dataset only; `ZLIB_OWN_BLOCKS=131072,524288`
//! cuts blocks of those sizes instead (python-blosc2's default block is 128 KiB).
//!
//! With `ZLIB_OWN_ONLY=ours|zlib-rs` it runs only that encoder, `ZLIB_OWN_PASSES` passes
//! (default 5) over every dataset and block size at each level given, and prints nothing: for
//! `perf stat -e task-clock` or `valgrind --tool=callgrind`, which other processes on the CPU
//! disturb far less than the wall time.

use std::time::Instant;

fn shuffle(data: &[u8], ts: usize) -> Vec<u8> {
    let n = data.len() / ts;
    let mut out = vec![0u8; data.len()];
    for i in 0..n {
        for b in 0..ts {
            out[b * n + i] = data[i * ts + b];
        }
    }
    out
}

fn datasets() -> Vec<(&'static str, Vec<u8>)> {
    const N: usize = 1 << 20;
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let mut rnd = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let normal: Vec<u8> = (0..N / 8)
        .flat_map(|_| {
            let s: f64 = (0..4).map(|_| (rnd() >> 11) as f64 / (1u64 << 53) as f64).sum();
            (((s - 2.0) * 1000.0).round() / 1000.0).to_le_bytes()
        })
        .collect();
    let smooth: Vec<u8> = (0..N / 8)
        .flat_map(|i| (20.0 + (i as f64 * 1e-3).sin() * 5.0 + i as f64 * 1e-6).to_le_bytes())
        .collect();
    let words =
        ["blosc2 ", "chunk ", "deflate ", "the ", "window ", "of ", "a ", "zlib ", "stream\n", "block "];
    let mut text = Vec::with_capacity(N);
    while text.len() < N {
        text.extend_from_slice(words[(rnd() % 10) as usize].as_bytes());
    }
    text.truncate(N);
    let random: Vec<u8> = (0..N).map(|_| rnd() as u8).collect();
    vec![("normal", normal), ("smooth", smooth), ("text", text), ("random", random)]
}

/// Blocks of `block` bytes, each byte-shuffled on its own (as Blosc shuffles a block) for the
/// float datasets.
fn blocks(name: &str, data: &[u8], block: usize) -> Vec<Vec<u8>> {
    data.chunks(block)
        .map(|b| if name == "text" || name == "random" { b.to_vec() } else { shuffle(b, 8) })
        .collect()
}

fn ours(level: u8, input: &[u8], out: &mut [u8]) -> usize {
    b2schema_chunk::__zlib_own_deflate(level, input, out)
}

fn zlib_rs(level: u8, input: &[u8], out: &mut [u8]) -> usize {
    let (got, code) = zlib_rs::compress_slice(out, input, zlib_rs::DeflateConfig::new(i32::from(level)));
    if code == zlib_rs::ReturnCode::Ok { got.len() } else { 0 }
}

fn time(blocks: &[Vec<u8>], level: u8, f: fn(u8, &[u8], &mut [u8]) -> usize, out: &mut [u8]) -> f64 {
    let t = Instant::now();
    let mut runs = 0u32;
    while runs == 0 || t.elapsed().as_secs_f64() < 0.2 {
        for b in blocks {
            std::hint::black_box(f(level, b, out));
        }
        runs += 1;
    }
    t.elapsed().as_secs_f64() / f64::from(runs)
}

fn main() {
    let levels: Vec<u8> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .map(|a| a.parse().expect("a level 1-9"))
        .collect();
    let levels = if levels.is_empty() { vec![1, 5, 9] } else { levels };
    let only = std::env::var("ZLIB_OWN_DATA").ok();
    let sizes: Vec<usize> = std::env::var("ZLIB_OWN_BLOCKS")
        .map(|s| s.split(',').map(|b| b.parse().expect("a block size in bytes")).collect())
        .unwrap_or_else(|_| vec![256 << 10, 1 << 20]);
    let sets: Vec<(&str, usize, Vec<Vec<u8>>)> = datasets()
        .iter()
        .filter(|(name, _)| only.as_deref().is_none_or(|o| o == *name))
        .flat_map(|(name, data)| sizes.iter().map(|&block| (*name, block, blocks(name, data, block))))
        .collect();
    let mut out = vec![0u8; zlib_rs::compress_bound(1 << 20)];
    if let Ok(who) = std::env::var("ZLIB_OWN_ONLY") {
        let f = if who == "ours" { ours } else { zlib_rs };
        let passes: usize = std::env::var("ZLIB_OWN_PASSES").ok().and_then(|p| p.parse().ok()).unwrap_or(5);
        for _ in 0..passes {
            for &level in &levels {
                for (_, _, blocks) in &sets {
                    for b in blocks {
                        std::hint::black_box(f(level, b, &mut out));
                    }
                }
            }
        }
        return;
    }
    for &level in &levels {
        for (name, block, blocks) in &sets {
            let (mut same, mut size) = (true, 0);
            let mut other = out.clone();
            for b in blocks {
                let n = ours(level, b, &mut out);
                let m = zlib_rs(level, b, &mut other);
                same &= out[..n] == other[..m];
                size += n;
            }
            let (mut a, mut z) = (f64::INFINITY, f64::INFINITY);
            for _ in 0..3 {
                a = a.min(time(blocks, level, ours, &mut out));
                z = z.min(time(blocks, level, zlib_rs, &mut out));
            }
            let mb = blocks.iter().map(Vec::len).sum::<usize>() as f64 / 1e6;
            println!(
                "level {level} {name:>6} {:>4} KiB: same bytes {same}, {size:>8} B, ours {:>6.1} MB/s, zlib-rs {:>6.1} MB/s, ratio {:.2}",
                block >> 10,
                mb / a,
                mb / z,
                z / a
            );
        }
    }
}
