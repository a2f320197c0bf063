//! Chunks from a Zarr store are untrusted input: through the codec, any mutation or truncation of
//! a Blosc1 or Blosc2 chunk decodes to exactly the chunk size zarrs expects or is an error, never a
//! panic; a chunk claiming more bytes than zarrs expects is refused before anything that size is
//! allocated.

use std::sync::Arc;

use b2schema_chunk::compress::{self, Params};
use b2schema_chunk::{Codec as ChunkCodec, Filter};
use b2schema_zarrs::{BloscCodec, Shuffle};
use proptest::prelude::*;
use zarrs::array::codec::api::{BytesRepresentation, BytesToBytesCodecTraits, CodecOptions};
use zarrs::metadata_ext::codec::blosc::BloscCompressor;

const SIZE: usize = 6000;

fn codec() -> Arc<BloscCodec> {
    Arc::new(BloscCodec::new(BloscCompressor::Zstd, 5, Shuffle::Byte, Some(4), 0).unwrap())
}

/// One Blosc1 and one Blosc2 chunk of every codec, over data that compresses.
fn chunks() -> Vec<Vec<u8>> {
    let data: Vec<u8> = (0..SIZE as u32 / 4).flat_map(|i| (i / 7).to_le_bytes()).collect();
    let codecs =
        [ChunkCodec::BloscLz, ChunkCodec::Lz4, ChunkCodec::Lz4hc, ChunkCodec::Zlib, ChunkCodec::Zstd];
    let mut out = Vec::new();
    for (i, c) in codecs.into_iter().enumerate() {
        let filter = [Filter::NoFilter, Filter::Shuffle, Filter::BitShuffle][i % 3];
        out.push(
            compress::compress(&data, &Params::blosc1(4).with_codec(c).with_filter(5, filter, 0)).unwrap(),
        );
        out.push(compress::compress(&data, &Params::new(4).with_codec(c).with_blocksize(1024)).unwrap());
    }
    // Memcpy chunks (clevel 0), Blosc1 and Blosc2.
    out.push(compress::compress(&data, &Params::blosc1(4).with_clevel(0)).unwrap());
    out.push(compress::compress(&data, &Params::new(4).with_clevel(0)).unwrap());
    out
}

fn decode(chunk: Vec<u8>) -> Result<usize, String> {
    let size = BytesRepresentation::FixedSize(SIZE as u64);
    codec().decode(chunk.into(), &size, &CodecOptions::default()).map(|b| b.len()).map_err(|e| e.to_string())
}

#[test]
fn the_chunks_decode_whole() {
    for chunk in chunks() {
        assert_eq!(decode(chunk), Ok(SIZE));
    }
}

#[test]
fn a_chunk_claiming_more_than_the_array_chunk_is_refused() {
    for mut chunk in chunks() {
        chunk[4..8].copy_from_slice(&i32::MAX.to_le_bytes());
        // (Refused by the header checks or by the limit, the chunk size zarrs expects.)
        let err = decode(chunk).unwrap_err();
        assert!(err.contains("offset"), "{err}");
    }
    // A smaller claim is refused too: zarrs expects the whole chunk.
    let mut chunk = chunks().remove(0);
    chunk[4..8].copy_from_slice(&100i32.to_le_bytes());
    assert!(decode(chunk).is_err());
    // So is a sound chunk of another size (from another array, say).
    for len in [0, 1, SIZE / 2, SIZE - 1, SIZE + 1] {
        let chunk = compress::compress(&vec![7; len], &Params::blosc1(4)).unwrap();
        let err = decode(chunk).unwrap_err();
        assert!(err.contains("nbytes"), "{len}: {err}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]
    #[test]
    fn mutated_and_truncated_chunks_decode_whole_or_are_errors(
        which in 0usize..12,
        nbytes in proptest::option::of(0i32..2 * SIZE as i32),
        edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..6),
        cut in proptest::option::of(any::<prop::sample::Index>()),
    ) {
        let mut chunk = chunks().swap_remove(which);
        if let Some(n) = nbytes {
            chunk[4..8].copy_from_slice(&n.to_le_bytes());
        }
        for (at, v) in edits {
            let i = at.index(chunk.len());
            chunk[i] = v;
        }
        if let Some(cut) = cut {
            chunk.truncate(cut.index(chunk.len()));
        }
        if let Ok(n) = decode(chunk) {
            prop_assert_eq!(n, SIZE);
        }
    }
}
