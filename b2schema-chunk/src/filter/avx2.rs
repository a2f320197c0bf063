//! The AVX2 kernels (and one AVX-512 kernel, the forward bit step) as the filters call them: chosen at run time where they are built (the
//! `std` feature on x86-64: each answers `None` on a CPU without AVX2), and elsewhere
//! (`no_std`, other targets) the same functions answering `None`, so that the callers hold no
//! `cfg` of their own and fall back to SSE2 or the plain loops.

#[cfg(all(feature = "std", target_arch = "x86_64"))]
pub(crate) use super::bitshuffle_avx2::bit_rows_to_plane;
#[cfg(all(feature = "std", target_arch = "x86_64"))]
pub(crate) use super::bytedelta_avx2::{differences, running_sums, undelta_unshuffle};
#[cfg(all(feature = "std", target_arch = "x86_64"))]
pub(crate) use super::shuffle_avx2::{shuffle, unshuffle, unshuffle_planes};

/// The forward bit step: AVX-512 where the CPU has x86-64-v4, else AVX2.
#[cfg(all(feature = "std", target_arch = "x86_64"))]
pub(crate) fn plane_to_bit_rows(plane: &[u8], rows: &mut [u8], rowlen: usize) -> Option<usize> {
    super::bitshuffle_avx512::plane_to_bit_rows(plane, rows, rowlen)
        .or_else(|| super::bitshuffle_avx2::plane_to_bit_rows(plane, rows, rowlen))
}

#[cfg(not(all(feature = "std", target_arch = "x86_64")))]
mod absent {
    //! Without the AVX2 kernels: every function says "not done here" (`None`).

    #[inline]
    pub(crate) fn bit_rows_to_plane(_rows: &[u8], _rowlen: usize, _plane: &mut [u8]) -> Option<usize> {
        None
    }

    #[inline]
    pub(crate) fn plane_to_bit_rows(_plane: &[u8], _rows: &mut [u8], _rowlen: usize) -> Option<usize> {
        None
    }

    #[inline]
    pub(crate) fn differences(_src: &[u8], _dst: &mut [u8]) -> Option<usize> {
        None
    }

    #[inline]
    pub(crate) fn running_sums(_src: &[u8], _dst: &mut [u8]) -> Option<(usize, u8)> {
        None
    }

    #[inline]
    pub(crate) fn undelta_unshuffle(
        _ts: usize,
        _src: &[u8],
        _dst: &mut [u8],
        _n: usize,
    ) -> Option<(usize, [u8; 8])> {
        None
    }

    #[inline]
    pub(crate) fn shuffle(_ts: usize, _src: &[u8], _dst: &mut [u8], _n: usize) -> Option<usize> {
        None
    }

    #[inline]
    pub(crate) fn unshuffle_planes<const T: usize>(
        _planes: [&[u8]; T],
        _dst: &mut [u8],
        _n: usize,
    ) -> Option<core::ops::Range<usize>> {
        None
    }

    #[inline]
    pub(crate) fn unshuffle(
        _ts: usize,
        _src: &[u8],
        _dst: &mut [u8],
        _n: usize,
    ) -> Option<core::ops::Range<usize>> {
        None
    }
}
#[cfg(not(all(feature = "std", target_arch = "x86_64")))]
pub(crate) use absent::*;
