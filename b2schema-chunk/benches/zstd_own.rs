//! This crate's zstd encoder against libzstd (the `zstd` crate, a reused context, as c-blosc2's
//! `ZSTD_compressCCtx`) on the streams a Blosc2 chunk feeds it, one thread:
//!
//!     [ZSTD_OWN_DATA=NAME_PREFIX] cargo bench -p b2schema-chunk --bench zstd_own [-- LEVEL ...]
//!
//! Datasets (generated, 4 MiB each): smooth float64 byte-shuffled, int32 and int64 counters
//! shuffled, text, random bytes; cut into 8 and 32 KiB streams (split blocks) and 256 KiB
//! streams (whole blocks). Prints per level and dataset the size ratio ours / libzstd (a frame not
//! smaller than its stream counts as stored raw) and the speed ratio ours / libzstd (the
//! wall time, the best of three runs of at least 0.2 s each, alternated; other processes share the CPU).
//!
//! With `ZSTD_OWN_ONLY=ours|libzstd|rusty` it runs only that encoder, `ZSTD_OWN_PASSES` passes
//! (default 5) over each dataset and stream size at each level given, and prints nothing: for
//! `perf stat -e cycles:u`, whose cycle counts the other processes on the CPU move far less than
//! the wall time.

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
    const N: usize = 4 << 20;
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let mut rnd = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let smooth: Vec<u8> = (0..N / 8)
        .flat_map(|i| ((i as f64 * 1e-4).sin() * 1e3 + (i as f64 * 3e-3).cos()).to_le_bytes())
        .collect();
    let c32: Vec<u8> = (0..N / 4).flat_map(|i| (i as u32 * 3).to_le_bytes()).collect();
    let c64: Vec<u8> = (0..N / 8).flat_map(|i| (i as u64 * 7 + 1_000_000).to_le_bytes()).collect();
    let words =
        ["the", "zstd", "frame", "of", "a", "block", "chunk", "and", "literal", "offset", "match", "table"];
    let mut text = Vec::new();
    while text.len() < N {
        let w = words[(rnd() % words.len() as u64) as usize];
        text.extend_from_slice(w.as_bytes());
        text.push(if rnd() % 9 == 0 { b'\n' } else { b' ' });
    }
    text.truncate(N);
    let random: Vec<u8> = (0..N / 8).flat_map(|_| rnd().to_le_bytes()).collect();
    vec![
        ("float64 smooth", shuffle(&smooth, 8)),
        ("int32 counter", shuffle(&c32, 4)),
        ("int64 counter", shuffle(&c64, 8)),
        ("text", text),
        ("random", random),
    ]
}

fn main() {
    let args: Vec<i32> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let levels = if args.is_empty() { vec![1, 3, 5, 7, 9, 11, 13, 15, 17, 22] } else { args };
    println!(
        "level\tdataset\tstream\tsize ours/libzstd\tspeed ours/libzstd\tours MB/s\tlibzstd MB/s\trusty_zstd MB/s\tsize rusty/libzstd"
    );
    let only = std::env::var("ZSTD_OWN_DATA").ok();
    if let Ok(who) = std::env::var("ZSTD_OWN_ONLY") {
        let passes: usize = std::env::var("ZSTD_OWN_PASSES").ok().and_then(|p| p.parse().ok()).unwrap_or(5);
        let mut cctx = std::collections::HashMap::new();
        for (name, data) in datasets() {
            if only.as_deref().is_some_and(|o| !name.starts_with(o)) {
                continue;
            }
            for stream in [8 << 10, 32 << 10, 256 << 10] {
                for &level in &levels {
                    // The streams whose level is not the own encoder's are left out for all three.
                    if b2schema_chunk::__zstd_own_frame(level, &data[..stream]).is_none() {
                        continue;
                    }
                    for _ in 0..passes {
                        for s in data.chunks(stream) {
                            std::hint::black_box(match who.as_str() {
                                "ours" => b2schema_chunk::__zstd_own_frame(level, s),
                                "libzstd" => cctx
                                    .entry(level)
                                    .or_insert_with(|| zstd::bulk::Compressor::new(level).expect("a context"))
                                    .compress(s)
                                    .ok(),
                                _ => rusty(level, s),
                            });
                        }
                    }
                }
            }
        }
        return;
    }
    for (name, data) in datasets() {
        if only.as_deref().is_some_and(|o| !name.starts_with(o)) {
            continue;
        }
        for stream in [8 << 10, 32 << 10, 256 << 10] {
            let streams: Vec<&[u8]> = data.chunks(stream).collect();
            for &level in &levels {
                let Some(ours) = size(&streams, |s| b2schema_chunk::__zstd_own_frame(level, s)) else {
                    println!("{level}\t{name}\t{stream}\t(not ours)");
                    continue;
                };
                let mut cctx = zstd::bulk::Compressor::new(level).expect("a context");
                let theirs = size(&streams, |s| cctx.compress(s).ok()).expect("libzstd");
                let rusty_size = size(&streams, |s| rusty(level, s)).expect("rusty_zstd");
                let (mut t_ours, mut t_theirs, mut t_rusty) = (f64::MAX, f64::MAX, f64::MAX);
                for _ in 0..3 {
                    t_ours = t_ours.min(time(&streams, |s| b2schema_chunk::__zstd_own_frame(level, s)));
                    t_theirs = t_theirs.min(time(&streams, |s| cctx.compress(s).ok()));
                    t_rusty = t_rusty.min(time(&streams, |s| rusty(level, s)));
                }
                let mb = |t: f64| data.len() as f64 / t / 1e6;
                println!(
                    "{level}\t{name}\t{stream}\t{:.4}\t{:.2}\t{:.0}\t{:.0}\t{:.0}\t{:.4}",
                    ours as f64 / theirs as f64,
                    t_theirs / t_ours,
                    mb(t_ours),
                    mb(t_theirs),
                    mb(t_rusty),
                    rusty_size as f64 / theirs as f64
                );
            }
        }
    }
}

/// `rusty_zstd` at `level` as the crate ran it before its own encoder (the lazy finders' skip
/// of 8 at levels 5 to 9, `src/codec/zstd/encode/levels.rs`; 12 above).
fn rusty(level: i32, s: &[u8]) -> Option<Vec<u8>> {
    rusty_zstd::set_lazy_accel_arm(if (5..=9).contains(&level) { 8 } else { 12 });
    let p = rusty_zstd::compression_params(level, Some(s.len() as u64)).ok()?;
    rusty_zstd::compress_with_advanced(s, p, false, None, &[], false, rusty_zstd::AdvancedOptions::default())
        .ok()
}

fn size(streams: &[&[u8]], mut f: impl FnMut(&[u8]) -> Option<Vec<u8>>) -> Option<usize> {
    let mut total = 0;
    for s in streams {
        total += f(s)?.len().min(s.len());
    }
    Some(total)
}

/// Seconds per pass over `streams` (passes repeated for at least 0.2 s).
fn time(streams: &[&[u8]], mut f: impl FnMut(&[u8]) -> Option<Vec<u8>>) -> f64 {
    let start = Instant::now();
    let mut runs = 0u32;
    while runs < 1 || start.elapsed().as_secs_f64() < 0.2 {
        for s in streams {
            std::hint::black_box(f(s));
        }
        runs += 1;
    }
    start.elapsed().as_secs_f64() / f64::from(runs)
}
