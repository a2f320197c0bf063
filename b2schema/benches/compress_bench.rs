//! Compresses one file as a single chunk with every built-in codec at clevels 1, 5 and 9
//! (python-blosc2's defaults otherwise: shuffle, auto split, automatic blocksize, one thread)
//! and prints one JSON line per run: codec, clevel, compressed size, best time of `reps`.
//!
//! ```sh
//! cargo bench -p b2schema --bench compress_bench -- DATA.bin TYPESIZE [REPS]
//! ```
//! `scripts/bench_compress.py` runs it next to python-blosc2 on the same data.

use std::time::Instant;

use b2schema::chunk::Codec;
use b2schema::chunk::compress::{Params, compress};

fn main() {
    let args: Vec<String> = std::env::args().filter(|a| a != "--bench").collect();
    let (Some(path), Some(ts)) = (args.get(1), args.get(2)) else {
        eprintln!("usage: compress_bench DATA.bin TYPESIZE [REPS]");
        std::process::exit(2);
    };
    let data = std::fs::read(path).expect("read the data file");
    let typesize: usize = ts.parse().expect("a typesize");
    let reps: usize = args.get(3).map_or(5, |r| r.parse().expect("a repetition count"));
    for codec in [Codec::BloscLz, Codec::Lz4, Codec::Lz4hc, Codec::Zlib, Codec::Zstd] {
        for clevel in [1u8, 5, 9] {
            let p = Params::new(typesize).with_codec(codec).with_clevel(clevel);
            let mut best = f64::INFINITY;
            let mut size = 0;
            for _ in 0..reps {
                let t = Instant::now();
                let c = compress(&data, &p).expect("compresses");
                best = best.min(t.elapsed().as_secs_f64());
                size = c.len();
            }
            println!(r#"{{"codec": "{codec}", "clevel": {clevel}, "cbytes": {size}, "seconds": {best}}}"#);
        }
    }
}
