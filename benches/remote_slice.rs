//! BENCHMARKS.md's remote rows: slices of a 1 GiB float64 array read from a local file and over
//! loopback HTTP (the test server of `tests/support/http_server.rs`), in one run.
//! `cargo bench --bench remote_slice`

use std::time::Instant;

use b2schema::writer::{Fill, NdArray};
use b2schema_tests::http_server::Server;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let n: usize = 1 << 27; // 2^27 float64: 1 GiB
    let items: Vec<u8> = (0..n).flat_map(|i| ((i % 1_000_003) as f64).to_le_bytes()).collect();
    let mut a = NdArray::new(&[n as i64], &[1 << 21], &[1 << 15], "<f8", 8, Fill::Data(&items));
    a.cparams.clevel = 1;
    let t = Instant::now();
    let frame = a.to_frame()?.to_vec()?;
    drop(items);
    eprintln!("written: {} bytes in {:.1} s", frame.len(), t.elapsed().as_secs_f64());
    let path = std::env::temp_dir().join(format!("remote-slice-{}.b2nd", std::process::id()));
    std::fs::write(&path, &frame)?;
    let server = Server::start(vec![("big.b2nd".into(), frame)]);
    let url = server.url("big.b2nd");

    type Open = Box<dyn Fn() -> b2schema::Result<b2schema::Container>>;
    let local: Open = Box::new(move || b2schema::open(&path));
    let u = url.clone();
    let remote: Open = Box::new(move || b2schema::open_url(&u));
    println!("| read | local file | loopback HTTP | ratio | fetched (requests, bytes) |");
    println!("|---|---:|---:|---:|---|");
    // Each read: what it reads, a read made before it on the same open (untimed), the runs.
    for (what, sel, warm, runs) in [
        ("open (metadata)", None, None, 21),
        ("one item", Some("100000000"), None, 51),
        ("one item of a chunk read before (its table kept)", Some("100000000"), Some("99000000"), 51),
        ("one block (32 768 items, 256 KiB)", Some("67108864:67141632"), None, 51),
        ("one chunk (2 Mi items, 16 MiB)", Some("4194304:6291456"), None, 11),
        ("64 MiB (8 Mi items over 4 chunks)", Some("8388608:16777216"), None, 5),
    ] {
        let mut ms = [Vec::new(), Vec::new()];
        let mut fetched = (0, 0);
        for _ in 0..runs {
            for (k, open) in [&local, &remote].into_iter().enumerate() {
                let t = Instant::now();
                let c = open()?;
                if let Some(w) = warm {
                    std::hint::black_box(c.read(w)?);
                }
                let (before, t) = match sel {
                    Some(_) => (c.frame().fetched(), Instant::now()),
                    None => (None, t),
                };
                if let Some(s) = sel {
                    std::hint::black_box(c.read(s)?);
                }
                ms[k].push(t.elapsed().as_secs_f64() * 1e3);
                if k == 1 {
                    let after = c.frame().fetched().unwrap_or_default();
                    let b = before.unwrap_or_default();
                    fetched = (after.requests - b.requests, after.bytes - b.bytes);
                }
            }
        }
        let (l, r) = (median(ms[0].clone()), median(ms[1].clone()));
        println!("| {what} | {l:.3} ms | {r:.3} ms | {:.2} | {}, {} |", r / l, fetched.0, fetched.1);
    }
    Ok(())
}
