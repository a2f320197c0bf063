//! Undo of the XOR delta filter (c-blosc2 `delta_decoder`).
//!
//! The encoder XORs every block with the first block of the chunk (the
//! reference); the first block itself is XORed with itself shifted by one
//! element.  Elements are `typesize` bytes wide when `typesize` is 1, 2, 4 or
//! 8, 8 bytes when it is another multiple of 8, and 1 byte otherwise; bytes
//! past the last whole element of a block are left as they are.
//!
//! Because XOR works byte by byte, an element width only decides the shift of
//! the reference block and how many trailing bytes stay untouched.

/// Element width used by c-blosc2 for a given typesize.
fn element_width(typesize: usize) -> usize {
    match typesize {
        1 | 2 | 4 | 8 => typesize,
        t if t % 8 == 0 => 8,
        _ => 1,
    }
}

/// Where the reference values of the first block come from.
pub(crate) enum FirstBlockRef<'a> {
    /// The block decodes in place (the delta is the last filter to undo):
    /// each element is XORed with the already-decoded previous element.
    InPlace,
    /// The block is decoded in a scratch buffer while the reference is the
    /// output buffer (what c-blosc2 does when another filter follows delta).
    Output(&'a [u8]),
}

/// Undoes the delta of the block at output offset 0.
pub(crate) fn decode_first_block(typesize: usize, reference: FirstBlockRef<'_>, block: &mut [u8]) {
    let w = element_width(typesize);
    let end = block.len() / w * w;
    match reference {
        FirstBlockRef::InPlace => {
            for p in w..end {
                let prev = block.get(p - w).copied().unwrap_or(0);
                if let Some(b) = block.get_mut(p) {
                    *b ^= prev;
                }
            }
        }
        FirstBlockRef::Output(dref) => {
            for p in w..end {
                let prev = dref.get(p - w).copied().unwrap_or(0);
                if let Some(b) = block.get_mut(p) {
                    *b ^= prev;
                }
            }
        }
    }
}

/// Undoes the delta of a block at a non-zero output offset against the
/// reference `dref` (the start of the output buffer).
pub(crate) fn decode_other_block(typesize: usize, dref: &[u8], block: &mut [u8]) {
    let w = element_width(typesize);
    let end = block.len() / w * w;
    for (b, r) in block[..end].iter_mut().zip(dref.iter()) {
        *b ^= *r;
    }
}

/// XOR delta (c-blosc2 `delta_encoder`). The first block of a chunk (`reference` is `None`)
/// XORs every element with the previous one of the same block; the others XOR with the
/// chunk's first bytes (`reference`, the unfiltered input). Bytes past the last whole element
/// are copied.
pub(crate) fn encode(typesize: usize, reference: Option<&[u8]>, src: &[u8], dst: &mut [u8]) {
    let len = src.len().min(dst.len());
    let w = element_width(typesize);
    let end = len / w * w;
    match reference {
        None => {
            let head = w.min(end);
            dst[..head].copy_from_slice(&src[..head]);
            for p in head..end {
                dst[p] = src[p] ^ src[p - w];
            }
        }
        Some(r) => {
            for p in 0..end {
                dst[p] = src[p] ^ r.get(p).copied().unwrap_or(0);
            }
        }
    }
    dst[end..len].copy_from_slice(&src[end..len]);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_block_prefix_xor() {
        // typesize 2: elements e0, e1^e0, e2^e1
        let mut b = [1u8, 2, 1 ^ 3, 2 ^ 4, 3 ^ 5, 4 ^ 6, 9];
        decode_first_block(2, FirstBlockRef::InPlace, &mut b);
        assert_eq!(b, [1, 2, 3, 4, 5, 6, 9]);
        let mut c = [7u8, 1 ^ 7, 2];
        decode_other_block(1, &[7, 7, 7], &mut c);
        assert_eq!(c, [0, 1, 5]);
    }
}
