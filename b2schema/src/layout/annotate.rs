//! Annotated hex dumps that name every field: the layout says what each value is.

use alloc::string::String;

use super::{Layout, Shape};
use crate::dump::{Dumper, Options};
use crate::encoding::{Encoding, Family, MarkerSpec};

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
/// Bytes that do not match the layout are reported on a line starting with `!!`, and the dump
/// stops there; it never panics.
pub fn annotate(layout: &Layout, bytes: &[u8]) -> String {
    annotate_with(layout, bytes, Options::default())
}

/// [`annotate`] with dump options (a base offset, a limit on payload lines).
pub fn annotate_with(layout: &Layout, bytes: &[u8], options: Options) -> String {
    let mut d = Dumper::new(bytes, 0, options);
    if let Err(msg) = walk_struct(&mut d, layout, layout.name, 0) {
        let at = d.pos;
        d.label = None;
        d.line(at, &[], 0, &alloc::format!("!! {msg}"));
    } else if d.pos < bytes.len() {
        let at = d.pos;
        d.line(at, &[], 0, &alloc::format!("!! {} bytes after the value", bytes.len() - at));
    }
    d.finish()
}

fn walk_struct(d: &mut Dumper<'_>, layout: &Layout, path: &str, depth: usize) -> Result<(), String> {
    if depth > MAX_DEPTH {
        return Err(alloc::format!("layouts nested deeper than {MAX_DEPTH}"));
    }
    if layout.is_packed() {
        for f in layout.fields {
            let w = f.width.ok_or_else(|| alloc::format!("packed field {} has no fixed width", f.name))?;
            let start = d.pos;
            let bytes = d.take(w, f.name)?;
            let text = match bytes {
                [b] => alloc::format!("{}.{}: {b} (0x{b:02x})", path, f.name),
                _ => alloc::format!("{}.{}: {} bytes", path, f.name, bytes.len()),
            };
            d.line(start, bytes, depth, &text);
        }
        return Ok(());
    }
    let start = d.pos;
    let n = header(d, layout.encoding, Some(layout.fields.len()))?;
    let text = alloc::format!("{path}: {}({n})", layout.encoding);
    let hdr = &d.bytes[start..d.pos];
    d.line(start, hdr, depth, &text);
    let is_map = layout.encoding.family() == Family::Map;
    for f in layout.fields {
        let child = if depth == 0 { String::from(f.name) } else { alloc::format!("{path}.{}", f.name) };
        if is_map {
            d.label = Some(alloc::format!("{child} (key): "));
            d.value(depth + 1)?;
        }
        walk_field(d, f.encoding, &f.shape, &child, depth + 1)?;
    }
    Ok(())
}

fn walk_field(
    d: &mut Dumper<'_>,
    enc: Encoding,
    shape: &Shape,
    path: &str,
    depth: usize,
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
                _ => {
                    header(d, enc, None)?;
                }
            }
            if d.pos > start {
                let hdr = &d.bytes[start..d.pos];
                d.line(start, hdr, depth, &alloc::format!("{path}: {enc}"));
            }
            walk_struct(d, inner, path, depth + 1)
        }
        (Shape::Struct(inner), _) if !inner.is_packed() => walk_struct(d, inner, path, depth),
        (Shape::Seq { .. }, Family::Array) => {
            let start = d.pos;
            let n = header(d, enc, None)?;
            let hdr = &d.bytes[start..d.pos];
            d.line(start, hdr, depth, &alloc::format!("{path}: {enc}({n})"));
            for i in 0..n {
                d.label = Some(alloc::format!("{path}[{i}]: "));
                d.value(depth + 1)?;
            }
            Ok(())
        }
        _ if enc == Encoding::Raw => {
            let w =
                super::raw_len(shape).ok_or_else(|| alloc::format!("{path}: raw bytes of unknown length"))?;
            let start = d.pos;
            let bytes = d.take(w, path)?;
            d.line(start, bytes, depth, &alloc::format!("{path}: {w} raw bytes"));
            Ok(())
        }
        _ => {
            d.label = Some(alloc::format!("{path}: "));
            d.value(depth)
        }
    }
}

/// Reads a container marker (and length prefix) that must be of `enc`; returns the count.
fn header(d: &mut Dumper<'_>, enc: Encoding, expect: Option<usize>) -> Result<usize, String> {
    let at = d.pos;
    let m = d.take(1, enc.name())?[0];
    if !enc.accepts(m) {
        d.pos = at;
        return Err(alloc::format!("expected {} marker, found {m:02x}", enc.name()));
    }
    let n = match enc.marker() {
        MarkerSpec::Counted { base, .. } => (m - base) as usize,
        _ => d.len(enc, m)?,
    };
    if let Some(e) = expect
        && e != n
    {
        d.pos = at;
        return Err(alloc::format!("expected {enc}({e}), found {enc}({n})"));
    }
    Ok(n)
}
