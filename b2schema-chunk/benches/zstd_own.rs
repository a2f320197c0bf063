//! This crate's zstd encoder against libzstd (the `zstd` crate, a reused context, as c-blosc2's
//! `ZSTD_compressCCtx`) on the streams a Blosc2 chunk feeds it, one thread:
//!
//!     [ZSTD_OWN_DATA=NAME_PREFIX] cargo bench -p b2schema-chunk --bench zstd_own [-- LEVEL ...]
//!
//! Datasets (generated, 4 MiB each): smooth float64 byte-shuffled, normal float64 rounded to 3
//! decimals byte-shuffled (`scripts/bench_pack.py`'s default field), int32 and int64 counters
//! shuffled, text, random bytes; cut into 8 and 32 KiB streams (split blocks: runs of one byte
//! plane, from the whole dataset shuffled) and 256 KiB, 512 KiB and 1 MiB streams (whole
//! blocks, each shuffled on its own as Blosc does: its byte planes end to end; c-blosc2's blocks
//! for its clevels 5 to 9 and `pack`'s 512 KiB). `ZSTD_OWN_STREAMS=8,512` (KiB) runs only those. Prints per level and dataset the size ratio ours / libzstd (a frame not
//! smaller than its stream counts as stored raw) and the speed ratio ours / libzstd (the
//! wall time, the best of three runs of at least 0.2 s each, alternated; other processes share the CPU).
//! Both encoders are timed writing into a buffer kept from stream to stream, as each writes into
//! the chunk in a compression (`encode_onto` here, `ZSTD_compressCCtx` in c-blosc2): neither
//! allocates nor copies a frame in the timing (until 2026-12-01 ours was timed with a copy of
//! every frame into a new vector, libzstd's with an allocation: 3 of ours' 36 M instructions a
//! pass of level 1 over the 64 KiB split smooth streams).
//!
//! With `ZSTD_OWN_SPLIT=1` every stream size is cut as split blocks (runs of one byte plane of
//! the whole dataset shuffled): 64 KiB streams are then the byte planes of python-blosc2's
//! 512 KiB float64 blocks at zstd clevels up to 5 (its split mode AUTO), 128 KiB those of 1 MiB
//! blocks. Without it, streams above 32 KiB are whole blocks, as before.
//!
//! With `ZSTD_OWN_BYTEDELTA=1` every stream is delta-coded as python-blosc2's bytedelta filter
//! after shuffle leaves it (each byte plane byte by byte from 0): the input of its
//! "zstd clevel 1 + bytedelta" chunks. Digests are those of the delta-coded streams then.
//!
//! With `ZSTD_OWN_SIZES=1` it prints the size ratios only (no timing runs).
//!
//! With `ZSTD_OWN_DIGEST=1` it prints, per level, an FNV-1a digest of every frame the own encoder
//! writes over the datasets and stream sizes chosen (no libzstd, no timing): a change meant to
//! keep the frames byte for byte shows the same digests before and after.
//!
//! With `ZSTD_OWN_ONLY=ours|libzstd` it runs only that encoder, `ZSTD_OWN_PASSES` passes
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

fn datasets() -> Vec<(&'static str, Vec<u8>, usize)> {
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
    // Box-Muller over the same generator: numpy's `np.round(rng.normal(...), 3)` in law.
    let unit = |x: u64| ((x >> 11) as f64 + 0.5) / (1u64 << 53) as f64;
    let normal: Vec<u8> = (0..N / 8)
        .flat_map(|_| {
            let (u, v) = (unit(rnd()), unit(rnd()));
            let z = (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos();
            ((z * 1e3).round() / 1e3).to_le_bytes()
        })
        .collect();
    vec![
        ("float64 smooth", smooth, 8),
        ("float64 normal", normal, 8),
        ("int32 counter", c32, 4),
        ("int64 counter", c64, 8),
        ("text", text, 1),
        ("random", random, 1),
    ]
}

fn main() {
    let args: Vec<i32> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let levels = if args.is_empty() { vec![1, 3, 5, 7, 9, 11, 13, 15, 17, 22] } else { args };
    println!("level\tdataset\tstream\tsize ours/libzstd\tspeed ours/libzstd\tours MB/s\tlibzstd MB/s");
    let stream_sizes: Vec<usize> = match std::env::var("ZSTD_OWN_STREAMS") {
        Ok(v) => v.split(',').map(|k| k.trim().parse::<usize>().expect("KiB") << 10).collect(),
        Err(_) => vec![8 << 10, 32 << 10, 256 << 10, 512 << 10, 1 << 20],
    };
    let only = std::env::var("ZSTD_OWN_DATA").ok();
    let sizes_only = std::env::var("ZSTD_OWN_SIZES").is_ok_and(|v| v == "1");
    if std::env::var("ZSTD_OWN_DIGEST").is_ok_and(|v| v == "1") {
        let data = datasets();
        for &level in &levels {
            let mut digest = 0xcbf2_9ce4_8422_2325u64;
            for (name, raw, ts) in &data {
                if only.as_deref().is_some_and(|o| !name.starts_with(o)) {
                    continue;
                }
                for &stream in &stream_sizes {
                    for s in cut(raw, *ts, stream) {
                        let frame = b2schema_chunk::__zstd_own_frame(level, &s).unwrap_or_default();
                        for &b in frame.iter().chain(&(frame.len() as u64).to_le_bytes()) {
                            digest = (digest ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
                        }
                    }
                }
            }
            println!("{level}\tdigest\t{digest:016x}");
        }
        return;
    }
    if let Ok(who) = std::env::var("ZSTD_OWN_ONLY") {
        let passes: usize = std::env::var("ZSTD_OWN_PASSES").ok().and_then(|p| p.parse().ok()).unwrap_or(5);
        let mut cctx = std::collections::HashMap::new();
        let mut out = Vec::new();
        for (name, raw, ts) in datasets() {
            if only.as_deref().is_some_and(|o| !name.starts_with(o)) {
                continue;
            }
            for &stream in &stream_sizes {
                // Cut once: the shuffle would otherwise weigh in every pass.
                let streams = cut(&raw, ts, stream);
                // Every level is the own encoder's: no trial frame here, which a profile of
                // the passes would count (it once made level 9 look 1.6x heavier than it was).
                for &level in &levels {
                    for _ in 0..passes {
                        for s in &streams {
                            std::hint::black_box(match who.as_str() {
                                "ours" => ours_into(level, s, &mut out),
                                _ => theirs_into(
                                    cctx.entry(level).or_insert_with(|| {
                                        zstd::bulk::Compressor::new(level).expect("a context")
                                    }),
                                    s,
                                    &mut out,
                                ),
                            });
                        }
                    }
                }
            }
        }
        return;
    }
    for (name, raw, ts) in datasets() {
        if only.as_deref().is_some_and(|o| !name.starts_with(o)) {
            continue;
        }
        for &stream in &stream_sizes {
            let cut = cut(&raw, ts, stream);
            let streams: Vec<&[u8]> = cut.iter().map(Vec::as_slice).collect();
            for &level in &levels {
                let Some(ours) = size(&streams, |s| b2schema_chunk::__zstd_own_frame(level, s)) else {
                    println!("{level}\t{name}\t{stream}\t(not ours)");
                    continue;
                };
                let mut cctx = zstd::bulk::Compressor::new(level).expect("a context");
                let theirs = size(&streams, |s| cctx.compress(s).ok()).expect("libzstd");
                if sizes_only {
                    println!("{level}\t{name}\t{stream}\t{:.4}", ours as f64 / theirs as f64);
                    continue;
                }
                let (mut t_ours, mut t_theirs) = (f64::MAX, f64::MAX);
                let mut out = Vec::new();
                for _ in 0..3 {
                    t_ours = t_ours.min(time(&streams, |s| ours_into(level, s, &mut out)));
                    t_theirs = t_theirs.min(time(&streams, |s| theirs_into(&mut cctx, s, &mut out)));
                }
                let mb = |t: f64| raw.len() as f64 / t / 1e6;
                println!(
                    "{level}\t{name}\t{stream}\t{:.4}\t{:.2}\t{:.0}\t{:.0}",
                    ours as f64 / theirs as f64,
                    t_theirs / t_ours,
                    mb(t_ours),
                    mb(t_theirs),
                );
            }
        }
    }
}

/// `data` (items of `ts` bytes) as a Blosc chunk's streams of `stream` bytes: up to 32 KiB, runs
/// of the whole dataset shuffled (split blocks, one byte plane each); above, blocks shuffled
/// each on its own (whole blocks).
/// With `ZSTD_OWN_SPLIT=1`, runs of the whole dataset shuffled at every size.
fn cut(data: &[u8], ts: usize, stream: usize) -> Vec<Vec<u8>> {
    let split = std::env::var("ZSTD_OWN_SPLIT").is_ok_and(|v| v == "1");
    let bytedelta = std::env::var("ZSTD_OWN_BYTEDELTA").is_ok_and(|v| v == "1");
    // python-blosc2's bytedelta after shuffle: each byte plane of a block delta-coded byte by
    // byte from 0 (a split stream is one plane; a whole block has `ts` of them end to end).
    let delta = |mut s: Vec<u8>, planes: usize| {
        if bytedelta {
            let len = (s.len() / planes).max(1);
            for plane in s.chunks_mut(len) {
                let mut prev = 0u8;
                for b in plane {
                    (*b, prev) = (b.wrapping_sub(prev), *b);
                }
            }
        }
        s
    };
    if split || stream <= 32 << 10 {
        shuffle(data, ts).chunks(stream).map(|s| delta(s.to_vec(), 1)).collect()
    } else {
        data.chunks(stream).map(|b| delta(shuffle(b, ts), ts)).collect()
    }
}

fn size(streams: &[&[u8]], mut f: impl FnMut(&[u8]) -> Option<Vec<u8>>) -> Option<usize> {
    let mut total = 0;
    for s in streams {
        total += f(s)?.len().min(s.len());
    }
    Some(total)
}

/// The own encoder's frame of `s` written into `out`, a buffer kept from stream to stream, as
/// the chunk path writes each stream into its chunk; its length.
fn ours_into(level: i32, s: &[u8], out: &mut Vec<u8>) -> Option<usize> {
    out.clear();
    b2schema_chunk::__zstd_own_frame_onto(level, s, out)
}

/// libzstd's frame of `s` written into `out` with room for its bound (`ZSTD_compressCCtx` into
/// the chunk's buffer, as c-blosc2 calls it); its length.
fn theirs_into(cctx: &mut zstd::bulk::Compressor<'_>, s: &[u8], out: &mut Vec<u8>) -> Option<usize> {
    out.clear();
    out.reserve(zstd::zstd_safe::compress_bound(s.len()));
    cctx.compress_to_buffer(s, out).ok()
}

/// Seconds per pass over `streams` (passes repeated for at least 0.2 s).
fn time(streams: &[&[u8]], mut f: impl FnMut(&[u8]) -> Option<usize>) -> f64 {
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
