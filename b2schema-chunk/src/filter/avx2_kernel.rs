//! How the AVX2 kernels of [`super::shuffle_avx2`], [`super::bitshuffle_avx2`] and
//! [`super::bytedelta_avx2`] run (the `std` feature, x86-64): `pulp`'s `V3` token exists only
//! on a CPU that has AVX2 and the rest of x86-64-v3 (detected once by the standard library), and
//! [`run`] compiles a [`Kernel`] for those features. Safe Rust only: `pulp`'s register
//! wrappers, and loads and stores by array copies of slices whose bounds our code checks.
//!
//! A kernel is a struct of its arguments with an `#[inline(always)]` [`Kernel::run`], not a
//! closure: a closure does not inherit the target features of the function that calls it, so
//! the intrinsics in its body can stay out-of-line calls (measured: bytedelta's running sums at
//! 260 MB/s as a closure, 20 GB/s as a kernel). Inside kernels, loops rather than
//! `array::from_fn` for the same reason.

use core::arch::x86_64::__m256i;
use pulp::x86::V3;

/// Elements (or bytes) per tile: one 256-bit vector of bytes.
pub(super) const TILE: usize = 32;

/// A kernel: its arguments, and the work compiled for AVX2.
pub(super) trait Kernel {
    /// What it returns (how much it did).
    type Output;

    /// The work; implementations are `#[inline(always)]`.
    fn run(self, s: V3) -> Self::Output;
}

/// A kernel and the token, as `pulp` runs them.
struct Compiled<K>(V3, K);

impl<K: Kernel> pulp::WithSimd for Compiled<K> {
    type Output = K::Output;

    #[inline(always)]
    fn with_simd<S: pulp::Simd>(self, _: S) -> K::Output {
        self.1.run(self.0)
    }
}

/// Runs `kernel` compiled for AVX2; `None` on a CPU without it.
#[inline]
pub(super) fn run<K: Kernel>(kernel: K) -> Option<K::Output> {
    let s = V3::try_new()?;
    Some(<V3 as pulp::Simd>::vectorize(s, Compiled(s, kernel)))
}

/// The 32 bytes of `bytes` (exactly 32 long; zeros otherwise) as a vector.
#[inline(always)]
pub(super) fn load(bytes: &[u8]) -> __m256i {
    pulp::cast(<[u8; 32]>::try_from(bytes).unwrap_or([0; 32]))
}

/// Writes `v` to `out` (exactly 32 long).
#[inline(always)]
pub(super) fn store(v: __m256i, out: &mut [u8]) {
    out.copy_from_slice(&pulp::cast::<__m256i, [u8; 32]>(v));
}

/// The vector of zeros.
#[inline(always)]
pub(super) fn zero() -> __m256i {
    pulp::cast([0u8; 32])
}
