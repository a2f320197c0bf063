//! Integer truncation (filter 36, c-blosc2's `int_trunc` plugin): lossy, so only its forward
//! direction does anything (the low bits of every 1, 2, 4 or 8-byte item zeroed); decoding has
//! nothing to undo (c-blosc2's backward copies the block).

use crate::error::{Error, Expected, Found};
use crate::fields;

/// The number of low bits `int_trunc` zeroes for `meta` (an `i8`: positive keeps that many
/// bits, negative removes that many), or the error c-blosc2's `truncate_uint*` reports: at
/// least one bit must be kept.
pub(crate) fn zeroed_bits(meta: u8, typesize: usize, slot: usize) -> Result<u32, Error> {
    let bits = match typesize {
        1 | 2 | 4 | 8 => 8 * typesize as i32,
        _ => {
            return Err(Error::unsupported(
                fields::TYPESIZE,
                "typesize",
                "typesize 1, 2, 4 or 8 for the int_trunc filter",
                Found::Value(typesize as i64),
            ));
        }
    };
    let prec = i32::from(meta as i8);
    // c-blosc2 computes this in a `uint8_t`: a negative result wraps past the limit.
    let zeroed = if prec >= 0 { bits - prec } else { -prec };
    if !(0..bits).contains(&zeroed) {
        return Err(Error::invalid(
            fields::filter_meta_offset(slot),
            "filters_meta",
            Expected::InRange(i64::from(1 - bits), i64::from(bits)),
            Found::Value(prec.into()),
        ));
    }
    Ok(zeroed as u32)
}

/// Zeroes the low `zeroed` bits of every little-endian item of `typesize` bytes (1, 2, 4 or
/// 8); trailing bytes that make no whole item are copied.
pub(crate) fn encode(typesize: usize, zeroed: u32, src: &[u8], dst: &mut [u8]) {
    let len = src.len().min(dst.len());
    let end = len / typesize * typesize;
    // Little-endian: the low bits are in the first bytes of each item.
    let mut mask = [0xffu8; 8];
    for (i, m) in mask.iter_mut().enumerate().take(typesize) {
        let lo = 8 * i as u32;
        *m = if zeroed >= lo + 8 {
            0
        } else if zeroed > lo {
            0xff << (zeroed - lo)
        } else {
            0xff
        };
    }
    for (d, s) in dst[..end].chunks_exact_mut(typesize).zip(src[..end].chunks_exact(typesize)) {
        for ((d, s), m) in d.iter_mut().zip(s).zip(mask) {
            *d = s & m;
        }
    }
    dst[end..len].copy_from_slice(&src[end..len]);
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// Byte masks equal the integer mask c-blosc2 applies, for every size and bit count.
        #[test]
        fn masks_equal_the_integer_masks(v in proptest::num::u64::ANY, ts in 0usize..4, meta in proptest::num::u8::ANY) {
            let typesize = 1usize << ts;
            let (prec, bits) = (i32::from(meta as i8), 8 * typesize as i32);
            let Ok(zeroed) = zeroed_bits(meta, typesize, 0) else {
                proptest::prop_assert!(prec == 0 || prec > bits || prec <= -bits);
                return Ok(());
            };
            proptest::prop_assert!(prec != 0 && prec <= bits && prec > -bits);
            let bytes = v.to_le_bytes();
            let mut out = [0u8; 8];
            encode(typesize, zeroed, &bytes[..typesize], &mut out[..typesize]);
            let want = v & !((1u64 << zeroed) - 1);
            proptest::prop_assert_eq!(&out[..typesize], &want.to_le_bytes()[..typesize]);
        }
    }
}
