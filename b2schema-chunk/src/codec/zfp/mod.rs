//! ZFP (codecs 33-35, c-blosc2's `zfp` plugin over zfp 1.0): lossy compression of float32 and
//! float64 blocks of 1 to 4 dimensions in fixed accuracy (`zfp_acc`, meta: the tolerance's
//! decimal exponent as an `i8`), fixed precision (`zfp_prec`, meta + 5, 7, 9 or 11 bit planes
//! for 1-4 dimensions) or fixed rate (`zfp_rate`, meta: the percentage of the item's bits).
//!
//! Written here in safe Rust, the same arithmetic as zfp 1.0 built as c-blosc2's wheels build it
//! (`ZFP_ROUND_NEVER`, 64-bit stream words): the decoder's output equals c-blosc2's bit for bit
//! and the encoder's stream equals zfp's byte for byte. The block geometry is the array's block
//! shape ([`PluginContext::blockshape`]): a block is one zfp field, C order, last dimension
//! fastest. c-blosc2 refuses more than 4 dimensions, and so does this codec.
//!
//! `zfp-rs` (a pure-Rust zfp) was measured for this and not used: its decoder scatters blocks
//! through raw pointers (its audit is in SECURITY.md), and the read path of this crate is safe
//! Rust only.

mod bits;
mod block;
mod perm;

use alloc::vec::Vec;

use crate::registry::{CodecPlugin, PluginContext, PluginError};
pub(crate) use block::Params;

/// c-blosc2's `ZFP_MAX_DIM`.
const MAX_DIM: usize = 4;

/// Which of zfp's modes a codec id runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    /// Fixed accuracy (33).
    Accuracy,
    /// Fixed precision (34).
    Precision,
    /// Fixed rate (35).
    Rate,
}

/// A ZFP codec of one mode.
pub(crate) struct Zfp(pub(crate) Mode);

/// The three codecs.
pub(crate) static ZFP_ACC: Zfp = Zfp(Mode::Accuracy);
pub(crate) static ZFP_PREC: Zfp = Zfp(Mode::Precision);
pub(crate) static ZFP_RATE: Zfp = Zfp(Mode::Rate);

/// zfp's `ZFP_MIN_BITS`, `ZFP_MAX_BITS`, `ZFP_MAX_PREC`, `ZFP_MIN_EXP`.
const MIN_BITS: u32 = 1;
const MAX_BITS: u32 = 16658;
const MAX_PREC: u32 = 64;
const MIN_EXP: i32 = -1074;

/// `floor(log2(10^n))` for the `i8` exponents of `zfp_acc` (10^n is never a power of two for
/// n != 0, and n * log2(10) is never within 1e-6 of an integer for |n| <= 128, far above the
/// product's rounding error).
fn floor_log2_pow10(n: i32) -> i32 {
    let x = f64::from(n) * core::f64::consts::LOG2_10;
    let t = x as i32; // truncation toward zero
    if (t as f64) > x { t - 1 } else { t }
}

impl Mode {
    /// zfp's stream parameters for `meta`, `ndim` dimensions and `typesize` (c-blosc2's
    /// `zfp_stream_set_accuracy(10^meta)`, `_set_precision(meta + 3 + 2 ndim)`,
    /// `_set_rate(meta / 100 * typesize * 8)`).
    pub(crate) fn params(self, meta: u8, ndim: usize, typesize: usize) -> Params {
        match self {
            Mode::Accuracy => Params {
                minbits: MIN_BITS,
                maxbits: MAX_BITS,
                maxprec: MAX_PREC,
                // frexp(10^tol) gives emin + 1 with 2^emin <= 10^tol < 2^(emin+1).
                minexp: floor_log2_pow10(i32::from(meta as i8)),
            },
            Mode::Precision => Params {
                minbits: MIN_BITS,
                maxbits: MAX_BITS,
                maxprec: (u32::from(meta) + 3 + 2 * ndim as u32).min(MAX_PREC),
                minexp: MIN_EXP,
            },
            Mode::Rate => {
                let rate = f64::from(meta) / 100.0 * typesize as f64 * 8.0;
                let n = 1u32 << (2 * ndim);
                let mut bits = (f64::from(n) * rate + 0.5) as u32; // floor of a non-negative
                bits = bits.max(if typesize == 4 { 1 + 8 } else { 1 + 11 });
                Params { minbits: bits, maxbits: bits, maxprec: MAX_PREC, minexp: MIN_EXP }
            }
        }
    }
}

/// The block's zfp field: its sides, fastest first (`nx` is the array's last block dimension),
/// checked as c-blosc2 checks them (1-4 dimensions of positive sides, float32 or float64 items,
/// exactly `len` bytes).
fn field(ctx: &PluginContext<'_>, len: usize) -> Result<([usize; MAX_DIM], usize), PluginError> {
    let bs =
        ctx.blockshape.ok_or(PluginError("the array's block shape (ZFP needs the chunk of a b2nd array)"))?;
    if bs.is_empty() || bs.len() > MAX_DIM {
        return Err(PluginError("an array of 1 to 4 dimensions (c-blosc2's ZFP_MAX_DIM)"));
    }
    if ctx.typesize != 4 && ctx.typesize != 8 {
        return Err(PluginError("typesize 4 or 8 (float32 or float64) for ZFP"));
    }
    let mut dims = [1usize; MAX_DIM];
    let mut bytes = ctx.typesize as u64;
    for (d, &b) in dims.iter_mut().zip(bs.iter().rev()) {
        if b <= 0 {
            return Err(PluginError("a block shape of positive sides"));
        }
        *d = b as usize;
        bytes = bytes.saturating_mul(b as u64);
    }
    if bytes != len as u64 {
        return Err(PluginError("a block of exactly the array's block shape"));
    }
    Ok((dims, bs.len()))
}

impl CodecPlugin for Zfp {
    fn name(&self) -> &str {
        match self.0 {
            Mode::Accuracy => "zfp_acc",
            Mode::Precision => "zfp_prec",
            Mode::Rate => "zfp_rate",
        }
    }

    fn encode(&self, src: &[u8], dst: &mut [u8], ctx: &PluginContext<'_>) -> Result<usize, PluginError> {
        let bs = ctx
            .blockshape
            .ok_or(PluginError("the array's block shape (ZFP needs the chunk of a b2nd array)"))?;
        if bs.is_empty() || bs.len() > MAX_DIM {
            return Err(PluginError("an array of 1 to 4 dimensions (c-blosc2's ZFP_MAX_DIM)"));
        }
        if bs.iter().any(|&b| b < 4) {
            return Err(PluginError("block sides of at least 4 (c-blosc2's ZFP refuses smaller blocks)"));
        }
        // A stream that is not the whole block (a split block) is stored raw, as c-blosc2 does.
        let Ok((dims, ndim)) = field(ctx, src.len()) else {
            if ctx.typesize != 4 && ctx.typesize != 8 {
                return Err(PluginError("typesize 4 or 8 (float32 or float64) for ZFP"));
            }
            return Ok(0);
        };
        let params = self.0.params(ctx.meta, ndim, ctx.typesize);
        let out: Vec<u8> = if ctx.typesize == 4 {
            block::encode_field::<f32>(src, &dims, ndim, &params)
        } else {
            block::encode_field::<f64>(src, &dims, ndim, &params)
        };
        // c-blosc2: a stream not smaller than its input is stored raw.
        if out.len() >= src.len() || out.len() > dst.len() {
            return Ok(0);
        }
        dst[..out.len()].copy_from_slice(&out);
        Ok(out.len())
    }

    fn decode(&self, src: &[u8], dst: &mut [u8], ctx: &PluginContext<'_>) -> Result<usize, PluginError> {
        let (dims, ndim) = field(ctx, dst.len())?;
        let params = self.0.params(ctx.meta, ndim, ctx.typesize);
        let complete = if ctx.typesize == 4 {
            block::decode_field::<f32>(src, dst, &dims, ndim, &params)
        } else {
            block::decode_field::<f64>(src, dst, &dims, ndim, &params)
        };
        if !complete {
            return Err(PluginError(
                "a ZFP stream holding every zfp block of the array's block (it ends early)",
            ));
        }
        Ok(dst.len())
    }
}
