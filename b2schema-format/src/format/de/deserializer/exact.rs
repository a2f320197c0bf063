//! The direct decoder's readers: a value read straight from the input when its bytes are exactly
//! what its encoding writes, or `None` with nothing consumed (the serde path then reads it and
//! reports what is wrong). The pure readers at the end take a slice, so that a derived struct
//! can also read a field at a constant offset.

use super::Deserializer;
use crate::format::config::Widths;
use crate::format::encoding::{Encoding, Family, MarkerSpec, marker};
use crate::format::int::{self, FromInt, Int};

impl<'de> Deserializer<'de> {
    /// Makes the next derived struct check that it ends the input, before it builds its value
    /// (so that the value is built once, where it is returned).
    #[inline(always)]
    pub(crate) fn expect_whole(&mut self) {
        self.whole = true;
    }

    /// Whether the struct about to be read must end the input (asked once: a struct inside it
    /// does not).
    #[inline(always)]
    pub(crate) fn take_whole(&mut self) -> bool {
        core::mem::take(&mut self.whole)
    }

    /// Moves back to `pos`, a position this deserializer was at (the direct decoder undoing a
    /// fast path before the serde path reads the value again).
    #[inline]
    pub(crate) fn rewind(&mut self, pos: usize) {
        self.pos = pos;
    }

    /// Whether values are read strictly, with the fixed widths and no override pending: the
    /// bytes of every value are then exactly those of its type's own encoding.
    #[inline(always)]
    #[doc(hidden)]
    pub fn reads_exact(&self) -> bool {
        self.config.strict && self.pending.is_none() && self.config.widths == Widths::Fixed
    }

    /// Moves past `n` bytes the direct decoder has read from [`Self::remaining_input`].
    #[inline(always)]
    #[doc(hidden)]
    pub fn advance(&mut self, n: usize) {
        self.pos += n;
    }

    /// The direct decoder's integer: the value written exactly under `enc` (an override) or the
    /// type's `default`, when reading strictly; `None`, with nothing consumed, for anything else
    /// (the serde path then reads it, or builds the error). Both encodings are constants at the
    /// call site, so this compiles to one marker compare and one load.
    #[inline(always)]
    pub(crate) fn exact_int<T: FromInt>(&mut self, enc: Option<Encoding>, default: Encoding) -> Option<T> {
        let e = match enc {
            Some(e) => e,
            None if self.config.widths == Widths::Fixed => default,
            None => return None,
        };
        if !self.config.strict || self.pending.is_some() {
            return None;
        }
        let (v, n) = int_at(e, &self.input[self.pos..])?;
        let v = T::from_int(v)?;
        self.pos += n;
        Some(v)
    }

    /// The direct decoder's bool: `c2` or `c3` under its own encoding (any mode reads it the
    /// same), or `None` with nothing consumed.
    #[inline(always)]
    pub(crate) fn exact_bool(&mut self, enc: Option<Encoding>) -> Option<bool> {
        if enc.is_some_and(|e| e != Encoding::Bool) || self.pending.is_some() {
            return None;
        }
        let v = marker::bool_of(*self.input.get(self.pos)?)?;
        self.pos += 1;
        Some(v)
    }

    /// The direct decoder's array or map header: the count of an array (or map) written exactly
    /// under `enc` (an override, or the type's own encoding when `explicit` is false), which must
    /// be `expect` when given and fit in the rest of the input; `None`, with nothing consumed, for
    /// anything else (the serde path then reads it, or builds the error).
    #[inline(always)]
    #[doc(hidden)]
    pub fn exact_container_header(
        &mut self,
        enc: Encoding,
        explicit: bool,
        expect: Option<usize>,
    ) -> Option<(usize, usize)> {
        // Each array element takes at least one byte, each map entry two.
        let min_item = match enc.family() {
            Family::Array => 1,
            Family::Map => 2,
            _ => return None,
        };
        if !self.config.strict || self.pending.is_some() || !(explicit || self.config.widths == Widths::Fixed)
        {
            return None;
        }
        let start = self.pos;
        let (len, head) = header_at(enc, &self.input[self.pos..])?;
        if expect.is_some_and(|n| n != len) || len.saturating_mul(min_item) > self.input.len() - start - head
        {
            return None;
        }
        self.pos = start + head;
        Some((start, len))
    }

    /// The direct decoder's text and bytes: the payload written exactly under `enc` (an
    /// override) or `default` (with fixed widths), a str or bin encoding with an exact marker or
    /// a fixstr, or the 17 bytes of a fixext16, when reading strictly; `None`, with nothing
    /// consumed, for anything else.
    #[inline(always)]
    pub(crate) fn exact_bytes(&mut self, enc: Option<Encoding>, default: Encoding) -> Option<&'de [u8]> {
        let e = match enc {
            Some(e) => e,
            None if self.config.widths == Widths::Fixed => default,
            None => return None,
        };
        if !self.config.strict
            || self.pending.is_some()
            || !matches!(e.family(), Family::Str | Family::Bin | Family::Ext)
        {
            return None;
        }
        let (len, head) = header_at(e, &self.input[self.pos..])?;
        let end = (self.pos + head).checked_add(len)?;
        let bytes = self.input.get(self.pos + head..end)?;
        self.pos = end;
        Some(bytes)
    }

    /// The direct decoder's run of `len` sequence elements that each take `1 + width` bytes and
    /// start with `marker` (fixed-width integers under their own encoding), read strictly with
    /// the fixed widths and no override pending: their bytes, consumed at once; `None`, with
    /// nothing consumed, for anything else (the element loop then reads them one by one).
    #[inline(always)]
    pub(crate) fn exact_run(&mut self, marker: u8, width: usize, len: usize) -> Option<&'de [u8]> {
        if !self.reads_exact() {
            return None;
        }
        let end = len.checked_mul(1 + width)?.checked_add(self.pos)?;
        let run = self.input.get(self.pos..end)?;
        if run.iter().step_by(1 + width).any(|&m| m != marker) {
            return None;
        }
        self.pos = end;
        Some(run)
    }
}

/// The integer written exactly under `enc` at the start of `bytes`, and the bytes it takes;
/// `None` when `enc` is not an integer encoding, the marker is not one `enc` writes, or the bytes
/// end first.
#[inline(always)]
pub(crate) fn int_at(enc: Encoding, bytes: &[u8]) -> Option<(Int, usize)> {
    let m = *bytes.first()?;
    if enc.family() != Family::Int || !enc.accepts(m) {
        return None;
    }
    let w = enc.value_width()?;
    let value = bytes.get(1..1 + w)?;
    Some((int::decode(enc, m, value), 1 + w))
}

/// The length or count stated by the header at the start of `bytes`, and the header's size, when
/// its marker is one `enc` writes.
#[inline(always)]
pub(crate) fn header_at(enc: Encoding, bytes: &[u8]) -> Option<(usize, usize)> {
    let m = *bytes.first()?;
    if !enc.accepts(m) {
        return None;
    }
    let n = enc.prefix_len();
    let prefix = |n: usize| -> Option<usize> {
        let mut be = [0u8; 4];
        be[4 - n..].copy_from_slice(bytes.get(1..1 + n)?);
        Some(u32::from_be_bytes(be) as usize)
    };
    match enc.marker() {
        MarkerSpec::Counted { base, .. } => Some(((m - base) as usize, 1)),
        _ if enc == Encoding::FixExt16 => Some((17, 1)),
        _ if n > 0 => Some((prefix(n)?, 1 + n)),
        _ => None,
    }
}
