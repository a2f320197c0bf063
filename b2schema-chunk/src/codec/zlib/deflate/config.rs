//! zlib-rs 0.6.8's table of levels (zlib-ng's): which algorithm, and its match-search limits.

/// The match finder and block loop of a level.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Algorithm {
    /// Level 1: static trees, one hash probe (`deflate_quick`).
    Quick,
    /// Level 2: greedy (`deflate_fast`).
    Fast,
    /// Levels 3-6: one match of look-ahead (`deflate_medium`).
    Medium,
    /// Levels 7-9: lazy matching (`deflate_slow`).
    Slow,
}

pub(super) struct Config {
    /// Reduce the chain search above this match length.
    pub(super) good_length: u16,
    /// No lazy search above this match length (for levels 2-6: no insertion of the strings of
    /// a longer match).
    pub(super) max_lazy: u16,
    /// Stop searching above this match length.
    pub(super) nice_length: u16,
    /// Longest hash chain searched.
    pub(super) max_chain: u16,
    pub(super) algorithm: Algorithm,
}

const fn c(
    good_length: u16,
    max_lazy: u16,
    nice_length: u16,
    max_chain: u16,
    algorithm: Algorithm,
) -> Config {
    Config { good_length, max_lazy, nice_length, max_chain, algorithm }
}

/// Levels 1-9 (index 0 is level 1).
pub(super) static CONFIGURATION_TABLE: [Config; 9] = [
    c(0, 0, 0, 0, Algorithm::Quick),
    c(4, 4, 8, 4, Algorithm::Fast),
    c(4, 6, 16, 6, Algorithm::Medium),
    c(4, 12, 32, 24, Algorithm::Medium),
    c(8, 16, 32, 32, Algorithm::Medium),
    c(8, 16, 128, 128, Algorithm::Medium),
    c(8, 32, 128, 256, Algorithm::Slow),
    c(32, 128, 258, 1024, Algorithm::Slow),
    c(32, 258, 258, 4096, Algorithm::Slow),
];
