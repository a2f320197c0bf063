//! One readable text report of a value's encoding, for snapshot tests of one's own layouts.

use alloc::string::String;
use core::fmt::Write;

use serde_core::ser::Serialize;

use super::{B2Layout, annotate, diagram};

/// Bytes per line of the report's hex section.
const HEX_LINE: usize = 16;

/// A text report of `value`'s encoding under `T`'s layout: the [`diagram`] of the layout, the
/// [`annotate`]d dump of the bytes (one field per line), and the bytes in hex, 16 a line with
/// their offset. Every part is plain text, so one snapshot of it shows a change of layout, of
/// encoding or of a single byte, in a diff that can be read.
///
/// b2schema does not depend on insta; in a crate's tests (with `insta` as a dev-dependency):
///
/// ```
/// # extern crate b2schema_format as b2schema;
/// # use b2schema_derive::B2Layout;
/// # #[derive(B2Layout)]
/// # struct Units<'a> { version: u8, scale: f64, #[b2(fixstr(len = 3))] name: &'a str }
/// // #[test]
/// fn units_layout() {
///     let v = Units { version: 1, scale: 2.5, name: "m/s" };
///     insta::assert_snapshot!(b2schema::layout::report(&v));
/// }
/// ```
///
/// The first run writes `snapshots/<test>.snap.new`; read it, then accept it with
/// `cargo insta review` (or `INSTA_UPDATE=always`) and commit the `.snap`. In CI run with
/// `INSTA_UPDATE=no` so that a changed report fails the test instead of writing a new file.
///
/// An encoding error is reported in the text (`!! encoding failed: ...`) rather than panicking.
///
/// ```
/// # extern crate b2schema_format as b2schema;
/// use b2schema_derive::B2Layout;
///
/// #[derive(B2Layout)]
/// struct Units<'a> { version: u8, scale: f64, #[b2(fixstr(len = 3))] name: &'a str }
///
/// let text = b2schema::layout::report(&Units { version: 1, scale: 2.5, name: "m/s" });
/// assert!(text.starts_with("Units: fixarray of 3 fields, 15 bytes (0x0 to 0xE)\n"));
/// assert!(text.contains("0001  01                            version: positive fixint 1\n"));
/// assert!(text.ends_with("0000  93 01 cb 40 04 00 00 00 00 00 00 a3 6d 2f 73\n"));
/// ```
pub fn report<T: B2Layout + Serialize + ?Sized>(value: &T) -> String {
    let mut out = diagram(T::LAYOUT);
    let bytes = match crate::format::ser::to_vec(value) {
        Ok(bytes) => bytes,
        Err(e) => {
            let _ = writeln!(out, "!! encoding failed: {e}");
            return out;
        }
    };
    let _ = writeln!(out, "annotated ({}):", crate::format::error::bytes(bytes.len() as u64));
    out.push_str(&annotate(T::LAYOUT, &bytes));
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out.push_str("\nbytes:\n");
    for (i, line) in bytes.chunks(HEX_LINE).enumerate() {
        let _ = write!(out, "{:04x} ", i * HEX_LINE);
        for b in line {
            let _ = write!(out, " {b:02x}");
        }
        out.push('\n');
    }
    out
}
