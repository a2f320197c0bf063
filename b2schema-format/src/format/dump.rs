//! Annotated hex dumps: one msgpack value per line, with its offset, its bytes and what they mean.
//!
//! ```
//! # extern crate b2schema_format as b2schema;
//! let bytes = b2schema::to_vec(&(7i32, "<f8")).unwrap();
//! assert_eq!(b2schema::dump::annotate(&bytes), "\
//! 0000  92                          fixarray(2)
//! 0001  d2 00 00 00 07                int32 7
//! 0006  db 00 00 00 03                str32(3) \"<f8\"
//! 000b  3c 66 38                        |<f8|
//! ");
//! ```
//!
//! The dump reads any input without panicking: where the bytes stop making sense it prints a
//! line starting with `!!` that says why, and stops.

use alloc::string::String;
use core::fmt::Write;

use crate::format::encoding::{Encoding, Family, marker};
use crate::format::int::{self, Int};

/// How many payload bytes go on one line.
const BYTES_PER_LINE: usize = 8;
/// Width of the bytes column: a marker and 8 value bytes.
const HEX_COLUMN: usize = 26;
/// The deepest nesting the dump follows.
const MAX_DEPTH: usize = 64;

/// Options of [`annotate_with`].
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Payload lines (8 bytes each) shown per string or binary before the rest is summarised.
    pub max_payload_lines: usize,
    /// Offset added to every printed offset (the position of `bytes` in a larger buffer).
    pub base_offset: usize,
    /// The most bytes of text produced (about 50 per line): a dump that would be longer stops
    /// with a last `!!` line saying so. Default [`DEFAULT_MAX_OUTPUT`].
    pub max_output: usize,
}

/// Default of [`Options::max_output`]: 16 MiB of text (each input byte can take 50 bytes of
/// dump, so a few megabytes of msgpack would otherwise make hundreds).
pub const DEFAULT_MAX_OUTPUT: usize = 16 << 20;

impl Default for Options {
    fn default() -> Self {
        Options { max_payload_lines: usize::MAX, base_offset: 0, max_output: DEFAULT_MAX_OUTPUT }
    }
}

/// Dumps every msgpack value in `bytes`, one per line, in order.
pub fn annotate(bytes: &[u8]) -> String {
    annotate_with(bytes, Options::default())
}

/// Dumps every msgpack value in `bytes` with `options`.
pub fn annotate_with(bytes: &[u8], options: Options) -> String {
    let mut d = Dumper::new(bytes, 0, options);
    while d.pos < bytes.len() && !d.full {
        if let Err(msg) = d.value(0) {
            let at = d.pos;
            d.line(at, &[], 0, &alloc::format!("!! {msg}"));
            break;
        }
    }
    d.finish()
}

/// Writes one line: offset, bytes (left-aligned in their column), indentation, text.
pub(crate) fn write_line(out: &mut String, offset: usize, bytes: &[u8], indent: usize, text: &str) {
    let _ = write!(out, "{offset:04x}  ");
    let mut hex = String::new();
    for (i, b) in bytes.iter().enumerate() {
        if i > 0 {
            hex.push(' ');
        }
        let _ = write!(hex, "{b:02x}");
    }
    let _ = write!(out, "{hex:<HEX_COLUMN$}  ");
    for _ in 0..indent {
        out.push_str("  ");
    }
    out.push_str(text);
    // Trim the padding of lines with no text.
    while out.ends_with(' ') {
        out.pop();
    }
    out.push('\n');
}

/// Writes `payload` 8 bytes per line at `indent`, starting at `offset`, with its ASCII form, at
/// most `max_lines` lines, stopping (with a `... N more bytes` line) once `out` reaches `max_len`.
fn write_payload_within(
    out: &mut String,
    offset: usize,
    payload: &[u8],
    indent: usize,
    max_lines: usize,
    max_len: usize,
) {
    for (i, chunk) in payload.chunks(BYTES_PER_LINE).enumerate() {
        if i == max_lines || out.len() >= max_len {
            let rest = payload.len() - i * BYTES_PER_LINE;
            write_line(
                out,
                offset + i * BYTES_PER_LINE,
                &[],
                indent,
                &alloc::format!("... {rest} more byte{}", if rest == 1 { "" } else { "s" }),
            );
            return;
        }
        let mut text = String::from("|");
        text.extend(chunk.iter().map(|&b| if b.is_ascii_graphic() || b == b' ' { b as char } else { '.' }));
        text.push('|');
        write_line(out, offset + i * BYTES_PER_LINE, chunk, indent, &text);
    }
}

/// Walks msgpack values, writing one line per value. Shared with the layout-aware dump, which
/// sets `label` (a field path) for the next line.
pub(crate) struct Dumper<'a> {
    pub(crate) bytes: &'a [u8],
    pub(crate) pos: usize,
    pub(crate) out: String,
    options: Options,
    /// Text put before the next line's description (`"shape[0]: "`).
    pub(crate) label: Option<String>,
    /// Set once the text reached `options.max_output`: nothing more is written.
    pub(crate) full: bool,
    /// Where the input was when the text filled up.
    stopped_at: usize,
}

impl<'a> Dumper<'a> {
    pub(crate) fn new(bytes: &'a [u8], pos: usize, options: Options) -> Self {
        Dumper { bytes, pos, out: String::new(), options, label: None, full: false, stopped_at: 0 }
    }

    /// The text, with a last line saying where it stopped if it filled up.
    pub(crate) fn finish(mut self) -> String {
        if self.full {
            let at = self.options.base_offset + self.stopped_at;
            let _ = writeln!(
                self.out,
                "!! output limit of {} reached at offset {at:04x}: {} not shown",
                crate::format::error::bytes(self.options.max_output as u64),
                crate::format::error::bytes(self.bytes.len().saturating_sub(self.stopped_at) as u64)
            );
        }
        self.out
    }

    /// Whether the text is full (marking it so at input position `at`).
    fn filled(&mut self, at: usize) -> bool {
        if !self.full && self.out.len() >= self.options.max_output {
            self.full = true;
            self.stopped_at = at;
        }
        self.full
    }

    /// Writes one line for the bytes `start..self.pos`.
    fn emit(&mut self, start: usize, depth: usize, text: &str) {
        let bytes = &self.bytes[start..self.pos];
        self.line(start, bytes, depth, text);
    }

    pub(crate) fn line(&mut self, at: usize, bytes: &[u8], depth: usize, text: &str) {
        if self.filled(at) {
            return;
        }
        match self.label.take() {
            Some(mut label) => {
                label.push_str(text);
                write_line(&mut self.out, self.options.base_offset + at, bytes, depth, &label);
            }
            None => write_line(&mut self.out, self.options.base_offset + at, bytes, depth, text),
        }
    }

    fn payload(&mut self, at: usize, payload: &[u8], depth: usize) {
        if self.filled(at) {
            return;
        }
        let (max, limit) = (self.options.max_payload_lines, self.options.max_output);
        write_payload_within(&mut self.out, self.options.base_offset + at, payload, depth, max, limit);
        self.filled(at);
    }

    pub(crate) fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], String> {
        let bytes: &'a [u8] = self.bytes;
        match bytes.get(self.pos..).and_then(|rest| rest.get(..n)) {
            Some(s) => {
                self.pos += n;
                Ok(s)
            }
            None => Err(alloc::format!(
                "{what} needs {}, {} remain",
                crate::format::error::bytes(n as u64),
                self.bytes.len().saturating_sub(self.pos)
            )),
        }
    }

    /// Dumps the value at `pos`, advancing past it.
    pub(crate) fn value(&mut self, depth: usize) -> Result<(), String> {
        if depth > MAX_DEPTH {
            return Err(alloc::format!("nested deeper than {MAX_DEPTH} levels"));
        }
        let start = self.pos;
        let m = self.take(1, "a marker")?[0];
        let Some(enc) = Encoding::of_marker(m) else {
            return self.ext(start, m, depth);
        };
        match enc.family() {
            Family::Nil => self.emit(start, depth, "nil"),
            Family::Bool => self.emit(start, depth, if m == marker::TRUE { "true" } else { "false" }),
            Family::Int => {
                let width = enc.value_width().unwrap_or(0);
                let v = int::decode(enc, m, self.take(width, enc.name())?);
                let text = match v {
                    Int::U(u) => alloc::format!("{enc} {u}"),
                    Int::I(i) => alloc::format!("{enc} {i}"),
                };
                self.emit(start, depth, &text);
            }
            Family::Float => {
                let text = if enc == Encoding::Float32 {
                    let b = self.take(4, "float32")?;
                    alloc::format!("float32 {}", f32::from_be_bytes([b[0], b[1], b[2], b[3]]))
                } else {
                    let mut be = [0u8; 8];
                    be.copy_from_slice(self.take(8, "float64")?);
                    alloc::format!("float64 {}", f64::from_be_bytes(be))
                };
                self.emit(start, depth, &text);
            }
            Family::Str | Family::Bin => {
                let len = self.len(enc, m)?;
                let header_end = self.pos;
                let payload = self.take(len, enc.name())?;
                let text = match (enc.family(), core::str::from_utf8(payload)) {
                    (Family::Str, Ok(s)) => alloc::format!("{enc}({len}) {s:?}"),
                    (Family::Str, Err(_)) => alloc::format!("{enc}({len}) raw bytes"),
                    _ => alloc::format!("{enc}({len})"),
                };
                let header = &self.bytes[start..header_end];
                self.line(start, header, depth, &text);
                self.payload(header_end, payload, depth + 1);
            }
            Family::Array | Family::Map => {
                let len = self.len(enc, m)?;
                let per_item = if enc.family() == Family::Map { 2 } else { 1 };
                self.emit(start, depth, &alloc::format!("{enc}({len})"));
                for _ in 0..len * per_item {
                    self.value(depth + 1)?;
                }
            }
            Family::Ext | Family::Raw => return self.ext(start, m, depth),
        }
        Ok(())
    }

    pub(crate) fn len(&mut self, enc: Encoding, m: u8) -> Result<usize, String> {
        Ok(match enc.marker() {
            crate::format::encoding::MarkerSpec::Counted { base, .. } => (m - base) as usize,
            _ => {
                let n = enc.prefix_len();
                let mut be = [0u8; 4];
                be[4 - n..].copy_from_slice(self.take(n, enc.name())?);
                let len = u32::from_be_bytes(be) as usize;
                if len > self.bytes.len() - self.pos {
                    return Err(alloc::format!(
                        "{enc} length {len} exceeds the {} that remain",
                        crate::format::error::bytes((self.bytes.len() - self.pos) as u64)
                    ));
                }
                len
            }
        })
    }

    fn ext(&mut self, start: usize, m: u8, depth: usize) -> Result<(), String> {
        let (name, len) = match m {
            marker::FIXEXT1 => ("fixext1", 1),
            marker::FIXEXT2 => ("fixext2", 2),
            marker::FIXEXT4 => ("fixext4", 4),
            marker::FIXEXT8 => ("fixext8", 8),
            marker::FIXEXT16 => ("fixext16", 16),
            marker::EXT8 | marker::EXT16 | marker::EXT32 => {
                let n = match m {
                    marker::EXT8 => 1,
                    marker::EXT16 => 2,
                    _ => 4,
                };
                let mut be = [0u8; 4];
                be[4 - n..].copy_from_slice(self.take(n, "ext length")?);
                ("ext", u32::from_be_bytes(be) as usize)
            }
            _ => {
                self.pos = start;
                return Err(alloc::format!("invalid marker {m:02x}"));
            }
        };
        let ty = self.take(1, "ext type")?[0];
        let header_end = self.pos;
        let payload = self.take(len, name)?;
        let text = alloc::format!("{name}({len}) type {}", ty as i8);
        let header = &self.bytes[start..header_end];
        self.line(start, header, depth, &text);
        self.payload(header_end, payload, depth + 1);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn never_panics_on_garbage() {
        for bytes in [&[0xc6, 0xff, 0xff, 0xff, 0xff][..], &[0xdc, 0xff], &[0xc1], &[0xd3, 1], &[0x9f; 80]] {
            let text = annotate(bytes);
            assert!(text.contains("!!"), "{text}");
        }
    }
}
