//! How `rusty_zstd`'s parameters do on the streams of one chunk: the tool behind the zstd
//! encoder's table (`src/codec/zstd/encode/levels.rs`).
//!
//!     cargo bench -p b2schema-chunk --bench zstd_calibrate -- \
//!         DATA.bin TYPESIZE CLEVEL BLOCKSIZE SPEC [SPEC ...]
//!
//! The file is compressed as one chunk with zstd at CLEVEL (BLOCKSIZE 0: automatic), which gives
//! its blocksize and split; its blocks are then byte-shuffled and cut into streams as the
//! compressor does, and each SPEC encodes every stream: `LEVEL[:key=value,...]`, the keys
//! `strategy` (1-9), `window`, `hash`, `chain`, `search`, `minmatch`, `target` (libzstd's
//! parameters), `skip` (the lazy finders' skip over literal runs, `rusty_zstd`'s process-wide
//! setting) and `block` (the largest zstd block, bytes). A stream whose frame is not smaller
//! than itself counts as stored raw. Prints the chunk's size and one line per SPEC: the
//! estimated chunk size (header, offsets, stream sizes), the MB/s of the encoding alone (CPU
//! time of the thread, runs over at least 0.3 s) and the streams stored raw. Compare the sizes
//! with python-blosc2's `blosc2.compress2` of the same file (`codec=ZSTD`, the same clevel,
//! typesize and blocksize).

use b2schema_chunk::compress::{Params, compress};
use b2schema_chunk::{Codec, FLAG_DONT_SPLIT};

fn main() {
    let args: Vec<String> = std::env::args().filter(|a| a != "--bench").collect();
    if args.len() < 6 {
        eprintln!("usage: zstd_calibrate DATA.bin TYPESIZE CLEVEL BLOCKSIZE SPEC [SPEC ...]");
        std::process::exit(2);
    }
    let data = std::fs::read(&args[1]).expect("read the data file");
    let typesize: usize = args[2].parse().expect("a typesize");
    let clevel: u8 = args[3].parse().expect("a clevel");
    let blocksize: usize = args[4].parse().expect("a blocksize");
    let mut p = Params::new(typesize).with_codec(Codec::Zstd).with_clevel(clevel);
    if blocksize > 0 {
        p = p.with_blocksize(blocksize);
    }
    let chunk = compress(&data, &p).expect("compresses");
    let header = b2schema_chunk::ChunkHeader::parse(&chunk).expect("a chunk");
    let bs = header.blocksize as usize;
    let split = header.flags & FLAG_DONT_SPLIT == 0;
    let streams = streams(&data, typesize, bs, split);
    println!("chunk {} bytes, blocksize {bs}, split {split}, {} streams", chunk.len(), streams.len());
    for spec in &args[5..] {
        let (mut size, mut raw, mut runs) = (0, 0, 0u32);
        let start = cpu_seconds();
        while runs < 2 || cpu_seconds() - start < 0.3 {
            runs += 1;
            (size, raw) = (32 + 4 * data.len().div_ceil(bs), 0);
            for s in &streams {
                let n = encode(spec, s);
                size += 4 + n.min(s.len());
                raw += usize::from(n >= s.len());
            }
        }
        let mbps = data.len() as f64 / ((cpu_seconds() - start) / f64::from(runs)) / 1e6;
        println!("{spec}\t{size}\t{mbps:.1} MB/s\traw {raw}");
    }
}

/// The size of `stream`'s frame under `spec`.
fn encode(spec: &str, stream: &[u8]) -> usize {
    let (level, keys) = spec.split_once(':').unwrap_or((spec, ""));
    let mut p = rusty_zstd::compression_params(level.parse().expect("a level"), Some(stream.len() as u64))
        .expect("a zstd level");
    let mut adv = rusty_zstd::AdvancedOptions::default();
    rusty_zstd::set_lazy_accel_arm(12);
    for kv in keys.split(',').filter(|k| !k.is_empty()) {
        let (k, v) = kv.split_once('=').expect("key=value");
        let v: u32 = v.parse().expect("a number");
        match k {
            "strategy" => p.strategy = rusty_zstd::Strategy::from_id(v as i32).expect("a strategy 1-9"),
            "window" => p.window_log = v,
            "hash" => p.hash_log = v,
            "chain" => p.chain_log = v,
            "search" => p.search_log = v,
            "minmatch" => p.min_match = v,
            "target" => p.target_length = v,
            "skip" => rusty_zstd::set_lazy_accel_arm(v as usize),
            "block" => adv.target_cblock_size = v / 4,
            _ => panic!("unknown key {k}"),
        }
    }
    rusty_zstd::compress_with_advanced(stream, p, false, None, &[], false, adv).expect("encodes").len()
}

/// The chunk's streams: each block byte-shuffled (the items it holds whole; the bytes after
/// them as they are), then cut into `typesize` streams when `split` (and the block is whole).
fn streams(data: &[u8], typesize: usize, bs: usize, split: bool) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for block in data.chunks(bs) {
        let n = block.len() / typesize;
        let mut shuffled = vec![0u8; block.len()];
        for i in 0..n {
            for j in 0..typesize {
                shuffled[j * n + i] = block[i * typesize + j];
            }
        }
        shuffled[n * typesize..].copy_from_slice(&block[n * typesize..]);
        if split && block.len() == bs {
            out.extend(shuffled.chunks(n).map(<[u8]>::to_vec));
        } else {
            out.push(shuffled);
        }
    }
    out
}

/// This thread's time on a CPU, in seconds (NaN where `/proc/thread-self/schedstat` is missing).
fn cpu_seconds() -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<f64>().ok())
        .map_or(f64::NAN, |ns| ns / 1e9)
}
