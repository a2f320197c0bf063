//! Rust values written as NumPy items: the dtype a slice of them takes and their bytes, so that
//! an array is written from `&[f32]` as python-blosc2 writes it from a `float32` NumPy array.

use alloc::string::String;
use alloc::vec::Vec;

use crate::container::array::{DateTime64, TimeDelta64};
use crate::container::dtype::DateTimeUnit;
use crate::container::error::{Error, Result};

/// A type whose values are written as NumPy items (little-endian, as python-blosc2 writes them on
/// every platform it supports).
///
/// Implemented for the integers, `f32`, `f64`, `bool`, [`DateTime64`] and [`TimeDelta64`] (every
/// item of a slice must share one unit), `half::f16` (feature `half`) and `num_complex::Complex`
/// of `f32`/`f64` (feature `complex`). Structured records and other dtypes are written from their
/// bytes with [`Array::from_bytes`](super::Array::from_bytes).
pub trait Item: Sized {
    /// Bytes per item.
    const SIZE: usize;

    /// The NumPy dtype string (`dtype.str`) of an array of `items`.
    fn dtype(items: &[Self]) -> Result<String>;

    /// Appends the items' bytes, in order, to `out` (whose capacity the caller reserved).
    fn put(items: &[Self], out: &mut Vec<u8>);
}

macro_rules! numbers {
    ($($t:ty => $dtype:literal),* $(,)?) => {$(
        impl Item for $t {
            const SIZE: usize = core::mem::size_of::<$t>();
            fn dtype(_: &[Self]) -> Result<String> {
                Ok(String::from($dtype))
            }
            fn put(items: &[Self], out: &mut Vec<u8>) {
                out.extend(items.iter().flat_map(|v| v.to_le_bytes()));
            }
        }
    )*};
}

numbers! {
    i8 => "|i1", i16 => "<i2", i32 => "<i4", i64 => "<i8",
    u8 => "|u1", u16 => "<u2", u32 => "<u4", u64 => "<u8",
    f32 => "<f4", f64 => "<f8",
}

impl Item for bool {
    const SIZE: usize = 1;
    fn dtype(_: &[Self]) -> Result<String> {
        Ok(String::from("|b1"))
    }
    fn put(items: &[Self], out: &mut Vec<u8>) {
        out.extend(items.iter().map(|&b| u8::from(b)));
    }
}

/// The dtype of times of one `unit` and `count` (`<M8[5s]`, `<m8[us]`, `<M8` for the generic unit).
fn time_dtype(code: char, mut units: impl Iterator<Item = (DateTimeUnit, u32)>) -> Result<String> {
    let (unit, count) = units.next().unwrap_or((DateTimeUnit::Generic, 1));
    if let Some(other) = units.find(|u| *u != (unit, count)) {
        return Err(Error::invalid(
            "times of one unit in an array:",
            alloc::format!("{count} x {unit:?}"),
            alloc::format!("{} x {:?}", other.1, other.0),
            0,
        ));
    }
    Ok(match (unit, count) {
        (DateTimeUnit::Generic, _) => alloc::format!("<{code}8"),
        (u, 1) => alloc::format!("<{code}8[{}]", u.as_str()),
        (u, n) => alloc::format!("<{code}8[{n}{}]", u.as_str()),
    })
}

impl Item for DateTime64 {
    const SIZE: usize = 8;
    fn dtype(items: &[Self]) -> Result<String> {
        time_dtype('M', items.iter().map(|t| (t.unit, t.count)))
    }
    fn put(items: &[Self], out: &mut Vec<u8>) {
        out.extend(items.iter().flat_map(|t| t.value.to_le_bytes()));
    }
}

impl Item for TimeDelta64 {
    const SIZE: usize = 8;
    fn dtype(items: &[Self]) -> Result<String> {
        time_dtype('m', items.iter().map(|t| (t.unit, t.count)))
    }
    fn put(items: &[Self], out: &mut Vec<u8>) {
        out.extend(items.iter().flat_map(|t| t.value.to_le_bytes()));
    }
}

#[cfg(feature = "half")]
impl Item for half::f16 {
    const SIZE: usize = 2;
    fn dtype(_: &[Self]) -> Result<String> {
        Ok(String::from("<f2"))
    }
    fn put(items: &[Self], out: &mut Vec<u8>) {
        out.extend(items.iter().flat_map(|v| v.to_bits().to_le_bytes()));
    }
}

#[cfg(feature = "complex")]
macro_rules! complex {
    ($($t:ty => $dtype:literal),*) => {$(
        impl Item for num_complex::Complex<$t> {
            const SIZE: usize = 2 * core::mem::size_of::<$t>();
            fn dtype(_: &[Self]) -> Result<String> {
                Ok(String::from($dtype))
            }
            fn put(items: &[Self], out: &mut Vec<u8>) {
                out.extend(items.iter().flat_map(|c| {
                    let (re, im) = (c.re.to_le_bytes(), c.im.to_le_bytes());
                    re.into_iter().chain(im)
                }));
            }
        }
    )*};
}

#[cfg(feature = "complex")]
complex!(f32 => "<c8", f64 => "<c16");
