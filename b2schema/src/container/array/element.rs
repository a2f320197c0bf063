//! The Rust types an array's items read as ([`Element`]): numbers and `bool`, `f16` (feature
//! `half`), complex numbers (feature `complex`), and NumPy's datetimes and timedeltas with their
//! unit ([`DateTime64`], [`TimeDelta64`]). Strings and structured items read through serde
//! ([`ArrayReader::read_items`](super::ArrayReader::read_items)).

use alloc::string::String;

use crate::container::dtype::{ByteOrder, DType, DateTimeUnit, Kind, Scalar};

/// A type the items of some NumPy dtypes read as. Implemented for `i8`..`i64`, `u8`..`u64`,
/// `f32`, `f64`, `bool`, [`DateTime64`], [`TimeDelta64`], and with their features
/// `half::f16` and `num_complex::Complex<f32 | f64>`; implement it for your own types (a
/// structured dtype's item, a fixed-point number) to read them with
/// [`ArrayReader::read_as`](super::ArrayReader::read_as).
pub trait Element: Sized + Send + 'static {
    /// Whether items of `dtype` read as this type; why not, when they do not.
    fn check(dtype: &DType) -> Result<(), String>;

    /// One item, from its bytes (exactly `dtype.itemsize()` of them) of a `dtype` that
    /// [`check`](Self::check) accepted.
    fn from_item(bytes: &[u8], dtype: &DType) -> Self;

    /// Items from `bytes` (`out.len()` items of `dtype`) into `out`: override it to hoist what
    /// every item shares (the numbers decide their byte order once).
    fn decode_into(bytes: &[u8], dtype: &DType, out: &mut [Self]) {
        let n = dtype.itemsize().max(1);
        for (o, b) in out.iter_mut().zip(bytes.chunks_exact(n)) {
            *o = Self::from_item(b, dtype);
        }
    }

    /// For a type whose memory is its items' little-endian bytes (the numbers, on a
    /// little-endian host): `n` zero items to decode into in place ([`Element::le_bytes_mut`]).
    /// `None` (the default) for the others, which are converted from the bytes read.
    #[doc(hidden)]
    fn zeros_le(_n: usize) -> Option<alloc::vec::Vec<Self>> {
        None
    }

    /// The memory of `items` as bytes, for the types of [`Element::zeros_le`].
    #[doc(hidden)]
    fn le_bytes_mut(_items: &mut [Self]) -> Option<&mut [u8]> {
        None
    }

    /// `bytes` seen as items, for the types of [`Element::zeros_le`]: `None` for the others, or
    /// when `bytes` is not aligned for `Self` or not a whole number of items.
    #[doc(hidden)]
    fn le_items(_bytes: &[u8]) -> Option<&[Self]> {
        None
    }

    /// [`Element::le_items`], mutable.
    #[doc(hidden)]
    fn le_items_mut(_bytes: &mut [u8]) -> Option<&mut [Self]> {
        None
    }

    /// Items from `bytes` appended to `out` (whose capacity the caller reserved): each written
    /// once, never zeroed first.
    fn decode_extend(bytes: &[u8], dtype: &DType, out: &mut alloc::vec::Vec<Self>) {
        let n = dtype.itemsize().max(1);
        out.extend(bytes.chunks_exact(n).map(|b| Self::from_item(b, dtype)));
    }
}

/// The scalar of `dtype` when it is of `kind` and `size` bytes; why not, otherwise.
fn scalar_of(dtype: &DType, want: impl Fn(&Kind) -> bool, size: usize, name: &str) -> Result<Scalar, String> {
    match dtype {
        DType::Scalar(s) if want(&s.kind) && s.size == size => Ok(*s),
        other => Err(alloc::format!("items of dtype {} do not read as {name}", other.to_numpy_str())),
    }
}

/// Whether a scalar's items are stored big-endian (read as the host's numbers, they are
/// converted).
pub(super) fn is_big(dtype: &DType) -> bool {
    matches!(dtype, DType::Scalar(s) if s.order.resolve(ByteOrder::Little) == ByteOrder::Big)
}

macro_rules! numbers {
    ($($t:ty => $kind:pat),* $(,)?) => {$(
        impl Element for $t {
            fn check(dtype: &DType) -> Result<(), String> {
                scalar_of(dtype, |k| matches!(k, $kind), core::mem::size_of::<$t>(), stringify!($t)).map(|_| ())
            }
            #[inline]
            fn from_item(bytes: &[u8], dtype: &DType) -> Self {
                let b: [u8; core::mem::size_of::<$t>()] = bytes.try_into().expect("an item's bytes");
                if is_big(dtype) { <$t>::from_be_bytes(b) } else { <$t>::from_le_bytes(b) }
            }
            fn decode_into(bytes: &[u8], dtype: &DType, out: &mut [Self]) {
                const N: usize = core::mem::size_of::<$t>();
                let items = bytes.chunks_exact(N).map(|b| <[u8; N]>::try_from(b).expect("N bytes"));
                if is_big(dtype) {
                    out.iter_mut().zip(items).for_each(|(o, b)| *o = <$t>::from_be_bytes(b));
                } else {
                    out.iter_mut().zip(items).for_each(|(o, b)| *o = <$t>::from_le_bytes(b));
                }
            }
            fn zeros_le(n: usize) -> Option<alloc::vec::Vec<Self>> {
                if !cfg!(target_endian = "little") {
                    return None;
                }
                // Probed first (fallibly), then made by `vec!` of zeros, which takes the
                // allocator's zeroed pages (`calloc`) instead of writing every byte.
                let mut probe: alloc::vec::Vec<$t> = alloc::vec::Vec::new();
                probe.try_reserve_exact(n).ok()?;
                drop(probe);
                Some(alloc::vec![0 as $t; n])
            }
            fn le_bytes_mut(items: &mut [Self]) -> Option<&mut [u8]> {
                cfg!(target_endian = "little").then(|| bytemuck::cast_slice_mut(items))
            }
            fn le_items(bytes: &[u8]) -> Option<&[Self]> {
                cfg!(target_endian = "little").then(|| bytemuck::try_cast_slice(bytes).ok()).flatten()
            }
            fn le_items_mut(bytes: &mut [u8]) -> Option<&mut [Self]> {
                cfg!(target_endian = "little").then(|| bytemuck::try_cast_slice_mut(bytes).ok()).flatten()
            }
            fn decode_extend(bytes: &[u8], dtype: &DType, out: &mut alloc::vec::Vec<Self>) {
                const N: usize = core::mem::size_of::<$t>();
                let items = bytes.chunks_exact(N).map(|b| <[u8; N]>::try_from(b).expect("N bytes"));
                if is_big(dtype) {
                    out.extend(items.map(<$t>::from_be_bytes));
                } else {
                    out.extend(items.map(<$t>::from_le_bytes));
                }
            }
        }
    )*};
}

numbers! {
    i8 => Kind::Int, i16 => Kind::Int, i32 => Kind::Int, i64 => Kind::Int,
    u8 => Kind::UInt, u16 => Kind::UInt, u32 => Kind::UInt, u64 => Kind::UInt,
    f32 => Kind::Float, f64 => Kind::Float,
}

impl Element for bool {
    fn check(dtype: &DType) -> Result<(), String> {
        scalar_of(dtype, |k| matches!(k, Kind::Bool), 1, "bool").map(|_| ())
    }
    fn from_item(bytes: &[u8], _: &DType) -> Self {
        bytes[0] != 0
    }
}

/// A `datetime64` item: `value` counts of `count` × `unit` since 1970-01-01T00:00 (NumPy's
/// `<M8[5s]` has `unit` seconds and `count` 5); [`DateTime64::NAT`] is NumPy's `NaT`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DateTime64 {
    /// The count of units.
    pub value: i64,
    /// The unit, from the dtype.
    pub unit: DateTimeUnit,
    /// The unit's multiplier, from the dtype (1 when it has none).
    pub count: u32,
}

/// A `timedelta64` item: `value` counts of `count` × `unit`; [`TimeDelta64::NAT`] is `NaT`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TimeDelta64 {
    /// The count of units.
    pub value: i64,
    /// The unit, from the dtype.
    pub unit: DateTimeUnit,
    /// The unit's multiplier, from the dtype (1 when it has none).
    pub count: u32,
}

macro_rules! times {
    ($($t:ident => $variant:ident, $name:literal;)*) => {$(
        impl $t {
            /// NumPy's `NaT` ("not a time"): the value `i64::MIN`.
            pub const NAT: i64 = i64::MIN;

            /// Whether it is `NaT`.
            pub fn is_nat(&self) -> bool {
                self.value == Self::NAT
            }
        }

        impl Default for $t {
            /// 0 of the generic unit.
            fn default() -> Self {
                $t { value: 0, unit: DateTimeUnit::Generic, count: 1 }
            }
        }

        impl Element for $t {
            fn check(dtype: &DType) -> Result<(), String> {
                scalar_of(dtype, |k| matches!(k, Kind::$variant { .. }), 8, $name).map(|_| ())
            }
            fn from_item(bytes: &[u8], dtype: &DType) -> Self {
                let (unit, count) = match dtype {
                    DType::Scalar(Scalar { kind: Kind::$variant { unit, count }, .. }) => (*unit, *count),
                    _ => (DateTimeUnit::Generic, 1),
                };
                $t { value: i64::from_item(bytes, dtype), unit, count }
            }
        }
    )*};
}

times! {
    DateTime64 => DateTime, "DateTime64";
    TimeDelta64 => TimeDelta, "TimeDelta64";
}

#[cfg(feature = "half")]
#[cfg_attr(docsrs, doc(cfg(feature = "half")))]
impl Element for half::f16 {
    fn check(dtype: &DType) -> Result<(), String> {
        scalar_of(dtype, |k| matches!(k, Kind::Float), 2, "f16").map(|_| ())
    }
    fn from_item(bytes: &[u8], dtype: &DType) -> Self {
        half::f16::from_bits(u16::from_item(bytes, dtype))
    }
}

#[cfg(feature = "complex")]
#[cfg_attr(docsrs, doc(cfg(feature = "complex")))]
macro_rules! complex {
    ($($t:ty),*) => {$(
        impl Element for num_complex::Complex<$t> {
            fn check(dtype: &DType) -> Result<(), String> {
                let name = concat!("Complex<", stringify!($t), ">");
                scalar_of(dtype, |k| matches!(k, Kind::Complex), 2 * core::mem::size_of::<$t>(), name).map(|_| ())
            }
            fn from_item(bytes: &[u8], dtype: &DType) -> Self {
                let (re, im) = bytes.split_at(core::mem::size_of::<$t>());
                num_complex::Complex::new(<$t>::from_item(re, dtype), <$t>::from_item(im, dtype))
            }
        }
    )*};
}

#[cfg(feature = "complex")]
complex!(f32, f64);
