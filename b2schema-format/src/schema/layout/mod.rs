//! Static descriptions of encoded layouts: which field sits at which byte, under which encoding.
//!
//! `#[derive(B2Layout)]` (see `b2schema::attributes`) implements [`B2Layout`] for a struct: its
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
pub(crate) mod sizes;
mod types;

pub use annotate::{annotate, annotate_with};
pub use diagram::diagram;
pub use patch::FieldRef;
pub use report::report;
pub use types::B2Type;

use crate::format::config::Widths;
use crate::format::encoding::Encoding;

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
}
