//! zfp's lossy block codec for float32 and float64 (`decodef.c`, `decode.c`, `encodef.c`,
//! `encode.c` and the per-dimension `decode{1,2,3,4}.c`, `encode{1,2,3,4}.c` of zfp 1.0): a
//! block of 4^d values shares one exponent, is cast to integers, decorrelated by a lifting
//! transform, reordered by degree, mapped to negabinary and coded bit plane by bit plane.
//!
//! Integer arithmetic wraps as zfp's does on the machines c-blosc2 runs on; every loop is
//! bounded by the block (at most 64 planes of 256 values).

use alloc::vec::Vec;

use super::bits::{BitReader, BitWriter};
use super::perm;

/// zfp's stream parameters (`zfp_stream`'s `minbits`, `maxbits`, `maxprec`, `minexp`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Params {
    pub(crate) minbits: u32,
    pub(crate) maxbits: u32,
    pub(crate) maxprec: u32,
    pub(crate) minexp: i32,
}

/// The integer type of a block (`int32` for float, `int64` for double), wrapping.
pub(crate) trait Int: Copy + Default {
    fn add(self, o: Self) -> Self;
    fn sub(self, o: Self) -> Self;
    /// Arithmetic shift right by one.
    fn half(self) -> Self;
}

impl Int for i32 {
    fn add(self, o: Self) -> Self {
        self.wrapping_add(o)
    }
    fn sub(self, o: Self) -> Self {
        self.wrapping_sub(o)
    }
    fn half(self) -> Self {
        self >> 1
    }
}

impl Int for i64 {
    fn add(self, o: Self) -> Self {
        self.wrapping_add(o)
    }
    fn sub(self, o: Self) -> Self {
        self.wrapping_sub(o)
    }
    fn half(self) -> Self {
        self >> 1
    }
}

/// float32 or float64 with its zfp traits (`traitsf.h`, `traitsd.h`).
pub(crate) trait Scalar: Copy + Default + PartialOrd {
    type I: Int;
    /// Bytes of an item.
    const SIZE: usize;
    /// Exponent bits (`EBITS`) and their bias (`EBIAS`).
    const EBITS: u32;
    const EBIAS: i32;
    /// Bits of the integer type (`CHAR_BIT * sizeof(UInt)`).
    const INTPREC: u32;
    fn read(b: &[u8]) -> Self;
    fn write(self, b: &mut [u8]);
    /// `ldexp(1, e)` exactly (0 below the smallest subnormal, infinity above the largest).
    fn pow2(e: i32) -> Self;
    /// `s * (Scalar)i` (`inv_cast`).
    fn scale(s: Self, i: Self::I) -> Self;
    /// `(Int)(s * x)` as x86 truncates (out of range or NaN: the integer minimum).
    fn quantize(s: Self, x: Self) -> Self::I;
    /// `fabs`.
    fn abs(self) -> Self;
    /// `frexp`'s exponent for `x > 0` (`0` for infinity, as glibc gives).
    fn frexp_exp(self) -> i32;
    fn is_positive(self) -> bool;
    /// Negabinary to two's complement (`uint2int`) and back (`int2uint`).
    fn from_nega(u: u64) -> Self::I;
    fn to_nega(i: Self::I) -> u64;
}

impl Scalar for f32 {
    type I = i32;
    const SIZE: usize = 4;
    const EBITS: u32 = 8;
    const EBIAS: i32 = 127;
    const INTPREC: u32 = 32;
    fn read(b: &[u8]) -> Self {
        f32::from_le_bytes([b[0], b[1], b[2], b[3]])
    }
    fn write(self, b: &mut [u8]) {
        b.copy_from_slice(&self.to_le_bytes());
    }
    fn pow2(e: i32) -> Self {
        if e > 127 {
            f32::INFINITY
        } else if e >= -126 {
            f32::from_bits(((e + 127) as u32) << 23)
        } else if e >= -149 {
            f32::from_bits(1u32 << (e + 149))
        } else {
            0.0
        }
    }
    fn scale(s: Self, i: i32) -> Self {
        s * i as f32
    }
    fn quantize(s: Self, x: Self) -> i32 {
        let v = s * x;
        if v.is_nan() || !(-2147483648.0..2147483648.0).contains(&v) { i32::MIN } else { v as i32 }
    }
    fn abs(self) -> Self {
        f32::from_bits(self.to_bits() & 0x7fff_ffff)
    }
    fn frexp_exp(self) -> i32 {
        let bits = self.to_bits() & 0x7fff_ffff;
        let e = (bits >> 23) as i32;
        if e == 0xff {
            0
        } else if e == 0 {
            // subnormal: x = m * 2^-149, frexp's exponent is bit_length(m) - 149
            (32 - bits.leading_zeros()) as i32 - 149
        } else {
            e - 126
        }
    }
    fn is_positive(self) -> bool {
        self > 0.0
    }
    fn from_nega(u: u64) -> i32 {
        const NB: u32 = 0xaaaa_aaaa;
        ((u as u32 ^ NB).wrapping_sub(NB)) as i32
    }
    fn to_nega(i: i32) -> u64 {
        const NB: u32 = 0xaaaa_aaaa;
        u64::from((i as u32).wrapping_add(NB) ^ NB)
    }
}

impl Scalar for f64 {
    type I = i64;
    const SIZE: usize = 8;
    const EBITS: u32 = 11;
    const EBIAS: i32 = 1023;
    const INTPREC: u32 = 64;
    fn read(b: &[u8]) -> Self {
        f64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]])
    }
    fn write(self, b: &mut [u8]) {
        b.copy_from_slice(&self.to_le_bytes());
    }
    fn pow2(e: i32) -> Self {
        if e > 1023 {
            f64::INFINITY
        } else if e >= -1022 {
            f64::from_bits(((e + 1023) as u64) << 52)
        } else if e >= -1074 {
            f64::from_bits(1u64 << (e + 1074))
        } else {
            0.0
        }
    }
    fn scale(s: Self, i: i64) -> Self {
        s * i as f64
    }
    fn quantize(s: Self, x: Self) -> i64 {
        let v = s * x;
        if v.is_nan() || !(-9223372036854775808.0..9223372036854775808.0).contains(&v) {
            i64::MIN
        } else {
            v as i64
        }
    }
    fn abs(self) -> Self {
        f64::from_bits(self.to_bits() & 0x7fff_ffff_ffff_ffff)
    }
    fn frexp_exp(self) -> i32 {
        let bits = self.to_bits() & 0x7fff_ffff_ffff_ffff;
        let e = (bits >> 52) as i32;
        if e == 0x7ff {
            0
        } else if e == 0 {
            (64 - bits.leading_zeros()) as i32 - 1074
        } else {
            e - 1022
        }
    }
    fn is_positive(self) -> bool {
        self > 0.0
    }
    fn from_nega(u: u64) -> i64 {
        const NB: u64 = 0xaaaa_aaaa_aaaa_aaaa;
        ((u ^ NB).wrapping_sub(NB)) as i64
    }
    fn to_nega(i: i64) -> u64 {
        const NB: u64 = 0xaaaa_aaaa_aaaa_aaaa;
        (i as u64).wrapping_add(NB) ^ NB
    }
}

/// The bit planes coded for a block of exponent `emax` (`precision`, `ZFP_ROUND_NEVER`).
fn precision(emax: i32, p: &Params, dims: usize) -> u32 {
    let planes = i64::from(emax) - i64::from(p.minexp) + 2 * dims as i64 + 2;
    p.maxprec.min(planes.clamp(0, i64::from(u32::MAX)) as u32)
}

/// The coefficient order of a block of `dims` dimensions.
fn perm(dims: usize) -> &'static [u8] {
    const PERM_1: [u8; 4] = [0, 1, 2, 3];
    match dims {
        1 => &PERM_1,
        2 => &perm::PERM_2,
        3 => &perm::PERM_3,
        _ => &perm::PERM_4,
    }
}

/// `inv_lift`: the inverse lifting transform of the 4 values at `p[at]`, stride `s`.
fn inv_lift<I: Int>(p: &mut [I], at: usize, s: usize) {
    let (mut x, mut y, mut z, mut w) = (p[at], p[at + s], p[at + 2 * s], p[at + 3 * s]);
    y = y.add(w.half());
    w = w.sub(y.half());
    y = y.add(w);
    w = w.sub(y.sub(w));
    z = z.add(x);
    x = x.sub(z.sub(x));
    y = y.add(z);
    z = z.sub(y.sub(z));
    w = w.add(x);
    x = x.sub(w.sub(x));
    p[at] = x;
    p[at + s] = y;
    p[at + 2 * s] = z;
    p[at + 3 * s] = w;
}

/// `fwd_lift`: the forward lifting transform.
fn fwd_lift<I: Int>(p: &mut [I], at: usize, s: usize) {
    let (mut x, mut y, mut z, mut w) = (p[at], p[at + s], p[at + 2 * s], p[at + 3 * s]);
    x = x.add(w).half();
    w = w.sub(x);
    z = z.add(y).half();
    y = y.sub(z);
    x = x.add(z).half();
    z = z.sub(x);
    w = w.add(y).half();
    y = y.sub(w);
    w = w.add(y.half());
    y = y.sub(w.half());
    p[at] = x;
    p[at + s] = y;
    p[at + 2 * s] = z;
    p[at + 3 * s] = w;
}

/// The starts of the lines along axis `axis` (stride `4^axis`) of a block of `dims` dimensions.
fn lines(dims: usize, axis: usize) -> impl Iterator<Item = usize> {
    let size = 1usize << (2 * dims);
    let stride = 1usize << (2 * axis);
    (0..size).filter(move |i| (i / stride).is_multiple_of(4))
}

/// The lifts of the forward transform in order (start, stride): along x first, then y, z, w
/// (`fwd_xform`); the inverse runs them backwards (`inv_xform`: w first).
fn lifts(dims: usize) -> Vec<(usize, usize)> {
    (0..dims).flat_map(|axis| lines(dims, axis).map(move |at| (at, 1 << (2 * axis)))).collect()
}

/// The inverse decorrelating transform (`inv_xform`), `lifts` from [`lifts`].
fn inv_xform<I: Int>(p: &mut [I], lifts: &[(usize, usize)]) {
    for &(at, stride) in lifts.iter().rev() {
        inv_lift(p, at, stride);
    }
}

/// The forward decorrelating transform (`fwd_xform`).
fn fwd_xform<I: Int>(p: &mut [I], lifts: &[(usize, usize)]) {
    for &(at, stride) in lifts {
        fwd_lift(p, at, stride);
    }
}

/// Decodes the bit planes of `data.len()` coefficients with at most `maxbits` bits
/// (`decode_ints`; without a binding budget the whole-plane variant reads the same bits).
/// Returns the bits read.
fn decode_ints(r: &mut BitReader<'_>, maxbits: u32, maxprec: u32, intprec: u32, data: &mut [u64]) -> u32 {
    data.fill(0);
    let size = data.len();
    let kmin = intprec.saturating_sub(maxprec);
    let mut bits = maxbits;
    let mut n = 0usize;
    let mut k = intprec;
    while bits > 0 && k > kmin {
        k -= 1;
        // step 1: the first n bits of plane k
        let m = n.min(bits as usize);
        bits -= m as u32;
        let mut i = 0;
        while i < m {
            let take = (m - i).min(64);
            let mut x = r.bits(take as u32);
            let mut j = i;
            while x != 0 {
                data[j] += (x & 1) << k;
                x >>= 1;
                j += 1;
            }
            i += take;
        }
        // step 2: unary run-length decode the rest of the plane
        while bits > 0 && n < size {
            bits -= 1;
            if r.bit() == 0 {
                break;
            }
            while bits > 0 && n < size - 1 {
                bits -= 1;
                if r.bit() != 0 {
                    break;
                }
                n += 1;
            }
            data[n] += 1 << k;
            n += 1;
        }
        if r.overrun() {
            break;
        }
    }
    maxbits - bits
}

/// Encodes the bit planes (`encode_ints`, the counting variant, which writes the same bits as
/// the others). Returns the bits written.
fn encode_ints(w: &mut BitWriter, maxbits: u32, maxprec: u32, intprec: u32, data: &[u64]) -> u32 {
    let size = data.len();
    let kmin = intprec.saturating_sub(maxprec);
    let mut bits = maxbits;
    let mut n = 0usize;
    let mut k = intprec;
    while bits > 0 && k > kmin {
        k -= 1;
        let m = n.min(bits as usize);
        bits -= m as u32;
        for d in data.iter().take(m) {
            w.bit(d >> k);
        }
        let mut c: usize = data[m..].iter().filter(|d| (*d >> k) & 1 != 0).count();
        while bits > 0 && n < size {
            bits -= 1;
            if w.bit(u64::from(c != 0)) == 0 {
                break;
            }
            c -= 1;
            while bits > 0 && n < size - 1 {
                bits -= 1;
                if w.bit(data[n] >> k) != 0 {
                    break;
                }
                n += 1;
            }
            n += 1;
        }
    }
    maxbits - bits
}

/// Scratch of one block: its coefficients, unsigned and signed, and the transform's lifts.
struct Scratch<I> {
    ublock: [u64; 256],
    iblock: [I; 256],
    lifts: Vec<(usize, usize)>,
}

impl<I: Int> Scratch<I> {
    fn new(dims: usize) -> Self {
        Scratch { ublock: [0; 256], iblock: [I::default(); 256], lifts: lifts(dims) }
    }
}

/// Decodes one block of `dims` dimensions into `out` (4^dims values): zfp's `decode_block`.
fn decode_block<S: Scalar>(
    r: &mut BitReader<'_>,
    dims: usize,
    p: &Params,
    out: &mut [S],
    w: &mut Scratch<S::I>,
) {
    let size = out.len();
    let mut bits = 1u32;
    if r.bit() != 0 {
        bits += S::EBITS;
        let emax = r.bits(S::EBITS) as i32 - S::EBIAS;
        let maxprec = precision(emax, p, dims);
        let ublock = &mut w.ublock;
        let used = decode_ints(r, p.maxbits.saturating_sub(bits), maxprec, S::INTPREC, &mut ublock[..size]);
        let minbits = p.minbits - bits.min(p.minbits);
        if used < minbits {
            r.skip(minbits - used);
        }
        let iblock = &mut w.iblock;
        for (u, &at) in ublock[..size].iter().zip(perm(dims)) {
            iblock[usize::from(at)] = S::from_nega(*u);
        }
        inv_xform(&mut iblock[..size], &w.lifts);
        let s = S::pow2(emax - (S::INTPREC as i32 - 2));
        for (f, &i) in out.iter_mut().zip(&iblock[..size]) {
            *f = S::scale(s, i);
        }
    } else {
        out.fill(S::default());
        if p.minbits > bits {
            r.skip(p.minbits - bits);
        }
    }
}

/// Encodes one block (`encode_block`).
fn encode_block<S: Scalar>(w: &mut BitWriter, dims: usize, p: &Params, block: &[S], sc: &mut Scratch<S::I>) {
    let size = block.len();
    let mut bits = 1u32;
    let mut max = S::default();
    for &f in block {
        let a = f.abs();
        if max < a {
            max = a;
        }
    }
    let emax = if max.is_positive() { max.frexp_exp().max(1 - S::EBIAS) } else { -S::EBIAS };
    let maxprec = precision(emax, p, dims);
    let e = if maxprec != 0 { (emax + S::EBIAS) as u32 } else { 0 };
    if e != 0 {
        bits += S::EBITS;
        w.bits(2 * u64::from(e) + 1, bits);
        let s = S::pow2((S::INTPREC as i32 - 2) - emax);
        let iblock = &mut sc.iblock;
        for (i, &f) in iblock.iter_mut().zip(block) {
            *i = S::quantize(s, f);
        }
        fwd_xform(&mut iblock[..size], &sc.lifts);
        let ublock = &mut sc.ublock;
        for (u, &at) in ublock[..size].iter_mut().zip(perm(dims)) {
            *u = S::to_nega(iblock[usize::from(at)]);
        }
        let minbits = p.minbits - bits.min(p.minbits);
        let written = encode_ints(w, p.maxbits.saturating_sub(bits), maxprec, S::INTPREC, &ublock[..size]);
        if written < minbits {
            w.pad(minbits - written);
        }
    } else {
        w.bit(0);
        if p.minbits > bits {
            w.pad(p.minbits - bits);
        }
    }
}

/// The origins of the zfp blocks of a field of sides `n` (fastest first), in zfp's order
/// (x fastest), with the valid extent of each.
fn blocks(n: &[usize; 4], dims: usize) -> impl Iterator<Item = ([usize; 4], [usize; 4])> + '_ {
    let nb: [usize; 4] = core::array::from_fn(|d| if d < dims { n[d].div_ceil(4) } else { 1 });
    let total = nb.iter().product::<usize>();
    (0..total).map(move |mut b| {
        let mut origin = [0usize; 4];
        let mut extent = [1usize; 4];
        for d in 0..4 {
            origin[d] = (b % nb[d]) * 4;
            b /= nb[d];
            if d < dims {
                extent[d] = (n[d] - origin[d]).min(4);
            }
        }
        (origin, extent)
    })
}

/// The offset of item `(x, y, z, w)` in a C-order field of sides `n`.
fn offset(n: &[usize; 4], c: [usize; 4]) -> usize {
    c[0] + n[0] * (c[1] + n[1] * (c[2] + n[2] * c[3]))
}

/// Decodes a whole field (`zfp_decompress`) of sides `n` (fastest first) into `dst`
/// (little-endian items). `false` when the stream ended before the field did.
pub(crate) fn decode_field<S: Scalar>(
    src: &[u8],
    dst: &mut [u8],
    n: &[usize; 4],
    dims: usize,
    p: &Params,
) -> bool {
    let mut r = BitReader::new(src);
    let size = 1usize << (2 * dims);
    let mut block = [S::default(); 256];
    let mut scratch = Scratch::new(dims);
    for (origin, extent) in blocks(n, dims) {
        decode_block(&mut r, dims, p, &mut block[..size], &mut scratch);
        if r.overrun() {
            return false;
        }
        for l in 0..extent[3] {
            for k in 0..extent[2] {
                for j in 0..extent[1] {
                    for i in 0..extent[0] {
                        let at =
                            offset(n, [origin[0] + i, origin[1] + j, origin[2] + k, origin[3] + l]) * S::SIZE;
                        block[i + 4 * j + 16 * k + 64 * l].write(&mut dst[at..at + S::SIZE]);
                    }
                }
            }
        }
    }
    true
}

/// `pad_block`: fills the values of a partial line of `n` valid values at `p[at]`, stride `s`.
fn pad_line<S: Scalar>(p: &mut [S], at: usize, n: usize, s: usize) {
    if n == 0 {
        p[at] = S::default();
    }
    if n <= 1 {
        p[at + s] = p[at];
    }
    if n <= 2 {
        p[at + 2 * s] = p[at + s];
    }
    if n <= 3 {
        p[at + 3 * s] = p[at];
    }
}

/// Encodes a whole field (`zfp_compress`, then `stream_flush`) of sides `n`, `src` being its
/// little-endian items.
pub(crate) fn encode_field<S: Scalar>(src: &[u8], n: &[usize; 4], dims: usize, p: &Params) -> Vec<u8> {
    let mut w = BitWriter::new();
    let size = 1usize << (2 * dims);
    let mut block = [S::default(); 256];
    let mut scratch = Scratch::new(dims);
    for (origin, extent) in blocks(n, dims) {
        for l in 0..extent[3] {
            for k in 0..extent[2] {
                for j in 0..extent[1] {
                    for i in 0..extent[0] {
                        let at =
                            offset(n, [origin[0] + i, origin[1] + j, origin[2] + k, origin[3] + l]) * S::SIZE;
                        block[i + 4 * j + 16 * k + 64 * l] = S::read(&src[at..at + S::SIZE]);
                    }
                }
            }
        }
        // gather_partial: pad along x, then y, z, w, where the higher axes are valid.
        for axis in 0..dims {
            if extent[axis] == 4 {
                continue;
            }
            for at in lines(dims, axis) {
                let c = [at % 4, (at / 4) % 4, (at / 16) % 4, at / 64];
                if (axis + 1..dims).all(|d| c[d] < extent[d]) {
                    pad_line(&mut block[..size], at, extent[axis], 1 << (2 * axis));
                }
            }
        }
        encode_block(&mut w, dims, p, &block[..size], &mut scratch);
    }
    w.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// At full precision a field comes back within a few units of its last place, whatever
        /// its dimensions, sides (partial zfp blocks included) and values.
        #[test]
        fn full_precision_round_trips_closely(
            dims in 1usize..=4,
            sides in proptest::array::uniform4(1usize..9),
            values in proptest::collection::vec(-1e6f64..1e6, 4096),
        ) {
            let mut n = [1usize; 4];
            n[..dims].copy_from_slice(&sides[..dims]);
            let items: usize = n.iter().product();
            let src: Vec<u8> = values[..items].iter().flat_map(|v| v.to_le_bytes()).collect();
            let p = Params { minbits: 1, maxbits: 16658, maxprec: 64, minexp: -1074 };
            let stream = encode_field::<f64>(&src, &n, dims, &p);
            proptest::prop_assert_eq!(stream.len() % 8, 0);
            let mut back = alloc::vec![0u8; src.len()];
            proptest::prop_assert!(decode_field::<f64>(&stream, &mut back, &n, dims, &p));
            for (a, b) in src.chunks(8).zip(back.chunks(8)) {
                let (a, b) = (f64::read(a), f64::read(b));
                proptest::prop_assert!((a - b).abs() <= 1e-6, "{} vs {}", a, b);
            }
            // Cut short, the stream is refused, never read past.
            if stream.len() > 8 {
                proptest::prop_assert!(!decode_field::<f64>(&stream[..stream.len() / 2], &mut back, &n, dims, &p));
            }
        }
    }

    #[test]
    fn pow2_and_frexp_are_exact() {
        for e in -160..140 {
            let x = f32::pow2(e);
            if (-149..=127).contains(&e) {
                assert_eq!(x.frexp_exp(), e + 1, "{e}");
            }
        }
        for e in -1080..1030 {
            let x = f64::pow2(e);
            if (-1074..=1023).contains(&e) {
                assert_eq!(x.frexp_exp(), e + 1, "{e}");
            }
        }
    }
}
