//! Byte-ruler diagrams of a [`Layout`], in the style of the Blosc2 format documents:
//!
//! ```text
//!     |-0-|-1-|-2-|-3-|-4-|
//!     | 93| v | cd| idx   |
//!     |---|---|---|-------|
//!       ^   ^   ^
//!       |   |   |
//!       |   |   +--idx: [msgpack] uint16
//!       |   +--v: [msgpack] positive fixint
//!       +--[msgpack] fixarray(3)
//! ```

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Write;

use super::{FieldLayout, Layout, Role, Shape};
use crate::format::config::Widths;
use crate::format::encoding::{Encoding, Family, MarkerSpec};

/// Bytes drawn per row at most (a field never wraps).
const ROW_BYTES: usize = 24;
/// How many byte columns a variable-width cell is drawn as.
const VARIABLE_BYTES: usize = 4;
const INDENT: &str = "    ";

struct Cell {
    /// First byte, when known.
    start: Option<usize>,
    bytes: usize,
    label: String,
    variable: bool,
    /// The caption hung under this cell's arrow, if it starts something.
    caption: Option<String>,
}

/// Draws `layout`: rows of byte cells with their offsets while they are fixed, then the captions.
pub fn diagram(layout: &Layout) -> String {
    let cells = cells(layout);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}: {} of {} fields{}",
        layout.name,
        container_name(layout),
        layout.fields.len(),
        match layout.fixed_len {
            // Offsets in the ruler's base (hex); a count of bytes stays a count.
            Some(0) => String::from(", 0 bytes"),
            Some(n) => alloc::format!(", {n} bytes (0x0 to 0x{:X})", n - 1),
            None => match layout.variable_from() {
                Some(v) => alloc::format!(", fixed up to byte 0x{v:X}, variable from there"),
                None => String::new(),
            },
        }
    );
    out.push('\n');
    for row in rows(&cells) {
        draw_row(&mut out, row);
        out.push('\n');
    }
    out
}

fn container_name(layout: &Layout) -> String {
    match layout.encoding {
        Encoding::Raw => "packed bytes".into(),
        enc => alloc::format!("{enc}"),
    }
}

/// The marker text of an encoding: its byte, or `9X` style when the count varies.
fn marker_label(enc: Encoding, count: Option<usize>) -> String {
    match (enc.marker(), count) {
        (MarkerSpec::Exact(b), _) => alloc::format!("{b:02x}"),
        (MarkerSpec::Counted { base, max }, Some(n)) if n <= max as usize => {
            alloc::format!("{:02x}", base as usize + n)
        }
        (MarkerSpec::Counted { base, .. }, _) => alloc::format!("{:x}X", base >> 4),
        (MarkerSpec::None, _) => String::new(),
    }
}

fn describe(f: &FieldLayout) -> String {
    let mut s = alloc::format!("{}: [msgpack] {}", f.name, f.encoding);
    if let Shape::Struct(inner) = f.shape {
        let _ = write!(s, " {}", inner.name);
    }
    with_role_and_doc(s, f)
}

/// `head`, then what the field's role and doc comment add to a caption.
fn with_role_and_doc(mut s: String, f: &FieldLayout) -> String {
    match f.role {
        Role::Magic(v) => {
            let _ = write!(s, ", constant {v}");
        }
        Role::Computed(e) => {
            let _ = write!(s, ", computed as {e}");
        }
        Role::Data => {}
    }
    if !f.doc.is_empty() {
        let _ = write!(s, " ({})", f.doc);
    }
    s
}

/// The caption of a field written in its smallest form (`minimal`, no encoding attribute).
fn describe_minimal(f: &FieldLayout) -> String {
    let what = match f.encoding.family() {
        Family::Int => "int",
        Family::Float => "float",
        Family::Str => "str",
        Family::Bin => "bin",
        Family::Array => "array",
        Family::Map => "map",
        _ => "value",
    };
    with_role_and_doc(alloc::format!("{}: [msgpack] smallest {what} for the value", f.name), f)
}

fn cells(layout: &Layout) -> Vec<Cell> {
    let mut cells = Vec::new();
    let mut pos = super::sizes::header_len(layout.encoding, layout.fields.len());
    if layout.encoding != Encoding::Raw {
        cells.push(Cell {
            start: Some(0),
            bytes: pos.unwrap_or(1),
            label: marker_label(layout.encoding, Some(layout.fields.len())),
            variable: false,
            caption: Some(alloc::format!("[msgpack] {}({})", layout.encoding, layout.fields.len())),
        });
    }
    for f in layout.fields {
        if layout.encoding.family() == Family::Map {
            let k = super::sizes::name_key_len(layout.widths, f.name);
            cells.push(Cell {
                start: pos,
                bytes: k,
                label: alloc::format!("\"{}\"", f.name),
                variable: false,
                caption: None,
            });
            pos = pos.map(|p| p + k);
        }
        let start = f.marker_offset.or(pos);
        // Under `minimal` a field with no encoding attribute (no fixed width, though its shape
        // has one) is the smallest form of its value: no marker of the type's fixed encoding is
        // ever written, so none is drawn.
        if layout.widths == Widths::Minimal && f.width.is_none() && !matches!(f.shape, Shape::Variable) {
            cells.push(Cell {
                start,
                bytes: VARIABLE_BYTES,
                label: f.name.into(),
                variable: true,
                caption: Some(describe_minimal(f)),
            });
            pos = None;
            continue;
        }
        let caption = Some(describe(f));
        let marker_len = f.encoding.marker_len();
        let in_marker = f.encoding.value_width() == Some(0);
        if in_marker {
            cells.push(Cell { start, bytes: 1, label: f.name.into(), variable: false, caption });
        } else {
            let mut caption = caption;
            let count = match f.shape {
                Shape::Seq { len, .. } => len,
                Shape::Bytes(n) => n,
                Shape::Struct(inner) if f.encoding.family() == Family::Array => Some(inner.fields.len()),
                _ => super::sizes::raw_len(&f.shape),
            };
            if marker_len == 1 {
                cells.push(Cell {
                    start,
                    bytes: 1,
                    label: marker_label(f.encoding, count),
                    variable: false,
                    caption: caption.take(),
                });
            }
            let mut at = start.map(|s| s + marker_len);
            if f.encoding.prefix_len() > 0 {
                let n = f.encoding.prefix_len();
                cells.push(Cell { start: at, bytes: n, label: "len".into(), variable: false, caption: None });
                at = at.map(|a| a + n);
            }
            let value_bytes = f.width.map(|w| w - marker_len - f.encoding.prefix_len());
            match (f.shape, value_bytes) {
                // Packed flag bytes: one cell per inner field.
                (Shape::Struct(inner), Some(_)) if inner.is_packed() && f.encoding.is_bytes() => {
                    for g in inner.fields {
                        let b = g.width.unwrap_or(1);
                        let c = if marker_len == 0 && caption.is_some() { caption.take() } else { None };
                        cells.push(Cell {
                            start: at,
                            bytes: b,
                            label: g.name.into(),
                            variable: false,
                            caption: c,
                        });
                        at = at.map(|a| a + b);
                    }
                }
                (_, Some(0)) => {}
                (_, Some(b)) => cells.push(Cell {
                    start: at,
                    bytes: b,
                    label: f.name.into(),
                    variable: false,
                    caption: caption.take(),
                }),
                (_, None) => cells.push(Cell {
                    start: None,
                    bytes: VARIABLE_BYTES,
                    label: f.name.into(),
                    variable: true,
                    caption: caption.take(),
                }),
            }
        }
        pos = match (pos, f.width) {
            (Some(p), Some(w)) => Some(p + w),
            _ => None,
        };
    }
    cells
}

/// Whether a cell starts a field (it carries the field's caption, or is a map key).
fn starts_field(c: &Cell) -> bool {
    c.caption.is_some() || c.label.starts_with('"')
}

/// Splits cells into rows of at most [`ROW_BYTES`], breaking only between fields.
fn rows(cells: &[Cell]) -> Vec<&[Cell]> {
    let mut rows = Vec::new();
    let (mut from, mut bytes) = (0, 0);
    for (i, c) in cells.iter().enumerate() {
        if starts_field(c) && i > from {
            let field: usize = c.bytes
                + cells[i + 1..].iter().take_while(|d| !starts_field(d)).map(|d| d.bytes).sum::<usize>();
            if bytes + field > ROW_BYTES {
                rows.push(&cells[from..i]);
                from = i;
                bytes = 0;
            }
        }
        bytes += c.bytes;
    }
    if from < cells.len() {
        rows.push(&cells[from..]);
    }
    rows
}

fn cell_width(c: &Cell) -> usize {
    c.bytes * 4 - 1
}

fn draw_row(out: &mut String, row: &[Cell]) {
    // Ruler: byte offsets while known.
    let mut ruler = String::from("|");
    let mut labels = String::from("|");
    let mut border = String::from("|");
    let mut anchors: Vec<(usize, &str)> = Vec::new();
    for c in row {
        let col = labels.len();
        let w = cell_width(c);
        match c.start {
            Some(s) if !c.variable => {
                for b in 0..c.bytes {
                    let _ = match s + b {
                        n @ 0..=0xf => write!(ruler, "-{n:X}-|"),
                        n @ 0x10..=0xff => write!(ruler, "-{n:X}|"),
                        n => write!(ruler, "{n:X}|"),
                    };
                }
            }
            _ => {
                ruler.push_str(&"~".repeat(w));
                ruler.push('|');
            }
        }
        let fill = if c.variable { '~' } else { '-' };
        border.extend(core::iter::repeat_n(fill, w));
        border.push('|');
        let text: String = if c.label.len() <= 2 && !c.variable {
            alloc::format!("{:>3}", c.label)
        } else {
            alloc::format!(" {}", c.label)
        };
        let text: String = text.chars().take(w).collect();
        let _ = write!(labels, "{text:<w$}|");
        if let Some(cap) = &c.caption {
            anchors.push((col + 1, cap.as_str()));
        }
    }
    for line in [&ruler, &labels, &border] {
        let _ = writeln!(out, "{INDENT}{line}");
    }
    if anchors.is_empty() {
        return;
    }
    let mut carets = String::new();
    let mut bars = String::new();
    for &(col, _) in &anchors {
        pad_to(&mut carets, col);
        carets.push('^');
        pad_to(&mut bars, col);
        bars.push('|');
    }
    let _ = writeln!(out, "{INDENT}{carets}");
    let _ = writeln!(out, "{INDENT}{bars}");
    for (i, &(col, text)) in anchors.iter().enumerate().rev() {
        let mut line = String::new();
        for &(c, _) in &anchors[..i] {
            pad_to(&mut line, c);
            line.push('|');
        }
        pad_to(&mut line, col);
        let _ = write!(line, "+--{text}");
        let _ = writeln!(out, "{INDENT}{line}");
    }
}

fn pad_to(s: &mut String, col: usize) {
    while s.len() < col {
        s.push(' ');
    }
}
