//! An acquisition loop: a growing array gets one slab of rows at a time, as python-blosc2's
//! `a.resize((n + k, ...)); a[n:] = slab` loop does, each slab one crash-safe change (new
//! chunks and index first, then the header, each step synced: a reader or a crash in between
//! sees the array before or after the slab, never half of it). The handle stays open (and the
//! file locked against other writers) for the whole loop.
//!
//! ```sh
//! cargo run --example append_loop -- /tmp/acq.b2nd            # 10 slabs of 128 x 1024 float64
//! cargo run --release --example append_loop -- /tmp/acq.b2nd slab.f64 128 1024 1000
//! cargo run --release --example append_loop -- /tmp/acq.b2nd slab.f64 128 1024 1000 --no-sync
//! python -c "import blosc2; a = blosc2.open('/tmp/acq.b2nd'); print(a.shape, a[-1, :3])"
//! ```
//!
//! The second form appends the raw little-endian float64 rows of `slab.f64` (numpy's
//! `slab.tofile(...)`) 1000 times: `scripts/bench_append.py` times it beside python-blosc2's loop.

use std::error::Error;
use std::path::{Path, PathBuf};

use b2schema::writer::{Array, ArrayMut};

fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let out = args.first().map_or_else(|| PathBuf::from("acq.b2nd"), PathBuf::from);
    // `--no-sync` last: each change written in its crash-safe order but not synced, as
    // python-blosc2 writes (`ArrayMut::set_synced(false)`).
    let synced = args.last().is_none_or(|a| a != "--no-sync");
    let rest = &args[1..args.len() - usize::from(!synced)];
    let (slab, cols, n) = match rest {
        [] => (sine_slab(128, 1024), 1024, 10),
        [file, rows, cols, n] => {
            let bytes = std::fs::read(file)?;
            let slab: Vec<f64> =
                bytes.chunks_exact(8).map(|b| f64::from_le_bytes(b.try_into().expect("8 bytes"))).collect();
            let (rows, cols): (u64, u64) = (rows.parse()?, cols.parse()?);
            if slab.len() as u64 != rows * cols {
                return Err(format!("{file}: {} float64, not {rows} x {cols}", slab.len()).into());
            }
            (slab, cols, n.parse()?)
        }
        _ => return Err("usage: append_loop OUT.b2nd [SLAB.f64 ROWS COLS N] [--no-sync]".into()),
    };
    let _ = std::fs::remove_file(&out);
    let shape = run(&out, &slab, cols, n, synced)?;
    println!("{}: shape {shape:?}", out.display());
    Ok(())
}

/// Appends `slab` (rows of `cols` float64) `n` times to a new array at `path`, each append its
/// own change (synced step by step, or only written in order); returns the final shape.
pub fn run(path: &Path, slab: &[f64], cols: u64, n: usize, synced: bool) -> Result<Vec<u64>, Box<dyn Error>> {
    let rows = slab.len() as u64 / cols;
    // The first slab makes the file (python-blosc2's chunks and blocks for its shape, zstd 5 +
    // shuffle); every later one is appended along the first axis.
    Array::from_slice(&[rows, cols], slab)?.write_file(path)?;
    let mut a = ArrayMut::open(path)?;
    a.set_synced(synced);
    for _ in 1..n {
        a.append(slab)?;
    }
    Ok(a.shape()?)
}

/// A smooth slab: `rows x cols` samples of a sine.
pub fn sine_slab(rows: u64, cols: u64) -> Vec<f64> {
    let n = rows * cols;
    (0..n).map(|i| ((i as f64 * 20.0 / n as f64).sin() * 100.0 * 100.0).round() / 100.0).collect()
}
