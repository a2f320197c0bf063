//! The optimal parsers' price model (zstd_opt.c of libzstd 1.5.7): the statistics of literals,
//! literal lengths, match lengths and offset codes gathered from the sequences chosen so far
//! (`ZSTD_updateStats`), rescaled at each block (`ZSTD_rescaleFreqs`), and the prices in 1/256
//! bits they give (`ZSTD_rawLiteralsCost`, `ZSTD_litLengthPrice`, `ZSTD_getMatchPrice`): whole
//! bits at opt level 0 (btopt), fractional at level 2 (btultra, btultra2). A frame's first block
//! starts from the literals' histogram and fixed guesses for the codes; inputs of at most 8
//! bytes are priced by fixed rules (`zop_predef`).

use super::super::fse::highbit;
use super::super::sequences::{ll_code, ml_code};
use crate::codec::zstd::tables::{LL_BITS, ML_BITS};

/// libzstd's `BITCOST_MULTIPLIER`: prices are in 1/256 bits.
pub(crate) const ONE_BIT: u32 = 1 << 8;

/// libzstd's `ZSTD_MAX_PRICE`.
pub(crate) const MAX_PRICE: i32 = 1 << 30;

/// Inputs of at most this many bytes are priced by fixed rules (`ZSTD_PREDEF_THRESHOLD`).
const PREDEF_THRESHOLD: usize = 8;

/// The largest block (a literal length of that many bytes is not representable).
const BLOCK_MAX: u32 = 128 * 1024;

/// The first block's literal length and offset code counts (libzstd's `baseLLfreqs`,
/// `baseOFCfreqs`).
const BASE_LL: [u32; 36] = [
    4, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1,
];
const BASE_OF: [u32; 32] =
    [6, 2, 1, 1, 2, 3, 4, 4, 4, 3, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1];

/// The statistics of one frame and the prices they give.
pub(crate) struct Stats {
    lit: [u32; 256],
    ll: [u32; 36],
    ml: [u32; 53],
    of: [u32; 32],
    lit_sum: u32,
    ll_sum: u32,
    ml_sum: u32,
    of_sum: u32,
    lit_base: u32,
    ll_base: u32,
    ml_base: u32,
    of_base: u32,
    /// Fixed rules instead of statistics (the first block of an input of at most 8 bytes).
    predef: bool,
    /// Fractional weights (opt level 2) or whole bits (0).
    frac: bool,
}

/// libzstd's `WEIGHT`: about `log2(stat + 1)` in 1/256 bits, whole (`ZSTD_bitWeight`) or with
/// a linear fraction (`ZSTD_fracWeight`).
#[inline(always)]
fn weight(stat: u32, frac: bool) -> u32 {
    let stat = stat + 1;
    let hb = highbit(stat);
    if frac { hb * ONE_BIT + ((stat << 8) >> hb) } else { hb * ONE_BIT }
}

/// Divides each count by `2^shift`, keeping at least 1 (`base1`) or at least 1 where it was
/// not 0 (`ZSTD_downscaleStats`); returns the new sum.
fn downscale(table: &mut [u32], shift: u32, base1: bool) -> u32 {
    let mut sum = 0;
    for c in table.iter_mut() {
        let base = if base1 { 1 } else { u32::from(*c > 0) };
        *c = base + (*c >> shift);
        sum += *c;
    }
    sum
}

/// Scales `table` down when its sum passes `2^log` (`ZSTD_scaleStats`).
fn scale(table: &mut [u32], log: u32) -> u32 {
    let sum: u32 = table.iter().sum();
    let factor = sum >> log;
    if factor <= 1 {
        return sum;
    }
    downscale(table, highbit(factor), true)
}

impl Stats {
    /// A frame's statistics, none gathered yet, for opt level `level` (0 or 2).
    pub(crate) fn new(level: u32) -> Self {
        Stats {
            lit: [0; 256],
            ll: [0; 36],
            ml: [0; 53],
            of: [0; 32],
            lit_sum: 0,
            ll_sum: 0,
            ml_sum: 0,
            of_sum: 0,
            lit_base: 0,
            ll_base: 0,
            ml_base: 0,
            of_base: 0,
            predef: false,
            frac: level > 0,
        }
    }

    /// At the start of block `src` (`ZSTD_rescaleFreqs`): the first block's statistics from its
    /// literals and the fixed guesses, later blocks' scaled down from what came before.
    pub(crate) fn rescale(&mut self, src: &[u8]) {
        self.predef = false;
        if self.ll_sum == 0 {
            self.predef = src.len() <= PREDEF_THRESHOLD;
            self.lit = [0; 256];
            for &b in src {
                self.lit[usize::from(b)] += 1;
            }
            self.lit_sum = downscale(&mut self.lit, 8, false);
            self.ll = BASE_LL;
            self.ll_sum = BASE_LL.iter().sum();
            self.ml = [1; 53];
            self.ml_sum = 53;
            self.of = BASE_OF;
            self.of_sum = BASE_OF.iter().sum();
        } else {
            self.lit_sum = scale(&mut self.lit, 12);
            self.ll_sum = scale(&mut self.ll, 11);
            self.ml_sum = scale(&mut self.ml, 11);
            self.of_sum = scale(&mut self.of, 11);
        }
        self.set_base_prices();
    }

    /// The price of each table's total (`ZSTD_setBasePrices`).
    pub(crate) fn set_base_prices(&mut self) {
        let f = self.frac;
        self.lit_base = weight(self.lit_sum, f);
        self.ll_base = weight(self.ll_sum, f);
        self.ml_base = weight(self.ml_sum, f);
        self.of_base = weight(self.of_sum, f);
    }

    /// Counts one chosen sequence (`ZSTD_updateStats`).
    pub(crate) fn update(&mut self, lits: &[u8], off_base: u32, match_len: u32) {
        for &b in lits {
            self.lit[usize::from(b)] += 2;
        }
        self.lit_sum += 2 * lits.len() as u32;
        self.ll[usize::from(ll_code(lits.len() as u32))] += 1;
        self.ll_sum += 1;
        self.of[(highbit(off_base) as usize).min(31)] += 1;
        self.of_sum += 1;
        self.ml[usize::from(ml_code(match_len))] += 1;
        self.ml_sum += 1;
    }

    /// Whether the weights are fractional (opt level 2): the parser's constant `FRAC` of the
    /// price functions below, each of which must be called with it.
    pub(crate) fn frac(&self) -> bool {
        self.frac
    }

    /// The price of one literal byte (`FRAC`: [`Stats::frac`], a constant of each parse as
    /// libzstd's `optLevel`).
    #[inline(always)]
    pub(crate) fn lit<const FRAC: bool>(&self, b: u8) -> i32 {
        debug_assert_eq!(FRAC, self.frac);
        if self.predef {
            return 6 * ONE_BIT as i32;
        }
        let max = self.lit_base.saturating_sub(ONE_BIT);
        let p = weight(self.lit[usize::from(b)], FRAC).min(max);
        (self.lit_base - p) as i32
    }

    /// The price of a literal length (`ZSTD_litLengthPrice`).
    #[inline(always)]
    pub(crate) fn ll<const FRAC: bool>(&self, ll: u32) -> i32 {
        debug_assert_eq!(FRAC, self.frac);
        if self.predef {
            return weight(ll, FRAC) as i32;
        }
        if ll >= BLOCK_MAX {
            return ONE_BIT as i32 + self.ll::<FRAC>(BLOCK_MAX - 1);
        }
        let c = usize::from(ll_code(ll));
        (u32::from(LL_BITS[c]) * ONE_BIT + self.ll_base - weight(self.ll[c], FRAC)) as i32
    }

    /// How much one more literal adds to the literal length's price.
    #[inline(always)]
    pub(crate) fn ll_inc<const FRAC: bool>(&self, ll: u32) -> i32 {
        self.ll::<FRAC>(ll) - self.ll::<FRAC>(ll - 1)
    }

    /// The price of a match's offset base `off_base`: with [`Stats::length`], libzstd's
    /// `ZSTD_getMatchPrice`, apart so that the parser prices an offset once for all its lengths.
    #[inline(always)]
    pub(crate) fn offset<const FRAC: bool>(&self, off_base: u32) -> i32 {
        debug_assert_eq!(FRAC, self.frac);
        let of_code = highbit(off_base);
        if self.predef {
            return ((16 + of_code) * ONE_BIT) as i32;
        }
        let mut price = of_code * ONE_BIT + self.of_base - weight(self.of[(of_code as usize).min(31)], FRAC);
        // Level 0 (whole bits) is the level below 2.
        if !FRAC && of_code >= 20 {
            price += (of_code - 19) * 2 * ONE_BIT;
        }
        price as i32
    }

    /// The price of a match's length `len` (with libzstd's fifth of a bit a match, which
    /// favours fewer sequences).
    #[inline(always)]
    pub(crate) fn length<const FRAC: bool>(&self, len: u32) -> i32 {
        debug_assert_eq!(FRAC, self.frac);
        if self.predef {
            return weight(len - 3, FRAC) as i32;
        }
        let c = usize::from(ml_code(len));
        (u32::from(ML_BITS[c]) * ONE_BIT + self.ml_base - weight(self.ml[c], FRAC) + ONE_BIT / 5) as i32
    }
}
