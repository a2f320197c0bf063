//! Regressions of issue 16: structs the derive accepted and then encoded, described or patched
//! wrongly. Each test fails on the code before the fix.

use b2schema::{B2Layout, decode_from_slice, encode_to_vec, from_slice, to_vec};

#[derive(B2Layout, Debug, Clone, PartialEq)]
struct R {
    zero: Option<i32>,
    a: i32,
    b: i32,
    c: i32,
}

/// An `Option` has no fixed width: `None` is `c0`, `Some` an int32. Every field from it on has no
/// fixed place, so no handle reads or patches at a guessed offset.
#[test]
fn option_ends_the_fixed_part() {
    let v = R { zero: None, a: 1, b: 0xd2, c: 3 };
    let mut bytes = to_vec(&v).unwrap();
    assert_eq!(bytes, [0x94, 0xc0, 0xd2, 0, 0, 0, 1, 0xd2, 0, 0, 0, 0xd2, 0xd2, 0, 0, 0, 3]);
    assert_eq!(encode_to_vec(&v).unwrap(), bytes);
    assert_eq!(R::LAYOUT.fixed_len, None);
    assert_eq!(R::LAYOUT.variable_from(), Some(1));
    let places: Vec<_> =
        R::LAYOUT.fields.iter().map(|f| (f.name, f.marker_offset, f.value_offset, f.width)).collect();
    // The marker of `zero` is at byte 1 whatever its value; nothing after it has a fixed place
    // (each int32 still takes 5 bytes).
    assert_eq!(
        places,
        [
            ("zero", Some(1), None, None),
            ("a", None, None, Some(5)),
            ("b", None, None, Some(5)),
            ("c", None, None, Some(5))
        ]
    );
    assert!(R::B.read(&bytes).is_err());
    let before = bytes.clone();
    let e = R::B.patch(&mut bytes, &99).unwrap_err();
    assert!(e.to_string().contains("depends on the values before it"), "{e}");
    assert_eq!(bytes, before);
    assert_eq!(from_slice::<R>(&bytes).unwrap(), v);
    let some = R { zero: Some(-1), ..v };
    let bytes = to_vec(&some).unwrap();
    assert_eq!(decode_from_slice::<R>(&bytes).unwrap(), some);
}

#[derive(B2Layout, Debug, PartialEq)]
struct M {
    #[b2(magic = 1)]
    version: u8,
}

#[derive(B2Layout, Debug, PartialEq)]
struct Magics<'a> {
    #[b2(magic = 1)]
    a: i64,
    #[b2(magic = 2)]
    b: u16,
    #[b2(magic = 1.5)]
    c: f32,
    #[b2(magic = "m/s")]
    d: &'a str,
    #[b2(magic = b"ab")]
    e: [u8; 2],
    #[b2(bin32, magic = b"cd")]
    f: &'a [u8],
}

/// A constant is written under the field's encoding (the type's default here), not the
/// literal's type: `magic = 1` on a `u8` is the fixint `01`, not `d2 00000001`.
#[test]
fn magic_takes_the_field_encoding() {
    let bytes = to_vec(&M { version: 1 }).unwrap();
    assert_eq!(bytes, [0x91, 0x01]);
    assert_eq!(encode_to_vec(&M { version: 7 }).unwrap(), bytes);
    assert_eq!(from_slice::<M>(&bytes).unwrap(), M { version: 1 });
    assert_eq!(decode_from_slice::<M>(&bytes).unwrap(), M { version: 1 });
    assert_eq!(M::LAYOUT.fixed_len, Some(bytes.len()));

    let v = Magics { a: 0, b: 0, c: 0.0, d: "", e: [0; 2], f: &[] };
    let want = Magics { a: 1, b: 2, c: 1.5, d: "m/s", e: *b"ab", f: b"cd" };
    let bytes = to_vec(&v).unwrap();
    #[rustfmt::skip]
    assert_eq!(bytes, [
        0x96,
        0xd3, 0, 0, 0, 0, 0, 0, 0, 1,
        0xcd, 0, 2,
        0xca, 0x3f, 0xc0, 0, 0,
        0xdb, 0, 0, 0, 3, b'm', b'/', b's',
        0x92, b'a', b'b',
        0xc6, 0, 0, 0, 2, b'c', b'd',
    ]);
    assert_eq!(encode_to_vec(&v).unwrap(), bytes);
    assert_eq!(from_slice::<Magics>(&bytes).unwrap(), want);
    assert_eq!(decode_from_slice::<Magics>(&bytes).unwrap(), want);
}

#[derive(B2Layout, Debug, PartialEq)]
struct Counted {
    #[b2(fixint, magic = 1)]
    version: u8,
    #[b2(fixint, computed = self.items.len())]
    count: u8,
    #[b2(counted)]
    items: Vec<i32>,
}

/// Handles on a constant or a computed field refuse to patch, saying why, and change nothing.
#[test]
fn handles_refuse_to_patch_magic_and_computed_fields() {
    let v = Counted { version: 1, count: 2, items: vec![4, 5] };
    let mut bytes = to_vec(&v).unwrap();
    let before = bytes.clone();
    let e = Counted::VERSION.patch(&mut bytes, &2).unwrap_err();
    assert_eq!(
        e.to_string(),
        "unsupported: patching a constant (`magic`) field: the layout fixes its value and the decoder checks it (version)"
    );
    let e = Counted::COUNT.patch(&mut bytes, &3).unwrap_err();
    assert!(e.to_string().contains("patching a `computed` field"), "{e}");
    assert!(e.to_string().contains("count"), "{e}");
    assert_eq!(bytes, before);
    let mut file = std::io::Cursor::new(bytes.clone());
    assert!(Counted::VERSION.patch_file(&mut file, 0, &2).is_err());
    assert!(Counted::COUNT.patch_file(&mut file, 0, &3).is_err());
    assert_eq!(file.into_inner(), before);
    // Reading them is fine.
    assert_eq!(Counted::VERSION.read(&bytes).unwrap(), 1);
    assert_eq!(Counted::COUNT.read(&bytes).unwrap(), 2);
}

// Issue 38: the derive as a new user meets it.

#[derive(B2Layout, Debug, PartialEq)]
struct BorrowedBytes<'a> {
    a: &'a [u8],
    n: i32,
    maybe: Option<&'a [u8]>,
}

/// Cause 1: `&[u8]` with no attribute is bin32 (the crate's table), written and read as bytes by
/// both paths, whatever the byte values (a fixarray of fixints failed on a byte over 127, and no
/// decoder read it back).
#[test]
fn issue38_borrowed_bytes_default_to_bin32() {
    let v = BorrowedBytes { a: &[1, 2, 0xff], n: 7, maybe: Some(&[0x80]) };
    let bytes = to_vec(&v).unwrap();
    #[rustfmt::skip]
    assert_eq!(bytes, [
        0x93,
        0xc6, 0, 0, 0, 3, 1, 2, 0xff,
        0xd2, 0, 0, 0, 7,
        0xc6, 0, 0, 0, 1, 0x80,
    ]);
    assert_eq!(encode_to_vec(&v).unwrap(), bytes);
    assert_eq!(from_slice::<BorrowedBytes>(&bytes).unwrap(), v);
    assert_eq!(decode_from_slice::<BorrowedBytes>(&bytes).unwrap(), v);
    assert_eq!(BorrowedBytes::LAYOUT.fields[0].encoding, b2schema::Encoding::Bin32);
    let none = BorrowedBytes { maybe: None, ..v };
    let bytes = to_vec(&none).unwrap();
    assert_eq!(encode_to_vec(&none).unwrap(), bytes);
    assert_eq!(decode_from_slice::<BorrowedBytes>(&bytes).unwrap(), none);
    assert_eq!(from_slice::<BorrowedBytes>(&bytes).unwrap(), none);
}

#[derive(B2Layout, Debug, PartialEq)]
struct Magic38<'a> {
    #[b2(bin32, magic = b"B2HD")]
    magic: Vec<u8>,
    #[b2(magic = "v1")]
    tag: &'a str,
    #[b2(magic = b"ab")]
    pair: Vec<u8>,
    n: i32,
}

/// Cause 5: a constant has one width, whatever its type leaves open (`Vec<u8>`, `&str`): the
/// fixed part goes on after it and the handles after it have a place.
#[test]
fn issue38_a_constant_has_a_fixed_width() {
    let v = Magic38 { magic: b"B2HD".to_vec(), tag: "v1", pair: b"ab".to_vec(), n: 5 };
    let bytes = to_vec(&v).unwrap();
    assert_eq!(bytes.len(), 1 + 9 + 7 + 3 + 5);
    assert_eq!(Magic38::LAYOUT.fixed_len, Some(bytes.len()));
    assert_eq!((Magic38::N.layout().marker_offset, Magic38::N.layout().width), (Some(20), Some(5)));
    assert_eq!(Magic38::N.read(&bytes).unwrap(), 5);
    assert_eq!(encode_to_vec(&v).unwrap(), bytes);
    assert_eq!(from_slice::<Magic38>(&bytes).unwrap(), v);
    assert_eq!(decode_from_slice::<Magic38>(&bytes).unwrap(), v);
    let mut patched = bytes.clone();
    Magic38::N.patch(&mut patched, &-1).unwrap();
    assert_eq!(decode_from_slice::<Magic38>(&patched).unwrap().n, -1);
}

#[derive(B2Layout, Debug, PartialEq)]
#[b2(minimal)]
struct MinimalUnits<'a> {
    #[b2(fixint)]
    version: u8,
    #[b2(float64)]
    scale: f64,
    #[b2(fixstr(len = 3))]
    name: &'a str,
}

/// Cause 3: the struct of `FrameFile::patch_metalayer_field`'s example (which now runs) has a
/// fixed place for `SCALE` under `minimal` because `version` has an encoding attribute.
#[test]
fn issue38_the_doc_example_struct_has_fixed_places() {
    assert_eq!(MinimalUnits::LAYOUT.fields[1].value_offset, Some(3));
    assert_eq!(MinimalUnits::LAYOUT.fixed_len, Some(15));
    let bytes = to_vec(&MinimalUnits { version: 1, scale: 2.5, name: "m/s" }).unwrap();
    assert_eq!(MinimalUnits::SCALE.read(&bytes).unwrap(), 2.5);
}

#[derive(B2Layout, Debug, PartialEq)]
#[b2(map)]
struct Acquisition {
    version: i32,
    frames: i32,
}

/// Cause 4: a corrupted key of a map struct is named, at its offset (it read as `missing field
/// frames at offset 0`).
#[test]
fn issue38_an_unknown_map_key_is_named_at_its_offset() {
    let mut bytes = to_vec(&Acquisition { version: 1, frames: 2 }).unwrap();
    let key_at = Acquisition::LAYOUT.fields[1].marker_offset.unwrap() - (5 + "frames".len());
    assert_eq!(&bytes[key_at + 5..key_at + 11], b"frames");
    bytes[key_at + 6] = b'x';
    let e = from_slice::<Acquisition>(&bytes).unwrap_err();
    assert_eq!(e.offset(), Some(key_at), "{e}");
    assert!(e.to_string().contains("fxames"), "{e}");
    assert_eq!(decode_from_slice::<Acquisition>(&bytes).unwrap_err().to_string(), e.to_string());
}

#[derive(B2Layout, Debug, PartialEq)]
#[b2(map)]
struct Station {
    id: i32,
    acquisition: Acquisition,
}

/// Issue 51: a map struct inside another (a user's metalayer of nested records): a corrupted key
/// of the inner one is named at the key's own offset, not where the inner struct starts.
#[test]
fn issue51_an_unknown_key_of_a_nested_map_struct_is_named_at_its_offset() {
    let bytes = to_vec(&Station { id: 7, acquisition: Acquisition { version: 1, frames: 2 } }).unwrap();
    let key_at = bytes.windows(6).position(|w| w == b"frames").unwrap() - 5;
    let mut bad = bytes.clone();
    bad[key_at + 6] = b'x';
    let e = from_slice::<Station>(&bad).unwrap_err();
    assert_eq!(e.offset(), Some(key_at), "{e}");
    assert!(e.to_string().contains("fxames"), "{e}");
    assert_eq!(decode_from_slice::<Station>(&bad).unwrap_err().offset(), Some(key_at));
}

#[derive(B2Layout, Debug, PartialEq)]
struct Calib {
    a: i32,
    b: i64,
    #[b2(int16)]
    c: i32,
}

/// Cause 4: a patch whose value does not fit names the field's offset (it said offset 0), in a
/// buffer and in a file (absolute).
#[test]
fn issue38_a_patch_that_does_not_fit_names_the_field() {
    let mut bytes = to_vec(&Calib { a: 1, b: 2, c: 3 }).unwrap();
    let at = Calib::C.layout().marker_offset.unwrap();
    let e = Calib::C.patch(&mut bytes, &70000).unwrap_err();
    assert_eq!(e.offset(), Some(at), "{e}");
    let mut file = std::io::Cursor::new([vec![0u8; 100], bytes.clone()].concat());
    let e = Calib::C.patch_file(&mut file, 100, &70000).unwrap_err();
    assert_eq!(e.offset(), Some(100 + at), "{e}");
}

#[derive(B2Layout, Debug, PartialEq)]
struct AfterOption {
    a: Option<i32>,
    b: i32,
}

/// Cause 6: a refused read says reading, not patching.
#[test]
fn issue38_a_refused_read_says_reading() {
    let bytes = to_vec(&AfterOption { a: None, b: 1 }).unwrap();
    let e = AfterOption::B.read(&bytes).unwrap_err();
    assert!(e.to_string().contains("reading a field whose offset"), "{e}");
}

#[derive(B2Layout, Debug, PartialEq)]
#[b2(minimal)]
struct MiniMeta<'a> {
    n: i64,
    s: &'a str,
}

#[derive(B2Layout, Debug, PartialEq)]
#[b2(packed)]
struct Triggers {
    level: i8,
    armed: bool,
}

#[derive(B2Layout, Debug, PartialEq)]
struct WithTriggers {
    #[b2(fixstr)]
    t: Triggers,
}

/// Cause 6: the diagram of a `minimal` struct draws no marker that is never written, and the
/// annotated dump shows a packed `i8` as its signed value.
#[test]
fn issue38_text_says_what_the_bytes_are() {
    let d = b2schema::layout::diagram(MiniMeta::LAYOUT);
    for never in ["int64", "str32", " d3 ", " db "] {
        assert!(!d.contains(never), "{never} in\n{d}");
    }
    assert!(d.contains("smallest int"), "{d}");
    let v = WithTriggers { t: Triggers { level: -1, armed: true } };
    let text = b2schema::layout::annotate(WithTriggers::LAYOUT, &to_vec(&v).unwrap());
    assert!(text.contains("t.level: -1 (0xff)"), "{text}");
    assert!(text.contains("t.armed: true (0x01)"), "{text}");
}

#[derive(B2Layout, Debug, PartialEq)]
struct Kinds<'a> {
    a: i32,
    #[b2(magic = 7)]
    m: u8,
    #[b2(fixstr(len = 3))]
    code: &'a str,
    n: i64,
}

/// Issue 38, part 3: each kind of decoding error names the offset where the problem is, the
/// field's place in `LAYOUT`, from both decoders.
#[test]
fn issue38_each_error_kind_names_the_fields_place() {
    let bytes = to_vec(&Kinds { a: 1, m: 7, code: "abc", n: 2 }).unwrap();
    let place = |i: usize| Kinds::LAYOUT.fields[i].marker_offset.unwrap();
    type Plant = Box<dyn Fn(&mut Vec<u8>)>;
    let cases: [(&str, usize, Plant); 4] = [
        ("wrong marker", place(0), Box::new(move |b| b[place(0)] = 0xd3)),
        ("constant changed", place(1), Box::new(move |b| b[place(1)] = 8)),
        ("declared length changed", place(2), Box::new(move |b| b[place(2)] = 0xa4)),
        ("input ends inside the field", place(3), Box::new(move |b| b.truncate(place(3) + 3))),
    ];
    for (what, at, plant) in cases {
        let mut b = bytes.clone();
        plant(&mut b);
        let serde = from_slice::<Kinds>(&b).unwrap_err();
        let direct = decode_from_slice::<Kinds>(&b).unwrap_err();
        assert_eq!(serde.to_string(), direct.to_string(), "{what}");
        let found = serde.offset().unwrap();
        assert!(
            found == at || (what.starts_with("input") && (at..b.len() + 1).contains(&found)),
            "{what}: {serde}"
        );
    }
}

#[derive(B2Layout, Debug, PartialEq)]
#[b2(packed)]
struct Trig4 {
    a: u8,
    b: u8,
    c: u8,
    d: u8,
}

#[derive(B2Layout, Debug, PartialEq)]
struct WithTrig4 {
    #[b2(fixstr)]
    t: Trig4,
    n: u8,
}

/// Cause 4: a packed struct under plain `fixstr` whose marker states another length names the
/// marker (it said "bytes read from the fixstr value ... at offset 6, found 1 left unread").
#[test]
fn issue38_a_packed_structs_changed_marker_is_named() {
    let mut bytes = to_vec(&WithTrig4 { t: Trig4 { a: 1, b: 2, c: 3, d: 4 }, n: 5 }).unwrap();
    let at = WithTrig4::LAYOUT.fields[0].marker_offset.unwrap();
    assert_eq!(bytes[at], 0xa4);
    bytes[at] = 0xa5;
    let e = from_slice::<WithTrig4>(&bytes).unwrap_err();
    assert_eq!(e.to_string(), "expected fixstr(4) marker a4 at offset 1 (t), found a5 (fixstr)");
    assert_eq!(decode_from_slice::<WithTrig4>(&bytes).unwrap_err().to_string(), e.to_string());
}
