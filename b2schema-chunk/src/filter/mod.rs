//! The filters, one file each with both directions (the forward filter c-blosc2 applies when
//! compressing and the undo its decoder runs), and the six-slot pipeline that runs them.
//!
//! | id | filter | file | forward | backward |
//! |---|---|---|---|---|
//! | 1 | shuffle | [`shuffle`] | byte shuffle (AVX2 at run time, else SSE2, for 2/4/8/16-byte items) | unshuffle (likewise) |
//! | 2 | bitshuffle | [`bitshuffle`] | bit transpose of 8-item groups (AVX-512 or AVX2 bit step) | its inverse (AVX2, else SSE2) |
//! | 3 | delta | [`delta`] | XOR against the chunk's first block | the same XOR, the first block in place |
//! | 4 | trunc_prec | [`trunc_prec`] | mantissa bits zeroed (lossy) | nothing to undo |
//! | 34, 35 | bytedelta | [`bytedelta`] | per-channel byte differences (AVX2) | running sums (AVX2, else SSE2; 34: c-blosc2 < 2.10's restart) |
//! | 32 | ndcell | [`ndcell`] | the block regrouped cell by cell (cells of `meta` items a side) | scattered back |
//! | 33 | ndmean | [`ndmean`] | every cell replaced by its mean (lossy, float32/float64) | scattered back as ndcell |
//! | 36 | int_trunc | [`int_trunc`] | low integer bits zeroed (lossy, 1-8 byte items) | nothing to undo |
//! | 32-255 | plugins | [`crate::Registry`] | the registered [`crate::FilterPlugin`] | likewise |

mod avx2;
#[cfg(all(feature = "std", target_arch = "x86_64"))]
mod avx2_kernel;
pub(crate) mod bitshuffle;
#[cfg(all(feature = "std", target_arch = "x86_64"))]
mod bitshuffle_avx2;
#[cfg(all(feature = "std", target_arch = "x86_64"))]
mod bitshuffle_avx512;
pub(crate) mod bytedelta;
#[cfg(all(feature = "std", target_arch = "x86_64"))]
mod bytedelta_avx2;
mod cells;
pub(crate) mod delta;
pub(crate) mod int_trunc;
#[cfg(all(feature = "std", target_arch = "x86_64", target_feature = "sse2"))]
pub(crate) mod kernel_bench;
pub(crate) mod ndcell;
pub(crate) mod ndmean;
mod pipeline;
pub(crate) mod shuffle;
#[cfg(all(feature = "std", target_arch = "x86_64"))]
mod shuffle_avx2;
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod shuffle_sse2;
pub(crate) mod trunc_prec;

pub(crate) use pipeline::{Backward, Forward};

/// Whether this CPU has what the AVX2 kernels need (x86-64-v3: AVX2 and FMA among others),
/// for the tests that check the kernels run where they can.
#[cfg(all(test, feature = "std", target_arch = "x86_64"))]
fn avx2_detected() -> bool {
    std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma")
}
