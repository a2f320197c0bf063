//! The filters, one file each with both directions (the forward filter c-blosc2 applies when
//! compressing and the undo its decoder runs), and the six-slot pipeline that runs them.
//!
//! | id | filter | file | forward | backward |
//! |---|---|---|---|---|
//! | 1 | shuffle | [`shuffle`] | byte shuffle (SSE2 for 2/4/8/16-byte items) | unshuffle (SSE2 tiles) |
//! | 2 | bitshuffle | [`bitshuffle`] | bit transpose of 8-item groups | its inverse (SSE2) |
//! | 3 | delta | [`delta`] | XOR against the chunk's first block | the same XOR, the first block in place |
//! | 4 | trunc_prec | [`trunc_prec`] | mantissa bits zeroed (lossy) | nothing to undo |
//! | 34, 35 | bytedelta | [`bytedelta`] | per-channel byte differences | running sums (34: c-blosc2 < 2.10's restart) |
//! | 32 | ndcell | [`ndcell`] | the block regrouped cell by cell (cells of `meta` items a side) | scattered back |
//! | 33 | ndmean | [`ndmean`] | every cell replaced by its mean (lossy, float32/float64) | scattered back as ndcell |
//! | 36 | int_trunc | [`int_trunc`] | low integer bits zeroed (lossy, 1-8 byte items) | nothing to undo |
//! | 32-255 | plugins | [`crate::Registry`] | the registered [`crate::FilterPlugin`] | likewise |

pub(crate) mod bitshuffle;
pub(crate) mod bytedelta;
mod cells;
pub(crate) mod delta;
pub(crate) mod int_trunc;
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
