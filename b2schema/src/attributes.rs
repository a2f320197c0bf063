//! Every `#[b2(...)]` attribute of `#[derive(B2Layout)]`, in one place.
//!
//! `#[derive(B2Layout)]` on a struct with named fields generates `Serialize`, `Deserialize`
//! (borrowing `&str`/`&[u8]` fields from the input), [`B2Layout`](crate::layout::B2Layout) (the
//! static [`Layout`](crate::layout::Layout)), [`B2Type`](crate::layout::B2Type), and one
//! [`FieldRef`](crate::layout::FieldRef) constant per field, named after the field in upper case.
//! Do not also derive serde's traits. The serde impls work with any format: under serde_json a
//! derived struct is its natural JSON object.
//!
//! # The contract
//!
//! For every struct the derive accepts and every value of it:
//!
//! - the serde path (`to_vec`, `from_slice`) and the direct codec (`encode_to_vec`,
//!   `decode_from_slice`) write the same bytes, and both read them back to the same value;
//! - when `LAYOUT.fixed_len` is `Some(n)`, every value encodes to exactly `n` bytes;
//! - every field's `marker_offset`, `value_offset` and `width`, when `Some`, are where that
//!   field's bytes are for every value. The first field whose width can depend on its value (an
//!   `Option`, a map, a string or bytes without a fixed length, a `Vec` without a fixed count, a
//!   nested struct that is itself variable) ends the fixed part: its marker offset is still known,
//!   but no offset after it is;
//! - a handle with a fixed place reads exactly the field's value (borrowing `&str` and `&[u8]`
//!   from the input), and `patch` changes that field and no other byte; handles on `magic` and
//!   `computed` fields refuse to patch, with an error that says why;
//! - `offset = N` compiles only where the field's value starts at byte N for every value: a wrong
//!   `N` is an error at `N` that names the real offset (`expected `1`, found `3``);
//! - a constant (`magic`) and a computed value are written under the field's encoding (its
//!   attribute, or the field type's default), whatever the literal's own type: `magic = 1` on a
//!   `u8` is the fixint `01`. A constant must have the field's type (a byte string: `[u8; N]`,
//!   `&[u8]` or `Vec<u8>`) and fit its encoding, or the struct does not compile.
//!
//! Where the derive cannot honour a combination it is a compile error at the offending tokens
//! that says what to write instead: an encoding of another family than the field's type
//! (`#[b2(float64)]` on an `i32`), a `fixstr(len = 4)` on a `[u8; 3]`, a packed struct's field
//! that has no byte form (`i32`), an `Option<Option<T>>` (`Some(None)` and `None` would both be
//! `c0`), a `&[u8]` inside a `Vec` or an array, a reference to anything but `str` or `[u8]`
//! (`&'a Inner`: a decoder lends only text and bytes), an enum field. The repository's
//! `tests/derive_matrix.rs` checks every clause on a generated matrix of struct shapes (every
//! field type and encoding attribute × role × position × container).
//!
//! A field with no attribute takes its type's default (the table in the crate documentation);
//! borrowed bytes (`&[u8]`, `Option<&[u8]>`) default to `bin32`, as they are read, while a
//! `Vec<u8>` or `[u8; N]` is an array of fixints unless an attribute says otherwise.
//!
//! # Options, nested structs, generics, enums
//!
//! An `Option<T>` is `c0` for `None` and `T`'s encoding for `Some`, so it ends the fixed part. A
//! derived struct nests as a field (fixed when it is); a generic struct works (without
//! `offset = N`). Enums are not supported: `#[derive(B2Layout)]` on an enum is a compile error
//! ("B2Layout describes structs; an enum has no fixed layout"), and so
//! is an enum field ("`Codec` has no b2schema layout", the first error the compiler reports):
//! store the discriminant as an integer field and convert it.
//!
//! ```
//! use b2schema::B2Layout;
//! use b2schema::layout::B2Layout as _;
//!
//! #[derive(B2Layout, Debug, Clone, PartialEq)]
//! struct Point { x: i32, y: i32 }
//!
//! #[derive(B2Layout, Debug, PartialEq)]
//! struct Tagged<T> {
//!     at: Point,        // 92 d2 .. d2 .. (fixed: 11 bytes)
//!     note: Option<u8>, // c0, or a fixint: the fixed part ends here
//!     value: T,
//! }
//! let v = Tagged { at: Point { x: 1, y: 2 }, note: None, value: 7i64 };
//! let bytes = b2schema::to_vec(&v).unwrap();
//! assert_eq!(bytes.len(), 1 + 11 + 1 + 9);
//! assert_eq!(Tagged::<i64>::LAYOUT.variable_from(), Some(12));
//! assert_eq!(Tagged::<i64>::AT.read(&bytes).unwrap(), Point { x: 1, y: 2 });
//! assert!(Tagged::<i64>::VALUE.read(&bytes).is_err()); // no fixed place after the Option
//! assert_eq!(b2schema::decode_from_slice::<Tagged<i64>>(&bytes).unwrap(), v);
//! ```
//!
//! Precedence: a field attribute overrides the field type's default encoding (the table in the
//! crate documentation); a struct carries its own widths, whatever the caller's
//! [`Config`](crate::Config).
//!
//! # Container attributes
//!
//! | attribute | effect |
//! |---|---|
//! | `crate = "path"` | the path of b2schema in the generated code (default `::b2schema`) |
//! | `minimal` | smallest-form msgpack inside (python-blosc2's user metalayers) |
//! | `map` | the struct is a map keyed by field name (map16, or fixmap with `minimal`); each key is the field's name as a `str32` (`db` + u32 length), or as a `fixstr` under `minimal`, so a key takes 5 + name bytes (1 + name under `minimal`) before its value |
//! | `array16` | the struct is an `array16` (`dc`) rather than a fixarray (needed above 15 fields) |
//! | `packed` | the struct is bare bytes: every field is byte-sized (`u8`, `i8`, `bool`, `[u8; N]`, packed structs) and has no marker; put it inside a `fixstr`, `raw` or `fixext16` field |
//!
//! ```
//! use b2schema::B2Layout;
//!
//! /// python-blosc2's ObjectArray layer: `{"version": 1, "serializer": "msgpack"}`.
//! #[derive(B2Layout)]
//! #[b2(minimal, map)]
//! struct VlArray<'a> {
//!     version: u8,
//!     serializer: &'a str,
//! }
//! let bytes = b2schema::to_vec(&VlArray { version: 1, serializer: "msgpack" }).unwrap();
//! assert_eq!(bytes, b"\x82\xa7version\x01\xaaserializer\xa7msgpack");
//!
//! #[derive(B2Layout)]
//! #[b2(array16)]
//! struct Wide { a: i32, b: i32 }
//! assert_eq!(b2schema::to_vec(&Wide { a: 1, b: 2 }).unwrap()[..3], [0xdc, 0, 2]);
//! ```
//!
//! # Field encodings
//!
//! One per field; without one, the field type's default applies.
//!
//! | attribute | bytes | typical Rust type |
//! |---|---|---|
//! | `fixint` | `00..7f` (value in the marker) | `u8` (the default for `u8`) |
//! | `uint8`, `uint16`, `uint32`, `uint64` | `cc`, `cd`, `ce`, `cf` + big-endian value | any integer that fits |
//! | `int8`, `int16`, `int32`, `int64` | `d0`, `d1`, `d2`, `d3` + big-endian value | any integer that fits |
//! | `float32`, `float64` | `ca`, `cb` | `f32`, `f64` |
//! | `fixstr`, `fixstr(len = N)` | `a0 + n` + bytes (n <= 31) | `&str`, `String`, `[u8; N]`, a packed struct |
//! | `str32` | `db` + u32 length + bytes | `&str`, `String` |
//! | `bin32` | `c6` + u32 length + bytes | `Vec<u8>`, `&[u8]` |
//! | `fixarray`, `array16` | `90 + n` / `dc` + u16 count, then elements | `Vec<T>`, `[T; N]`, a struct |
//! | `counted` | `0x90 + n` computed in a byte, n <= 16 (16 writes `a0`, as c-blosc2) | `Vec<T>` |
//! | `map16` | `de` + u16 count, then pairs | a map |
//! | `fixext16` | `d8` + 17 bytes (type byte and 16 data bytes) | `[u8; 17]`, a packed struct |
//! | `raw` | bytes with no marker; the type fixes the length | `[u8; N]`, a packed struct |
//!
//! ```
//! use b2schema::B2Layout;
//!
//! #[derive(B2Layout, Debug, PartialEq)]
//! struct Record<'a> {
//!     #[b2(uint64)]
//!     frame_len: i64, // cf + 8 bytes, although the Rust type is signed
//!     #[b2(int16)]
//!     threads: u8, // d1 + 2 bytes
//!     #[b2(counted)]
//!     shape: Vec<i64>, // 92 d3 .. d3 ..
//!     #[b2(fixstr(len = 3))]
//!     code: &'a str, // a3 + exactly 3 bytes
//!     #[b2(fixext16)]
//!     pipeline: [u8; 17], // d8 + 17 bytes
//! }
//! let r = Record { frame_len: 1, threads: 2, shape: vec![4, 5], code: "|u1", pipeline: [0; 17] };
//! let bytes = b2schema::to_vec(&r).unwrap();
//! assert_eq!(bytes[..3], [0x95, 0xcf, 0]);
//! assert_eq!(b2schema::from_slice::<Record>(&bytes).unwrap(), r);
//! ```
//!
//! # Flag bytes
//!
//! A `packed` struct inside a byte encoding makes each flag byte a typed field, as the frame
//! header's four flags under `fixstr(4)`:
//!
//! ```
//! use b2schema::B2Layout;
//!
//! #[derive(B2Layout, Debug, PartialEq)]
//! #[b2(packed)]
//! struct Flags { general: u8, frame_type: u8, codec: u8, other: u8 }
//!
//! #[derive(B2Layout, Debug, PartialEq)]
//! struct WithFlags {
//!     #[b2(fixstr)]
//!     flags: Flags,
//! }
//! let v = WithFlags { flags: Flags { general: 0x12, frame_type: 0, codec: 0x50, other: 3 } };
//! assert_eq!(b2schema::to_vec(&v).unwrap(), [0x91, 0xa4, 0x12, 0x00, 0x50, 0x03]);
//! ```
//!
//! # Constants, computed fields, offsets
//!
//! | attribute | effect |
//! |---|---|
//! | `magic = b"..."` or `magic = <expr>` | the encoder writes the constant whatever the field holds; the decoder checks it and reports the field's offset |
//! | `computed = <expr>` | the encoder writes `<expr>` (evaluated with `self` in scope, converted to the field type); the decoder checks the field against it once all fields are read |
//! | `offset = N` | a compile-time check that the field's value starts at byte N of the struct's encoding (after its marker and length prefix; for an encoding whose value is in the marker, a fixint or a bool, N is the marker's own byte) |
//!
//! ```
//! use b2schema::B2Layout;
//!
//! #[derive(B2Layout, Debug, PartialEq)]
//! struct Counted {
//!     #[b2(fixstr, magic = b"b2", offset = 2)]
//!     magic: [u8; 2],
//!     #[b2(fixint, computed = self.items.len(), offset = 4)] // a fixint: its value is its marker, byte 4
//!     count: u8,
//!     items: Vec<i32>,
//! }
//! let v = Counted { magic: *b"b2", count: 0, items: vec![7] };
//! let bytes = b2schema::to_vec(&v).unwrap();
//! assert_eq!(bytes[..5], [0x93, 0xa2, b'b', b'2', 1]);
//! assert!(b2schema::from_slice::<Counted>(&[0x93, 0xa2, b'x', b'2', 1, 0x91, 0xd2, 0, 0, 0, 7]).is_err());
//! ```
//!
//! A `computed` expression should be a plain function of the fields: it can be evaluated more
//! than once per encode (the direct encoder tries the struct's fixed part at once, then field by
//! field when that part cannot be written exactly), and the direct decoder evaluates it on the
//! values just read, before the struct exists, when every `self` in it is a field access
//! (`self.items.len()`); otherwise on the built struct.
//!
//! Misplaced or conflicting attributes are compile errors at the offending tokens that say what
//! to write instead.
//!
//! # Errors, handles in files, snapshot tests
//!
//! A decoding error names the field's path, the byte offset, and what was expected and found. A
//! declared length is checked on the marker before the bytes are read, so a changed
//! `fixstr(len = 4)` marker reads "expected fixstr(4) marker a4 at offset 6 (code), found a5
//! (fixstr)", from both decoders and from [`layout::annotate`](crate::layout::annotate), which
//! stops at a wrong marker instead of showing the field under another type.
//!
//! A metalayer of a frame file is patched field by field by name, without computing offsets:
//! [`FrameFile::patch_metalayer_field`](crate::frame::FrameFile::patch_metalayer_field)`("units",
//! Units::SCALE, &2.5)`; it is read typed by name as its content decoded,
//! `b2schema::from_slice::<Units>(file.view()?.metalayer("units").unwrap())` (its example writes
//! the metalayer with the writer's `Frame` and does both). Under `minimal`, only a field with an
//! encoding attribute has a fixed width, so a handle after a field without one has no place.
//! python-blosc2's `blosc2.open` refuses a metalayer that holds an ext value (`fixext16`) unless
//! it is given `deserialize="full"`.
//!
//! To snapshot-test a layout of your own, snapshot [`layout::report`](crate::layout::report) of
//! a value: the diagram, the annotated dump and the bytes as one text
//! (`insta::assert_snapshot!(b2schema::layout::report(&value))`; the function's documentation
//! has the recipe).
//!
//! ```
//! use b2schema::B2Layout;
//!
//! #[derive(B2Layout, Debug)]
//! struct Code<'a> { a: i32, #[b2(fixstr(len = 4))] code: &'a str }
//!
//! let mut bytes = b2schema::to_vec(&Code { a: 1, code: "abcd" }).unwrap();
//! bytes[6] = 0xa5;
//! let e = b2schema::from_slice::<Code>(&bytes).unwrap_err();
//! assert_eq!(e.to_string(), "expected fixstr(4) marker a4 at offset 6 (code), found a5 (fixstr)");
//! let text = b2schema::layout::report(&Code { a: 1, code: "abcd" });
//! assert!(text.contains("code: fixstr(4) \"abcd\""));
//! ```
