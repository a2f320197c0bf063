//! serde's `Serializer` trait for b2schema's [`Serializer`]: each serde call written under its
//! encoding; sequences, maps and structs through a [`Compound`].

use serde_core::ser::{self, Serialize};

use super::compound::{Compound, Kind};
use super::output::Output;
use super::serializer::Serializer;
use crate::format::config::{Magic, ModeState, Widths};
use crate::format::encoding::{Encoding, Family, MarkerSpec, marker};
use crate::format::error::{Error, ErrorKind, Result};
use crate::format::int::Int;

impl<O: Output> Serializer<O> {
    /// Opens a sequence, tuple, struct or map of `len` elements.
    pub(super) fn compound(&mut self, kind: Kind, len: usize) -> Result<Compound<'_, O>> {
        let as_map = kind == Kind::Map
            || (kind == Kind::Struct && self.config.structs == crate::format::config::StructRepr::Map);
        let (default, family) =
            if as_map { (Encoding::Map16, Family::Map) } else { (Encoding::FixArray, Family::Array) };
        let enc = self.choose(default, || Encoding::minimal_len(family, len));
        let state = match (enc.family(), kind) {
            (Family::Array, Kind::Seq | Kind::Struct) => Kind::Seq,
            (Family::Map, Kind::Map) => Kind::Map,
            (Family::Map, Kind::Struct) => Kind::StructMap,
            (Family::Str | Family::Bin | Family::Ext | Family::Raw, Kind::Seq | Kind::Struct) => {
                let expected = match enc.family() {
                    Family::Ext => {
                        self.out.write_all(&[marker::FIXEXT16])?;
                        Some(17)
                    }
                    Family::Raw => None,
                    _ => {
                        self.header(enc, len)?;
                        Some(len)
                    }
                };
                return Ok(Compound::raw(self, enc, expected));
            }
            _ => {
                let rust = match kind {
                    Kind::Map => "a map",
                    Kind::Struct => "a struct",
                    _ => "a sequence",
                };
                return Err(self.error(ErrorKind::IncompatibleEncoding { encoding: enc, rust }));
            }
        };
        self.header(enc, len)?;
        Ok(Compound::new(self, state))
    }
}

macro_rules! serialize_int {
    ($($method:ident($t:ty) => $default:ident, $ctor:ident;)*) => {$(
        #[inline]
        fn $method(self, v: $t) -> Result<()> {
            // Fast path: the type's own fixed encoding (by default, or asked for by an
            // override), marker and big-endian value written straight from registers.
            let own = match self.pending {
                Some(e) => e == Encoding::$default,
                None => self.config.widths == Widths::Fixed,
            };
            if own {
                match Encoding::$default.marker() {
                    MarkerSpec::Exact(m) => {
                        self.pending = None;
                        return self.out.write_tagged(m, v.to_be_bytes());
                    }
                    // u8 as a positive fixint: the value is the marker.
                    _ if (v as u64) <= marker::POSITIVE_FIXINT_MAX as u64 => {
                        self.pending = None;
                        return self.out.write_all(&[v as u8]);
                    }
                    _ => {}
                }
            }
            self.int(Int::$ctor(v.into()), Encoding::$default, stringify!($t))
        }
    )*};
}

impl<'a, O: Output> ser::Serializer for &'a mut Serializer<O> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Compound<'a, O>;
    type SerializeTuple = Compound<'a, O>;
    type SerializeTupleStruct = Compound<'a, O>;
    type SerializeTupleVariant = Compound<'a, O>;
    type SerializeMap = Compound<'a, O>;
    type SerializeStruct = Compound<'a, O>;
    type SerializeStructVariant = Compound<'a, O>;

    serialize_int! {
        serialize_u8(u8) => FixInt, U;
        serialize_u16(u16) => Uint16, U;
        serialize_u32(u32) => Uint32, U;
        serialize_u64(u64) => Uint64, U;
        serialize_i8(i8) => Int8, from_i64;
        serialize_i16(i16) => Int16, from_i64;
        serialize_i32(i32) => Int32, from_i64;
        serialize_i64(i64) => Int64, from_i64;
    }

    #[inline]
    fn serialize_bool(self, v: bool) -> Result<()> {
        match self.choose(Encoding::Bool, || Encoding::Bool) {
            Encoding::Bool => self.out.write_all(&[marker::of_bool(v)]),
            Encoding::Raw => self.out.write_all(&[v as u8]),
            enc => Err(self.error(ErrorKind::IncompatibleEncoding { encoding: enc, rust: "a bool" })),
        }
    }

    fn serialize_f32(self, v: f32) -> Result<()> {
        self.float(f64::from(v), Encoding::Float32)
    }

    fn serialize_f64(self, v: f64) -> Result<()> {
        self.float(v, Encoding::Float64)
    }

    fn serialize_char(self, v: char) -> Result<()> {
        let mut buf = [0u8; 4];
        self.serialize_str(v.encode_utf8(&mut buf))
    }

    #[inline]
    fn serialize_str(self, v: &str) -> Result<()> {
        self.bytes_like(v.as_bytes(), Family::Str, "a string")
    }

    #[inline]
    fn serialize_bytes(self, v: &[u8]) -> Result<()> {
        self.bytes_like(v, Family::Bin, "bytes")
    }

    fn serialize_none(self) -> Result<()> {
        // `None` is `c0` under any encoding an `Option` field carries (the encoding is its `Some`
        // value's), as the decoder reads it.
        self.pending = None;
        self.out.write_all(&[marker::NIL])
    }

    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<()> {
        value.serialize(self)
    }

    fn serialize_unit(self) -> Result<()> {
        match self.choose(Encoding::Nil, || Encoding::Nil) {
            Encoding::Nil => self.out.write_all(&[marker::NIL]),
            enc => Err(self.error(ErrorKind::IncompatibleEncoding { encoding: enc, rust: "nil" })),
        }
    }

    fn serialize_unit_struct(self, _name: &'static str) -> Result<()> {
        self.serialize_unit()
    }

    fn serialize_unit_variant(self, _name: &'static str, _index: u32, variant: &'static str) -> Result<()> {
        self.pending = None;
        self.serialize_str(variant)
    }

    #[inline]
    fn serialize_newtype_struct<T: ?Sized + Serialize>(self, name: &'static str, value: &T) -> Result<()> {
        match Magic::of(name) {
            Some(Magic::Encoding(enc)) => Magic::set_pending(&mut self.pending, enc),
            Some(Magic::Mode(mode)) => {
                let saved = self.switch(mode);
                let r = value.serialize(&mut *self);
                self.restore(saved);
                return r;
            }
            None => {}
        }
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<()> {
        self.variant_header(variant)?;
        value.serialize(self)
    }

    fn serialize_seq(self, len: Option<usize>) -> Result<Compound<'a, O>> {
        match len {
            Some(len) => self.compound(Kind::Seq, len),
            None => Err(self.error(ErrorKind::Unsupported(
                "a sequence of unknown length (every length prefix is written before the elements)",
            ))),
        }
    }

    fn serialize_tuple(self, len: usize) -> Result<Compound<'a, O>> {
        self.compound(Kind::Seq, len)
    }

    fn serialize_tuple_struct(self, _name: &'static str, len: usize) -> Result<Compound<'a, O>> {
        self.compound(Kind::Seq, len)
    }

    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Compound<'a, O>> {
        self.variant_header(variant)?;
        self.compound(Kind::Seq, len)
    }

    fn serialize_map(self, len: Option<usize>) -> Result<Compound<'a, O>> {
        match len {
            Some(len) => self.compound(Kind::Map, len),
            None => Err(self.error(ErrorKind::Unsupported("a map of unknown length"))),
        }
    }

    fn serialize_struct(self, _name: &'static str, len: usize) -> Result<Compound<'a, O>> {
        self.compound(Kind::Struct, len)
    }

    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Compound<'a, O>> {
        self.variant_header(variant)?;
        self.compound(Kind::Struct, len)
    }

    fn serialize_i128(self, _v: i128) -> Result<()> {
        Err(self.error(ErrorKind::Unsupported("i128 (msgpack integers are at most 64 bits)")))
    }

    fn serialize_u128(self, _v: u128) -> Result<()> {
        Err(self.error(ErrorKind::Unsupported("u128 (msgpack integers are at most 64 bits)")))
    }

    fn collect_str<T: ?Sized + core::fmt::Display>(self, value: &T) -> Result<()> {
        self.serialize_str(&alloc::string::ToString::to_string(value))
    }

    fn is_human_readable(&self) -> bool {
        false
    }
}
