//! The encoding contract: every row of the fixed-width table, every wrapper, and the minimal mode,
//! as exact bytes and as annotated snapshots.

use std::collections::BTreeMap;

use b2schema::wrap::*;
use b2schema::{Config, to_vec, to_vec_with};
use b2schema_tests::{case, snapshot};
use serde::Serialize;
use serde_bytes::{ByteBuf, Bytes};

fn fixed<T: Serialize + ?Sized>(v: &T) -> Vec<u8> {
    to_vec(v).unwrap()
}

fn minimal<T: Serialize + ?Sized>(v: &T) -> Vec<u8> {
    to_vec_with(v, Config::minimal()).unwrap()
}

#[derive(Serialize)]
struct Point {
    x: i32,
    y: i32,
}

#[derive(Serialize)]
struct Unit;

#[test]
fn fixed_table_rows_are_exact() {
    assert_eq!(fixed(&false), [0xc2]);
    assert_eq!(fixed(&true), [0xc3]);
    assert_eq!(fixed(&0u8), [0x00]);
    assert_eq!(fixed(&127u8), [0x7f]);
    assert_eq!(fixed(&1u16), [0xcd, 0, 1]);
    assert_eq!(fixed(&1u32), [0xce, 0, 0, 0, 1]);
    assert_eq!(fixed(&1u64), [0xcf, 0, 0, 0, 0, 0, 0, 0, 1]);
    assert_eq!(fixed(&-1i8), [0xd0, 0xff]);
    assert_eq!(fixed(&1i16), [0xd1, 0, 1]);
    assert_eq!(fixed(&4i32), [0xd2, 0, 0, 0, 4]);
    assert_eq!(fixed(&400i64), [0xd3, 0, 0, 0, 0, 0, 0, 1, 0x90]);
    assert_eq!(fixed(&1.5f32), [0xca, 0x3f, 0xc0, 0, 0]);
    assert_eq!(fixed(&1.5f64), [0xcb, 0x3f, 0xf8, 0, 0, 0, 0, 0, 0]);
    assert_eq!(fixed("|u1"), [0xdb, 0, 0, 0, 3, b'|', b'u', b'1']);
    assert_eq!(fixed(Bytes::new(&[1, 2])), [0xc6, 0, 0, 0, 2, 1, 2]);
    assert_eq!(fixed(&[7i32, 8]), [0x92, 0xd2, 0, 0, 0, 7, 0xd2, 0, 0, 0, 8]);
    assert_eq!(fixed(&Point { x: 1, y: 2 }), [0x92, 0xd2, 0, 0, 0, 1, 0xd2, 0, 0, 0, 2]);
    assert_eq!(fixed(&BTreeMap::from([(1u16, true)])), [0xde, 0, 1, 0xcd, 0, 1, 0xc3]);
    assert_eq!(fixed(&()), [0xc0]);
    assert_eq!(fixed(&None::<i32>), [0xc0]);
    assert_eq!(fixed(&Some(1i32)), [0xd2, 0, 0, 0, 1]);
    assert_eq!(fixed(&Unit), [0xc0]);
}

#[test]
fn width_comes_from_the_type_never_the_value() {
    for v in [0i32, 1, -1, 127, 128, i32::MAX, i32::MIN] {
        let b = fixed(&v);
        assert_eq!(b.len(), 5);
        assert_eq!(b[0], 0xd2);
    }
    assert_eq!(fixed("").len(), 5);
    assert_eq!(fixed(&Vec::<u16>::new()), [0x90]);
    assert_eq!(fixed(&BTreeMap::<u16, u16>::new()), [0xde, 0, 0]);
}

#[test]
fn fixed_limits_are_errors_that_say_what_to_do() {
    let e = to_vec(&200u8).unwrap_err();
    assert_eq!(
        e.to_string(),
        "value 200 does not fit positive fixint (a positive fixint holds 0..=127; for 128..=255 use the \
         uint8 encoding: the Uint8 wrapper or #[b2(uint8)]) at offset 0"
    );
    assert_eq!(fixed(&Uint8(200u8)), [0xcc, 200]);

    let e = to_vec(&[0u16; 16]).unwrap_err();
    assert_eq!(e.to_string(), "fixarray holds at most 15 elements or bytes, got 16 at offset 0");
    assert_eq!(fixed(&Array16([0u8; 16]))[..3], [0xdc, 0, 16]);

    #[derive(Serialize)]
    struct Meta {
        version: u8,
        shape: Vec<i64>,
    }
    let e = to_vec(&Meta { version: 0, shape: vec![0; 20] }).unwrap_err();
    assert_eq!(e.to_string(), "fixarray holds at most 15 elements or bytes, got 20 at offset 2 (shape)");
    assert_eq!(e.offset(), Some(2));
    assert_eq!(e.path_string(), "shape");
}

#[test]
fn wrappers_force_their_encoding() {
    assert_eq!(fixed(&FixInt(5u32)), [0x05]);
    assert_eq!(fixed(&Uint8(5i64)), [0xcc, 5]);
    assert_eq!(fixed(&Uint16(5u8)), [0xcd, 0, 5]);
    assert_eq!(fixed(&Uint32(5u8)), [0xce, 0, 0, 0, 5]);
    assert_eq!(fixed(&Uint64(2633i64)), [0xcf, 0, 0, 0, 0, 0, 0, 0x0a, 0x49]);
    assert_eq!(fixed(&Int8(-2i64)), [0xd0, 0xfe]);
    assert_eq!(fixed(&Int16(1u8)), [0xd1, 0, 1]);
    assert_eq!(fixed(&Int32(1u8)), [0xd2, 0, 0, 0, 1]);
    assert_eq!(fixed(&Int64(1u8)), [0xd3, 0, 0, 0, 0, 0, 0, 0, 1]);
    assert_eq!(fixed(&Float64(1.5f32)), [0xcb, 0x3f, 0xf8, 0, 0, 0, 0, 0, 0]);
    assert_eq!(fixed(&FixStr("b2frame\0")), b"\xa8b2frame\0");
    assert_eq!(fixed(&FixStr([0x12u8, 0x00, 0x50, 0x03])), [0xa4, 0x12, 0x00, 0x50, 0x03]);
    assert_eq!(fixed(&Str32("a")), [0xdb, 0, 0, 0, 1, b'a']);
    assert_eq!(fixed(&Bin32(vec![9u8])), [0xc6, 0, 0, 0, 1, 9]);
    assert_eq!(fixed(&Bin32("x")), [0xc6, 0, 0, 0, 1, b'x']);
    assert_eq!(fixed(&FixArray(vec![1u8])), [0x91, 1]);
    assert_eq!(fixed(&Array16(vec![1u8])), [0xdc, 0, 1, 1]);
    assert_eq!(fixed(&Counted(vec![1u8; 16]))[0], 0xa0);
    assert_eq!(fixed(&Counted(Vec::<i64>::new())), [0x90]);
    assert_eq!(fixed(&Map16(BTreeMap::from([(1u8, 2u8)]))), [0xde, 0, 1, 1, 2]);
    let mut ext = [0u8; 17];
    ext[0] = 6;
    ext[16] = 1;
    let mut expected = vec![0xd8];
    expected.extend_from_slice(&ext);
    assert_eq!(fixed(&FixExt16(ext)), expected);
    assert_eq!(fixed(&Raw([1u8, 2, 3])), [1, 2, 3]);
    assert_eq!(fixed(&Raw(7u8)), [7]);
}

#[test]
fn wrappers_are_plain_values_in_other_formats() {
    let json = |v: &dyn erased::Json| v.json();
    assert_eq!(json(&Uint64(2633i64)), "2633");
    assert_eq!(json(&FixStr("b2frame")), "\"b2frame\"");
    assert_eq!(json(&FixStr([1u8, 2])), "[1,2]");
    assert_eq!(json(&Counted(vec![1i64, 2])), "[1,2]");
    assert_eq!(json(&Bin32(vec![1u8])), "[1]");
    assert_eq!(json(&Map16(BTreeMap::from([("a", 1)]))), "{\"a\":1}");
    assert_eq!(json(&Raw([0u8; 2])), "[0,0]");
    assert_eq!(json(&FixInt(3u8)), "3");

    let back: Counted<Vec<i64>> = serde_json::from_str("[1,2]").unwrap();
    assert_eq!(back, Counted(vec![1, 2]));
    let back: Uint64<i64> = serde_json::from_str("2633").unwrap();
    assert_eq!(back.0, 2633);
}

/// A tiny object-safe shim so heterogeneous wrappers fit one helper.
mod erased {
    pub trait Json {
        fn json(&self) -> String;
    }
    impl<T: serde::Serialize> Json for T {
        fn json(&self) -> String {
            serde_json::to_string(self).unwrap()
        }
    }
}

#[test]
fn minimal_mode_writes_the_smallest_form() {
    assert_eq!(minimal(&1i64), [0x01]);
    assert_eq!(minimal(&-1i64), [0xff]);
    assert_eq!(minimal(&-33i64), [0xd0, 0xdf]);
    assert_eq!(minimal(&200u64), [0xcc, 200]);
    assert_eq!(minimal(&300i32), [0xcd, 1, 0x2c]);
    assert_eq!(minimal(&70000u32), [0xce, 0, 1, 0x11, 0x70]);
    assert_eq!(minimal(&(1u64 << 40)), [0xcf, 0, 0, 1, 0, 0, 0, 0, 0]);
    assert_eq!(minimal("ab"), [0xa2, b'a', b'b']);
    assert_eq!(minimal(&"x".repeat(32))[..2], [0xd9, 32]);
    assert_eq!(minimal(Bytes::new(&[1])), [0xc4, 1, 1]);
    assert_eq!(minimal(&vec![0u8; 16])[..3], [0xdc, 0, 16]);
    assert_eq!(minimal(&BTreeMap::from([(1u8, 1u8)])), [0x81, 1, 1]);
    // Overrides still win in minimal mode.
    assert_eq!(minimal(&Int32(1i64)), [0xd2, 0, 0, 0, 1]);
}

#[test]
fn python_blosc2_style_map_layer() {
    #[derive(Serialize)]
    struct VlArray<'a> {
        version: u8,
        serializer: &'a str,
    }
    let bytes =
        to_vec_with(&VlArray { version: 1, serializer: "msgpack" }, Config::minimal().struct_map()).unwrap();
    // msgpack.packb({"version": 1, "serializer": "msgpack"})
    assert_eq!(bytes, b"\x82\xa7version\x01\xaaserializer\xa7msgpack");
}

#[test]
fn snapshot_of_the_fixed_table() {
    let mut s = String::new();
    s += &case("bool false / true", &[fixed(&false), fixed(&true)].concat());
    s += &case("u8 5 (positive fixint)", &fixed(&5u8));
    s += &case("u16 258", &fixed(&258u16));
    s += &case("u32 1", &fixed(&1u32));
    s += &case("u64 2633", &fixed(&2633u64));
    s += &case("i8 -2", &fixed(&-2i8));
    s += &case("i16 1", &fixed(&1i16));
    s += &case("i32 -1", &fixed(&-1i32));
    s += &case("i64 400", &fixed(&400i64));
    s += &case("f32 1.5", &fixed(&1.5f32));
    s += &case("f64 123.456", &fixed(&123.456f64));
    s += &case("str \"|u1\"", &fixed("|u1"));
    s += &case("bytes [1, 2, 3] (serde_bytes)", &fixed(&ByteBuf::from(vec![1, 2, 3])));
    s += &case("seq [i64; 2]", &fixed(&[110i64, 3]));
    s += &case("tuple (u8, i32)", &fixed(&(1u8, 2i32)));
    s += &case("struct Point { x: 1, y: 2 }", &fixed(&Point { x: 1, y: 2 }));
    s += &case("map {\"a\": 1i32}", &fixed(&BTreeMap::from([("a", 1i32)])));
    s += &case("unit ()", &fixed(&()));
    s += &case("None::<i32>", &fixed(&None::<i32>));
    snapshot!("fixed_table", s);
}

#[test]
fn snapshot_of_the_wrappers() {
    let mut s = String::new();
    s += &case("FixInt(5u32)", &fixed(&FixInt(5u32)));
    s += &case("Uint8(200u8)", &fixed(&Uint8(200u8)));
    s += &case("Uint16(5u8)", &fixed(&Uint16(5u8)));
    s += &case("Uint32(5u8)", &fixed(&Uint32(5u8)));
    s += &case("Uint64(2633i64): frame_len", &fixed(&Uint64(2633i64)));
    s += &case("Int8(-2i64)", &fixed(&Int8(-2i64)));
    s += &case("Int16(1u8): nthreads", &fixed(&Int16(1u8)));
    s += &case("Int32(165u32): header_len", &fixed(&Int32(165u32)));
    s += &case("Int64(400u32)", &fixed(&Int64(400u32)));
    s += &case("Float32(0.5f64)", &fixed(&Float32(0.5f64)));
    s += &case("Float64(0.5f32)", &fixed(&Float64(0.5f32)));
    s += &case("FixStr(\"b2frame\\0\"): magic", &fixed(&FixStr("b2frame\0")));
    s += &case("FixStr([0x12, 0x00, 0x50, 0x03]): raw flag bytes", &fixed(&FixStr([0x12u8, 0, 0x50, 3])));
    s += &case("Str32(\"<U6\")", &fixed(&Str32("<U6")));
    s += &case("Bin32(vec![0x97, 0x00])", &fixed(&Bin32(vec![0x97u8, 0])));
    s += &case("FixArray(vec![1u8, 2])", &fixed(&FixArray(vec![1u8, 2])));
    s += &case("Array16(vec![1u8])", &fixed(&Array16(vec![1u8])));
    s += &case("Counted(vec![1i64; 16]): 16 dims write a0", &fixed(&Counted(vec![1i64; 16])));
    s += &case("Map16(BTreeMap::from([(1u16, 2i32)]))", &fixed(&Map16(BTreeMap::from([(1u16, 2i32)]))));
    let mut pipeline = [0u8; 17];
    pipeline[0] = 6;
    pipeline[6] = 1;
    s += &case("FixExt16([6, 0,0,0,0,0,1, 0, ...]): filter pipeline", &fixed(&FixExt16(pipeline)));
    s += &case("Raw([1u8, 2, 3]): no marker", &fixed(&Raw([1u8, 2, 3])));
    snapshot!("wrappers", s);
}

#[test]
fn snapshot_of_minimal_mode() {
    let mut s = String::new();
    s += &case("1i64", &minimal(&1i64));
    s += &case("-1i64", &minimal(&-1i64));
    s += &case("-100i64", &minimal(&-100i64));
    s += &case("200u32", &minimal(&200u32));
    s += &case("65535u64", &minimal(&65535u64));
    s += &case("1u64 << 33", &minimal(&(1u64 << 33)));
    s += &case("\"foo\"", &minimal("foo"));
    s += &case("[1, 2, 3]", &minimal(&[1u8, 2, 3]));
    s += &case("{\"a\": 1}", &minimal(&BTreeMap::from([("a", 1)])));
    s += &case("123.456f64", &minimal(&123.456f64));
    snapshot!("minimal", s);
}
