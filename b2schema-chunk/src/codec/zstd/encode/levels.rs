//! The zstd level the encoder runs for each Blosc clevel: c-blosc2's `zstd_wrap_compress`
//! mapping, `2 * clevel - 1` below 9 and `ZSTD_maxCLevel()` (22) at 9. (Its
//! `if (clevel == 8) clevel = ZSTD_maxCLevel() - 2` tests the level after that mapping, which is
//! odd or 22, so it never applies: clevel 8 is level 15.)
//!
//! Every level is this crate's own encoder with libzstd 1.5.7's parameters and strategy for it
//! ([`super::params`]) and its block sizes (the pre-splitter [`super::presplit`], and for btopt
//! and above the post-splitter [`super::postsplit`]). Until 2026-11-30 the clevels were compressed by `rusty_zstd` 0.4.1 (with
//! this crate's choices of its lazy finders' skip, a probe that gave random-looking streams up,
//! and block sizes picked per stream at clevel 9), while the own encoder caught up; its frames
//! were 1.03-1.06x c-blosc2's at clevels 1 and 9 on the `pack` field, and it ran `unsafe` code on
//! the caller's bytes. The measurements behind each step are in BENCHMARKS.md ("The zstd encoder
//! calibrated per clevel", "The own zstd encoder ..." sections, and "`pack` with the own zstd
//! encoder at every clevel").

/// The zstd level of clevels 1 to 9 (index `clevel - 1`; clevel 0 never reaches a codec).
pub(crate) const LEVELS: [i32; 9] = [1, 3, 5, 7, 9, 11, 13, 15, 22];

/// The zstd level for `clevel` (1 to 9; above 9 is 9, as c-blosc2 clamps).
pub(crate) fn level(clevel: u8) -> i32 {
    LEVELS[usize::from(clevel.clamp(1, 9)) - 1]
}
