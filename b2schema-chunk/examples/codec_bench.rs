//! Compresses one file as a single chunk with one codec at clevels 1, 5 and 9 (python-blosc2's
//! defaults otherwise: shuffle, auto split, automatic blocksize, one thread) and prints one JSON
//! line per clevel: codec, clevel, compressed size, best time of `reps` (wall clock), and on
//! Linux the mean CPU time of the thread (`/proc/thread-self/schedstat`, which a loaded machine
//! disturbs less; the runs go on until they have taken a quarter of a second, as that clock
//! moves by scheduler ticks). An optional fifth argument lists the clevels (`1,5,9` by default),
//! a sixth sets the blocksize (automatic by default). The chunk crate alone
//! builds it, so an encoder can be measured without building the `b2schema` crate.
//!
//! ```sh
//! cargo run --release -p b2schema-chunk --example codec_bench -- DATA.bin TYPESIZE REPS lz4hc
//! ```

use std::time::Instant;

use b2schema_chunk::compress::compress;
use b2schema_chunk::{Codec, Params};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(path), Some(ts), Some(reps), Some(codec)) =
        (args.get(1), args.get(2), args.get(3), args.get(4))
    else {
        eprintln!("usage: codec_bench DATA.bin TYPESIZE REPS CODEC [CLEVELS [BLOCKSIZE]]");
        std::process::exit(2);
    };
    let data = std::fs::read(path).expect("read the data file");
    let typesize: usize = ts.parse().expect("a typesize");
    let reps: usize = reps.parse().expect("a repetition count");
    let codec: Codec = codec.parse().expect("a codec name");
    let clevels: Vec<u8> = args
        .get(5)
        .map_or("1,5,9", String::as_str)
        .split(',')
        .map(|c| c.parse().expect("a clevel"))
        .collect();
    let blocksize: Option<usize> = args.get(6).map(|b| b.parse().expect("a blocksize"));
    for clevel in clevels {
        let mut p = Params::new(typesize).with_codec(codec).with_clevel(clevel);
        if let Some(b) = blocksize {
            p = p.with_blocksize(b);
        }
        let mut best = f64::INFINITY;
        let mut size = 0;
        let (mut runs, cpu) = (0, cpu_seconds());
        while runs < reps || cpu_seconds() - cpu < 0.25 {
            let t = Instant::now();
            let c = compress(&data, &p).expect("compresses");
            best = best.min(t.elapsed().as_secs_f64());
            size = c.len();
            runs += 1;
        }
        let cpu = (cpu_seconds() - cpu) / runs as f64;
        println!(
            r#"{{"codec": "{codec}", "clevel": {clevel}, "cbytes": {size}, "seconds": {best}, "cpu_seconds": {cpu}}}"#
        );
    }
}

/// This thread's time on a CPU, in seconds (NaN where `/proc/thread-self/schedstat` is missing).
fn cpu_seconds() -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<f64>().ok())
        .map_or(f64::NAN, |ns| ns / 1e9)
}
