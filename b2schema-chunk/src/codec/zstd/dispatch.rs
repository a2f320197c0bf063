//! Which build of the zstd decoder's and encoder's hot loops runs: the baseline one, or (the
//! `std` feature, on x86-64) the same source compiled for x86-64-v3 and chosen at run time when
//! the CPU has it. The decoder's sequence and Huffman loops ([`super::decode`]) and the
//! encoder's Huffman and sequence streams and fast and lazy finders ([`super::encode`]) run
//! through it, always [`Build::Detect`] outside the tests.
//!
//! What the v3 build gains is BMI2 (`shrx`, `shlx`, `bzhi`: shifts by any register, without the
//! CL register and without touching the flags), as libzstd's `DYNAMIC_BMI2` builds of its
//! sequence loop: the sequence loop shifts by counts read from the tables at every field, more
//! live values than x86-64 has registers. `pulp`'s `V3` token exists only on a CPU with those
//! features (detected once by the standard library) and compiles a [`WithSimd`] body for them;
//! everything a [`Hot::run`] calls must be `#[inline(always)]` to be compiled with them (a call
//! left out of line is the baseline build). Safe Rust only.
//!
//! [`WithSimd`]: https://docs.rs/pulp/0.22/pulp/trait.WithSimd.html

/// A hot loop and its arguments.
pub(crate) trait Hot {
    /// What it returns.
    type Output;

    /// The loop; implementations are `#[inline(always)]`, so that each caller compiles it for
    /// its own target features.
    fn run(self) -> Self::Output;
}

/// The build a decoder runs.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Build {
    /// The x86-64-v3 build where the CPU has it (`std`, x86-64), else the baseline.
    Detect,
    /// The baseline build, always (the tests hold both builds to the same results).
    #[cfg_attr(not(test), allow(dead_code))]
    Baseline,
}

impl Build {
    /// Runs `hot` in this build.
    #[inline]
    pub(crate) fn run<H: Hot>(self, hot: H) -> H::Output {
        #[cfg(all(feature = "std", target_arch = "x86_64"))]
        if let Some(s) = self.v3() {
            return <pulp::x86::V3 as pulp::Simd>::vectorize(s, V3Build(hot));
        }
        baseline(hot)
    }

    /// The token of the x86-64-v3 build, when this build runs it on this CPU.
    #[cfg(all(feature = "std", target_arch = "x86_64"))]
    #[inline]
    pub(crate) fn v3(self) -> Option<pulp::x86::V3> {
        if self == Build::Detect { pulp::x86::V3::try_new() } else { None }
    }
}

/// The baseline build of `hot`: a function of its own, as the v3 build is (inlined into its
/// caller, the sequence loop's `copy_within`s were left out of line, seen in the generated
/// code).
#[inline(never)]
fn baseline<H: Hot>(hot: H) -> H::Output {
    hot.run()
}

/// A hot loop as `pulp` compiles it for x86-64-v3.
#[cfg(all(feature = "std", target_arch = "x86_64"))]
struct V3Build<H>(H);

#[cfg(all(feature = "std", target_arch = "x86_64"))]
impl<H: Hot> pulp::WithSimd for V3Build<H> {
    type Output = H::Output;

    #[inline(always)]
    fn with_simd<S: pulp::Simd>(self, _: S) -> H::Output {
        self.0.run()
    }
}
