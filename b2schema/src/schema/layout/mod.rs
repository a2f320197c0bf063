//! Static descriptions of encoded layouts: which field sits at which byte, under which encoding.
//!
//! `#[derive(B2Layout)]` (see [`crate::attributes`]) implements [`B2Layout`] for a struct: its
//! [`Layout`] lists every field with its encoding, the offset of its marker and of its value, and
//! its width, as far as they are fixed; the first field whose width depends on the value makes
//! every later offset `None` ("variable from here"). From a layout come:
//!
//! - [`diagram`]: a byte-ruler drawing in the style of the Blosc2 format documents;
//! - [`annotate`]: an annotated hex dump of encoded bytes, one field per line;
//! - [`FieldRef`]: in-place patching of a fixed-width field in an encoded buffer or file;
//! - [`report`]: all three as one text, for snapshot-testing one's own layouts (an insta recipe).

mod annotate;
mod diagram;
mod patch;
mod report;
mod types;

pub use annotate::{annotate, annotate_with};
pub use diagram::diagram;
pub use patch::FieldRef;
pub use report::report;
pub use types::B2Type;

use crate::format::config::Widths;
use crate::format::encoding::{Encoding, Family, MarkerSpec};

/// A type whose encoded layout is described statically.
pub trait B2Layout {
    /// The layout.
    const LAYOUT: &'static Layout;
}

/// The layout of a struct.
#[derive(Debug)]
pub struct Layout {
    /// The Rust name of the struct.
    pub name: &'static str,
    /// The container encoding: fixarray, array16, a map (structs as maps), or raw (packed bytes).
    pub encoding: Encoding,
    /// Fixed or minimal widths inside.
    pub widths: Widths,
    /// The fields, in order.
    pub fields: &'static [FieldLayout],
    /// The total length when every field has a fixed width.
    pub fixed_len: Option<usize>,
}

/// The layout of one field.
#[derive(Debug)]
pub struct FieldLayout {
    /// The field name.
    pub name: &'static str,
    /// The Rust type, as written in the struct.
    pub rust_type: &'static str,
    /// The encoding of the value.
    pub encoding: Encoding,
    /// What the Rust type holds.
    pub shape: Shape,
    /// Offset of the marker from the start of the struct's encoding, when fixed.
    pub marker_offset: Option<usize>,
    /// Offset of the value (after the marker and any length prefix), when fixed.
    pub value_offset: Option<usize>,
    /// Bytes taken by the field (marker included), when fixed.
    pub width: Option<usize>,
    /// Whether the field is data, a constant or computed from other fields.
    pub role: Role,
    /// The first line of the field's doc comment.
    pub doc: &'static str,
}

/// What decides a field's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// The value is stored.
    Data,
    /// A constant written by the encoder and checked by the decoder (the expression's text).
    Magic(&'static str),
    /// Derived by the encoder from other fields and verified by the decoder (the expression).
    Computed(&'static str),
}

/// What a Rust type holds, for computing widths.
#[derive(Clone, Copy, Debug)]
pub enum Shape {
    /// A number, bool or nil; `raw` is its width as a bare byte (`u8`, `i8`, `bool`: 1).
    Scalar {
        /// Bytes as raw bytes, if it can be one.
        raw: Option<usize>,
    },
    /// Text or bytes of a length, when fixed.
    Bytes(Option<usize>),
    /// A sequence.
    Seq {
        /// Number of elements, when fixed.
        len: Option<usize>,
        /// Width of one element in its default encoding, when fixed.
        elem: Option<usize>,
        /// Width of one element as bare bytes, if it can be.
        elem_raw: Option<usize>,
    },
    /// A struct with its own layout.
    Struct(&'static Layout),
    /// Anything whose width depends on the value (maps, options, enums).
    Variable,
}

impl Layout {
    /// The field named `name`.
    pub fn field(&self, name: &str) -> Option<&'static FieldLayout> {
        self.fields.iter().find(|f| f.name == name)
    }

    /// Whether the layout is bare bytes (a packed struct).
    pub const fn is_packed(&self) -> bool {
        matches!(self.encoding, Encoding::Raw)
    }

    /// The offset where widths stop being fixed (the marker of the first variable field), or
    /// `None` when the whole layout is fixed.
    pub fn variable_from(&self) -> Option<usize> {
        let mut off = header_len(self.encoding, self.fields.len())?;
        for f in self.fields {
            match f.width {
                Some(w) => off += w + key_len(self, f.name),
                None => return Some(off + key_len(self, f.name)),
            }
        }
        None
    }
}

/// Bytes of a field name written as a map key (0 when the struct is an array).
const fn key_len(layout: &Layout, name: &str) -> usize {
    match layout.encoding.family() {
        Family::Map => name_key_len(layout.widths, name),
        _ => 0,
    }
}

/// Bytes of `name` written as a map key with `widths`.
pub const fn name_key_len(widths: Widths, name: &str) -> usize {
    match widths {
        Widths::Fixed => 5 + name.len(),
        Widths::Minimal => {
            Encoding::minimal_len(Family::Str, name.len()).marker_len()
                + Encoding::minimal_len(Family::Str, name.len()).prefix_len()
                + name.len()
        }
    }
}

/// Bytes of a container header with `len` elements under `enc` (`None` when the length does not
/// fit the encoding).
pub const fn header_len(enc: Encoding, len: usize) -> Option<usize> {
    if len as u64 > enc.max_len() {
        return None;
    }
    Some(match enc.marker() {
        MarkerSpec::Counted { .. } => 1,
        MarkerSpec::Exact(_) => 1 + enc.prefix_len(),
        MarkerSpec::None => 0,
    })
}

/// Bytes `shape` takes as bare bytes, when fixed.
pub const fn raw_len(shape: &Shape) -> Option<usize> {
    match *shape {
        Shape::Scalar { raw } => raw,
        Shape::Bytes(n) => n,
        Shape::Seq { len: Some(n), elem_raw: Some(r), .. } => Some(n * r),
        Shape::Struct(layout) => match layout.encoding {
            Encoding::Raw => layout.fixed_len,
            _ => None,
        },
        _ => None,
    }
}

/// Bytes a value of `shape` takes under `enc` (marker included), when fixed.
pub const fn width(enc: Encoding, shape: &Shape) -> Option<usize> {
    // A shape whose width depends on the value (an `Option`, a map, a tuple) has none, whatever
    // the encoding its inner type would be written under (`None` is `c0`, not an `int32`).
    if let Shape::Variable = shape {
        return None;
    }
    if let Some(w) = enc.value_width() {
        return Some(enc.marker_len() + w);
    }
    match enc.family() {
        Family::Str | Family::Bin => match raw_len(shape) {
            Some(n) => match header_len(enc, n) {
                Some(h) => Some(h + n),
                None => None,
            },
            None => None,
        },
        Family::Raw => raw_len(shape),
        Family::Array => match *shape {
            Shape::Seq { len: Some(n), elem: Some(e), .. } => match header_len(enc, n) {
                Some(h) => Some(h + n * e),
                None => None,
            },
            Shape::Struct(layout) => match (layout.encoding.family(), layout.fixed_len) {
                // The struct's own array header, replaced by `enc`'s.
                (Family::Array, Some(total)) => {
                    match (
                        header_len(enc, layout.fields.len()),
                        header_len(layout.encoding, layout.fields.len()),
                    ) {
                        (Some(h), Some(own)) => Some(total - own + h),
                        _ => None,
                    }
                }
                _ => None,
            },
            _ => None,
        },
        Family::Map => match *shape {
            Shape::Struct(layout) if matches!(layout.encoding.family(), Family::Map) => layout.fixed_len,
            _ => None,
        },
        _ => None,
    }
}

/// Where the derived decoder reads field `i` of the array layout `layout` at a constant offset:
/// its marker's offset from the first field's marker, and its width, when every field up to it
/// has a fixed width; else `None` (the field is read where the one before it ends).
#[doc(hidden)]
pub const fn fixed_field(layout: &Layout, i: usize) -> Option<(usize, usize)> {
    let Some(first) = layout.fields.first() else { return None };
    match (first.marker_offset, layout.fields[i].marker_offset, layout.fields[i].width) {
        (Some(base), Some(at), Some(w)) => Some((at - base, w)),
        _ => None,
    }
}

/// The bytes the leading fields with [`fixed_field`] offsets take, from the first field's marker.
#[doc(hidden)]
pub const fn fixed_prefix_len(layout: &Layout) -> usize {
    let mut end = 0;
    let mut i = 0;
    while i < layout.fields.len() {
        match fixed_field(layout, i) {
            Some((at, w)) => end = at + w,
            None => break,
        }
        i += 1;
    }
    end
}

/// `start` plus every width, or `None` as soon as one is `None`.
pub const fn sum(start: Option<usize>, widths: &[Option<usize>]) -> Option<usize> {
    let Some(mut total) = start else { return None };
    let mut i = 0;
    while i < widths.len() {
        match widths[i] {
            Some(w) => total += w,
            None => return None,
        }
        i += 1;
    }
    Some(total)
}

/// The offset of the value of a field of `shape` whose marker is at `marker`: [`value_offset`],
/// or `None` when the shape's encoding depends on the value (an `Option`'s `None` is a lone
/// `c0`: no value follows its marker).
pub const fn field_value_offset(enc: Encoding, shape: &Shape, marker: Option<usize>) -> Option<usize> {
    match shape {
        Shape::Variable => None,
        _ => value_offset(enc, marker),
    }
}

/// The offset of the value of a field whose marker is at `marker` (marker and length prefix
/// skipped).
/// For values held in the marker itself (fixint, bool, nil) the value offset is the marker's.
pub const fn value_offset(enc: Encoding, marker: Option<usize>) -> Option<usize> {
    match (marker, enc.value_width()) {
        (Some(m), Some(0)) => Some(m),
        (Some(m), _) => Some(m + enc.marker_len() + enc.prefix_len()),
        (None, _) => None,
    }
}
