//! Behaviour of the public API on hand-made chunks: validation errors and
//! their messages, limits, unsupported features, header accessors.

use b2schema_chunk::{
    Blosc1Shuffle, ChunkHeader, Codec, ErrorKind, Found, Special, decompress, decompress_into,
    decompress_with_limit, vl_block_lens,
};

fn data_chunk(name: &str) -> Vec<u8> {
    crate::common::read_file(&crate::common::chunk_corpus("chunks").join(name))
}

use crate::common::chunk_header as header;

#[test]
fn cbytes_beyond_the_buffer_is_reported_with_offset_and_field() {
    let mut c = header(0x05, 4, 4000, 4000, 5000, 0);
    c.resize(1200, 0);
    let e = ChunkHeader::parse(&c).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Truncated);
    assert_eq!((e.offset, e.field), (12, "cbytes"));
    assert_eq!(e.to_string(), "expected cbytes <= 1200 at offset 12 (cbytes), found 5000");
    // peek() only needs the header.
    assert_eq!(ChunkHeader::peek(&c[..32]).unwrap().cbytes, 5000);
}

#[test]
fn header_field_validation() {
    let e = ChunkHeader::parse(&[5u8; 10]).unwrap_err();
    assert_eq!((e.kind, e.offset, e.field), (ErrorKind::Truncated, 0, "header"));
    let e = ChunkHeader::parse(&header(0x05, 0, 64, 64, 32, 0)).unwrap_err();
    assert_eq!((e.offset, e.field), (3, "typesize"));
    let e = ChunkHeader::parse(&header(0x05, 4, 64, 0, 32, 0)).unwrap_err();
    assert_eq!((e.offset, e.field), (8, "blocksize"));
    let e = ChunkHeader::parse(&header(0x05, 4, -1, 64, 32, 0)).unwrap_err();
    assert_eq!((e.offset, e.field), (4, "nbytes"));
    let e = ChunkHeader::parse(&header(0x05, 4, 64, 64, 8, 0)).unwrap_err();
    assert_eq!((e.offset, e.field), (12, "cbytes"));
    // special id 5 does not exist
    let e = ChunkHeader::parse(&header(0x05, 4, 64, 64, 32, 0x50)).unwrap_err();
    assert_eq!((e.kind, e.offset, e.field), (ErrorKind::Invalid, 31, "blosc2_flags"));
    // special NaN: nbytes must be a multiple of typesize (all zeros fill any length: c-blosc2
    // 3.3 writes them for all-zero data of any length)
    let e = ChunkHeader::parse(&header(0x05, 4, 66, 66, 32, 0x20)).unwrap_err();
    assert_eq!((e.offset, e.field), (4, "nbytes"));
    assert!(e.to_string().contains("multiple of 4"), "{e}");
    assert_eq!(decompress(&header(0x05, 4, 66, 66, 32, 0x10)).unwrap(), vec![0u8; 66]);
    // memcpyed: cbytes must be nbytes + header
    let e = ChunkHeader::parse(&{
        let mut c = header(0x07, 1, 10, 10, 40, 0);
        c.resize(40, 0);
        c
    })
    .unwrap_err();
    assert_eq!((e.offset, e.field), (12, "cbytes"));
}

#[test]
fn huge_nbytes_in_a_small_regular_chunk_is_an_error_before_allocating() {
    let mut c = header(0x05, 4, i32::MAX - 3, 1 << 20, 100, 0);
    c.resize(100, 0xAB);
    let e = decompress(&c).unwrap_err();
    assert_ne!(e.kind, ErrorKind::LimitExceeded);
    assert_eq!(e.field, "bstarts");
}

#[test]
fn special_chunks_obey_the_callers_limit() {
    let zero = header(0x05, 8, 2_000_000_000, 1 << 20, 32, 0x10);
    let e = decompress_with_limit(&zero, 1 << 20).unwrap_err();
    assert_eq!(e.kind, ErrorKind::LimitExceeded);
    assert_eq!(e.to_string(), "expected nbytes <= 1048576 at offset 4 (nbytes), found 2000000000");
    let mut small = vec![0u8; 100];
    let e = decompress_into(&zero, &mut small).unwrap_err();
    assert_eq!(e.kind, ErrorKind::OutputTooSmall);
    let ok = header(0x05, 8, 80, 80, 32, 0x10);
    let mut dest = vec![0xFFu8; 100];
    assert_eq!(decompress_into(&ok, &mut dest).unwrap(), 80);
    assert!(dest[..80].iter().all(|&b| b == 0) && dest[80..].iter().all(|&b| b == 0xFF));
}

#[test]
fn special_values() {
    let nan4 = header(0x05, 4, 16, 16, 32, 0x20);
    assert_eq!(decompress(&nan4).unwrap(), [0, 0, 0xc0, 0x7f].repeat(4));
    let nan8 = header(0x05, 8, 16, 16, 32, 0x20);
    assert_eq!(decompress(&nan8).unwrap(), [0, 0, 0, 0, 0, 0, 0xf8, 0x7f].repeat(2));
    let nan2 = header(0x05, 2, 16, 16, 32, 0x20);
    assert_eq!(decompress(&nan2).unwrap_err().kind, ErrorKind::Unsupported);
    let mut val = header(0x05, 1, 9, 9, 35, 0x30);
    val.extend_from_slice(&[1, 2, 3]);
    assert_eq!(decompress(&val).unwrap(), [1, 2, 3].repeat(3));
    let h = ChunkHeader::parse(&val).unwrap();
    assert_eq!((h.special(), h.special_value_len()), (Special::Value, 3));
    let uninit = header(0x05, 4, 12, 12, 32, 0x40);
    assert_eq!(decompress(&uninit).unwrap(), vec![0; 12]);
}

#[test]
fn plugin_codecs_and_filters_are_unsupported_by_name() {
    // Codecs and filters c-blosc2 registers that this crate does not implement: named.
    let mut c = data_chunk("lz4-shuffle-ts4.chunk");
    c[2] = (c[2] & 0x1f) | (6 << 5);
    c[22] = 36;
    let e = decompress(&c).unwrap_err();
    assert_eq!((e.kind, e.offset, e.field), (ErrorKind::Unsupported, 22, "udcompcode"));
    assert!(e.to_string().contains("openhtj2k"), "{e}");
    assert_eq!(ChunkHeader::parse(&c).unwrap().codec().unwrap(), Codec::OpenHtj2k);

    let mut c = data_chunk("lz4-shuffle-ts4.chunk");
    c[16 + 5] = 40;
    let e = decompress(&c).unwrap_err();
    assert_eq!((e.kind, e.offset, e.field), (ErrorKind::Unsupported, 21, "filters"));
    assert!(e.to_string().contains("unnamed registered filter"), "{e}");

    // The n-dimensional ones it implements need the array's block shape: without it, they say so.
    let mut c = data_chunk("lz4-shuffle-ts4.chunk");
    c[2] = (c[2] & 0x1f) | (6 << 5);
    c[22] = 33;
    let e = decompress(&c).unwrap_err();
    assert!(e.to_string().contains("block shape"), "{e}");
    let mut c = data_chunk("lz4-shuffle-ts4.chunk");
    c[16 + 5] = 32;
    c[24 + 5] = 4;
    let e = decompress(&c).unwrap_err();
    assert_eq!((e.offset, e.field), (21, "filters"));
    assert!(e.to_string().contains("block shape"), "{e}");

    let mut lazy = data_chunk("lz4-shuffle-ts4.chunk");
    lazy[31] |= 0x08;
    assert_eq!(decompress(&lazy).unwrap_err().kind, ErrorKind::Unsupported);
}

#[test]
fn blosc1_header_accessors() {
    let b = crate::common::read_compat("c-blosc2/compat/blosc-1.7.0-zlib.cdata");
    let h = ChunkHeader::parse(&b).unwrap();
    assert!(!h.is_extended());
    assert_eq!(h.header_len(), 16);
    assert_eq!(h.codec().unwrap(), Codec::Zlib);
    assert_eq!(h.blosc1_shuffle(), Some(Blosc1Shuffle::Byte));
    assert_eq!(h.filters, [0, 0, 0, 0, 0, 1]);
    assert_eq!(h.special(), Special::None);
    let b = crate::common::read_compat("c-blosc2/compat/blosc-1.18.0-lz4-bitshuffle4-memcpy.cdata");
    let h = ChunkHeader::parse(&b).unwrap();
    assert_eq!(h.blosc1_shuffle(), Some(Blosc1Shuffle::Bit));
    assert_eq!(h.filters, [0, 0, 0, 0, 0, 2]);
}

#[test]
fn blosc2_header_accessors() {
    let h = ChunkHeader::parse(&data_chunk("lz4hc-dict-ts4.chunk")).unwrap();
    assert!(h.is_extended() && h.uses_dict() && !h.is_vl_blocks() && !h.is_big_endian());
    assert_eq!(h.codec().unwrap(), Codec::Lz4hc);
    assert_eq!(h.blosc1_shuffle(), None);
    let h = ChunkHeader::parse(&data_chunk("zstd-ts8-never.chunk")).unwrap();
    assert!(h.dont_split());
    assert_eq!(h.codec().unwrap().name(), Some("zstd"));
    assert_eq!(h.nblocks(), h.uncompressed_len().div_ceil(h.blocksize as usize));
}

#[test]
fn vl_blocks() {
    let c = data_chunk("vlblocks-lz4.chunk");
    let h = ChunkHeader::parse(&c).unwrap();
    assert!(h.is_vl_blocks());
    assert_eq!(h.version, 6);
    let lens = vl_block_lens(&c).unwrap();
    assert_eq!(lens.len(), h.nblocks());
    assert_eq!(lens.iter().sum::<usize>(), h.uncompressed_len());
    assert_eq!(decompress(&c).unwrap().len(), h.uncompressed_len());
    assert!(vl_block_lens(&data_chunk("lz4-shuffle-ts4.chunk")).is_err());
}

#[test]
fn decompress_into_matches_decompress() {
    let c = data_chunk("zstd-delta-shuffle-ts4.chunk");
    let v = decompress(&c).unwrap();
    let mut dest = vec![0u8; v.len() + 7];
    assert_eq!(decompress_into(&c, &mut dest).unwrap(), v.len());
    assert_eq!(&dest[..v.len()], &v[..]);
    let e = decompress_into(&c, &mut dest[..v.len() - 1]).unwrap_err();
    assert_eq!((e.kind, e.offset, e.field), (ErrorKind::OutputTooSmall, 4, "nbytes"));
}

#[test]
fn zstd_dictionary_without_magic_is_raw_content_and_its_frames_refuse_it() {
    // Without its magic a dictionary is raw content (id 0), as libzstd's `ZSTD_createDDict`
    // reads it; the chunk's frames name the trained dictionary's id, so the first stream fails.
    let mut c = data_chunk("zstd-dict-ts4.chunk");
    let h = ChunkHeader::parse(&c).unwrap();
    let dict_at = h.header_len() + 4 * h.nblocks() + 4;
    assert_eq!(&c[dict_at..dict_at + 4], &[0x37, 0xA4, 0x30, 0xEC]);
    c[dict_at] ^= 0xFF;
    let e = decompress(&c).unwrap_err();
    let dict_len = i32::from_le_bytes(c[dict_at - 4..dict_at].try_into().unwrap()) as usize;
    assert_eq!(
        (e.kind, e.field, e.found),
        (ErrorKind::Corrupt, "stream", Found::Text("the dictionary id of the chunk's dictionary"))
    );
    assert!(e.offset > dict_at + dict_len && e.offset < c.len(), "{e}");
}
