//! The serde `Deserializer` of the format: reads from a byte slice, borrows strings and bytes
//! from it, and checks every marker against the encoding the Rust type implies.

use serde_core::de::Visitor;

use super::raw::{RawDeserializer, RawShape};
use crate::format::config::{Config, ModeState, Widths};
use crate::format::encoding::{Encoding, Expected, Family, marker};
use crate::format::error::{Error, ErrorKind, Result, Segment};
use crate::format::int::{self, FromInt, Int};

pub(super) mod exact;

/// Reads values from a byte slice.
///
/// In strict mode (the default of [`Config::fixed`]) every marker must be exactly the one the
/// Rust type, or the override of a [`wrap`](crate::wrap) newtype, implies; in lenient mode any
/// msgpack encoding of a value that fits is accepted. Lengths and counts are checked against the
/// rest of the input before anything is allocated, and nesting is bounded by
/// [`Config::max_depth`].
pub struct Deserializer<'de> {
    pub(super) input: &'de [u8],
    pub(super) pos: usize,
    pub(super) config: Config,
    /// An override set by a wrapper newtype, consumed by the next value read.
    pub(super) pending: Option<Encoding>,
    pub(super) depth: u16,
    /// Whether the next derived struct is the whole input and checks its end itself.
    pub(super) whole: bool,
    /// The length a field declares (`fixstr(len = N)`), checked against the next counted marker
    /// before its bytes are read: set by [`LEN_MAGIC`](crate::format::encoding::LEN_MAGIC).
    pub(super) expect_len: Option<usize>,
    /// The last field of the struct read at the top level, and where it was read: named if
    /// bytes are left after it.
    pub(super) last_field: Option<(LastName, usize)>,
}

/// How the last field of a struct is named: by its name in a struct written as an array, by its
/// key (where it starts, read again only for the error) in one written as a map.
#[derive(Clone, Copy)]
pub(crate) enum LastName {
    Field(&'static str),
    KeyAt(usize),
}

impl ModeState for Deserializer<'_> {
    #[inline]
    fn mode_state(&mut self) -> (&mut Config, &mut Option<Encoding>) {
        (&mut self.config, &mut self.pending)
    }
}

impl<'de> Deserializer<'de> {
    /// A deserializer over `input` with the fixed, strict configuration.
    #[inline]
    pub fn from_slice(input: &'de [u8]) -> Self {
        Self::from_slice_with(input, Config::fixed())
    }

    /// A deserializer over `input` with `config`.
    #[inline]
    pub fn from_slice_with(input: &'de [u8], config: Config) -> Self {
        Deserializer {
            input,
            pos: 0,
            config,
            pending: None,
            depth: config.max_depth,
            whole: false,
            expect_len: None,
            last_field: None,
        }
    }

    /// The offset of the next byte to read.
    #[inline]
    pub fn position(&self) -> usize {
        self.pos
    }

    /// The input not read yet.
    #[inline]
    pub fn remaining_input(&self) -> &'de [u8] {
        &self.input[self.pos..]
    }

    /// Checks that the whole input was read.
    #[inline]
    pub fn end(&self) -> Result<()> {
        match self.input.len() - self.pos {
            0 => Ok(()),
            count => Err(self.trailing(count)),
        }
    }

    /// Bytes left after the value: after a struct, its last field is named, with the count or
    /// length its header states (a changed count ends the struct early).
    #[cold]
    #[inline(never)]
    fn trailing(&self, count: usize) -> Error {
        let e = Error::at(ErrorKind::TrailingBytes { count }, self.pos);
        let Some((name, at)) = self.last_field else { return e };
        let segment = match name {
            LastName::Field(name) => Segment::Field(name),
            LastName::KeyAt(k) => {
                let mut de = Deserializer::from_slice_with(&self.input[k..], Config::minimal());
                match <&str as serde_core::Deserialize>::deserialize(&mut de) {
                    Ok(key) => Segment::Key(key.into()),
                    Err(_) => return e,
                }
            }
        };
        let rest = self.input.get(at..).unwrap_or_default();
        let stated = rest.first().and_then(|&m| Encoding::of_marker(m)).and_then(|enc| {
            let what = match enc.family() {
                Family::Array | Family::Map => "count",
                Family::Str | Family::Bin => "length",
                _ => return None,
            };
            exact::header_at(enc, rest).map(|(n, _)| (what, n))
        });
        e.after_last_field(segment, at, stated)
    }

    /// Notes `name`, read from `at`, as the last field of the struct being read, when that
    /// struct is the value at the top level (called inside it, before it is left): [`Self::end`]
    /// names it if bytes are left after the struct.
    #[inline]
    pub(crate) fn note_last_field(&mut self, name: LastName, at: usize) {
        if self.depth.checked_add(1) == Some(self.config.max_depth) {
            self.last_field = Some((name, at));
        }
    }

    #[inline]
    pub(super) fn remaining(&self) -> usize {
        self.input.len() - self.pos
    }

    #[inline]
    pub(super) fn peek(&self) -> Result<u8> {
        match self.input.get(self.pos) {
            Some(&b) => Ok(b),
            None => Err(self.eof(1)),
        }
    }

    #[cold]
    pub(super) fn eof(&self, needed: usize) -> Error {
        Error::at(ErrorKind::UnexpectedEof { needed, available: self.remaining() }, self.pos)
    }

    #[inline]
    pub(super) fn take(&mut self, n: usize) -> Result<&'de [u8]> {
        match self.input.get(self.pos..self.pos.wrapping_add(n)) {
            Some(s) if self.pos.checked_add(n).is_some() => {
                self.pos += n;
                Ok(s)
            }
            _ => Err(self.eof(n)),
        }
    }

    /// The configuration in force.
    #[inline]
    pub fn config(&self) -> Config {
        self.config
    }

    /// Reads an array header under the pending encoding (or `fixarray`), exactly as a sequence,
    /// tuple (`expect` elements) or struct is read, and returns where it started and its count.
    /// The count is checked against the rest of the input.
    #[inline]
    pub(crate) fn array_header(&mut self, expect: Option<usize>) -> Result<(usize, usize)> {
        let start = self.pos;
        let explicit = self.pending.is_some();
        let enc = self.read_marker(Encoding::FixArray, Family::Array)?;
        let len = self.read_len(enc, start, 1, explicit)?;
        if let Some(n) = expect
            && n != len
            && self.config.strict
        {
            return Err(Error::at(
                ErrorKind::UnexpectedMarker {
                    expected: Expected::with_len(enc, n as u32),
                    found: self.input[start],
                },
                start,
            )
            .with_len_mismatch(enc, n, len));
        }
        Ok((start, len))
    }

    /// Reads a map header under the pending encoding (or `map16`), as a map is read, and
    /// returns where it started and its count, checked against the rest of the input.
    #[inline]
    #[doc(hidden)]
    pub fn map_header(&mut self) -> Result<(usize, usize)> {
        let start = self.pos;
        let explicit = self.pending.is_some();
        let enc = self.read_marker(Encoding::Map16, Family::Map)?;
        let len = self.read_len(enc, start, 2, explicit)?;
        Ok((start, len))
    }

    #[inline(always)]
    #[doc(hidden)]
    pub fn enter(&mut self) -> Result<()> {
        match self.depth.checked_sub(1) {
            Some(d) => {
                self.depth = d;
                Ok(())
            }
            None => Err(self.too_deep()),
        }
    }

    #[cold]
    #[inline(never)]
    pub(super) fn too_deep(&self) -> Error {
        Error::at(ErrorKind::DepthLimitExceeded { max: self.config.max_depth }, self.pos)
    }

    #[inline(always)]
    #[doc(hidden)]
    pub fn leave(&mut self) {
        self.depth += 1;
    }

    /// Reads the marker of the next value and returns the encoding it is read as.
    ///
    /// Strict and fixed, or with an override: the marker must be the one `default` (or the
    /// override) writes. Otherwise any marker of `family` is taken (strings and binaries stand in
    /// for each other, integers for floats), and a strict minimal reader later checks that the
    /// value or length used the smallest form.
    #[inline]
    pub(super) fn read_marker(&mut self, default: Encoding, family: Family) -> Result<Encoding> {
        let m = self.peek()?;
        let over = self.pending.take();
        let exact = match over {
            Some(e) => Some(e),
            None if self.config.strict && self.config.widths == Widths::Fixed => Some(default),
            None => None,
        };
        let enc = match exact {
            Some(e) if e.accepts(m) => Some(e),
            Some(e) if self.config.strict => return Err(self.unexpected(Expected::any(e), m)),
            // Lenient with an override: a counted array also takes the standard array markers.
            _ => Encoding::of_marker(m).filter(|e| compatible(family, e.family())),
        };
        match enc {
            Some(e) => {
                self.pos += 1;
                Ok(e)
            }
            None => Err(self.unexpected(Expected::any(exact.unwrap_or(default)), m)),
        }
    }

    #[cold]
    pub(super) fn unexpected(&self, expected: Expected, found: u8) -> Error {
        match found {
            marker::NEVER_USED => Error::at(ErrorKind::InvalidMarker(found), self.pos),
            _ => Error::at(ErrorKind::UnexpectedMarker { expected, found }, self.pos),
        }
    }

    /// Whether a strict minimal reader must check that `enc` was the smallest form.
    #[inline]
    pub(super) fn canonical_check(&self) -> bool {
        self.config.strict && self.config.widths == Widths::Minimal
    }

    /// Reads the length or count of a container whose marker (at `start`) was read as `enc`, and
    /// checks that the rest of the input can hold `len * min_item` bytes.
    #[inline]
    pub(super) fn read_len(
        &mut self,
        enc: Encoding,
        start: usize,
        min_item: usize,
        explicit: bool,
    ) -> Result<usize> {
        let m = self.input[start];
        let len = match enc.marker() {
            crate::format::encoding::MarkerSpec::Counted { base, .. } => (m - base) as usize,
            _ => {
                let n = enc.prefix_len();
                let mut be = [0u8; 4];
                be[4 - n..].copy_from_slice(self.take(n)?);
                u32::from_be_bytes(be) as usize
            }
        };
        if !explicit && self.canonical_check() {
            let min = Encoding::minimal_len(enc.family(), len);
            if min != enc {
                return Err(Error::at(
                    ErrorKind::UnexpectedMarker { expected: Expected::with_len(min, len as u32), found: m },
                    start,
                ));
            }
        }
        if (len as u64).saturating_mul(min_item as u64) > self.remaining() as u64 {
            return Err(Error::at(
                ErrorKind::LengthExceedsInput { encoding: enc, len: len as u64, available: self.remaining() },
                start,
            ));
        }
        Ok(len)
    }

    #[inline]
    pub(super) fn read_int<T: FromInt>(&mut self, default: Encoding) -> Result<T> {
        let start = self.pos;
        // Fast path: the override or the type's own fixed encoding, an integer one, well formed.
        // Anything else (another override, a lenient or minimal reader, a wrong marker, the end
        // of the input) takes the full path, which also builds the error.
        let exact = self.pending.or_else(|| (self.config.widths == Widths::Fixed).then_some(default));
        if self.config.strict
            && let Some(enc) = exact
            && let Some((v, n)) = exact::int_at(enc, &self.input[start..])
            && let Some(t) = T::from_int(v)
        {
            self.pos = start + n;
            self.pending = None;
            return Ok(t);
        }
        self.pos = start;
        if self.pending == Some(Encoding::Raw) && T::NAME.len() == 2 {
            // `u8`/`i8` as a bare byte.
            self.pending = None;
            let b = self.take(1)?[0];
            return T::from_int(if T::NAME == "i8" { Int::I(b as i8 as i64) } else { Int::U(b as u64) })
                .ok_or_else(|| Error::at(ErrorKind::Unsupported("raw byte"), start));
        }
        let explicit = self.pending.is_some();
        let enc = self.read_marker(default, Family::Int)?;
        if enc.family() != Family::Int {
            return Err(Error::at(ErrorKind::IncompatibleEncoding { encoding: enc, rust: T::NAME }, start));
        }
        let width = enc.value_width().unwrap_or(0);
        let v = int::decode(enc, self.input[start], self.take(width)?);
        if !explicit && self.canonical_check() && v.minimal() != enc {
            return Err(Error::at(
                ErrorKind::UnexpectedMarker {
                    expected: Expected::any(v.minimal()),
                    found: self.input[start],
                },
                start,
            ));
        }
        T::from_int(v).ok_or_else(|| {
            let hint = (default == Encoding::FixInt).then_some(int::FIXINT_HINT);
            Error::at(v.out_of_range(T::NAME, hint), start)
        })
    }

    pub(super) fn read_float(&mut self, default: Encoding) -> Result<f64> {
        let start = self.pos;
        let enc = self.read_marker(default, Family::Float)?;
        match enc {
            Encoding::Float32 => {
                let b = self.take(4)?;
                Ok(f64::from(f32::from_be_bytes([b[0], b[1], b[2], b[3]])))
            }
            Encoding::Float64 => {
                let mut be = [0u8; 8];
                be.copy_from_slice(self.take(8)?);
                Ok(f64::from_be_bytes(be))
            }
            _ => {
                let v = int::decode(enc, self.input[start], self.take(enc.value_width().unwrap_or(0))?);
                Ok(match v {
                    Int::U(u) => u as f64,
                    Int::I(i) => i as f64,
                })
            }
        }
    }

    /// The bytes of a str, bin or fixext16 value.
    pub(super) fn read_bytes(&mut self, default: Encoding, family: Family) -> Result<&'de [u8]> {
        self.check_declared_len()?;
        let start = self.pos;
        match self.pending {
            Some(Encoding::Raw) => {
                return Err(Error::at(
                    ErrorKind::Unsupported("raw bytes read into a type without a fixed length (use [u8; N])"),
                    start,
                ));
            }
            Some(Encoding::FixExt16) => {
                self.read_marker(default, family)?;
                return self.take(17);
            }
            _ => {}
        }
        let explicit = self.pending.is_some();
        let enc = self.read_marker(default, family)?;
        let len = self.read_len(enc, start, 1, explicit)?;
        self.take(len)
    }

    /// Checks the next marker against the length the field declares (`fixstr(len = N)`), if
    /// any, under the pending encoding: a changed marker is named as such ("expected fixstr(4)
    /// marker a4, found a5") before the bytes it announces are read as text. A lenient reader
    /// lets another form of the family stand in.
    #[inline]
    pub(super) fn check_declared_len(&mut self) -> Result<()> {
        let Some(n) = self.expect_len.take() else { return Ok(()) };
        let (Some(enc), Some(&found)) = (self.pending, self.input.get(self.pos)) else { return Ok(()) };
        if !self.config.strict && !enc.accepts(found) {
            return Ok(());
        }
        match Expected::counted_mismatch(enc, n, found) {
            Some(expected) => Err(Error::at(ErrorKind::UnexpectedMarker { expected, found }, self.pos)),
            None => Ok(()),
        }
    }

    /// Reads a value under a byte encoding into a sequence, tuple or struct of bytes.
    pub(super) fn read_raw<V: Visitor<'de>>(
        &mut self,
        enc: Encoding,
        shape: RawShape,
        visitor: V,
    ) -> Result<V::Value> {
        let start = self.pos;
        let bounded = match enc.family() {
            Family::Raw => {
                self.pending = None;
                false
            }
            Family::Ext => {
                self.read_marker(enc, Family::Ext)?;
                true
            }
            _ => {
                self.check_declared_len()?;
                let e = self.read_marker(enc, enc.family())?;
                // A byte array (`[u8; N]`) under a counted marker (`fixstr`) carries its length:
                // when the bytes do not read, a marker that is not `N`'s is named as the fault,
                // not the short input or the trailing bytes it leads to.
                let found = self.input[start];
                let want = match shape {
                    RawShape::Tuple(n) => Expected::counted_mismatch(e, n, found),
                    _ => None,
                };
                let named = |err: Error| match want {
                    Some(expected) => Error::at(ErrorKind::UnexpectedMarker { expected, found }, start),
                    None => err,
                };
                let len = match self.read_len(e, start, 1, true) {
                    Ok(len) => len,
                    Err(err) => return Err(named(err)),
                };
                let window = &self.input[..self.pos + len];
                let mut raw = RawDeserializer::new(window, self.pos, true);
                let v = raw.visit(shape, visitor).map_err(|err: Error| named(err.with_offset(start)))?;
                raw.finish(enc, start).map_err(|err| match shape {
                    // A struct of bytes (a packed struct) read whole with bytes left over: its
                    // marker states another length than the struct's, and is named as the fault.
                    RawShape::Struct(_) => {
                        match Expected::counted_mismatch(e, raw.position() - self.pos, found) {
                            Some(expected) => {
                                Error::at(ErrorKind::UnexpectedMarker { expected, found }, start)
                            }
                            None => err,
                        }
                    }
                    _ => named(err),
                })?;
                self.pos += len;
                return Ok(v);
            }
        };
        let end = if bounded { (self.pos + 17).min(self.input.len()) } else { self.input.len() };
        let mut raw = RawDeserializer::new(&self.input[..end], self.pos, bounded);
        let v = raw.visit(shape, visitor).map_err(|e: Error| e.with_offset(start))?;
        if bounded {
            raw.finish(enc, start)?;
        }
        self.pos = raw.position();
        Ok(v)
    }

    /// The byte encoding pending for a compound target, if any.
    #[inline]
    pub(super) fn pending_bytes(&self) -> Option<Encoding> {
        self.pending.filter(|e| e.is_bytes())
    }
}

/// Whether `m` starts an ext value (fixext1..16, ext8..32).
pub(super) fn is_ext(m: u8) -> bool {
    matches!(m, marker::EXT8..=marker::EXT32 | marker::FIXEXT1..=marker::FIXEXT16)
}

/// Which marker families a lenient reader takes for a target family.
#[inline]
fn compatible(target: Family, found: Family) -> bool {
    target == found
        || matches!(
            (target, found),
            (Family::Str, Family::Bin) | (Family::Bin, Family::Str) | (Family::Float, Family::Int)
        )
}

trait LenMismatch {
    fn with_len_mismatch(self, enc: Encoding, expected: usize, found: usize) -> Self;
}

impl LenMismatch for Error {
    /// Counted markers already say the length; other array encodings say it in the prefix.
    fn with_len_mismatch(self, enc: Encoding, expected: usize, found: usize) -> Self {
        if matches!(enc.marker(), crate::format::encoding::MarkerSpec::Counted { .. }) {
            return self;
        }
        let offset = self.offset().unwrap_or(0);
        Error::at(
            ErrorKind::Mismatch {
                what: "array length",
                expected: alloc::format!("{expected}"),
                found: alloc::format!("{found}"),
            },
            offset,
        )
    }
}
