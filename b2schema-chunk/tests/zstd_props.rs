//! zstd through the chunk codec: what the encoder writes at any clevel, with or without a
//! dictionary, decodes back equal; flipped bytes in a zstd chunk give an error or the chunk's
//! size, never a panic; frames that decode to more than their block are refused before the
//! bytes are produced, with a dictionary or without.

use b2schema_chunk::compress::{self, Params, Split};
use b2schema_chunk::{ChunkHeader, Codec, ErrorKind, Filter, Found, Special, decompress, decompress_into};
use proptest::prelude::*;

use crate::common::data;

fn params() -> impl Strategy<Value = Params> {
    (1u8..=9, prop::sample::select(vec![1usize, 2, 4, 8]), any::<bool>(), any::<bool>(), 0usize..3).prop_map(
        |(clevel, typesize, shuffle, use_dict, split)| {
            let mut p = Params::new(typesize);
            p.codec = Codec::Zstd;
            p.clevel = clevel;
            p.filters[5] = if shuffle { Filter::Shuffle } else { Filter::NoFilter };
            p.split = [Split::Auto, Split::Always, Split::Never][split];
            p.use_dict = use_dict;
            p
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn zstd_chunks_decode_to_their_input(src in data(60_000), p in params()) {
        let c = compress::compress(&src, &p).unwrap();
        prop_assert_eq!(decompress(&c).unwrap(), src.clone());
        let h = ChunkHeader::parse(&c).unwrap();
        // A dictionary exactly when asked for and the chunk is large enough for one (5 120
        // bytes, c-blosc2's rule), unless the chunk fell back to a memcpy or zeros chunk.
        if !h.is_memcpyed() && h.special() == Special::None {
            prop_assert_eq!(h.uses_dict(), p.use_dict && src.len() >= 20 * compress::MIN_USEFUL_DICT);
        }
    }

    #[test]
    fn flipped_bytes_in_zstd_chunks_never_panic(
        src in data(60_000),
        p in params(),
        flips in prop::collection::vec((any::<prop::sample::Index>(), 1u8..=255), 1..6),
    ) {
        let mut c = compress::compress(&src, &p).unwrap();
        for (at, x) in &flips {
            let i = at.index(c.len());
            c[i] ^= x;
        }
        match decompress(&c) {
            Ok(out) => prop_assert_eq!(out.len(), ChunkHeader::parse(&c).unwrap().uncompressed_len()),
            Err(e) => prop_assert!(e.offset <= c.len(), "offset {} past the chunk: {}", e.offset, e),
        }
        let mut buf = vec![0u8; src.len()];
        let _ = decompress_into(&c, &mut buf);
    }
}

/// A zstd frame without a content size whose RLE blocks (4 bytes each) regenerate
/// `nblocks * 128 KiB`.
fn rle_bomb(nblocks: usize) -> Vec<u8> {
    // Magic; descriptor 0 (no content size, no checksum, window descriptor follows); window
    // 2^(10 + 7) = 128 KiB.
    let mut f = vec![0x28, 0xB5, 0x2F, 0xFD, 0x00, 7 << 3];
    for i in 0..nblocks {
        let last = u32::from(i + 1 == nblocks);
        let h = last | (1 << 1) | ((128 << 10) << 3);
        f.extend_from_slice(&h.to_le_bytes()[..3]);
        f.push(b'x');
    }
    f
}

/// A one-block, one-stream zstd chunk of `nbytes` whose stream is `stream`, with `dict` after
/// the bstarts when given (c-blosc2's layout: size, then bytes).
fn zstd_chunk(nbytes: usize, dict: Option<&[u8]>, stream: &[u8]) -> Vec<u8> {
    let dict_len = dict.map_or(0, |d| 4 + d.len());
    let bstart = 32 + 4 + dict_len;
    let cbytes = bstart + 4 + stream.len();
    let mut c = vec![0u8; 32];
    c[0] = 5;
    c[1] = 1;
    c[2] = 0x05 | 0x10 | (Codec::Zstd.compformat() << 5);
    c[3] = 1;
    c[4..8].copy_from_slice(&(nbytes as i32).to_le_bytes());
    c[8..12].copy_from_slice(&(nbytes as i32).to_le_bytes());
    c[12..16].copy_from_slice(&(cbytes as i32).to_le_bytes());
    c[22] = Codec::Zstd.id();
    c[31] = u8::from(dict.is_some());
    c.extend_from_slice(&(bstart as i32).to_le_bytes());
    if let Some(d) = dict {
        c.extend_from_slice(&(d.len() as i32).to_le_bytes());
        c.extend_from_slice(d);
    }
    c.extend_from_slice(&(stream.len() as i32).to_le_bytes());
    c.extend_from_slice(stream);
    c
}

#[test]
fn frames_larger_than_their_block_are_refused_with_and_without_a_dictionary() {
    // 2 048 RLE blocks: 256 MiB from 8 KiB of stream, for a block of 64 KiB.
    let bomb = rle_bomb(2048);
    let dict: Vec<u8> = (0..1000u32).map(|i| (i * 7) as u8).collect();
    // The output limit stops the first block that passes it, with a dictionary or without.
    for (d, why) in [
        (None, "a frame that decodes within the output"),
        (Some(&dict[..]), "a frame that decodes within the output"),
    ] {
        let c = zstd_chunk(64 << 10, d, &bomb);
        let e = decompress(&c).unwrap_err();
        let stream_at = c.len() - bomb.len();
        // The offset is where in the stream the decoder stopped (the block that passes the limit).
        assert!(e.offset > stream_at && e.offset < c.len(), "{e}");
        assert_eq!((e.kind, e.field, e.found), (ErrorKind::Corrupt, "stream", Found::Text(why)));
    }
    // The same frame cut to the block's size decodes (the chunk is well formed otherwise).
    let fits = rle_bomb(1);
    for d in [None, Some(&dict[..])] {
        let c = zstd_chunk(128 << 10, d, &fits);
        assert_eq!(decompress(&c).unwrap(), vec![b'x'; 128 << 10]);
    }
}

#[test]
fn a_chunk_of_zeros_with_use_dict_stays_a_zeros_chunk() {
    // Raw samples of zeros would be a 32 KiB dictionary: b2schema makes none, and the chunk is
    // its 32-byte header with the zeros special value (c-blosc2 trains a small dictionary from
    // the zeros and writes a 243-byte dictionary chunk).
    let p = {
        let mut p = Params::new(8);
        p.codec = Codec::Zstd;
        p.use_dict = true;
        p
    };
    let c = compress::compress(&vec![0u8; 1 << 20], &p).unwrap();
    let h = ChunkHeader::parse(&c).unwrap();
    assert_eq!((c.len(), h.special(), h.uses_dict()), (32, Special::Zero, false));
}
