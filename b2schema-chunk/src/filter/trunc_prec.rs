//! Mantissa truncation (filter 4, c-blosc2 `truncate_precision`): lossy, so only its forward
//! direction does anything; decoding has nothing to undo.

use crate::error::{Error, Expected, Found};
use crate::fields;

/// Mantissa bits of `f32` and `f64`.
const MANTISSA_BITS_32: i32 = 23;
const MANTISSA_BITS_64: i32 = 52;

/// The number of low mantissa bits `trunc_prec` zeroes for `meta` (an `i8`: positive keeps
/// that many bits, negative removes that many), or the error c-blosc2 reports.
pub(crate) fn zeroed_bits(meta: u8, typesize: usize, slot: usize) -> Result<u32, Error> {
    let prec = i32::from(meta as i8);
    let mantissa = match typesize {
        4 => MANTISSA_BITS_32,
        8 => MANTISSA_BITS_64,
        _ => {
            return Err(Error::unsupported(
                fields::TYPESIZE,
                "typesize",
                "typesize 4 or 8 for the trunc_prec filter",
                Found::Value(typesize as i64),
            ));
        }
    };
    let zeroed = if prec >= 0 { mantissa - prec } else { -prec };
    if prec.abs() > mantissa || zeroed >= mantissa || zeroed < 0 {
        return Err(Error::invalid(
            fields::filter_meta_offset(slot),
            "filters_meta",
            Expected::InRange(i64::from(1 - mantissa), i64::from(mantissa)),
            Found::Value(prec.into()),
        ));
    }
    Ok(zeroed as u32)
}

/// Mantissa truncation (c-blosc2 `truncate_precision`): the low `zeroed` bits of every
/// little-endian element of 4 or 8 bytes set to 0; trailing bytes copied.
pub(crate) fn encode(typesize: usize, zeroed: u32, src: &[u8], dst: &mut [u8]) {
    let len = src.len().min(dst.len());
    let end = len / typesize * typesize;
    let mask: u64 = !((1u64 << zeroed) - 1);
    for (d, s) in dst[..end].chunks_exact_mut(typesize).zip(src[..end].chunks_exact(typesize)) {
        if typesize == 4 {
            let v = u32::from_le_bytes(<[u8; 4]>::try_from(s).unwrap_or([0; 4])) & mask as u32;
            d.copy_from_slice(&v.to_le_bytes());
        } else {
            let v = u64::from_le_bytes(<[u8; 8]>::try_from(s).unwrap_or([0; 8])) & mask;
            d.copy_from_slice(&v.to_le_bytes());
        }
    }
    dst[end..len].copy_from_slice(&src[end..len]);
}
