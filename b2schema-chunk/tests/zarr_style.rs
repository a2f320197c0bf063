//! The crate on its own, as a Zarr `blosc` codec uses it: compress a buffer with the codec, filter
//! and level a Zarr array's metadata names, read the header's sizes, decompress it back.

use b2schema_chunk::compress::{self, Params, Split};
use b2schema_chunk::{ChunkHeader, Codec, ErrorKind, Filter, decompress, decompress_into};

fn sample(n: usize) -> Vec<u8> {
    (0..n as u32).flat_map(|i| (i / 5).wrapping_mul(2_654_435_761).to_le_bytes()).collect()
}

#[test]
fn every_built_in_codec_round_trips_with_shuffle_and_bitshuffle() {
    let data = sample(10_000);
    for codec in [Codec::BloscLz, Codec::Lz4, Codec::Lz4hc, Codec::Zlib, Codec::Zstd] {
        for filter in [Filter::NoFilter, Filter::Shuffle, Filter::BitShuffle] {
            let p = {
                let mut p = Params::new(4);
                p.codec = codec;
                p.clevel = 5;
                p.filters[5] = filter;
                p.split = Split::Auto;
                p
            };
            let chunk = compress::compress(&data, &p).unwrap();
            let h = ChunkHeader::parse(&chunk).unwrap();
            assert_eq!(h.uncompressed_len(), data.len(), "codec {codec} filter {filter}");
            assert_eq!(h.codec().unwrap(), codec, "codec {codec} filter {filter}");
            assert_eq!(decompress(&chunk).unwrap(), data, "codec {codec} filter {filter}");
            let mut out = vec![0u8; data.len()];
            assert_eq!(decompress_into(&chunk, &mut out).unwrap(), data.len());
            assert_eq!(out, data);
        }
    }
}

#[test]
fn a_damaged_chunk_is_an_error_that_names_the_field() {
    let data = sample(4_000);
    let mut chunk = compress::compress(&data, &Params::new(4)).unwrap();
    chunk.truncate(chunk.len() - 1);
    let e = decompress(&chunk).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Truncated);
    assert_eq!(e.field, "cbytes");
    assert!(e.to_string().starts_with("expected cbytes <= "), "{e}");
}

#[test]
fn stored_chunks_decode_to_what_they_hold() {
    let data = sample(100);
    let chunk = compress::memcpy(&data, &{
        let mut p = Params::new(4);
        p.blocksize = 64;
        p
    })
    .unwrap();
    let h = ChunkHeader::parse(&chunk).unwrap();
    assert!(h.is_memcpyed());
    assert_eq!(chunk.len(), 32 + data.len());
    assert_eq!(decompress(&chunk).unwrap(), data);

    let chunk = compress::repeat_value(&[1, 2, 3], 3 * 7, 9).unwrap();
    assert_eq!(chunk.len(), 32 + 3);
    assert_eq!(decompress(&chunk).unwrap(), [1, 2, 3].repeat(7));
}
