//! [`B2Type`]: the default encoding and the shape of the Rust types a layout can hold.

use alloc::borrow::Cow;
use alloc::boxed::Box;
use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use super::Shape;
use crate::format::encoding::Encoding;
use crate::format::wrap;

/// A Rust type b2schema can describe: the encoding serde gives it in the fixed mode when no
/// attribute overrides it, and its [`Shape`].
///
/// Implemented for the primitive types, strings, byte slices, arrays, vectors, options, maps,
/// the [`wrap`] newtypes, and every `#[derive(B2Layout)]` struct. Not for enums: a field of an
/// enum type does not compile (this trait's message is the first error).
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no b2schema layout: it cannot be a field of a `#[derive(B2Layout)]` struct",
    label = "this field's type",
    note = "a field is an integer, bool, f32/f64, a string, bytes, an array, a Vec, an Option, a map or a `#[derive(B2Layout)]` struct",
    note = "enums are not supported: store the discriminant as an integer field (`#[b2(fixint)] codec: u8`) and convert it"
)]
pub trait B2Type {
    /// The encoding of a value of this type in the fixed mode.
    const ENCODING: Encoding;
    /// What the type holds.
    const SHAPE: Shape;
}

macro_rules! scalar {
    ($($t:ty => $enc:ident, $raw:expr;)*) => {$(
        impl B2Type for $t {
            const ENCODING: Encoding = Encoding::$enc;
            const SHAPE: Shape = Shape::Scalar { raw: $raw };
        }
    )*};
}

scalar! {
    bool => Bool, Some(1);
    u8 => FixInt, Some(1);
    i8 => Int8, Some(1);
    u16 => Uint16, None;
    u32 => Uint32, None;
    u64 => Uint64, None;
    i16 => Int16, None;
    i32 => Int32, None;
    i64 => Int64, None;
    f32 => Float32, None;
    f64 => Float64, None;
    () => Nil, Some(0);
}

impl B2Type for str {
    const ENCODING: Encoding = Encoding::Str32;
    const SHAPE: Shape = Shape::Bytes(None);
}

impl B2Type for String {
    const ENCODING: Encoding = Encoding::Str32;
    const SHAPE: Shape = Shape::Bytes(None);
}

impl B2Type for Cow<'_, str> {
    const ENCODING: Encoding = Encoding::Str32;
    const SHAPE: Shape = Shape::Bytes(None);
}

impl<T: B2Type + ?Sized> B2Type for &T {
    const ENCODING: Encoding = T::ENCODING;
    const SHAPE: Shape = T::SHAPE;
}

impl<T: B2Type + ?Sized> B2Type for Box<T> {
    const ENCODING: Encoding = T::ENCODING;
    const SHAPE: Shape = T::SHAPE;
}

/// Element shape of a sequence of `T`.
const fn seq<T: B2Type>(len: Option<usize>) -> Shape {
    Shape::Seq {
        len,
        elem: super::sizes::width(T::ENCODING, &T::SHAPE),
        elem_raw: super::sizes::raw_len(&T::SHAPE),
    }
}

impl<T: B2Type> B2Type for [T] {
    const ENCODING: Encoding = Encoding::FixArray;
    const SHAPE: Shape = seq::<T>(None);
}

impl<T: B2Type, const N: usize> B2Type for [T; N] {
    const ENCODING: Encoding = Encoding::FixArray;
    const SHAPE: Shape = seq::<T>(Some(N));
}

impl<T: B2Type> B2Type for Vec<T> {
    const ENCODING: Encoding = Encoding::FixArray;
    const SHAPE: Shape = seq::<T>(None);
}

impl<T: B2Type> B2Type for Option<T> {
    const ENCODING: Encoding = T::ENCODING;
    const SHAPE: Shape = Shape::Variable;
}

impl<K, V> B2Type for BTreeMap<K, V> {
    const ENCODING: Encoding = Encoding::Map16;
    const SHAPE: Shape = Shape::Variable;
}

macro_rules! wrapped {
    ($($name:ident)*) => {$(
        impl<T: B2Type> B2Type for wrap::$name<T> {
            const ENCODING: Encoding = wrap::$name::<T>::ENCODING;
            const SHAPE: Shape = T::SHAPE;
        }
    )*};
}

wrapped! {
    FixInt Uint8 Uint16 Uint32 Uint64 Int8 Int16 Int32 Int64 Float32 Float64
    FixStr Str32 Bin32 FixArray Array16 Counted Map16 FixExt16 Raw
}

macro_rules! moded {
    ($($name:ident)*) => {$(
        impl<T: B2Type> B2Type for wrap::$name<T> {
            const ENCODING: Encoding = T::ENCODING;
            const SHAPE: Shape = Shape::Variable;
        }
    )*};
}

moded! { Minimal Fixed AsMap AsArray }

macro_rules! tuples {
    ($($n:literal => ($($t:ident)*))*) => {$(
        impl<$($t: B2Type),*> B2Type for ($($t,)*) {
            const ENCODING: Encoding = Encoding::FixArray;
            const SHAPE: Shape = Shape::Variable;
        }
    )*};
}

tuples! { 1 => (A) 2 => (A B) 3 => (A B C) 4 => (A B C D) }
