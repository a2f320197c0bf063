//! Throughput of each AVX2 filter kernel next to the path it replaced (SSE2 or the plain loop),
//! in one run, on blocks of 256 KiB (c-blosc2's usual block size range) of mixed bytes:
//!
//!     cargo bench -p b2schema-chunk --bench filter_kernels [-- BLOCK_KIB [MILLIS]]
//!
//! Prints MB/s (input bytes per second, the best of 5 rounds of MILLIS ms each, 200 by default)
//! and each new kernel's speed over the one it replaced (the row after it). Input and output start on a 64-byte
//! boundary, or `B2_ALIGN` bytes past one (32-byte stores across cache lines cost: see
//! `unshuffle` in `src/filter/shuffle_avx2.rs`). On a CPU without AVX2 the program says so and
//! stops.

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
fn main() {
    use std::time::{Duration, Instant};
    if !(std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma")) {
        eprintln!("this CPU has no AVX2: nothing to compare");
        std::process::exit(2);
    }
    let mut args = std::env::args().skip(1).filter(|a| a != "--bench");
    let kib: usize = args.next().map_or(256, |a| a.parse().expect("BLOCK_KIB"));
    let millis: u64 = args.next().map_or(200, |a| a.parse().expect("MILLIS"));
    let len = kib << 10;
    // Mixed bytes: a smooth ramp with noise, as shuffled float data looks.
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let src: Vec<u8> = (0..len)
        .map(|i| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (i / 97) as u8 ^ (x as u8 & 7)
        })
        .collect();
    // B2_ALIGN=k: the input starts k bytes past a 64-byte boundary.
    let skew: usize = std::env::var("B2_ALIGN").ok().map_or(0, |v| v.parse().unwrap());
    let mut backing = vec![0u8; len + 128];
    let at = (64 - backing.as_ptr() as usize % 64) % 64 + skew;
    backing[at..at + len].copy_from_slice(&src);
    let src = &backing[at..at + len];
    let mut dst_backing = vec![0u8; len + 128];
    let dst_at = (64 - dst_backing.as_ptr() as usize % 64) % 64 + skew;
    let dst = &mut dst_backing[dst_at..dst_at + len];
    let mut previous = 0.0;
    println!("{:28} {:>9} {:>8}", "kernel", "MB/s", "speedup");
    for (i, k) in b2schema_chunk::__filter_kernels().into_iter().enumerate() {
        let mut best = f64::MAX;
        for _ in 0..5 {
            let (start, mut runs) = (Instant::now(), 0u32);
            while start.elapsed() < Duration::from_millis(millis) {
                (k.run)(std::hint::black_box(src), std::hint::black_box(&mut *dst));
                runs += 1;
            }
            best = best.min(start.elapsed().as_secs_f64() / f64::from(runs));
        }
        let mbps = len as f64 / best / 1e6;
        // Pairs: the new kernel, then the one it replaced (with the speed-up).
        if i % 2 == 0 {
            println!("{:28} {mbps:9.0}", k.name);
        } else {
            println!("{:28} {mbps:9.0} {:>8}", k.name, format!("{:.2}x", previous / mbps));
        }
        previous = mbps;
    }
}

#[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
fn main() {
    eprintln!("the AVX2 filter kernels exist on x86-64 only");
    std::process::exit(2);
}
