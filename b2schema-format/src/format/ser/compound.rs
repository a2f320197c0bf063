//! Sequences, tuples, structs and maps being written, and the bare-byte packing of byte
//! encodings.

use serde_core::ser::{self, Serialize};

use super::output::Output;
use super::raw::RawSerializer;
use super::serializer::Serializer;
use crate::format::encoding::Encoding;
use crate::format::error::{Error, ErrorKind, Result, Segment};

/// What kind of compound serde asked for, and then how it is being written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// Elements in order (sequences, tuples, structs as arrays).
    Seq,
    /// Structs, before the representation is chosen.
    Struct,
    /// Key/value pairs.
    Map,
    /// A struct written as a map: field names become keys.
    StructMap,
}

/// A compound value being written.
pub struct Compound<'a, O> {
    ser: &'a mut Serializer<O>,
    state: State,
    index: usize,
}

enum State {
    Elements(Kind),
    /// Elements packed as bare bytes under a byte encoding, which must total `expected` bytes
    /// (the length already written in the prefix) when it is known.
    Raw {
        encoding: Encoding,
        start: usize,
        expected: Option<usize>,
    },
}

impl<'a, O: Output> Compound<'a, O> {
    pub(super) fn new(ser: &'a mut Serializer<O>, kind: Kind) -> Self {
        Compound { ser, state: State::Elements(kind), index: 0 }
    }

    pub(super) fn raw(ser: &'a mut Serializer<O>, encoding: Encoding, expected: Option<usize>) -> Self {
        let start = ser.position();
        Compound { ser, state: State::Raw { encoding, start, expected }, index: 0 }
    }

    #[inline]
    fn element<T: ?Sized + Serialize>(
        &mut self,
        value: &T,
        segment: impl FnOnce(usize) -> Segment,
    ) -> Result<()> {
        let i = self.index;
        self.index += 1;
        let at = self.ser.position();
        let r = match self.state {
            State::Raw { .. } => value.serialize(RawSerializer::new(&mut self.ser.out)),
            State::Elements(_) => value.serialize(&mut *self.ser),
        };
        r.map_err(|e| e.with_offset(at).in_segment(segment(i)))
    }

    fn finish(self) -> Result<()> {
        if let State::Raw { encoding, start, expected: Some(expected) } = self.state {
            let written = self.ser.position() - start;
            if written != expected {
                return Err(Error::at(
                    ErrorKind::Mismatch {
                        what: match encoding {
                            Encoding::FixExt16 => "fixext16 bytes (type byte and 16 data bytes)",
                            _ => "bytes, as the length prefix states",
                        },
                        expected: alloc::format!("{expected}"),
                        found: alloc::format!("{written} written by the elements"),
                    },
                    start,
                ));
            }
        }
        Ok(())
    }
}

impl<O: Output> ser::SerializeSeq for Compound<'_, O> {
    type Ok = ();
    type Error = Error;

    #[inline]
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.element(value, Segment::Index)
    }

    fn end(self) -> Result<()> {
        self.finish()
    }
}

impl<O: Output> ser::SerializeTuple for Compound<'_, O> {
    type Ok = ();
    type Error = Error;

    #[inline]
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.element(value, Segment::Index)
    }

    fn end(self) -> Result<()> {
        self.finish()
    }
}

impl<O: Output> ser::SerializeTupleStruct for Compound<'_, O> {
    type Ok = ();
    type Error = Error;

    #[inline]
    fn serialize_field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.element(value, Segment::Index)
    }

    fn end(self) -> Result<()> {
        self.finish()
    }
}

impl<O: Output> ser::SerializeTupleVariant for Compound<'_, O> {
    type Ok = ();
    type Error = Error;

    fn serialize_field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.element(value, Segment::Index)
    }

    fn end(self) -> Result<()> {
        self.finish()
    }
}

impl<O: Output> ser::SerializeMap for Compound<'_, O> {
    type Ok = ();
    type Error = Error;

    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result<()> {
        let i = self.index;
        key.serialize(&mut *self.ser).map_err(|e| e.in_segment(Segment::Key(alloc::format!("key #{i}"))))
    }

    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.element(value, |i| Segment::Key(alloc::format!("#{i}")))
    }

    fn end(self) -> Result<()> {
        self.finish()
    }
}

impl<O: Output> ser::SerializeStruct for Compound<'_, O> {
    type Ok = ();
    type Error = Error;

    #[inline]
    fn serialize_field<T: ?Sized + Serialize>(&mut self, key: &'static str, value: &T) -> Result<()> {
        if let State::Elements(Kind::StructMap) = self.state {
            ser::Serializer::serialize_str(&mut *self.ser, key)?;
        }
        self.element(value, |_| Segment::Field(key))
    }

    fn end(self) -> Result<()> {
        self.finish()
    }
}

impl<O: Output> ser::SerializeStructVariant for Compound<'_, O> {
    type Ok = ();
    type Error = Error;

    fn serialize_field<T: ?Sized + Serialize>(&mut self, key: &'static str, value: &T) -> Result<()> {
        ser::SerializeStruct::serialize_field(self, key, value)
    }

    fn end(self) -> Result<()> {
        self.finish()
    }
}
