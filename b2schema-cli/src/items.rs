//! An NDArray's items as text (`cat --text`, and `cat` to a terminal): each item as NumPy
//! would print it (numbers in their shortest round-trip form at their own width, `nan`, `inf`,
//! `True`/`False`, strings and bytes quoted, structured items as `(field, ...)`, subarrays and
//! complex pairs in brackets), the items of one row of the last dimension on one line. Text from
//! the file (strings, bytes) goes through [`crate::text::escape`]: no control character of it
//! reaches the terminal.

use std::fmt::{self, Write as _};

use serde_core::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};

/// One item, decoded for showing.
#[derive(Debug, PartialEq)]
pub enum Shown {
    Bool(bool),
    Int(i64),
    UInt(u64),
    F32(f32),
    F64(f64),
    Str(String),
    Bytes(Vec<u8>),
    /// A subarray or a complex number's `(re, im)`.
    Seq(Vec<Shown>),
    /// A structured item's fields, in order.
    Fields(Vec<Shown>),
}

impl<'de> Deserialize<'de> for Shown {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(ShownVisitor)
    }
}

struct ShownVisitor;

impl<'de> Visitor<'de> for ShownVisitor {
    type Value = Shown;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an item of a NumPy dtype")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Shown, E> {
        Ok(Shown::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Shown, E> {
        Ok(Shown::Int(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Shown, E> {
        Ok(Shown::UInt(v))
    }
    fn visit_f32<E>(self, v: f32) -> Result<Shown, E> {
        Ok(Shown::F32(v))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Shown, E> {
        Ok(Shown::F64(v))
    }
    fn visit_str<E>(self, v: &str) -> Result<Shown, E> {
        Ok(Shown::Str(v.to_owned()))
    }
    fn visit_string<E>(self, v: String) -> Result<Shown, E> {
        Ok(Shown::Str(v))
    }
    fn visit_bytes<E>(self, v: &[u8]) -> Result<Shown, E> {
        Ok(Shown::Bytes(v.to_vec()))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Shown, A::Error> {
        let mut items = Vec::new();
        while let Some(v) = seq.next_element()? {
            items.push(v);
        }
        Ok(Shown::Seq(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Shown, A::Error> {
        let mut fields = Vec::new();
        while let Some((_, v)) = map.next_entry::<de::IgnoredAny, Shown>()? {
            fields.push(v);
        }
        Ok(Shown::Fields(fields))
    }
}

impl fmt::Display for Shown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Shown::Bool(true) => f.write_str("True"),
            Shown::Bool(false) => f.write_str("False"),
            Shown::Int(v) => write!(f, "{v}"),
            Shown::UInt(v) => write!(f, "{v}"),
            Shown::F32(v) => float(f, v.is_nan(), v.is_infinite(), *v < 0.0, &format!("{v:?}")),
            Shown::F64(v) => float(f, v.is_nan(), v.is_infinite(), *v < 0.0, &format!("{v:?}")),
            // Quoted as Rust quotes (control and invisible characters as `\u{..}`), then
            // escaped again by the one module that guards the terminal.
            Shown::Str(s) => write!(f, "{}", crate::text::escape(&format!("{s:?}"))),
            Shown::Bytes(b) => write!(f, "b\"{}\"", b.escape_ascii()),
            Shown::Seq(items) => list(f, "[", items, "]"),
            Shown::Fields(items) => list(f, "(", items, ")"),
        }
    }
}

/// A float as NumPy writes it: `nan`, `inf`, `-inf`, or Rust's shortest round-trip form.
fn float(f: &mut fmt::Formatter<'_>, nan: bool, inf: bool, neg: bool, text: &str) -> fmt::Result {
    match (nan, inf) {
        (true, _) => f.write_str("nan"),
        (_, true) if neg => f.write_str("-inf"),
        (_, true) => f.write_str("inf"),
        _ => f.write_str(text),
    }
}

fn list(f: &mut fmt::Formatter<'_>, open: &str, items: &[Shown], close: &str) -> fmt::Result {
    f.write_str(open)?;
    for (i, v) in items.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write!(f, "{v}")?;
    }
    f.write_str(close)
}

/// Writes items as lines of text: `row` items a line (the selection's last dimension), the items
/// of one piece after another (pieces may end inside a line).
pub struct Lines {
    dtype: b2schema::dtype::DType,
    itemsize: usize,
    row: u64,
    in_row: u64,
    line: String,
}

impl Lines {
    /// Lines of `row` items of `dtype` (`itemsize` bytes each); `row` 0 is taken as 1.
    pub fn new(dtype: b2schema::dtype::DType, itemsize: usize, row: u64) -> Self {
        Lines { dtype, itemsize, row: row.max(1), in_row: 0, line: String::new() }
    }

    /// The text of the items in `piece` (whole items), each line ended by `\n`.
    pub fn text(&mut self, piece: &[u8]) -> b2schema::Result<&str> {
        self.line.clear();
        use b2schema::array::{DateTime64, Element, TimeDelta64};
        use b2schema::dtype::{DType, Kind, Scalar};
        let time = match &self.dtype {
            DType::Scalar(Scalar { kind: Kind::DateTime { .. }, .. }) => Some(true),
            DType::Scalar(Scalar { kind: Kind::TimeDelta { .. }, .. }) => Some(false),
            _ => None,
        };
        for item in piece.chunks_exact(self.itemsize.max(1)) {
            if self.in_row > 0 {
                self.line.push(' ');
            }
            // Times as NumPy prints an array of them: dates in ISO 8601 to the unit, durations
            // as their count of the unit, `NaT`.
            let _ = match time {
                Some(true) => write!(self.line, "{}", DateTime64::from_item(item, &self.dtype)),
                Some(false) => match TimeDelta64::from_item(item, &self.dtype) {
                    t if t.is_nat() => write!(self.line, "NaT"),
                    t => write!(self.line, "{}", t.value),
                },
                None => {
                    let v: Shown = b2schema::array::decode_item(item, &self.dtype)?;
                    write!(self.line, "{v}")
                }
            };
            self.in_row += 1;
            if self.in_row == self.row {
                self.line.push('\n');
                self.in_row = 0;
            }
        }
        Ok(&self.line)
    }

    /// The end of the last line, if the items stopped inside one.
    pub fn finish(&mut self) -> &str {
        let open = self.in_row > 0;
        self.in_row = 0;
        if open { "\n" } else { "" }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use b2schema::dtype::DType;

    fn show(dtype: &str, bytes: &[u8]) -> String {
        let v: Shown = b2schema::array::decode_item(bytes, &DType::parse(dtype).unwrap()).unwrap();
        v.to_string()
    }

    #[test]
    fn items_read_as_numpy_prints_them() {
        assert_eq!(show("<f4", &0.1f32.to_le_bytes()), "0.1");
        assert_eq!(show("<f8", &0.1f64.to_le_bytes()), "0.1");
        assert_eq!(show(">f8", &1e300f64.to_be_bytes()), "1e300");
        assert_eq!(show("<f8", &f64::NAN.to_le_bytes()), "nan");
        assert_eq!(show("<f4", &f32::NEG_INFINITY.to_le_bytes()), "-inf");
        assert_eq!(show("<i2", &(-7i16).to_le_bytes()), "-7");
        assert_eq!(show("<u8", &u64::MAX.to_le_bytes()), u64::MAX.to_string());
        assert_eq!(show("|b1", &[1]), "True");
        assert_eq!(show("|S4", b"ab\x1b\0"), "b\"ab\\x1b\"");
        let mut c = 1.5f32.to_le_bytes().to_vec();
        c.extend(2.0f32.to_le_bytes());
        assert_eq!(show("<c8", &c), "[1.5, 2.0]");
        let mut s = 3i32.to_le_bytes().to_vec();
        s.extend(0.5f64.to_le_bytes());
        assert_eq!(show("[('a', '<i4'), ('b', '<f8')]", &s), "(3, 0.5)");
    }

    #[test]
    fn times_read_as_numpy_prints_them() {
        let lines = |dtype: &str, values: &[i64]| {
            let mut l = Lines::new(DType::parse(dtype).unwrap(), 8, values.len() as u64);
            let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
            l.text(&bytes).unwrap().to_owned()
        };
        assert_eq!(lines("<M8[s]", &[1_704_067_200, i64::MIN]), "2024-01-01T00:00:00 NaT\n");
        assert_eq!(lines(">M8[D]", &[i64::from_be(19_723)]), "2024-01-01\n");
        assert_eq!(lines("<m8[ms]", &[-5, i64::MIN]), "-5 NaT\n");
    }

    #[test]
    fn strings_from_the_file_reach_the_terminal_escaped() {
        for hostile in ["\x1b]0;owned\x07", "\u{9b}31m", "\u{202e}fdp", "ok\rFORGED", "\x7f"] {
            let mut bytes = Vec::new();
            for c in hostile.chars() {
                bytes.extend((c as u32).to_le_bytes());
            }
            let text = show(&format!("<U{}", hostile.chars().count()), &bytes);
            assert!(
                !text.chars().any(|c| c.is_control() || ('\u{202a}'..='\u{202e}').contains(&c)),
                "{text:?}"
            );
        }
    }

    #[test]
    fn rows_break_at_the_last_dimension_across_pieces() {
        let mut lines = Lines::new(DType::parse("<i2").unwrap(), 2, 3);
        let bytes: Vec<u8> = (0i16..7).flat_map(|v| v.to_le_bytes()).collect();
        let mut out = lines.text(&bytes[..4]).unwrap().to_owned();
        out += lines.text(&bytes[4..]).unwrap();
        out += lines.finish();
        assert_eq!(out, "0 1 2\n3 4 5\n6\n");
        assert_eq!(lines.finish(), "");
    }
}
