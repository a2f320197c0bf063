//! libzstd's compression parameters per level (`ZSTD_defaultCParameters`, lib/compress/clevels.h
//! of zstd 1.5.7) and their adjustment to the source size (`ZSTD_adjustCParams_internal`).

/// The match finder and parser of a level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Strategy {
    Fast = 1,
    DFast,
    Greedy,
    Lazy,
    Lazy2,
    BtLazy2,
    BtOpt,
    BtUltra,
    BtUltra2,
}
use Strategy::*;

/// One level's parameters (libzstd's `ZSTD_compressionParameters`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Params {
    pub(crate) window_log: u32,
    pub(crate) chain_log: u32,
    pub(crate) hash_log: u32,
    pub(crate) search_log: u32,
    pub(crate) min_match: u32,
    pub(crate) target_length: u32,
    pub(crate) strategy: Strategy,
}

const fn p(w: u32, c: u32, h: u32, s: u32, l: u32, t: u32, strategy: Strategy) -> Params {
    Params {
        window_log: w,
        chain_log: c,
        hash_log: h,
        search_log: s,
        min_match: l,
        target_length: t,
        strategy,
    }
}

/// The largest level.
pub(crate) const MAX_LEVEL: i32 = 22;

/// Rows 0 (the base of negative levels) to 22, for sources of each size class.
const TABLE: [[Params; 23]; 4] = [
    // larger than 256 KiB
    [
        p(19, 12, 13, 1, 6, 1, Fast),
        p(19, 13, 14, 1, 7, 0, Fast),
        p(20, 15, 16, 1, 6, 0, Fast),
        p(21, 16, 17, 1, 5, 0, DFast),
        p(21, 18, 18, 1, 5, 0, DFast),
        p(21, 18, 19, 3, 5, 2, Greedy),
        p(21, 18, 19, 3, 5, 4, Lazy),
        p(21, 19, 20, 4, 5, 8, Lazy),
        p(21, 19, 20, 4, 5, 16, Lazy2),
        p(22, 20, 21, 4, 5, 16, Lazy2),
        p(22, 21, 22, 5, 5, 16, Lazy2),
        p(22, 21, 22, 6, 5, 16, Lazy2),
        p(22, 22, 23, 6, 5, 32, Lazy2),
        p(22, 22, 22, 4, 5, 32, BtLazy2),
        p(22, 22, 23, 5, 5, 32, BtLazy2),
        p(22, 23, 23, 6, 5, 32, BtLazy2),
        p(22, 22, 22, 5, 5, 48, BtOpt),
        p(23, 23, 22, 5, 4, 64, BtOpt),
        p(23, 23, 22, 6, 3, 64, BtUltra),
        p(23, 24, 22, 7, 3, 256, BtUltra2),
        p(25, 25, 23, 7, 3, 256, BtUltra2),
        p(26, 26, 24, 7, 3, 512, BtUltra2),
        p(27, 27, 25, 9, 3, 999, BtUltra2),
    ],
    // up to 256 KiB
    [
        p(18, 12, 13, 1, 5, 1, Fast),
        p(18, 13, 14, 1, 6, 0, Fast),
        p(18, 14, 14, 1, 5, 0, DFast),
        p(18, 16, 16, 1, 4, 0, DFast),
        p(18, 16, 17, 3, 5, 2, Greedy),
        p(18, 17, 18, 5, 5, 2, Greedy),
        p(18, 18, 19, 3, 5, 4, Lazy),
        p(18, 18, 19, 4, 4, 4, Lazy),
        p(18, 18, 19, 4, 4, 8, Lazy2),
        p(18, 18, 19, 5, 4, 8, Lazy2),
        p(18, 18, 19, 6, 4, 8, Lazy2),
        p(18, 18, 19, 5, 4, 12, BtLazy2),
        p(18, 19, 19, 7, 4, 12, BtLazy2),
        p(18, 18, 19, 4, 4, 16, BtOpt),
        p(18, 18, 19, 4, 3, 32, BtOpt),
        p(18, 18, 19, 6, 3, 128, BtOpt),
        p(18, 19, 19, 6, 3, 128, BtUltra),
        p(18, 19, 19, 8, 3, 256, BtUltra),
        p(18, 19, 19, 6, 3, 128, BtUltra2),
        p(18, 19, 19, 8, 3, 256, BtUltra2),
        p(18, 19, 19, 10, 3, 512, BtUltra2),
        p(18, 19, 19, 12, 3, 512, BtUltra2),
        p(18, 19, 19, 13, 3, 999, BtUltra2),
    ],
    // up to 128 KiB
    [
        p(17, 12, 12, 1, 5, 1, Fast),
        p(17, 12, 13, 1, 6, 0, Fast),
        p(17, 13, 15, 1, 5, 0, Fast),
        p(17, 15, 16, 2, 5, 0, DFast),
        p(17, 17, 17, 2, 4, 0, DFast),
        p(17, 16, 17, 3, 4, 2, Greedy),
        p(17, 16, 17, 3, 4, 4, Lazy),
        p(17, 16, 17, 3, 4, 8, Lazy2),
        p(17, 16, 17, 4, 4, 8, Lazy2),
        p(17, 16, 17, 5, 4, 8, Lazy2),
        p(17, 16, 17, 6, 4, 8, Lazy2),
        p(17, 17, 17, 5, 4, 8, BtLazy2),
        p(17, 18, 17, 7, 4, 12, BtLazy2),
        p(17, 18, 17, 3, 4, 12, BtOpt),
        p(17, 18, 17, 4, 3, 32, BtOpt),
        p(17, 18, 17, 6, 3, 256, BtOpt),
        p(17, 18, 17, 6, 3, 128, BtUltra),
        p(17, 18, 17, 8, 3, 256, BtUltra),
        p(17, 18, 17, 10, 3, 512, BtUltra),
        p(17, 18, 17, 5, 3, 256, BtUltra2),
        p(17, 18, 17, 7, 3, 512, BtUltra2),
        p(17, 18, 17, 9, 3, 512, BtUltra2),
        p(17, 18, 17, 11, 3, 999, BtUltra2),
    ],
    // up to 16 KiB
    [
        p(14, 12, 13, 1, 5, 1, Fast),
        p(14, 14, 15, 1, 5, 0, Fast),
        p(14, 14, 15, 1, 4, 0, Fast),
        p(14, 14, 15, 2, 4, 0, DFast),
        p(14, 14, 14, 4, 4, 2, Greedy),
        p(14, 14, 14, 3, 4, 4, Lazy),
        p(14, 14, 14, 4, 4, 8, Lazy2),
        p(14, 14, 14, 6, 4, 8, Lazy2),
        p(14, 14, 14, 8, 4, 8, Lazy2),
        p(14, 15, 14, 5, 4, 8, BtLazy2),
        p(14, 15, 14, 9, 4, 8, BtLazy2),
        p(14, 15, 14, 3, 4, 12, BtOpt),
        p(14, 15, 14, 4, 3, 24, BtOpt),
        p(14, 15, 14, 5, 3, 32, BtUltra),
        p(14, 15, 15, 6, 3, 64, BtUltra),
        p(14, 15, 15, 7, 3, 256, BtUltra),
        p(14, 15, 15, 5, 3, 48, BtUltra2),
        p(14, 15, 15, 6, 3, 128, BtUltra2),
        p(14, 15, 15, 7, 3, 256, BtUltra2),
        p(14, 15, 15, 8, 3, 256, BtUltra2),
        p(14, 15, 15, 8, 3, 512, BtUltra2),
        p(14, 15, 15, 9, 3, 512, BtUltra2),
        p(14, 15, 15, 10, 3, 999, BtUltra2),
    ],
];

/// The parameters of `level` (1 to 22; clamped) for a source of `src_size` bytes (plus a
/// dictionary of `dict_size`), as libzstd's `ZSTD_getCParams` then `ZSTD_adjustCParams`.
pub(crate) fn params(level: i32, src_size: usize, dict_size: usize) -> Params {
    let total = src_size as u64 + dict_size as u64;
    let class =
        usize::from(total <= 256 * 1024) + usize::from(total <= 128 * 1024) + usize::from(total <= 16 * 1024);
    let mut p = TABLE[class][level.clamp(1, MAX_LEVEL) as usize];
    // The window no larger than the source (plus dictionary), at least 1 KiB.
    let t = total.max(1);
    let src_log = if t < 64 { 6 } else { 64 - (t - 1).leading_zeros() };
    if p.window_log > src_log {
        p.window_log = src_log;
    }
    let dict_and_window = if dict_size == 0 {
        p.window_log
    } else {
        let w = 1u64 << p.window_log;
        if w >= total { p.window_log } else { 64 - (w + dict_size as u64 - 1).leading_zeros() }.min(31)
    };
    let cycle = p.chain_log - u32::from(p.strategy >= BtLazy2);
    if p.hash_log > dict_and_window + 1 {
        p.hash_log = dict_and_window + 1;
    }
    if cycle > dict_and_window {
        p.chain_log -= cycle - dict_and_window;
    }
    p.window_log = p.window_log.max(10);
    p
}
