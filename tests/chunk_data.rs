//! Decompression against the reference: every chunk of every fixture decompresses to the bytes
//! python-blosc2 returns for it (SHA-256 recorded by the fixture script), every NDArray's data in
//! C order matches `arr[()]`. (The old Blosc1 chunks: `chunk_compat_cdata.rs`.)

use b2schema::frame::FrameFile;
use b2schema_tests::{fixtures, repo_root, sha256_hex as sha};

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
