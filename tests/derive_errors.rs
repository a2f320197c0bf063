//! Errors that say where and what (issue 16, part 3): a changed marker or count is named as such,
//! with the field's path and the byte offset, by both decoders, by handles and by
//! `layout::annotate` (which stops there instead of showing the field under another type); and
//! `layout::report`, the text a user snapshots to test a layout of their own.

use std::io::Cursor;

use b2schema::B2Layout;
use b2schema::layout::{annotate, report};
use b2schema::{decode_from_slice, from_slice, to_vec};
use b2schema_tests::snapshot;

#[derive(B2Layout, Debug, PartialEq)]
struct Code<'a> {
    a: i32,
    #[b2(fixstr(len = 4))]
    code: &'a str,
    after: u8,
}

#[derive(B2Layout, Debug, PartialEq)]
struct Tag {
    a: i32,
    #[b2(fixstr)]
    tag: [u8; 4],
}

#[derive(B2Layout, Debug, PartialEq)]
struct Shape {
    #[b2(counted)]
    shape: Vec<i64>,
    after: u8,
}

#[derive(B2Layout, Debug, PartialEq)]
struct FixedShape {
    #[b2(counted)]
    shape: [i64; 2],
    after: u8,
}

/// A counted array that ends the struct: a smaller count leaves bytes after the struct, which
/// both decoders report naming the field, where it starts and the count it read.
#[derive(B2Layout, Debug, PartialEq)]
struct LastShape {
    a: u8,
    #[b2(counted)]
    shape: Vec<i64>,
}

/// The same, written as a map: the field is named by its key.
#[derive(B2Layout, Debug, PartialEq)]
#[b2(map)]
struct LastShapeMap {
    a: u8,
    #[b2(counted)]
    shape: Vec<i64>,
}

/// A string that ends the struct: a smaller length leaves bytes after it.
#[derive(B2Layout, Debug, PartialEq)]
struct LastName<'a> {
    a: u8,
    #[b2(str32)]
    name: &'a str,
}

#[derive(B2Layout, Debug, PartialEq)]
struct Units<'a> {
    #[b2(magic = 1)]
    version: u8,
    scale: f64,
    #[b2(fixstr(len = 3))]
    name: &'a str,
}

/// One case: the bytes, what both decoders say, and the annotated dump.
fn case<'a, T>(title: &str, layout: &'static b2schema::layout::Layout, bytes: &'a [u8]) -> String
where
    T: serde::Deserialize<'a> + b2schema::Decode<'a> + std::fmt::Debug,
{
    let show =
        |r: b2schema::format::Result<T>| r.map(|v| format!("Ok({v:?})")).unwrap_or_else(|e| e.to_string());
    format!(
        "# {title}\nbytes:  {}\nserde:  {}\ndirect: {}\n{}\n",
        b2schema_tests::hex(bytes),
        show(from_slice::<T>(bytes)),
        show(decode_from_slice::<T>(bytes)),
        annotate(layout, bytes),
    )
}

/// `bytes` with byte `at` set to `to`.
fn with(mut bytes: Vec<u8>, at: usize, to: u8) -> Vec<u8> {
    bytes[at] = to;
    bytes
}

#[test]
fn changed_markers_and_counts_are_named() {
    let code = to_vec(&Code { a: 1, code: "abcd", after: 7 }).unwrap();
    assert_eq!(code[6], 0xa4);
    let tag = to_vec(&Tag { a: 1, tag: *b"abcd" }).unwrap();
    let shape = to_vec(&Shape { shape: vec![1, 2], after: 3 }).unwrap();
    assert_eq!(shape[1], 0x92);
    let mut text = String::new();
    for (title, bytes) in [
        (
            "fixstr(len = 4), marker a4 -> a5 (the bytes after it would read as text)",
            with(code.clone(), 6, 0xa5),
        ),
        ("fixstr(len = 4), marker a4 -> a3", with(code.clone(), 6, 0xa3)),
        ("fixstr(len = 4), marker a4 -> d2", with(code.clone(), 6, 0xd2)),
        ("fixstr(len = 4), marker a4 -> a5 at the end of the input", with(code[..11].to_vec(), 6, 0xa5)),
    ] {
        text += &case::<Code>(title, Code::LAYOUT, &bytes);
    }
    text += &case::<Tag>("[u8; 4] under fixstr, marker a4 -> a5", Tag::LAYOUT, &with(tag.clone(), 6, 0xa5));
    text += &case::<Tag>("[u8; 4] under fixstr, marker a4 -> a3", Tag::LAYOUT, &with(tag, 6, 0xa3));
    text += &case::<Shape>("counted array, count 92 -> 93", Shape::LAYOUT, &with(shape.clone(), 1, 0x93));
    text += &case::<Shape>("counted array, count 92 -> 91", Shape::LAYOUT, &with(shape, 1, 0x91));
    let fixed = to_vec(&FixedShape { shape: [1, 2], after: 3 }).unwrap();
    text += &case::<FixedShape>(
        "counted [i64; 2], count 92 -> 93",
        FixedShape::LAYOUT,
        &with(fixed.clone(), 1, 0x93),
    );
    text +=
        &case::<FixedShape>("counted [i64; 2], count 92 -> 91", FixedShape::LAYOUT, &with(fixed, 1, 0x91));
    let last = to_vec(&LastShape { a: 1, shape: vec![1, 2] }).unwrap();
    text += &case::<LastShape>(
        "counted Vec last, count 92 -> 91",
        LastShape::LAYOUT,
        &with(last.clone(), 2, 0x91),
    );
    text += &case::<LastShape>(
        "counted Vec last, count 92 -> 90",
        LastShape::LAYOUT,
        &with(last.clone(), 2, 0x90),
    );
    text += &case::<LastShape>(
        "counted Vec last, a byte appended (the count is right; the field is still named)",
        LastShape::LAYOUT,
        &[&last[..], &[0xc0]].concat(),
    );
    let map = to_vec(&LastShapeMap { a: 1, shape: vec![1, 2] }).unwrap();
    assert_eq!(map[20], 0x92);
    text += &case::<LastShapeMap>(
        "a map's counted Vec last, count 92 -> 91",
        LastShapeMap::LAYOUT,
        &with(map, 20, 0x91),
    );
    let name = to_vec(&LastName { a: 1, name: "abcde" }).unwrap();
    assert_eq!(name[2..7], [0xdb, 0, 0, 0, 5]);
    text += &case::<LastName>("str32 last, length 5 -> 3", LastName::LAYOUT, &with(name, 6, 3));
    text += &case::<Code>("an integer last, a byte appended", Code::LAYOUT, &[&code[..], &[0x07]].concat());
    // Not a struct at the top: its elements' fields are not named.
    let list = to_vec(&vec![LastShape { a: 1, shape: vec![1] }]).unwrap();
    let list = [&list[..], &[0x07]].concat();
    text += &format!(
        "# a Vec of structs, a byte appended\nserde:  {}\ndirect: {}\n",
        from_slice::<Vec<LastShape>>(&list).unwrap_err(),
        decode_from_slice::<Vec<LastShape>>(&list).unwrap_err()
    );
    snapshot!("derive_errors_markers", text);
}

#[test]
fn handle_errors_on_a_file_name_the_field_and_the_absolute_offset() {
    let v = Units { version: 1, scale: 2.5, name: "m/s" };
    let bytes = to_vec(&v).unwrap();
    // The struct at byte 100 of a file.
    let mut file = vec![0xeeu8; 100];
    file.extend_from_slice(&bytes);
    let mut text = String::new();
    let mut line = |title: &str, r: b2schema::format::Result<()>| {
        text += &format!("{title}: {}\n", r.map(|()| "Ok".into()).unwrap_or_else(|e| e.to_string()));
    };
    let mut f = Cursor::new(file.clone());
    line("patch scale at base 100", Units::SCALE.patch_file(&mut f, 100, &9.75));
    assert_eq!(Units::SCALE.read(&f.get_ref()[100..]).unwrap(), 9.75);
    line(
        "patch scale at base 99 (a wrong base)",
        Units::SCALE.patch_file(&mut Cursor::new(file.clone()), 99, &9.75),
    );
    line(
        "patch name at base 100, wrong length",
        Units::NAME.patch_file(&mut Cursor::new(file.clone()), 100, &"km"),
    );
    line("patch version (a constant)", Units::VERSION.patch_file(&mut Cursor::new(file.clone()), 100, &2));
    // I/O: the file ends before the field.
    line(
        "patch scale, file cut at 101",
        Units::SCALE.patch_file(&mut Cursor::new(file[..101].to_vec()), 100, &9.75),
    );
    line(
        "patch scale, buffer ends inside the field (the write fails)",
        Units::SCALE.patch_file(&mut Cursor::new(&mut file[..105]), 100, &9.75),
    );
    snapshot!("derive_errors_handles_on_files", text);
}

#[test]
fn report_is_one_readable_text() {
    let v = Units { version: 1, scale: 2.5, name: "m/s" };
    snapshot!("derive_report_units", report(&v));
    // A value that cannot be encoded is reported in the text.
    snapshot!("derive_report_error", report(&Units { version: 1, scale: 2.5, name: "four" }));
}
