//! The byte arithmetic of layouts: widths, header and key lengths, offsets. `const fn`s, so that
//! the derive computes a struct's [`Layout`] at compile time; reached by the generated code
//! through `__private::layout`, not part of the public API.

use super::{Layout, Shape};
use crate::format::config::Widths;
use crate::format::encoding::{Encoding, Family, MarkerSpec};

impl Layout {
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

/// A layout's fields with their offsets placed, and the layout's fixed length: what [`place`]
/// computes for the derive.
pub struct Placed<const N: usize> {
    /// The fields, each with its marker and value offsets.
    pub fields: [super::FieldLayout; N],
    /// The bytes of the whole layout, when every width is fixed.
    pub fixed_len: Option<usize>,
}

/// Places `fields` (given with no offsets) one after the other after a header of `header` bytes:
/// each field's marker after its map key (`map`: the field's name written with `widths`), as a
/// running sum that stops being known at the first field of no fixed width. The derive writes
/// each field once and calls this, so that its expansion grows linearly with the fields.
pub const fn place<const N: usize>(
    header: Option<usize>,
    widths: Widths,
    map: bool,
    mut fields: [super::FieldLayout; N],
) -> Placed<N> {
    let mut pos = header;
    let mut i = 0;
    while i < N {
        let key = if map { name_key_len(widths, fields[i].name) } else { 0 };
        let marker = match pos {
            Some(p) => Some(p + key),
            None => None,
        };
        fields[i].marker_offset = marker;
        fields[i].value_offset = field_value_offset(fields[i].encoding, &fields[i].shape, marker);
        pos = match (marker, fields[i].width) {
            (Some(m), Some(w)) => Some(m + w),
            _ => None,
        };
        i += 1;
    }
    Placed { fields, fixed_len: pos }
}

/// `shape` with its length fixed to `n`, when its type leaves it open (text, bytes, a `Vec`): the
/// shape of a field holding a constant of `n` bytes or elements, which is written the same for
/// every value.
pub const fn with_len(shape: Shape, n: usize) -> Shape {
    match shape {
        Shape::Bytes(None) => Shape::Bytes(Some(n)),
        Shape::Seq { len: None, elem, elem_raw } => Shape::Seq { len: Some(n), elem, elem_raw },
        other => other,
    }
}

/// Where the derived decoder reads field `i` of the array layout `layout` at a constant offset:
/// its marker's offset from the first field's marker, and its width, when every field up to it
/// has a fixed width; else `None` (the field is read where the one before it ends).
pub const fn fixed_field(layout: &Layout, i: usize) -> Option<(usize, usize)> {
    let Some(first) = layout.fields.first() else { return None };
    match (first.marker_offset, layout.fields[i].marker_offset, layout.fields[i].width) {
        (Some(base), Some(at), Some(w)) => Some((at - base, w)),
        _ => None,
    }
}

/// The bytes the leading fields with [`fixed_field`] offsets take, from the first field's marker.
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
