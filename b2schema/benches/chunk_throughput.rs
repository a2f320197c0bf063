//! Decompression throughput of this decoder on the chunks written by
//! `tests/data/chunks/ref/bench_python.py`, next to python-blosc2's figures for the same
//! chunks.
//!
//! ```text
//! "$(scripts/pyenv.sh)" tests/data/chunks/ref/bench_python.py /tmp/b2chunk-bench
//! cargo bench -p b2schema --bench chunk_throughput -- /tmp/b2chunk-bench
//! ```
//!
//! MB/s are uncompressed megabytes (1e6 bytes) per second, best of repeated runs, averaged
//! over the chunks of a configuration: one thread (`chunk::decompress_into`) and two threads
//! (`chunk::decompress_into_threaded(.., 2)`), next to c-blosc2 with `nthreads` 1 and 2.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

fn mbps(chunk: &[u8], out: &mut [u8], nthreads: usize) -> f64 {
    let decode = |out: &mut [u8]| {
        if nthreads == 1 {
            b2schema::chunk::decompress_into(chunk, out)
        } else {
            b2schema::chunk::decompress_into_threaded(chunk, out, nthreads)
        }
        .expect("decompress")
    };
    let n = decode(out);
    let mut best = Duration::MAX;
    let mut total = Duration::ZERO;
    let mut reps = 0;
    while total < Duration::from_millis(500) || reps < 5 {
        let t = Instant::now();
        let got = decode(out);
        let dt = t.elapsed();
        assert_eq!(got, n);
        best = best.min(dt);
        total += dt;
        reps += 1;
    }
    n as f64 / best.as_secs_f64() / 1e6
}

/// Reads `"name": {"nthreads1_MBps": x, ...}` pairs from python.json without a JSON dependency.
fn python_results(dir: &std::path::Path) -> BTreeMap<String, (f64, f64)> {
    let mut map = BTreeMap::new();
    let Ok(text) = std::fs::read_to_string(dir.join("python.json")) else {
        return map;
    };
    let num_after = |s: &str, key: &str| -> Option<f64> {
        let i = s.find(key)? + key.len();
        let rest = s[i..].trim_start_matches(|c: char| c == '"' || c == ':' || c.is_whitespace());
        let end = rest.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(rest.len());
        rest[..end].parse().ok()
    };
    for part in text.split("},").flat_map(|p| p.split("\"results\": {")) {
        let Some(q) = part.find("\": {") else {
            continue;
        };
        let name = part[..q].rsplit('"').next().unwrap_or("").to_string();
        if let (Some(a), Some(b)) = (num_after(part, "nthreads1_MBps"), num_after(part, "nthreads2_MBps")) {
            map.insert(name, (a, b));
        }
    }
    map
}

fn main() {
    let dir = PathBuf::from(
        std::env::args().skip(1).find(|a| a != "--bench").unwrap_or_else(|| "/tmp/b2chunk-bench".into()),
    );
    let mut groups: BTreeMap<String, Vec<PathBuf>> = BTreeMap::new();
    for e in std::fs::read_dir(&dir).expect("bench directory (run bench_python.py first)").flatten() {
        let p = e.path();
        if p.extension().is_some_and(|x| x == "chunk") {
            let stem = p.file_stem().unwrap().to_string_lossy().to_string();
            let name = stem.rsplit_once('-').map_or(stem.clone(), |(a, _)| a.to_string());
            groups.entry(name).or_default().push(p);
        }
    }
    let py = python_results(&dir);
    println!(
        "{:18} {:>9} {:>9} {:>7} {:>9} {:>9} {:>7} {:>7}",
        "config", "ours 1T", "c-b2 1T", "1T/1T", "ours 2T", "c-b2 2T", "2T/1T", "2T/2T"
    );
    let mut out = vec![0u8; 8 << 20];
    for (name, files) in &groups {
        let chunks: Vec<Vec<u8>> = files.iter().map(|f| std::fs::read(f).unwrap()).collect();
        let mean = |nthreads: usize, out: &mut [u8]| {
            chunks.iter().map(|c| mbps(c, out, nthreads)).sum::<f64>() / chunks.len() as f64
        };
        let one = mean(1, &mut out);
        let two = mean(2, &mut out);
        match py.get(name) {
            Some(&(p1, p2)) => println!(
                "{name:18} {one:9.0} {p1:9.0} {:7.2} {two:9.0} {p2:9.0} {:7.2} {:7.2}",
                one / p1,
                two / p1,
                two / p2
            ),
            None => println!("{name:18} {one:9.0} {:>9} {:>7} {two:9.0}", "-", "-"),
        }
    }
}
