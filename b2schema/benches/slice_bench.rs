//! Time of reading a selection of an NDArray with [`b2schema::array::ArrayReader`], and what it
//! decoded: the Rust half of `scripts/bench_decompress.py`'s slice targets (one item of a 1 GB
//! array, one row of a 2-D array), which times python-blosc2's `arr[...]` on the same file.
//!
//! ```text
//! cargo bench -p b2schema --bench slice_bench -- FILE SELECTION [REPS] [NTHREADS] [bytes|f64|f32|f64e|f32e|into]
//! ```
//!
//! Prints one line of JSON: the median and the best time in ms of `REPS` reads (the reader is
//! opened once, as python-blosc2's array is), and the read's statistics (chunks, blocks, bytes
//! decoded, bytes read from the file). `f64` and `f32` read typed values (`read_as::<f64>` or
//! `read_as::<f32>`, into a new `Vec`) instead of bytes, `f64e` and `f32e` typed values by
//! `read_elements` (a new result in memory advised for huge pages, as numpy's); `into` reads bytes into one buffer kept
//! from read to read (`read_into`: the read without the page faults of a new result, which a
//! caller reading into its own buffer avoids, and numpy's huge pages make cheaper for python).

use std::time::Instant;

use b2schema::array::{ArrayReader, ReadOptions, Selection};
use b2schema::frame::FrameFile;

fn main() {
    let mut args = std::env::args().skip(1).filter(|a| a != "--bench");
    let path = args.next().expect("FILE");
    let text = args.next().expect("SELECTION");
    let reps: usize = args.next().map_or(21, |r| r.parse().expect("REPS"));
    let nthreads: usize = args.next().map_or(1, |t| t.parse().expect("NTHREADS"));
    let mode = args.next().unwrap_or_default();
    let file = FrameFile::open(&path).expect("open");
    let reader = ArrayReader::new(&file).expect("an NDArray");
    let sel = Selection::parse(&text, reader.shape()).expect("selection");
    let opts = ReadOptions { nthreads, ..ReadOptions::default() };
    let (first, stats) = reader.read(&sel, &opts).expect("read");
    let mut times = Vec::with_capacity(reps);
    let mut kept = if mode == "into" { first.clone() } else { Vec::new() };
    for _ in 0..reps {
        let t = Instant::now();
        if mode == "into" {
            reader.read_into(&sel, &mut kept, &opts).expect("read_into");
            times.push(t.elapsed().as_secs_f64() * 1e3);
        } else if mode == "f64" {
            let out: Vec<f64> = reader.read_as(&sel, &opts).expect("read_as");
            times.push(t.elapsed().as_secs_f64() * 1e3);
            assert_eq!(out.len() * 8, first.len(), "as many items every time");
        } else if mode == "f64e" {
            let out = reader.read_elements::<f64>(&sel, &opts).expect("read_elements");
            times.push(t.elapsed().as_secs_f64() * 1e3);
            assert_eq!(out.len() * 8, first.len(), "as many items every time");
        } else if mode == "f32e" {
            let out = reader.read_elements::<f32>(&sel, &opts).expect("read_elements");
            times.push(t.elapsed().as_secs_f64() * 1e3);
            assert_eq!(out.len() * 4, first.len(), "as many items every time");
        } else if mode == "f32" {
            let out: Vec<f32> = reader.read_as(&sel, &opts).expect("read_as");
            times.push(t.elapsed().as_secs_f64() * 1e3);
            assert_eq!(out.len() * 4, first.len(), "as many items every time");
        } else {
            let (out, _) = reader.read(&sel, &opts).expect("read");
            times.push(t.elapsed().as_secs_f64() * 1e3);
            assert_eq!(out.len(), first.len(), "as many bytes every time");
            kept = out;
        }
    }
    // The bytes of the last read, compared once (the CPU time of the process stays the reads').
    if !matches!(mode.as_str(), "f64" | "f32" | "f64e" | "f32e") && reps > 0 {
        assert!(kept == first, "the same bytes every time");
    }
    times.sort_by(f64::total_cmp);
    let median = times.get(times.len() / 2).copied().unwrap_or(f64::NAN);
    let best = times.first().copied().unwrap_or(f64::NAN);
    println!(
        "{{\"median_ms\": {median:.4}, \"best_ms\": {best:.4}, \"result_bytes\": {}, \"chunks\": {}, \"blocks\": {}, \"bytes_decoded\": {}, \"bytes_read\": {}, \"nthreads\": {nthreads}}}",
        first.len(),
        stats.chunks,
        stats.blocks,
        stats.bytes_decoded,
        stats.bytes_read
    );
}
