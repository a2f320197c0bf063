//! The JSON text python-blosc2 stores a CTable's schema as (`json.dumps`), read into a
//! [`Value`]. Hand-written rather than `serde_json`, whose reading path (with `memchr` and
//! `zmij`) is not safe Rust only (its audit is in SECURITY.md): this one is, bounded in depth, and allocates no
//! more than the text's length. It reads what `json.dumps` writes, `NaN`, `Infinity` and
//! `-Infinity` included; an error names the byte offset and what was expected and found.

use alloc::string::String;
use alloc::vec::Vec;

use crate::container::error::{Error, Result};
use crate::format::value::Value;

/// How deep arrays and objects may nest.
const MAX_DEPTH: usize = 64;

/// The one JSON value of `text` (white space around it allowed).
pub fn parse(text: &str) -> Result<Value> {
    let mut p = Parser { b: text.as_bytes(), at: 0 };
    let v = p.value(0)?;
    p.ws();
    if p.at != p.b.len() {
        return Err(p.err("the end of the JSON text", "more"));
    }
    Ok(v)
}

struct Parser<'a> {
    b: &'a [u8],
    at: usize,
}

impl Parser<'_> {
    fn err(&self, expected: &'static str, found: impl core::fmt::Display) -> Error {
        Error::invalid("JSON", expected, found, self.at)
    }

    fn found(&self) -> String {
        match self.b.get(self.at) {
            Some(c) => alloc::format!("{:?}", *c as char),
            None => "the end".into(),
        }
    }

    fn ws(&mut self) {
        while matches!(self.b.get(self.at), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    fn word(&mut self, w: &str, v: Value) -> Result<Value> {
        if self.b[self.at..].starts_with(w.as_bytes()) {
            self.at += w.len();
            Ok(v)
        } else {
            Err(self.err("a JSON value", self.found()))
        }
    }

    fn value(&mut self, depth: usize) -> Result<Value> {
        if depth > MAX_DEPTH {
            return Err(self.err("JSON nested at most 64 deep", "deeper"));
        }
        self.ws();
        match self.b.get(self.at) {
            Some(b'{') => {
                self.at += 1;
                let mut out = Vec::new();
                self.ws();
                if self.b.get(self.at) == Some(&b'}') {
                    self.at += 1;
                    return Ok(Value::Map(out));
                }
                loop {
                    self.ws();
                    if self.b.get(self.at) != Some(&b'"') {
                        return Err(self.err("a string key", self.found()));
                    }
                    let k = self.string()?;
                    self.ws();
                    if self.b.get(self.at) != Some(&b':') {
                        return Err(self.err("':'", self.found()));
                    }
                    self.at += 1;
                    let v = self.value(depth + 1)?;
                    out.try_reserve(1).map_err(|_| Error::no_memory("a JSON object", 1, self.at))?;
                    out.push((Value::Str(k), v));
                    self.ws();
                    match self.b.get(self.at) {
                        Some(b',') => self.at += 1,
                        Some(b'}') => {
                            self.at += 1;
                            return Ok(Value::Map(out));
                        }
                        _ => return Err(self.err("',' or '}'", self.found())),
                    }
                }
            }
            Some(b'[') => {
                self.at += 1;
                let mut out = Vec::new();
                self.ws();
                if self.b.get(self.at) == Some(&b']') {
                    self.at += 1;
                    return Ok(Value::Array(out));
                }
                loop {
                    let v = self.value(depth + 1)?;
                    out.try_reserve(1).map_err(|_| Error::no_memory("a JSON array", 1, self.at))?;
                    out.push(v);
                    self.ws();
                    match self.b.get(self.at) {
                        Some(b',') => self.at += 1,
                        Some(b']') => {
                            self.at += 1;
                            return Ok(Value::Array(out));
                        }
                        _ => return Err(self.err("',' or ']'", self.found())),
                    }
                }
            }
            Some(b'"') => Ok(Value::Str(self.string()?)),
            Some(b't') => self.word("true", Value::Bool(true)),
            Some(b'f') => self.word("false", Value::Bool(false)),
            Some(b'n') => self.word("null", Value::Nil),
            Some(b'N') => self.word("NaN", Value::F64(f64::NAN)),
            Some(b'I') => self.word("Infinity", Value::F64(f64::INFINITY)),
            Some(b'-') if self.b[self.at..].starts_with(b"-Infinity") => {
                self.word("-Infinity", Value::F64(f64::NEG_INFINITY))
            }
            Some(b'-' | b'0'..=b'9') => self.number(),
            _ => Err(self.err("a JSON value", self.found())),
        }
    }

    fn number(&mut self) -> Result<Value> {
        let start = self.at;
        let mut float = false;
        while let Some(&c) = self.b.get(self.at) {
            match c {
                b'0'..=b'9' | b'-' | b'+' => {}
                b'.' | b'e' | b'E' => float = true,
                _ => break,
            }
            self.at += 1;
        }
        let text = core::str::from_utf8(&self.b[start..self.at]).unwrap_or("");
        let v = if float {
            text.parse::<f64>().ok().map(Value::F64)
        } else {
            text.parse::<i128>().ok().map(Value::Int)
        };
        v.ok_or_else(|| Error::invalid("JSON", "a number", text, start))
    }

    /// A string at `"`, its escapes decoded (`\uXXXX` pairs included).
    fn string(&mut self) -> Result<String> {
        self.at += 1;
        let mut out = String::new();
        loop {
            let run = self.at;
            while let Some(&c) = self.b.get(self.at) {
                if c == b'"' || c == b'\\' || c < 0x20 {
                    break;
                }
                self.at += 1;
            }
            // The text is a &str and the run stops at an ASCII byte: a char boundary.
            out.push_str(
                core::str::from_utf8(&self.b[run..self.at]).map_err(|_| self.err("UTF-8", "bytes"))?,
            );
            match self.b.get(self.at) {
                Some(b'"') => {
                    self.at += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.at += 1;
                    let c = match self.b.get(self.at) {
                        Some(b'"') => '"',
                        Some(b'\\') => '\\',
                        Some(b'/') => '/',
                        Some(b'b') => '\u{8}',
                        Some(b'f') => '\u{c}',
                        Some(b'n') => '\n',
                        Some(b'r') => '\r',
                        Some(b't') => '\t',
                        Some(b'u') => {
                            let hi = self.hex4()?;
                            let code = if (0xd800..0xdc00).contains(&hi)
                                && self.b[self.at + 1..].starts_with(b"\\u")
                            {
                                self.at += 2;
                                let lo = self.hex4()?;
                                0x10000 + ((hi - 0xd800) << 10) + (lo.wrapping_sub(0xdc00) & 0x3ff)
                            } else {
                                hi
                            };
                            char::from_u32(code).unwrap_or('\u{fffd}')
                        }
                        _ => return Err(self.err("a JSON escape", self.found())),
                    };
                    self.at += 1;
                    out.push(c);
                }
                _ => return Err(self.err("the end of a string '\"'", self.found())),
            }
        }
    }

    /// The four hex digits after `\u` (left on the last one).
    fn hex4(&mut self) -> Result<u32> {
        let digits =
            self.b.get(self.at + 1..self.at + 5).ok_or_else(|| self.err("four hex digits", "the end"))?;
        let text = core::str::from_utf8(digits).unwrap_or("");
        let v = u32::from_str_radix(text, 16).map_err(|_| self.err("four hex digits", text))?;
        self.at += 4;
        Ok(v)
    }
}

/// `s` as a JSON string.
pub(super) fn json_str(out: &mut String, s: &str) {
    out.push('"');
    for ch in s.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&alloc::format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_json_dumps_writes() {
        let v =
            parse(r#" {"a": [1, -2.5e1, true, null, "x\"\u00e9\ud83d\ude00"], "n": NaN, "i": -Infinity} "#)
                .unwrap();
        let a = v.get("a").unwrap().as_slice().unwrap();
        assert_eq!(a[0], Value::Int(1));
        assert_eq!(a[1], Value::F64(-25.0));
        assert_eq!(a[4], Value::Str("x\"é😀".into()));
        assert!(v.get("n").unwrap().as_f64().unwrap().is_nan());
        for bad in ["", "{", "[1,", "{\"a\" 1}", "\"\\u12\"", "tru", "1 2", "[\"\u{1}\"]"] {
            assert!(parse(bad).is_err(), "{bad:?}");
        }
        assert!(parse(&"[".repeat(100)).unwrap_err().to_string().contains("nested"));
    }
}
