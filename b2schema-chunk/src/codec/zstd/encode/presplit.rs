//! The size of the next block, as libzstd 1.5.7 chooses it before parsing
//! (`ZSTD_optimalBlockSize` in zstd_compress.c, `ZSTD_splitBlock` in zstd_preSplit.c).
//!
//! Only a full block (128 KiB left, with a window at least as large) is looked at, and only once
//! the frame so far has saved at least 3 bytes over its input (so the first full block is never
//! cut, nor a frame of incompressible data). Its 128 KiB are then compared part against part:
//! * `fast` ([`borders`]): the byte histograms of its first and last 512 bytes; when they differ,
//!   the middle 512 bytes say where: 32, 64 or 96 KiB;
//! * the other strategies ([`chunks`]): its 8 KiB chunks in turn, each chunk's histogram of
//!   hashed byte pairs (sampled every `rate` bytes) against that of all the chunks before it;
//!   the block ends before the first chunk that differs enough.

use super::block::MAX_BLOCK;
use super::params::Strategy;

/// The chunk [`chunks`] compares.
const CHUNK: usize = 8 * 1024;

/// The segments [`borders`] compares.
const SEGMENT: usize = 512;

/// Histograms hold at most `1 << MAX_LOG` buckets.
const MAX_LOG: u32 = 10;

/// Two histograms differ when their distance reaches `(BASE + penalty) / RATE` of the product
/// of their counts; the penalty starts at [`START_PENALTY`] and drops by one per chunk merged.
const RATE: u64 = 16;
const BASE: u64 = RATE - 2;
const START_PENALTY: u64 = 3;

/// The multiplier of the byte-pair hash (Knuth's golden ratio, 32 bits).
const KNUTH: u32 = 0x9E37_79B9;

/// How [`chunks`] samples a chunk: every `rate`-th position, into `1 << log` buckets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Sampling {
    pub(crate) rate: usize,
    pub(crate) log: u32,
}

/// How a strategy cuts its full blocks (libzstd's split levels 0 to 4 per strategy).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Splitter {
    Borders,
    Chunks(Sampling),
}

/// The splitter libzstd 1.5.7 runs for `strategy` (its default split level).
pub(crate) fn splitter(strategy: Strategy) -> Splitter {
    let (rate, log) = match strategy {
        Strategy::Fast => return Splitter::Borders,
        Strategy::DFast => (43, 8),
        Strategy::Greedy | Strategy::Lazy => (11, 9),
        Strategy::Lazy2 | Strategy::BtLazy2 => (5, 10),
        Strategy::BtOpt | Strategy::BtUltra | Strategy::BtUltra2 => (1, 10),
    };
    Splitter::Chunks(Sampling { rate, log })
}

/// The size of the block starting `rest` (the input not yet written) for `strategy`, with
/// blocks of at most `block_max` and `saved` bytes saved by the frame so far (input consumed
/// minus blocks written, headers included).
pub(crate) fn block_size(rest: &[u8], block_max: usize, strategy: Strategy, saved: i64) -> usize {
    if rest.len() < MAX_BLOCK || block_max < MAX_BLOCK {
        return rest.len().min(block_max);
    }
    if saved < 3 {
        return MAX_BLOCK;
    }
    let block = &rest[..MAX_BLOCK];
    match splitter(strategy) {
        Splitter::Borders => borders(block),
        Splitter::Chunks(s) => chunks(block, s),
    }
}

/// A histogram: counts per bucket and the number of events counted.
struct Histogram {
    counts: [u32; 1 << MAX_LOG],
    events: u64,
}

impl Histogram {
    fn new() -> Self {
        Histogram { counts: [0; 1 << MAX_LOG], events: 0 }
    }

    /// The byte-pair events of `chunk` sampled as `s` says, in place of the histogram's.
    fn record(&mut self, chunk: &[u8], s: Sampling) {
        self.counts = [0; 1 << MAX_LOG];
        // The pairs start at 0..len - 1; libzstd counts `(len - 1) / rate` events whatever the
        // sampled positions' number (one more when `rate` does not divide `len - 1`).
        let limit = chunk.len().saturating_sub(1);
        let rate = s.rate.max(1);
        let mask = (1 << MAX_LOG) - 1;
        if s.log <= 8 {
            for &b in chunk[..limit].iter().step_by(rate) {
                self.counts[usize::from(b)] += 1;
            }
        } else {
            let shift = 32 - s.log.min(MAX_LOG);
            for i in (0..limit).step_by(rate) {
                let pair = u32::from(u16::from_le_bytes([chunk[i], chunk[i + 1]]));
                self.counts[(pair.wrapping_mul(KNUTH) >> shift) as usize & mask] += 1;
            }
        }
        self.events = (limit / rate) as u64;
    }

    /// The byte histogram of `segment`.
    fn bytes(segment: &[u8]) -> Self {
        let mut h = Histogram::new();
        for &b in segment {
            h.counts[usize::from(b)] += 1;
        }
        h.events = segment.len() as u64;
        h
    }

    fn merge(&mut self, other: &Histogram) {
        for (a, b) in self.counts.iter_mut().zip(&other.counts) {
            *a += b;
        }
        self.events += other.events;
    }
}

/// The distance of two histograms over their first `1 << log` buckets: the sum of
/// `|a[i] * b.events - b[i] * a.events|` (each scaled by the other's total; counts and totals
/// stay below 2^17 for a 128 KiB block, so the sum stays below `2 * a.events * b.events`, 2^35).
fn distance(a: &Histogram, b: &Histogram, log: u32) -> u64 {
    let n = 1usize << log.min(MAX_LOG);
    a.counts[..n]
        .iter()
        .zip(&b.counts[..n])
        .map(|(&x, &y)| (u64::from(x) * b.events).abs_diff(u64::from(y) * a.events))
        .sum()
}

/// Whether `new` differs from `past` enough to cut between them.
fn differ(past: &Histogram, new: &Histogram, penalty: u64, log: u32) -> bool {
    let product = past.events.saturating_mul(new.events);
    distance(past, new, log) >= product.saturating_mul(BASE + penalty) / RATE
}

/// libzstd's `ZSTD_splitBlock_fromBorders`: `block`'s first and last [`SEGMENT`] bytes
/// compared; when they differ, the cut goes at a quarter, half or three quarters of the block
/// by which end the middle segment is closer to.
pub(crate) fn borders(block: &[u8]) -> usize {
    let n = block.len();
    if n < 2 * SEGMENT {
        return n;
    }
    let first = Histogram::bytes(&block[..SEGMENT]);
    let last = Histogram::bytes(&block[n - SEGMENT..]);
    if !differ(&first, &last, 0, 8) {
        return n;
    }
    let mid = n / 2 - SEGMENT / 2;
    let middle = Histogram::bytes(&block[mid..mid + SEGMENT]);
    let from_first = distance(&first, &middle, 8);
    let from_last = distance(&last, &middle, 8);
    let min_gap = (SEGMENT * SEGMENT / 3) as u64;
    if from_first.abs_diff(from_last) < min_gap {
        n / 2
    } else if from_first > from_last {
        n / 4
    } else {
        n / 4 * 3
    }
}

/// libzstd's `ZSTD_splitBlock_byChunks`: the start of the first [`CHUNK`] of `block` whose
/// events differ from those of all the chunks before it, or the whole block.
pub(crate) fn chunks(block: &[u8], s: Sampling) -> usize {
    let n = block.len();
    if n < 2 * CHUNK {
        return n;
    }
    let mut past = Histogram::new();
    let mut new = Histogram::new();
    past.record(&block[..CHUNK], s);
    let mut penalty = START_PENALTY;
    let mut pos = CHUNK;
    while pos + CHUNK <= n {
        new.record(&block[pos..pos + CHUNK], s);
        if differ(&past, &new, penalty, s.log) {
            return pos;
        }
        past.merge(&new);
        penalty = penalty.saturating_sub(1);
        pos += CHUNK;
    }
    n
}
