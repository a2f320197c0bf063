//! Read a slice of an array behind a web server (python: `blosc2.open(url)[600, 690:700]`):
//! opening fetches the header and the index, a read only the blocks it needs (ranged GETs).
//!
//! `cargo run --example read_http [-- http://HOST/FILE.b2nd]` (any server that answers `Range`
//! requests: nginx, Apache, an object store's HTTP endpoint). With no URL, the example serves an
//! array of 1 MB itself on 127.0.0.1 (the test server of `tests/support/http_server.rs`) and
//! reads that.

use std::error::Error;

use b2schema::writer::Array;
use b2schema_tests::http_server::Server;

fn main() -> Result<(), Box<dyn Error>> {
    match std::env::args().nth(1) {
        Some(url) => read(&url).map(drop),
        None => run(),
    }
}

/// Serves a 1000 x 1000 uint8 array on a local port and reads one item and one row's part of it.
pub fn run() -> Result<(), Box<dyn Error>> {
    // Noise (a linear congruential generator), so that the file is 1 MB and not a few KB.
    let mut x = 1u32;
    let items: Vec<u8> = (0..1_000_000)
        .map(|_| {
            x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (x >> 24) as u8
        })
        .collect();
    let file = Array::from_slice(&[1000, 1000], &items)?.chunks(&[250, 250]).blocks(&[50, 50]).to_vec()?;
    let server = Server::start(vec![("big.b2nd".into(), file)]);
    let values = read(&server.url("big.b2nd"))?;
    assert_eq!(values, items[600 * 1000 + 690..600 * 1000 + 700]);
    assert!(server.bytes_sent() < 200 << 10, "{} bytes of 1 MB fetched", server.bytes_sent());
    Ok(())
}

/// Opens `url` and reads `[600, 690:700]`, saying what was fetched.
pub fn read(url: &str) -> Result<Vec<u8>, Box<dyn Error>> {
    let array = b2schema::open_url(url)?; // `b2schema::open` takes paths only
    let opened = array.frame().fetched().unwrap_or_default();
    let values: Vec<u8> = array.read_as("600, 690:700")?;
    let all = array.frame().fetched().unwrap_or_default();
    println!("{url}: shape {:?}; [600, 690:700] = {values:?}", array.shape());
    println!(
        "opening: {} requests, {} bytes; the read: {} requests, {} bytes",
        opened.requests,
        opened.bytes,
        all.requests - opened.requests,
        all.bytes - opened.bytes
    );
    Ok(values)
}
