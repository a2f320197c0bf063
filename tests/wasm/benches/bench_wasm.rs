//! Compression and decompression throughput of b2schema-chunk as a WebAssembly module under
//! node, next to the same code native, in one run (one thread on both sides):
//!
//! ```text
//! cargo bench -p b2schema-wasm-test --bench bench_wasm
//! ```
//!
//! Builds the module (`scripts/wasm.sh`), writes 4 MiB of float64 data (a smooth signal with a
//! little noise, kept to three decimals) and one spec per configuration into a temporary directory, times
//! `b2schema_wasm_test::{compress, decompress}` natively, has `tests/wasm/bench.mjs` time the
//! module on the same data and specs, checks that both made the same chunks, and prints MB/s
//! (uncompressed megabytes, 1e6 bytes, per second, best of repeated runs) and the ratios.

use b2schema_wasm_test::{compress, decompress, host};
use std::time::{Duration, Instant};

const SPECS: [&str; 7] = [
    "codec=blosclz clevel=5 typesize=8",
    "codec=lz4 clevel=5 typesize=8",
    "codec=lz4hc clevel=5 typesize=8",
    "codec=zlib clevel=5 typesize=8",
    "codec=zstd clevel=1 typesize=8",
    "codec=zstd clevel=5 typesize=8",
    "codec=zstd clevel=5 typesize=8 filters=nofilter,nofilter,nofilter,nofilter,nofilter,bitshuffle",
];

/// Best time of `f` over at least 5 runs and 0.5 s.
fn best(mut f: impl FnMut()) -> Duration {
    let (mut best, mut total, mut reps) = (Duration::MAX, Duration::ZERO, 0);
    while total < Duration::from_millis(500) || reps < 5 {
        let t = Instant::now();
        f();
        let dt = t.elapsed();
        best = best.min(dt);
        total += dt;
        reps += 1;
    }
    best
}

fn main() {
    let module = host::module();

    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let data: Vec<u8> = (0..(4 << 20) / 8)
        .flat_map(|i| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let noise = (seed >> 54) as f64 * 1e-6;
            ((((i as f64 * 1e-3).sin() + noise) * 1e3).round() / 1e3).to_le_bytes()
        })
        .collect();
    let dir = std::env::temp_dir().join(format!("b2schema-bench-wasm-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("data.bin"), &data).unwrap();
    std::fs::write(dir.join("specs.txt"), SPECS.join("\n")).unwrap();

    let mb = data.len() as f64 / 1e6;
    let mut native = Vec::new();
    for spec in SPECS {
        let chunk = compress(&data, spec).unwrap();
        let c = best(|| drop(compress(&data, spec).unwrap()));
        let d = best(|| drop(decompress(&chunk, data.len()).unwrap()));
        native.push((chunk, mb / c.as_secs_f64(), mb / d.as_secs_f64()));
    }

    let run = host::node("bench.mjs", &module, &dir);
    assert!(run.status.success(), "bench.mjs failed:\n{}", String::from_utf8_lossy(&run.stderr));
    let wasm: Vec<(f64, f64)> = String::from_utf8(run.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let mut w = l.split_whitespace().map(|x| x.parse::<f64>().unwrap());
            (w.next().unwrap(), w.next().unwrap())
        })
        .collect();
    for (i, (chunk, ..)) in native.iter().enumerate() {
        let theirs = std::fs::read(dir.join(format!("{i}.chunk"))).unwrap();
        assert!(theirs == *chunk, "{}: the module's chunk differs from the native one", SPECS[i]);
    }
    std::fs::remove_dir_all(&dir).unwrap();

    println!(
        "| spec | ratio | compress native | compress wasm | wasm/native | decompress native | decompress wasm | wasm/native |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for (i, ((chunk, nc, nd), (wc, wd))) in native.iter().zip(&wasm).enumerate() {
        println!(
            "| `{}` | {:.1} | {nc:.0} | {wc:.0} | {:.2} | {nd:.0} | {wd:.0} | {:.2} |",
            SPECS[i],
            data.len() as f64 / chunk.len() as f64,
            wc / nc,
            wd / nd
        );
    }
}
