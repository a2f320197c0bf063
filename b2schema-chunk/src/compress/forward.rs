//! The forward filters and c-blosc2's six-slot pipeline (`pipeline_forward`), the inverses
//! of what [`super::super::filters`] undoes.
//!
//! Each filter reads one block and writes a block of the same length. Bytes that belong to
//! no whole element (or, for bitshuffle, to no whole group of 8 elements) are copied
//! unchanged, which is what the decoder expects to find there.

use super::super::bitshuffle::transpose_bits_8x8;
use super::super::error::{Error, Expected, Found};
use super::super::header::{MAX_FILTERS, filter_id, filter_offset};

/// Byte shuffle: byte `j` of element `i` goes to `dst[j * n + i]` (`n` whole elements).
pub(crate) fn shuffle(typesize: usize, src: &[u8], dst: &mut [u8]) {
    let len = src.len().min(dst.len());
    let (src, dst) = (&src[..len], &mut dst[..len]);
    if typesize <= 1 || len < typesize {
        dst.copy_from_slice(src);
        return;
    }
    let n = len / typesize;
    let body = n * typesize;
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        use super::super::unshuffle_sse2::shuffle_tiles;
        let done = match typesize {
            2 => shuffle_tiles::<2>(src, dst, n),
            4 => shuffle_tiles::<4>(src, dst, n),
            8 => shuffle_tiles::<8>(src, dst, n),
            16 => shuffle_tiles::<16>(src, dst, n),
            _ => 0,
        };
        if matches!(typesize, 2 | 4 | 8 | 16) {
            for i in done..n {
                for j in 0..typesize {
                    dst[j * n + i] = src[i * typesize + j];
                }
            }
            dst[body..].copy_from_slice(&src[body..]);
            return;
        }
    }
    match typesize {
        2 => shuffle_n::<2>(&src[..body], &mut dst[..body], n),
        4 => shuffle_n::<4>(&src[..body], &mut dst[..body], n),
        8 => shuffle_n::<8>(&src[..body], &mut dst[..body], n),
        16 => shuffle_n::<16>(&src[..body], &mut dst[..body], n),
        _ => {
            for (j, plane) in dst[..body].chunks_exact_mut(n).enumerate() {
                for (d, elem) in plane.iter_mut().zip(src[..body].chunks_exact(typesize)) {
                    *d = elem.get(j).copied().unwrap_or(0);
                }
            }
        }
    }
    dst[body..].copy_from_slice(&src[body..]);
}

/// [`shuffle`] of `n` whole elements of `T` bytes: 8 elements at a time, one 8-byte store per
/// plane.
fn shuffle_n<const T: usize>(src: &[u8], dst: &mut [u8], n: usize) {
    let tiles = n / 8;
    for t in 0..tiles {
        let mut rows = [[0u8; 8]; T];
        for (k, elem) in src[t * 8 * T..(t + 1) * 8 * T].chunks_exact(T).enumerate() {
            for (j, row) in rows.iter_mut().enumerate() {
                row[k] = elem[j];
            }
        }
        for (j, row) in rows.iter().enumerate() {
            dst[j * n + t * 8..j * n + t * 8 + 8].copy_from_slice(row);
        }
    }
    for i in tiles * 8..n {
        for j in 0..T {
            dst[j * n + i] = src[i * T + j];
        }
    }
}

/// Bit shuffle (c-blosc2 `blosc2_bitshuffle`): the largest multiple of 8 elements becomes
/// `8 * typesize` bit-rows (row `8 * j + k` holds bit `k` of byte `j` of every element);
/// the remaining bytes are copied. `tmp` (same length) is scratch.
pub(crate) fn bitshuffle(typesize: usize, src: &[u8], dst: &mut [u8], tmp: &mut [u8]) {
    let len = src.len().min(dst.len()).min(tmp.len());
    let typesize = typesize.max(1);
    let mut n = len / typesize;
    n -= n % 8;
    let done = n * typesize;
    // Byte planes first (plane j holds byte j of the n elements), then each plane's groups
    // of 8 bytes are bit-transposed into the 8 rows of that plane.
    shuffle(typesize, &src[..done], &mut tmp[..done]);
    let rowlen = n / 8;
    for j in 0..typesize {
        let plane = &tmp[j * n..(j + 1) * n];
        for (e, group) in plane.chunks_exact(8).enumerate() {
            let x = u64::from_le_bytes(<[u8; 8]>::try_from(group).unwrap_or([0; 8]));
            let t = transpose_bits_8x8(x).to_le_bytes();
            for (k, b) in t.iter().enumerate() {
                if let Some(d) = dst.get_mut((8 * j + k) * rowlen + e) {
                    *d = *b;
                }
            }
        }
    }
    dst[done..len].copy_from_slice(&src[done..len]);
}

/// Element width of the XOR delta for a typesize (1, 2, 4, 8; 8 for other multiples of 8;
/// 1 otherwise).
fn delta_width(typesize: usize) -> usize {
    match typesize {
        1 | 2 | 4 | 8 => typesize,
        t if t % 8 == 0 => 8,
        _ => 1,
    }
}

/// XOR delta (c-blosc2 `delta_encoder`). The first block of a chunk (`reference` is `None`)
/// XORs every element with the previous one of the same block; the others XOR with the
/// chunk's first bytes (`reference`, the unfiltered input). Bytes past the last whole element
/// are copied.
pub(crate) fn delta(typesize: usize, reference: Option<&[u8]>, src: &[u8], dst: &mut [u8]) {
    let len = src.len().min(dst.len());
    let w = delta_width(typesize);
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

/// Mantissa bits of `f32` and `f64`.
const MANTISSA_BITS_32: i32 = 23;
const MANTISSA_BITS_64: i32 = 52;

/// The number of low mantissa bits `trunc_prec` zeroes for `meta` (an `i8`: positive keeps
/// that many bits, negative removes that many), or the error c-blosc2 reports.
pub(crate) fn trunc_prec_zeroed_bits(meta: u8, typesize: usize, slot: usize) -> Result<u32, Error> {
    let prec = i32::from(meta as i8);
    let mantissa = match typesize {
        4 => MANTISSA_BITS_32,
        8 => MANTISSA_BITS_64,
        _ => {
            return Err(Error::unsupported(
                3,
                "typesize",
                "typesize 4 or 8 for the trunc_prec filter",
                Found::Value(typesize as i64),
            ));
        }
    };
    let zeroed = if prec >= 0 { mantissa - prec } else { -prec };
    if prec.abs() > mantissa || zeroed >= mantissa || zeroed < 0 {
        return Err(Error::invalid(
            24 + slot,
            "filters_meta",
            Expected::InRange(i64::from(1 - mantissa), i64::from(mantissa)),
            Found::Value(prec.into()),
        ));
    }
    Ok(zeroed as u32)
}

/// Mantissa truncation (c-blosc2 `truncate_precision`): the low `zeroed` bits of every
/// little-endian element of 4 or 8 bytes set to 0; trailing bytes copied.
pub(crate) fn trunc_prec(typesize: usize, zeroed: u32, src: &[u8], dst: &mut [u8]) {
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

/// Byte delta (filter 35): `typesize` channels of `len / typesize` bytes, each byte replaced
/// by its difference to the previous byte of its channel (the first to 0); trailing bytes
/// copied.
pub(crate) fn bytedelta(typesize: usize, src: &[u8], dst: &mut [u8]) {
    let len = src.len().min(dst.len());
    let typesize = typesize.max(1);
    let stream_len = len / typesize;
    let body = stream_len * typesize;
    if stream_len > 0 {
        for (d, s) in dst[..body].chunks_exact_mut(stream_len).zip(src[..body].chunks_exact(stream_len)) {
            let mut prev = 0u8;
            for (o, &v) in d.iter_mut().zip(s) {
                *o = v.wrapping_sub(prev);
                prev = v;
            }
        }
    }
    dst[body..len].copy_from_slice(&src[body..len]);
}

/// One step of a validated forward pipeline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    Shuffle(usize),
    BitShuffle,
    Delta,
    TruncPrec(u32),
    ByteDelta(usize),
}

/// A validated forward pipeline: the filters of the six slots, applied in slot order.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Forward {
    steps: [Option<Step>; MAX_FILTERS],
    typesize: usize,
}

impl Forward {
    /// Checks the filter ids and metas against what c-blosc2 can apply for `typesize` (the
    /// header's typesize, after c-blosc2 caps types over 255 bytes to 1).
    pub(crate) fn new(
        filters: &[u8; MAX_FILTERS],
        metas: &[u8; MAX_FILTERS],
        typesize: usize,
    ) -> Result<Self, Error> {
        let mut steps = [None; MAX_FILTERS];
        // c-blosc2 undoes a delta of the first block in place only when it is the last filter
        // undone: any other filter (trunc_prec needs no undo) before it, or a second delta,
        // makes chunks c-blosc2 itself cannot decode. They are refused.
        let mut undone_before = false;
        for (i, &id) in filters.iter().enumerate() {
            if id == filter_id::DELTA && undone_before {
                return Err(Error::unsupported(
                    filter_offset(i),
                    "filters",
                    "delta once, before any filter but trunc_prec (c-blosc2 cannot decode it elsewhere)",
                    Found::Value(id.into()),
                ));
            }
            undone_before |= !matches!(id, filter_id::NOFILTER | filter_id::TRUNC_PREC);
        }
        for (i, (&id, &meta)) in filters.iter().zip(metas).enumerate() {
            let meta_or_ts = if meta == 0 { typesize } else { usize::from(meta) };
            steps[i] = match id {
                filter_id::NOFILTER => None,
                filter_id::SHUFFLE => Some(Step::Shuffle(meta_or_ts)),
                filter_id::BITSHUFFLE => Some(Step::BitShuffle),
                filter_id::DELTA => Some(Step::Delta),
                filter_id::TRUNC_PREC => Some(Step::TruncPrec(trunc_prec_zeroed_bits(meta, typesize, i)?)),
                filter_id::BYTEDELTA => Some(Step::ByteDelta(meta_or_ts)),
                other => {
                    return Err(Error::unsupported(
                        filter_offset(i),
                        "filters",
                        "a filter this compressor applies (shuffle, bitshuffle, delta, trunc_prec, bytedelta)",
                        Found::Value(other.into()),
                    ));
                }
            };
        }
        Ok(Forward { steps, typesize })
    }

    /// `true` when no slot holds a filter.
    pub(crate) fn is_empty(&self) -> bool {
        self.steps.iter().all(Option::is_none)
    }

    /// Runs the pipeline over the block at `offset` of `chunk` (`len` bytes); `a`, `b` and
    /// `tmp` are scratch of at least `len` bytes. Returns which of `a` or `b` holds the result
    /// (`None`: the block itself, no filter ran).
    pub(crate) fn apply(
        &self,
        chunk: &[u8],
        offset: usize,
        len: usize,
        a: &mut [u8],
        b: &mut [u8],
        tmp: &mut [u8],
    ) -> Option<bool> {
        let block = &chunk[offset..offset + len];
        // `cur`: None = the input block, Some(false) = a, Some(true) = b.
        let mut cur: Option<bool> = None;
        for step in self.steps.iter().flatten() {
            let (src, dst): (&[u8], &mut [u8]) = match cur {
                None => (block, &mut a[..len]),
                Some(false) => (&a[..len], &mut b[..len]),
                Some(true) => (&b[..len], &mut a[..len]),
            };
            match *step {
                Step::Shuffle(ts) => shuffle(ts, src, dst),
                Step::BitShuffle => bitshuffle(self.typesize, src, dst, &mut tmp[..len]),
                Step::Delta => {
                    let reference = if offset == 0 { None } else { Some(&chunk[..len.min(chunk.len())]) };
                    delta(self.typesize, reference, src, dst);
                }
                Step::TruncPrec(zeroed) => trunc_prec(self.typesize, zeroed, src, dst),
                Step::ByteDelta(ts) => bytedelta(ts, src, dst),
            }
            cur = Some(cur == Some(false));
        }
        cur
    }
}

#[cfg(test)]
mod tests {
    use super::shuffle;
    use alloc::vec;
    use alloc::vec::Vec;

    /// The byte shuffle as its definition states it.
    fn plain_shuffle(ts: usize, src: &[u8]) -> Vec<u8> {
        let n = src.len() / ts;
        let mut dst = src.to_vec();
        for i in 0..n {
            for j in 0..ts {
                dst[j * n + i] = src[i * ts + j];
            }
        }
        dst
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]

        /// The tiled (SSE2 for 2, 4, 8 and 16 bytes) shuffle equals the definition, tails and
        /// leftover bytes included, and the decoder's unshuffle undoes it.
        #[test]
        fn shuffle_matches_its_definition(
            ts in 1usize..=17,
            data in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..2500),
        ) {
            let mut fast = vec![0u8; data.len()];
            shuffle(ts, &data, &mut fast);
            proptest::prop_assert_eq!(&fast, &plain_shuffle(ts, &data));
            let mut back = vec![0u8; data.len()];
            crate::shuffle::unshuffle(ts, &fast, &mut back);
            proptest::prop_assert_eq!(back, data);
        }
    }
}
