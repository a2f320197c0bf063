//! Decompression against the reference: every chunk of every fixture decompresses to the bytes
//! python-blosc2 returns for it (SHA-256 recorded by the fixture script), every NDArray's data in
//! C order matches `arr[()]`, and the old Blosc1 chunks decode.

use b2schema::frame::FrameFile;
use b2schema_tests::{compat_file, fixtures, hex, repo_root};
use sha2::{Digest, Sha256};

fn sha(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// Whether c-blosc2 undoes delta before another filter for these filters (delta applied after
/// a shuffle when compressing): its decoder then reads output bytes it has not written yet, so
/// what python-blosc2 returns depends on memory (its own code paths disagree on the same chunk:
/// `decompress_chunk` and `arr[...]` give different values). Such chunks are not compared.
fn delta_after_another_filter(filters: &[i64; 6]) -> bool {
    let delta = filters.iter().position(|&f| f == 3);
    delta.is_some_and(|d| filters[..d].iter().any(|&f| f != 0 && f != 4))
}

#[test]
fn every_fixture_chunk_and_array_matches_python_blosc2() {
    let (mut chunks, mut arrays) = (0, 0);
    let mut skipped = Vec::new();
    for (name, fx) in fixtures() {
        if delta_after_another_filter(&fx.cparams.filters) {
            skipped.push(name);
            continue;
        }
        let f = FrameFile::open(repo_root().join("tests/data/fixtures").join(&name)).unwrap();
        let infos = f.chunks().unwrap();
        for (info, want) in infos.iter().zip(&fx.chunks) {
            let data =
                f.chunk_data(info, 1 << 30).unwrap_or_else(|e| panic!("{name} chunk {}: {e}", info.index));
            assert_eq!(data.len(), want.nbytes, "{name} chunk {}", info.index);
            if let Some(h) = &want.data_sha256 {
                assert_eq!(&sha(&data), h, "{name} chunk {}", info.index);
                chunks += 1;
            }
        }
        if let Some(h) = fx.ndarray.as_ref().and_then(|nd| nd.data_sha256.as_ref()) {
            let data = f.ndarray_data(1 << 30).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(&sha(&data), h, "{name}: array data");
            arrays += 1;
        }
    }
    assert!(chunks > 700 && arrays > 90, "{chunks} chunks, {arrays} arrays");
    assert_eq!(skipped, ["filter-shuffle-delta.b2nd"]);
}

#[test]
fn blosc1_and_blosc2_compat_chunks_decode() {
    // c-blosc 1.x .. c-blosc2 3.0 wrote these from the int32 values 0..999999 (some with
    // clevel/filters that differ), except the rainfall grid.
    let dir = compat_file("c-blosc2/compat");
    let expected: Vec<u8> = (0..1_000_000i32).flat_map(|v| v.to_le_bytes()).collect();
    let mut n = 0;
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().and_then(|x| x.to_str()) != Some("cdata") {
            continue;
        }
        let bytes = std::fs::read(&p).unwrap();
        let data = b2schema::chunk::decompress(&bytes).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        if data.len() == expected.len() {
            assert!(data == expected, "{}", p.display());
        }
        n += 1;
    }
    assert!(n >= 25, "{n} chunks");
    let rain = std::fs::read(compat_file("c-blosc2/bench/rainfall-grid-150x150.bin")).unwrap();
    assert_eq!(b2schema::chunk::decompress(&rain).unwrap().len(), 150 * 150 * 4);
}
