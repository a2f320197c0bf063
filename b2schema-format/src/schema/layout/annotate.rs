//! Annotated hex dumps that name every field: the layout says what each value is.

use alloc::string::String;

use super::{Layout, Shape};
use crate::format::config::Widths;
use crate::format::dump::{Dumper, Options};
use crate::format::encoding::{Encoding, Expected, Family, MarkerSpec};

/// The deepest nesting of layouts followed.
const MAX_DEPTH: usize = 32;

/// Dumps `bytes`, an encoding of a value whose layout is `layout`, one field per line:
///
/// ```text
/// 0000  97                          B2nd: fixarray(7)
/// 0001  00                            version: positive fixint 0
/// 0003  92                            shape: counted array(2)
/// 0004  d3 00 00 00 00 00 00 01 90      shape[0]: int64 400
/// ```
///
/// Bytes that do not match the layout (a marker of another encoding, a count or length other than
/// the layout's) are reported on a line starting with `!!` that names the field, and the dump stops
/// there: a field is never shown decoded under another type. It never panics.
pub fn annotate(layout: &Layout, bytes: &[u8]) -> String {
    annotate_with(layout, bytes, Options::default())
}

/// [`annotate`] with dump options (a base offset, a limit on payload lines).
pub fn annotate_with(layout: &Layout, bytes: &[u8], options: Options) -> String {
    let mut d = Dumper::new(bytes, 0, options);
    if let Err(msg) = walk_struct(&mut d, layout, layout.encoding, layout.name, 0) {
        let at = d.pos;
        d.label = None;
        d.line(at, &[], 0, &alloc::format!("!! {msg}"));
    } else if d.pos < bytes.len() {
        let at = d.pos;
        let extra = crate::format::error::bytes((bytes.len() - at) as u64);
        d.line(at, &[], 0, &alloc::format!("!! {extra} after the value"));
    }
    d.finish()
}

/// Walks a struct of `layout` whose container is written under `container` (the layout's own
/// encoding, or the field's when a field re-frames a nested struct: `#[b2(array16)] inner: Inner`).
fn walk_struct(
    d: &mut Dumper<'_>,
    layout: &Layout,
    container: Encoding,
    path: &str,
    depth: usize,
) -> Result<(), String> {
    if depth > MAX_DEPTH {
        return Err(alloc::format!("layouts nested deeper than {MAX_DEPTH}"));
    }
    if layout.is_packed() {
        for f in layout.fields {
            let w = f.width.ok_or_else(|| alloc::format!("packed field {} has no fixed width", f.name))?;
            let start = d.pos;
            let bytes = d.take(w, f.name)?;
            let text = match bytes {
                // A byte shown as its field's type: an `i8` of -1 is -1, a `bool` true or false.
                [b] if f.rust_type == "i8" => alloc::format!("{}.{}: {} (0x{b:02x})", path, f.name, *b as i8),
                [b @ (0 | 1)] if f.rust_type == "bool" => {
                    alloc::format!("{}.{}: {} (0x{b:02x})", path, f.name, *b == 1)
                }
                [b] => alloc::format!("{}.{}: {b} (0x{b:02x})", path, f.name),
                _ => {
                    alloc::format!("{}.{}: {}", path, f.name, crate::format::error::bytes(bytes.len() as u64))
                }
            };
            d.line(start, bytes, depth, &text);
        }
        return Ok(());
    }
    let start = d.pos;
    let n = header(d, container, Some(layout.fields.len()))?;
    let text = alloc::format!("{path}: {container}({n})");
    let hdr = &d.bytes[start..d.pos];
    d.line(start, hdr, depth, &text);
    let is_map = layout.encoding.family() == Family::Map;
    for f in layout.fields {
        let child = if depth == 0 { String::from(f.name) } else { alloc::format!("{path}.{}", f.name) };
        if is_map {
            d.label = Some(alloc::format!("{child} (key): "));
            d.value(depth + 1)?;
        }
        let exact = layout.widths == Widths::Fixed;
        walk_field(d, f.encoding, &f.shape, &child, depth + 1, exact)?;
    }
    Ok(())
}

fn walk_field(
    d: &mut Dumper<'_>,
    enc: Encoding,
    shape: &Shape,
    path: &str,
    depth: usize,
    exact: bool,
) -> Result<(), String> {
    match (*shape, enc.family()) {
        (Shape::Struct(inner), Family::Str | Family::Bin | Family::Ext | Family::Raw)
            if inner.is_packed() =>
        {
            let start = d.pos;
            match enc {
                Encoding::FixExt16 => {
                    d.take(1, "fixext16 marker")?;
                }
                // Bare bytes: no marker.
                Encoding::Raw => {}
                _ => {
                    header(d, enc, inner.fixed_len).map_err(|e| alloc::format!("{path}: {e}"))?;
                }
            }
            if d.pos > start {
                let hdr = &d.bytes[start..d.pos];
                d.line(start, hdr, depth, &alloc::format!("{path}: {enc}"));
            }
            walk_struct(d, inner, inner.encoding, path, depth + 1)
        }
        (Shape::Struct(inner), family) if !inner.is_packed() => {
            // A field encoding of the array family re-frames the struct (`array16`).
            let container = if family == Family::Array { enc } else { inner.encoding };
            walk_struct(d, inner, container, path, depth)
        }
        (Shape::Seq { len, .. }, Family::Array) => {
            let start = d.pos;
            let n = header(d, enc, len).map_err(|e| alloc::format!("{path}: {e}"))?;
            let hdr = &d.bytes[start..d.pos];
            d.line(start, hdr, depth, &alloc::format!("{path}: {enc}({n})"));
            for i in 0..n {
                d.label = Some(alloc::format!("{path}[{i}]: "));
                d.value(depth + 1)?;
            }
            Ok(())
        }
        _ if enc == Encoding::Raw => {
            let w = super::sizes::raw_len(shape)
                .ok_or_else(|| alloc::format!("{path}: raw bytes of unknown length"))?;
            let start = d.pos;
            let bytes = d.take(w, path)?;
            d.line(
                start,
                bytes,
                depth,
                &alloc::format!("{path}: {} raw", crate::format::error::bytes(w as u64)),
            );
            Ok(())
        }
        _ => {
            if exact {
                check_marker(d, enc, shape).map_err(|e| alloc::format!("{path}: {e}"))?;
            }
            d.label = Some(alloc::format!("{path}: "));
            d.value(depth).map_err(|e| alloc::format!("{path}: {e}"))
        }
    }
}

/// Checks that the next byte is a marker the field's encoding writes (with the layout's length,
/// when the encoding counts it in the marker and the shape fixes it). A shape whose encoding
/// depends on the value (an `Option`'s `c0`, a `Minimal` wrapper's smallest form) is not checked.
fn check_marker(d: &Dumper<'_>, enc: Encoding, shape: &Shape) -> Result<(), String> {
    let Some(&m) = d.bytes.get(d.pos) else { return Ok(()) };
    if matches!(shape, Shape::Variable) {
        return Ok(());
    }
    let fixed = match enc.family() {
        Family::Str | Family::Bin => super::sizes::raw_len(shape),
        _ => None,
    };
    let expected = match fixed.and_then(|n| Expected::counted_mismatch(enc, n, m)) {
        Some(expected) => expected,
        None if enc.accepts(m) => return Ok(()),
        None => Expected::any(enc),
    };
    Err(alloc::format!("expected {expected}, found {m:02x} ({})", Encoding::describe_marker(m)))
}

/// Reads a container marker (and length prefix) that must be of `enc`; returns the count.
fn header(d: &mut Dumper<'_>, enc: Encoding, expect: Option<usize>) -> Result<usize, String> {
    let at = d.pos;
    let m = d.take(1, enc.name())?[0];
    if !enc.accepts(m) {
        d.pos = at;
        let expected = match expect.and_then(|e| u32::try_from(e).ok()) {
            Some(e) => Expected::with_len(enc, e),
            None => Expected::any(enc),
        };
        return Err(alloc::format!("expected {expected}, found {m:02x} ({})", Encoding::describe_marker(m)));
    }
    let n = match enc.marker() {
        MarkerSpec::Counted { base, .. } => (m - base) as usize,
        _ => d.len(enc, m)?,
    };
    if let Some(e) = expect
        && e != n
    {
        d.pos = at;
        let expected = Expected::with_len(enc, u32::try_from(e).unwrap_or(u32::MAX));
        return Err(alloc::format!("expected {expected}, found {m:02x} ({enc}({n}))"));
    }
    Ok(n)
}
