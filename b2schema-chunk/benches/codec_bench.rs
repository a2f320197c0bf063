//! Compresses one file as a single chunk with one codec at clevels 1, 5 and 9 (python-blosc2's
//! defaults otherwise: shuffle, auto split, automatic blocksize, one thread) and prints one JSON
//! line per clevel: codec, clevel, compressed size, best time of `reps` (wall clock), and on
//! Linux the mean CPU time of the thread (`/proc/thread-self/schedstat`, which a loaded machine
//! disturbs less; the runs go on until they have taken a quarter of a second, as that clock
//! moves by scheduler ticks). An optional fifth argument lists the clevels (`1,5,9` by default),
//! a sixth sets the blocksize (automatic by default). The chunk crate alone
//! builds it, so an encoder can be measured without building the `b2schema` crate. With the
//! environment variable `CODEC_BENCH_OUT=PREFIX`, each clevel's chunk is also written to
//! `PREFIX.CLEVEL.chunk` (`scripts/bench_codec.py` compares it with c-blosc2's, byte for byte).
//!
//! ```sh
//! cargo bench -p b2schema-chunk --bench codec_bench -- DATA.bin TYPESIZE REPS lz4hc
//! ```
//!
//! Decode mode: `codec_bench decode NTHREADS CHUNK...` decompresses each chunk file (a whole
//! chunk, as `SChunk.get_chunk` gives it) into one kept buffer, as c-blosc2's
//! `decompress_chunk` does, and prints one JSON line per file: its name, `nbytes`, the best
//! wall-clock time and the mean CPU time of the calling thread (the measure at one thread; at
//! more, the wall clock), over runs that last at least a quarter of a second.
//! `scripts/bench_codec.py --decode` runs it beside c-blosc2.

use std::time::Instant;

use b2schema_chunk::compress::compress;
use b2schema_chunk::{Codec, Params, decompress_into_threaded};

fn main() {
    let args: Vec<String> = std::env::args().filter(|a| a != "--bench").collect();
    if args.get(1).map(String::as_str) == Some("decode") {
        return decode(&args[2..]);
    }
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
        if let Ok(prefix) = std::env::var("CODEC_BENCH_OUT") {
            let c = compress(&data, &p).expect("compresses");
            std::fs::write(format!("{prefix}.{clevel}.chunk"), c).expect("write the chunk");
        }
        println!(
            r#"{{"codec": "{codec}", "clevel": {clevel}, "cbytes": {size}, "seconds": {best}, "cpu_seconds": {cpu}}}"#
        );
    }
}

/// The decode mode: `NTHREADS CHUNK...`.
fn decode(args: &[String]) {
    let Some((threads, files)) = args.split_first().filter(|(_, f)| !f.is_empty()) else {
        eprintln!("usage: codec_bench decode NTHREADS CHUNK...");
        std::process::exit(2);
    };
    let nthreads: usize = threads.parse().expect("a thread count");
    let mut dst = Vec::new();
    for path in files {
        let chunk = std::fs::read(path).expect("read the chunk file");
        let nbytes = b2schema_chunk::ChunkHeader::parse(&chunk).expect("a chunk header").uncompressed_len();
        dst.resize(nbytes, 0);
        let mut run = || {
            let n = decompress_into_threaded(&chunk, &mut dst, nthreads).expect("decodes");
            assert_eq!(n, nbytes);
        };
        run();
        let (mut best, mut runs, cpu) = (f64::INFINITY, 0u32, cpu_seconds());
        while runs < 5 || cpu_seconds() - cpu < 0.25 {
            let t = Instant::now();
            run();
            best = best.min(t.elapsed().as_secs_f64());
            runs += 1;
        }
        let cpu = (cpu_seconds() - cpu) / f64::from(runs);
        println!(
            r#"{{"file": "{path}", "nbytes": {nbytes}, "nthreads": {nthreads}, "seconds": {best}, "cpu_seconds": {cpu}}}"#
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
