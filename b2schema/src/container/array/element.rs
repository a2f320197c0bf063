//! The plain number types an array's items can be read as.

use crate::container::dtype::{ByteOrder, DType, Kind};

mod sealed {
    pub trait Sealed {}
}

/// A plain number type that items of a NumPy dtype of the same kind and size read as:
/// `i8`..`i64`, `u8`..`u64`, `f32`, `f64` and `bool`. Sealed.
pub trait Element: Copy + Send + Sync + 'static + sealed::Sealed {
    /// The NumPy kind this type reads.
    const KIND: Kind;
    /// The item size in bytes.
    const SIZE: usize;
    /// The value of one item (`bytes.len() == SIZE`) stored in this byte order.
    fn from_bytes(bytes: &[u8], big_endian: bool) -> Self;
}

macro_rules! numbers {
    ($($t:ty => $kind:expr),* $(,)?) => {$(
        impl sealed::Sealed for $t {}
        impl Element for $t {
            const KIND: Kind = $kind;
            const SIZE: usize = core::mem::size_of::<$t>();
            fn from_bytes(bytes: &[u8], big_endian: bool) -> Self {
                let mut b = [0u8; core::mem::size_of::<$t>()];
                b.copy_from_slice(bytes);
                if big_endian { <$t>::from_be_bytes(b) } else { <$t>::from_le_bytes(b) }
            }
        }
    )*};
}

numbers! {
    i8 => Kind::Int, i16 => Kind::Int, i32 => Kind::Int, i64 => Kind::Int,
    u8 => Kind::UInt, u16 => Kind::UInt, u32 => Kind::UInt, u64 => Kind::UInt,
    f32 => Kind::Float, f64 => Kind::Float,
}

impl sealed::Sealed for bool {}
impl Element for bool {
    const KIND: Kind = Kind::Bool;
    const SIZE: usize = 1;
    fn from_bytes(bytes: &[u8], _: bool) -> Self {
        bytes[0] != 0
    }
}

/// Whether items of `dtype` read as `T`, and if so whether they are big-endian; the reason
/// when they do not.
pub(crate) fn byte_order_for<T: Element>(dtype: &DType) -> Result<bool, alloc::string::String> {
    match dtype {
        DType::Scalar(s) if s.kind == T::KIND && s.size == T::SIZE => {
            Ok(s.order.resolve(ByteOrder::Little) == ByteOrder::Big)
        }
        other => Err(alloc::format!(
            "items of dtype {} do not read as {}",
            other.to_numpy_str(),
            core::any::type_name::<T>()
        )),
    }
}
