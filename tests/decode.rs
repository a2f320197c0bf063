//! Decoding: strict and lenient reading, borrowing, error positions and paths, and the real
//! `b2nd` metalayer bytes of c-blosc2 files.

use b2schema::format::ErrorKind;
use b2schema::wrap::{Counted, FixStr, Str32, Uint8, Uint64};
use b2schema::{Config, from_slice, from_slice_with, take_from_slice, to_vec};
use b2schema_tests::read_compat;
use serde::{Deserialize, Serialize};

/// The current 7-element `b2nd` metalayer, declared with plain serde and the wrappers.
#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct B2nd<'a> {
    version: u8,
    ndim: u8,
    shape: Counted<Vec<i64>>,
    chunkshape: Counted<Vec<i32>>,
    blockshape: Counted<Vec<i32>>,
    dtype_format: u8,
    #[serde(borrow)]
    dtype: Str32<&'a str>,
}

/// The bytes of the `b2nd` metalayer value in a real file: the 53 bytes at 0x70 of
/// `example_day_month_temp.b2nd` (facts document §5.1).
fn real_b2nd() -> Vec<u8> {
    let file = read_compat("c-blosc2/plugins/test_data/example_day_month_temp.b2nd");
    file[0x70..0x70 + 53].to_vec()
}

#[test]
fn golden_b2nd_from_a_real_file_round_trips() {
    let bytes = real_b2nd();
    assert_eq!(&bytes[..4], [0x97, 0x00, 0x02, 0x92]);
    assert_eq!(&bytes[bytes.len() - 8..], [0xdb, 0, 0, 0, 3, 0x7c, 0x75, 0x31]);
    let meta: B2nd = from_slice(&bytes).unwrap();
    assert_eq!(
        meta,
        B2nd {
            version: 0,
            ndim: 2,
            shape: Counted(vec![400, 3]),
            chunkshape: Counted(vec![110, 3]),
            blockshape: Counted(vec![57, 3]),
            dtype_format: 0,
            dtype: Str32("|u1"),
        }
    );
    // The dtype borrows from the input.
    assert_eq!(meta.dtype.0.as_ptr(), bytes[bytes.len() - 3..].as_ptr());
    assert_eq!(to_vec(&meta).unwrap(), bytes);
}

#[test]
fn golden_b2nd_of_16_dims_uses_the_a0_marker() {
    let meta = B2nd {
        version: 0,
        ndim: 16,
        shape: Counted(vec![2; 16]),
        chunkshape: Counted(vec![1; 16]),
        blockshape: Counted(vec![1; 16]),
        dtype_format: 0,
        dtype: Str32("<f8"),
    };
    let bytes = to_vec(&meta).unwrap();
    assert_eq!(bytes.len(), 12 + 19 * 16 + 3);
    assert_eq!(&bytes[..4], [0x97, 0x00, 0x10, 0xa0]);
    assert_eq!(from_slice::<B2nd>(&bytes).unwrap(), meta);
    // ndim 0: `97 00 00 90 90 90 00 db ...`, the scalar layout of ds-sc-attr.b2nd.
    let scalar = B2nd {
        ndim: 0,
        shape: Counted(vec![]),
        chunkshape: Counted(vec![]),
        blockshape: Counted(vec![]),
        ..meta
    };
    assert_eq!(to_vec(&scalar).unwrap()[..7], [0x97, 0, 0, 0x90, 0x90, 0x90, 0]);
}

#[test]
fn legacy_six_element_layout_is_rejected_with_the_marker() {
    // c-blosc2 dev 1e65a17e wrote 0x96 (no dtype_format): strict reading names it.
    let file = read_compat("c-blosc2-history/1e65a17e/plugins/test_data/example_day_month_temp.b2nd");
    let start = 0x70;
    assert_eq!(file[start], 0x96);
    let e = b2schema::take_from_slice::<B2nd>(&file[start..]).unwrap_err();
    assert_eq!(e.offset(), Some(0));
    assert_eq!(e.to_string(), "expected fixarray(7) marker 97 at offset 0, found 96 (fixarray)");
}

#[derive(Deserialize, Debug)]
#[allow(dead_code)]
struct Sizes {
    nbytes: i64,
    cbytes: i64,
    typesize: i32,
}

#[test]
fn strict_errors_name_offset_field_expected_and_found() {
    // typesize written as uint16 instead of int32.
    let mut bytes = vec![0x93];
    bytes.extend(to_vec(&5472i64).unwrap());
    bytes.extend(to_vec(&2369i64).unwrap());
    bytes.extend([0xcd, 0, 4]);
    let e = from_slice::<Sizes>(&bytes).unwrap_err();
    assert_eq!(e.to_string(), "expected int32 marker d2 at offset 19 (typesize), found cd (uint16)");
    assert_eq!(e.offset(), Some(19));
    assert!(matches!(e.kind(), ErrorKind::UnexpectedMarker { found: 0xcd, .. }));
    // Lenient reading accepts any width that fits.
    let lenient = from_slice_with::<Sizes>(&bytes, Config::fixed().strict(false)).unwrap();
    assert_eq!(lenient.typesize, 4);
}

#[test]
fn paths_go_through_nested_arrays() {
    // shape[1] holds an int32 where an int64 is required.
    let mut bytes = to_vec(&B2nd {
        version: 0,
        ndim: 2,
        shape: Counted(vec![1, 2]),
        chunkshape: Counted(vec![1, 1]),
        blockshape: Counted(vec![1, 1]),
        dtype_format: 0,
        dtype: Str32("|u1"),
    })
    .unwrap();
    bytes[13] = 0xd2;
    let e = from_slice::<B2nd>(&bytes).unwrap_err();
    assert_eq!(e.path_string(), "shape[1]");
    assert_eq!(e.to_string(), "expected int64 marker d3 at offset 13 (shape[1]), found d2 (int32)");
}

#[test]
fn lengths_are_checked_before_allocating() {
    // bin32 of 2^31 bytes in a 10-byte buffer.
    let bytes = [0xc6, 0x80, 0, 0, 0, 1, 2, 3, 4, 5];
    let e = from_slice::<serde_bytes::ByteBuf>(&bytes).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::LengthExceedsInput { len: 0x8000_0000, available: 5, .. }), "{e}");
    assert_eq!(e.to_string(), "bin32 length 2147483648 exceeds the input at offset 0, 5 bytes remain");
    // An array16 claiming 65535 elements.
    let e = from_slice_with::<Vec<u8>>(&[0xdc, 0xff, 0xff, 1], Config::minimal()).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::LengthExceedsInput { len: 65535, .. }), "{e}");
}

#[test]
fn trailing_bytes_and_take_from_slice() {
    let e = from_slice::<u16>(&[0xcd, 0, 1, 0xc0]).unwrap_err();
    assert_eq!(e.to_string(), "1 trailing byte after the value at offset 3");
    let (v, rest) = take_from_slice::<u16>(&[0xcd, 0, 1, 0xc0]).unwrap();
    assert_eq!((v, rest), (1, &[0xc0][..]));
}

#[test]
fn from_reader_and_to_writer() {
    let mut buf = Vec::new();
    b2schema::to_writer(&mut buf, &(1u16, "a")).unwrap();
    let v: (u16, String) = b2schema::from_reader(&buf[..]).unwrap();
    assert_eq!(v, (1, "a".to_string()));
}

#[test]
fn to_slice_reports_the_length_and_a_full_buffer() {
    let mut buf = [0u8; 16];
    let n = b2schema::to_slice(&Uint64(2633i64), &mut buf).unwrap();
    assert_eq!(&buf[..n], [0xcf, 0, 0, 0, 0, 0, 0, 0x0a, 0x49]);
    let mut small = [0u8; 4];
    let e = b2schema::to_slice(&Uint64(2633i64), &mut small).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::BufferFull { needed: 9, available: 4 }), "{e}");
    assert_eq!(b2schema::encoded_len(&Uint64(1i64)).unwrap(), 9);
}

#[test]
fn any_msgpack_decodes_into_json_values() {
    // python-blosc2 vlmeta value: {"a": [1, -1, 1.5, "x", None, True]}
    let bytes = b"\x81\xa1a\x96\x01\xff\xcb\x3f\xf8\x00\x00\x00\x00\x00\x00\xa1x\xc0\xc3";
    let v: serde_json::Value = from_slice_with(bytes, Config::minimal()).unwrap();
    assert_eq!(v, serde_json::json!({"a": [1, -1, 1.5, "x", null, true]}));
    // bin values reach the visitor as borrowed bytes (serde_json's Value has no bytes).
    let v: serde_bytes::ByteBuf = from_slice_with(b"\xc4\x01\x01", Config::minimal()).unwrap();
    assert_eq!(v.as_ref(), [1]);
    // Fixed-width bytes decode the same way through deserialize_any.
    let v: serde_json::Value = from_slice(&to_vec(&(400i64, "|u1")).unwrap()).unwrap();
    assert_eq!(v, serde_json::json!([400, "|u1"]));
    // ext values reach deserialize_any as the sequence (type, bytes).
    let (ty, data): (i8, serde_bytes::ByteBuf) = from_slice_with(&[0xd4, 42, 7], Config::minimal()).unwrap();
    assert_eq!((ty, data.as_ref()), (42, &[7u8][..]));
}

#[test]
fn minimal_strict_requires_the_canonical_form() {
    let strict = Config::minimal().strict(true);
    assert_eq!(from_slice_with::<u32>(&[0x05], strict).unwrap(), 5);
    let e = from_slice_with::<u32>(&[0xcd, 0, 5], strict).unwrap_err();
    assert_eq!(e.to_string(), "expected positive fixint marker 00..=7f at offset 0, found cd (uint16)");
    assert_eq!(from_slice_with::<u32>(&[0xcd, 0, 5], Config::minimal()).unwrap(), 5);
    let e = from_slice_with::<String>(&[0xd9, 1, b'a'], strict).unwrap_err();
    assert_eq!(e.to_string(), "expected fixstr(1) marker a1 at offset 0, found d9 (str8)");
}

#[test]
fn raw_flag_bytes_decode_into_typed_structs() {
    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    struct Flags {
        general: u8,
        frame_type: u8,
        codec: u8,
        other: u8,
    }
    let bytes = [0xa4, 0x12, 0x00, 0x50, 0x03];
    let flags: FixStr<Flags> = from_slice(&bytes).unwrap();
    assert_eq!(flags.0, Flags { general: 0x12, frame_type: 0, codec: 0x50, other: 3 });
    assert_eq!(to_vec(&flags).unwrap(), bytes);
    // A fixstr of 3 bytes cannot hold 4 flags.
    let e = from_slice::<FixStr<Flags>>(&[0xa3, 1, 2, 3]).unwrap_err();
    assert_eq!(e.path_string(), "other");
    assert!(e.is_eof(), "{e}");
    // A fixstr of 5 bytes would leave one unread: its marker is named, at offset 0.
    let e = from_slice::<FixStr<Flags>>(&[0xa5, 1, 2, 3, 4, 5]).unwrap_err();
    assert!(e.to_string().starts_with("expected fixstr(4) marker a4 at offset 0"), "{e}");
    assert!(e.to_string().ends_with("found a5 (fixstr)"), "{e}");
    // Writing 4 flags under a 4-byte prefix is checked too.
    assert!(to_vec(&FixStr((1u8, 2u8, [3u8, 4]))).is_err());
}

#[test]
fn fixext16_round_trips_as_seventeen_bytes() {
    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    struct Pipeline {
        nfilters: u8,
        filters: [u8; 6],
        udcodec: u8,
        codec_meta: u8,
        filters_meta: [u8; 6],
        other_flags2: u8,
        reserved: u8,
    }
    let p = Pipeline {
        nfilters: 6,
        filters: [0, 0, 0, 0, 0, 1],
        udcodec: 5,
        codec_meta: 0,
        filters_meta: [0; 6],
        other_flags2: 0,
        reserved: 0,
    };
    let bytes = to_vec(&b2schema::wrap::FixExt16(&p)).unwrap();
    assert_eq!(bytes[..3], [0xd8, 6, 0]);
    assert_eq!(bytes.len(), 18);
    let back: b2schema::wrap::FixExt16<Pipeline> = from_slice(&bytes).unwrap();
    assert_eq!(back.0, p);
}

#[test]
fn enums_options_and_uint8() {
    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    enum Kind {
        Zeros,
        Value(i32),
        Pair(u16, u16),
        Shape { ndim: u8 },
    }
    for k in [Kind::Zeros, Kind::Value(-3), Kind::Pair(1, 2), Kind::Shape { ndim: 3 }] {
        for cfg in [Config::fixed(), Config::minimal()] {
            let bytes = b2schema::to_vec_with(&k, cfg).unwrap();
            assert_eq!(from_slice_with::<Kind>(&bytes, cfg).unwrap(), k);
        }
    }
    let bytes = to_vec(&Some(Uint8(200u8))).unwrap();
    assert_eq!(bytes, [0xcc, 200]);
    assert_eq!(from_slice::<Option<Uint8<u8>>>(&bytes).unwrap(), Some(Uint8(200)));
    assert_eq!(from_slice::<Option<Uint8<u8>>>(&[0xc0]).unwrap(), None);
}

#[test]
fn depth_is_bounded() {
    let bytes = vec![0x91; 100_000];
    let e = from_slice_with::<serde_json::Value>(&bytes, Config::minimal()).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::DepthLimitExceeded { max: 128 }), "{e}");
}

#[test]
fn struct_as_map_reads_keys_and_names_them_in_errors() {
    #[derive(Deserialize, Debug, PartialEq)]
    struct Layer {
        version: u8,
        serializer: String,
    }
    let cfg = Config::minimal().struct_map();
    let bytes = b"\x82\xa7version\x01\xaaserializer\xa7msgpack";
    let v: Layer = from_slice_with(bytes, cfg).unwrap();
    assert_eq!(v, Layer { version: 1, serializer: "msgpack".into() });
    let bad = b"\x82\xa7version\xa1x\xaaserializer\xa7msgpack";
    let e = from_slice_with::<Layer>(bad, cfg).unwrap_err();
    assert_eq!(e.path_string(), "[\"version\"]");
    assert_eq!(e.offset(), Some(9));
}
