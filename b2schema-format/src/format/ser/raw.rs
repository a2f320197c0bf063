//! Bare bytes: the elements of a value under a byte encoding (`FixStr([u8; 4])`, a struct of
//! flag bytes inside a fixstr, the 17 bytes of a fixext16).
//!
//! Only byte-sized values exist here: `u8`, `i8`, `bool` (0 or 1), byte strings, text, and
//! sequences, tuples and structs of those, written back to back with no marker.

use serde_core::ser::{self, Impossible, Serialize};

use super::output::Output;
use crate::format::encoding::Encoding;
use crate::format::error::{Error, ErrorKind, Result, Segment};

/// Writes byte-sized values with no marker.
pub(crate) struct RawSerializer<'a, O> {
    out: &'a mut O,
}

impl<'a, O: Output> RawSerializer<'a, O> {
    pub(crate) fn new(out: &'a mut O) -> Self {
        RawSerializer { out }
    }

    #[cold]
    fn reject(&self, rust: &'static str) -> Error {
        Error::at(ErrorKind::IncompatibleEncoding { encoding: Encoding::Raw, rust }, self.out.position())
    }
}

/// The elements of a compound inside raw bytes.
pub(crate) struct RawCompound<'a, O> {
    out: &'a mut O,
    index: usize,
}

impl<O: Output> RawCompound<'_, O> {
    fn element<T: ?Sized + Serialize>(&mut self, value: &T, segment: Segment) -> Result<()> {
        self.index += 1;
        value.serialize(RawSerializer::new(&mut *self.out)).map_err(|e| e.in_segment(segment))
    }
}

macro_rules! reject {
    ($($method:ident($($arg:ty),*) => $what:expr;)*) => {$(
        fn $method(self, $(_: $arg),*) -> Result<()> {
            Err(self.reject($what))
        }
    )*};
}

impl<'a, O: Output> ser::Serializer for RawSerializer<'a, O> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = RawCompound<'a, O>;
    type SerializeTuple = RawCompound<'a, O>;
    type SerializeTupleStruct = RawCompound<'a, O>;
    type SerializeTupleVariant = Impossible<(), Error>;
    type SerializeMap = Impossible<(), Error>;
    type SerializeStruct = RawCompound<'a, O>;
    type SerializeStructVariant = Impossible<(), Error>;

    fn serialize_u8(self, v: u8) -> Result<()> {
        self.out.write_all(&[v])
    }

    fn serialize_i8(self, v: i8) -> Result<()> {
        self.out.write_all(&[v as u8])
    }

    fn serialize_bool(self, v: bool) -> Result<()> {
        self.out.write_all(&[v as u8])
    }

    fn serialize_bytes(self, v: &[u8]) -> Result<()> {
        self.out.write_all(v)
    }

    fn serialize_str(self, v: &str) -> Result<()> {
        self.out.write_all(v.as_bytes())
    }

    fn serialize_char(self, v: char) -> Result<()> {
        let mut buf = [0u8; 4];
        self.out.write_all(v.encode_utf8(&mut buf).as_bytes())
    }

    fn serialize_unit(self) -> Result<()> {
        Ok(())
    }

    fn serialize_unit_struct(self, _name: &'static str) -> Result<()> {
        Ok(())
    }

    fn serialize_newtype_struct<T: ?Sized + Serialize>(self, _name: &'static str, value: &T) -> Result<()> {
        value.serialize(self)
    }

    fn serialize_seq(self, _len: Option<usize>) -> Result<RawCompound<'a, O>> {
        Ok(RawCompound { out: self.out, index: 0 })
    }

    fn serialize_tuple(self, _len: usize) -> Result<RawCompound<'a, O>> {
        Ok(RawCompound { out: self.out, index: 0 })
    }

    fn serialize_tuple_struct(self, _name: &'static str, _len: usize) -> Result<RawCompound<'a, O>> {
        Ok(RawCompound { out: self.out, index: 0 })
    }

    fn serialize_struct(self, _name: &'static str, _len: usize) -> Result<RawCompound<'a, O>> {
        Ok(RawCompound { out: self.out, index: 0 })
    }

    reject! {
        serialize_u16(u16) => "a u16 (raw bytes hold byte-sized values only)";
        serialize_u32(u32) => "a u32 (raw bytes hold byte-sized values only)";
        serialize_u64(u64) => "a u64 (raw bytes hold byte-sized values only)";
        serialize_i16(i16) => "an i16 (raw bytes hold byte-sized values only)";
        serialize_i32(i32) => "an i32 (raw bytes hold byte-sized values only)";
        serialize_i64(i64) => "an i64 (raw bytes hold byte-sized values only)";
        serialize_f32(f32) => "a float";
        serialize_f64(f64) => "a float";
        serialize_none() => "an Option";
        serialize_unit_variant(&'static str, u32, &'static str) => "an enum";
    }

    fn serialize_some<T: ?Sized + Serialize>(self, _value: &T) -> Result<()> {
        Err(self.reject("an Option"))
    }

    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _value: &T,
    ) -> Result<()> {
        Err(self.reject("an enum"))
    }

    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleVariant> {
        Err(self.reject("an enum"))
    }

    fn serialize_map(self, _len: Option<usize>) -> Result<Self::SerializeMap> {
        Err(self.reject("a map"))
    }

    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStructVariant> {
        Err(self.reject("an enum"))
    }

    fn is_human_readable(&self) -> bool {
        false
    }
}

impl<O: Output> ser::SerializeSeq for RawCompound<'_, O> {
    type Ok = ();
    type Error = Error;

    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.element(value, Segment::Index(self.index))
    }

    fn end(self) -> Result<()> {
        Ok(())
    }
}

impl<O: Output> ser::SerializeTuple for RawCompound<'_, O> {
    type Ok = ();
    type Error = Error;

    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.element(value, Segment::Index(self.index))
    }

    fn end(self) -> Result<()> {
        Ok(())
    }
}

impl<O: Output> ser::SerializeTupleStruct for RawCompound<'_, O> {
    type Ok = ();
    type Error = Error;

    fn serialize_field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.element(value, Segment::Index(self.index))
    }

    fn end(self) -> Result<()> {
        Ok(())
    }
}

impl<O: Output> ser::SerializeStruct for RawCompound<'_, O> {
    type Ok = ();
    type Error = Error;

    fn serialize_field<T: ?Sized + Serialize>(&mut self, key: &'static str, value: &T) -> Result<()> {
        self.element(value, Segment::Field(key))
    }

    fn end(self) -> Result<()> {
        Ok(())
    }
}
