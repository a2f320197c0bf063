//! The serde `Serializer` of the format.

use serde_core::ser;

use super::output::Output;
use crate::format::config::{Config, ModeState, Widths};
use crate::format::encoding::{Encoding, Family, MarkerSpec, marker};
use crate::format::error::{Error, ErrorKind, Result};
use crate::format::int::{self, Int};

/// Writes values with the exact encodings of the configured [`Widths`].
///
/// The encoding of each value comes from its Rust type (see the crate documentation's table), or
/// from an override set by one of the [`wrap`](crate::wrap) newtypes just before it.
pub struct Serializer<O> {
    pub(super) out: O,
    pub(super) config: Config,
    /// An override set by a wrapper newtype, consumed by the next value written.
    pub(super) pending: Option<Encoding>,
}

impl<O> ModeState for Serializer<O> {
    #[inline]
    fn mode_state(&mut self) -> (&mut Config, &mut Option<Encoding>) {
        (&mut self.config, &mut self.pending)
    }
}

impl<O: Output> Serializer<O> {
    /// A serializer with the fixed (Blosc2) configuration.
    ///
    /// To write into a `Vec`, give it the `Vec` itself and take it back with
    /// [`into_inner`](Self::into_inner), as [`encode_into`](crate::encode_into) does, rather
    /// than a `&mut Vec`. Through a reference, each write reloads the reference (any byte stored
    /// may alias it) before it reaches the length: a frame header takes about 20 % longer.
    pub fn new(out: O) -> Self {
        Self::with_config(out, Config::fixed())
    }

    /// A serializer with `config`.
    pub fn with_config(out: O, config: Config) -> Self {
        Serializer { out, config, pending: None }
    }

    /// The output.
    pub fn into_inner(self) -> O {
        self.out
    }

    /// The output, borrowed.
    pub fn output(&self) -> &O {
        &self.out
    }

    /// Bytes written so far.
    #[inline]
    pub fn position(&self) -> usize {
        self.out.position()
    }

    /// The configuration in force.
    #[inline]
    pub fn config(&self) -> Config {
        self.config
    }

    /// The direct encoder's text and bytes: written under `enc` (an override) or `default`
    /// (with fixed widths) when that is a str or bin encoding; `None`, with nothing written,
    /// for anything else (the serde path then writes it, or builds the error). The encodings are
    /// constants at the call site.
    #[inline(always)]
    #[doc(hidden)]
    pub fn exact_bytes(
        &mut self,
        enc: Option<Encoding>,
        default: Encoding,
        bytes: &[u8],
    ) -> Option<Result<()>> {
        let e = match enc {
            Some(e) => e,
            None if self.config.widths == Widths::Fixed => default,
            None => return None,
        };
        if self.pending.is_some() || !matches!(e.family(), Family::Str | Family::Bin) {
            return None;
        }
        Some(self.header(e, bytes.len()).and_then(|()| self.out.write_all(bytes)))
    }

    /// Whether an override is waiting for the next value.
    #[inline]
    #[doc(hidden)]
    pub fn has_pending(&self) -> bool {
        self.pending.is_some()
    }

    /// Appends a marker and a fixed-width value.
    #[inline(always)]
    pub(crate) fn write_tagged<const N: usize>(&mut self, tag: u8, value: [u8; N]) -> Result<()> {
        self.out.write_tagged(tag, value)
    }

    /// Whether `n` more bytes fit the output.
    #[inline]
    pub(crate) fn fits(&self, n: usize) -> bool {
        self.out.fits(n)
    }

    /// Appends bytes as they are.
    #[inline]
    pub(crate) fn write_raw(&mut self, bytes: &[u8]) -> Result<()> {
        self.out.write_all(bytes)
    }

    #[cold]
    pub(super) fn error(&self, kind: ErrorKind) -> Error {
        Error::at(kind, self.out.position())
    }

    /// The encoding of the next value: the pending override, or `default` (fixed widths) or
    /// `minimal` (minimal widths).
    #[inline]
    pub(super) fn choose(&mut self, default: Encoding, minimal: impl FnOnce() -> Encoding) -> Encoding {
        match self.pending.take() {
            Some(e) => e,
            None => match self.config.widths {
                Widths::Fixed => default,
                Widths::Minimal => minimal(),
            },
        }
    }

    #[inline]
    pub(super) fn int(&mut self, v: Int, default: Encoding, rust: &'static str) -> Result<()> {
        let enc = self.choose(default, || v.minimal());
        if enc == Encoding::Raw {
            return match (rust, v.as_i64()) {
                ("u8" | "i8", Some(x)) => self.out.write_all(&[x as u8]),
                _ => Err(self.error(ErrorKind::IncompatibleEncoding { encoding: enc, rust })),
            };
        }
        let (m, x, width) = int::encode(enc, v).map_err(|k| self.error(k))?;
        // Marker and value written from registers, each with a constant length.
        match width {
            0 => self.out.write_all(&[m]),
            1 => self.out.write_tagged(m, [x as u8]),
            2 => self.out.write_tagged(m, (x as u16).to_be_bytes()),
            4 => self.out.write_tagged(m, (x as u32).to_be_bytes()),
            _ => self.out.write_tagged(m, x.to_be_bytes()),
        }
    }

    pub(super) fn float(&mut self, v: f64, default: Encoding) -> Result<()> {
        match self.choose(default, || default) {
            Encoding::Float64 => {
                let mut buf = [marker::FLOAT64; 9];
                buf[1..].copy_from_slice(&v.to_be_bytes());
                self.out.write_all(&buf)
            }
            Encoding::Float32 => {
                let narrow = v as f32;
                if f64::from(narrow) != v && !v.is_nan() {
                    return Err(self.error(ErrorKind::OutOfRange {
                        value: alloc::format!("{v}"),
                        target: "float32 without loss",
                        hint: None,
                    }));
                }
                let mut buf = [marker::FLOAT32; 5];
                buf[1..].copy_from_slice(&narrow.to_be_bytes());
                self.out.write_all(&buf)
            }
            enc => Err(self.error(ErrorKind::IncompatibleEncoding { encoding: enc, rust: "a float" })),
        }
    }

    /// Text or bytes, under a str, bin, raw or fixext16 encoding.
    pub(super) fn bytes_like(&mut self, bytes: &[u8], family: Family, rust: &'static str) -> Result<()> {
        let default = if family == Family::Str { Encoding::Str32 } else { Encoding::Bin32 };
        let enc = self.choose(default, || Encoding::minimal_len(family, bytes.len()));
        match enc.family() {
            Family::Str | Family::Bin => {
                self.header(enc, bytes.len())?;
                self.out.write_all(bytes)
            }
            Family::Raw => self.out.write_all(bytes),
            Family::Ext if bytes.len() == 17 => {
                self.out.write_all(&[marker::FIXEXT16])?;
                self.out.write_all(bytes)
            }
            Family::Ext => Err(self.error(ErrorKind::Mismatch {
                what: "fixext16 payload length",
                expected: "17 (type byte and 16 data bytes)".into(),
                found: alloc::format!("{}", bytes.len()),
            })),
            _ => Err(self.error(ErrorKind::IncompatibleEncoding { encoding: enc, rust })),
        }
    }

    /// Writes the marker and length prefix of a container of `len` bytes or elements.
    #[inline]
    #[doc(hidden)]
    pub fn header(&mut self, enc: Encoding, len: usize) -> Result<()> {
        if len as u64 > enc.max_len() {
            return Err(self.error(ErrorKind::TooLong { encoding: enc, len: len as u64 }));
        }
        match (enc.marker(), enc.prefix_len()) {
            (MarkerSpec::Counted { base, .. }, _) => self.out.write_all(&[base + len as u8]),
            (MarkerSpec::Exact(m), 1) => self.out.write_tagged(m, [len as u8]),
            (MarkerSpec::Exact(m), 2) => self.out.write_tagged(m, (len as u16).to_be_bytes()),
            (MarkerSpec::Exact(m), 4) => self.out.write_tagged(m, (len as u32).to_be_bytes()),
            (MarkerSpec::Exact(m), _) => self.out.write_all(&[m]),
            (MarkerSpec::None, _) => Ok(()),
        }
    }

    /// The map header that opens an enum variant with data: `{variant: payload}`.
    pub(super) fn variant_header(&mut self, variant: &'static str) -> Result<()> {
        self.pending = None;
        let enc = match self.config.widths {
            Widths::Fixed => Encoding::Map16,
            Widths::Minimal => Encoding::FixMap,
        };
        self.header(enc, 1)?;
        ser::Serializer::serialize_str(&mut *self, variant)
    }
}
