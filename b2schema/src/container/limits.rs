//! The budget of a read: how much work and memory an input may make a reader spend.
//!
//! A Blosc2 file is small and says how big things are: a 40-byte offsets index stands for
//! millions of special chunks, a 32-byte chunk header for 2 GB of zeros, a metalayer for an
//! array of 2^62 items. Every reader that sizes an allocation or a loop from the input checks
//! the size against what the input can justify and against a [`Limits`]; going over is an
//! [`ErrorKind::BudgetExceeded`] error that names the limit and how to raise it.
//!
//! ```
//! let limits = b2schema::Limits::default().with_max_items(10_000).with_max_output(8 << 30);
//! assert_eq!(limits.max_items(), 10_000);
//! ```

pub use crate::container::error::Limit;
use crate::container::error::{Error, ErrorKind, Result};

/// How much memory and work a read may spend, whatever the input claims. `Copy`, so each
/// reader keeps its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    max_decompressed: u64,
    max_decompressed_total: u64,
    max_items: u64,
    max_output: u64,
    max_shown: u64,
    max_chunks: u64,
    max_fetched: u64,
    max_requests: u64,
}

/// Default of [`Limits::max_decompressed`]: 256 MiB.
pub const DEFAULT_MAX_DECOMPRESSED: u64 = 256 << 20;
/// Default of [`Limits::max_decompressed_total`]: 1 GiB.
pub const DEFAULT_MAX_DECOMPRESSED_TOTAL: u64 = 1 << 30;
/// Default of [`Limits::max_items`]: 1000 entries listed.
pub const DEFAULT_MAX_ITEMS: u64 = 1000;
/// Default of [`Limits::max_output`]: 4 GiB.
pub const DEFAULT_MAX_OUTPUT: u64 = 4 << 30;
/// Default of [`Limits::max_chunks`]: the most index entries a frame's chunk index is decoded
/// into (4 Mi chunks: 64 MiB of locations). A tiny frame can claim far more (a repeat-value index
/// of 40 bytes stands for any number of special chunks), so a larger index needs an explicit,
/// larger limit. Also `frame::DEFAULT_MAX_LOCATIONS`.
pub const DEFAULT_MAX_LOCATIONS: u64 = 1 << 22;
/// Default of [`Limits::max_shown`]: 1 KiB (8192 vlmetalayers then print at most 16 MiB of
/// hex).
pub const DEFAULT_MAX_SHOWN: u64 = 1 << 10;
/// Default of [`Limits::max_fetched`]: 4 GiB.
pub const DEFAULT_MAX_FETCHED: u64 = 4 << 30;
/// Default of [`Limits::max_requests`]: 1 Mi requests.
pub const DEFAULT_MAX_REQUESTS: u64 = 1 << 20;

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_decompressed: DEFAULT_MAX_DECOMPRESSED,
            max_decompressed_total: DEFAULT_MAX_DECOMPRESSED_TOTAL,
            max_items: DEFAULT_MAX_ITEMS,
            max_output: DEFAULT_MAX_OUTPUT,
            max_shown: DEFAULT_MAX_SHOWN,
            max_chunks: DEFAULT_MAX_LOCATIONS,
            max_fetched: DEFAULT_MAX_FETCHED,
            max_requests: DEFAULT_MAX_REQUESTS,
        }
    }
}

impl Limits {
    /// The most bytes one part may take in memory: one chunk decompressed (or read), one
    /// vlmetalayer value, the frame's header, trailer or offsets index. Default 256 MiB.
    pub const fn max_decompressed(&self) -> u64 {
        self.max_decompressed
    }

    /// The most bytes decompressed over one inspection (every vlmetalayer value together, the
    /// chunks read to describe them). `cat` is bounded by [`Limits::max_output`] instead.
    /// Default 1 GiB.
    pub const fn max_decompressed_total(&self) -> u64 {
        self.max_decompressed_total
    }

    /// The most entries listed one by one (chunks in a report; the rest is summarised).
    /// Default 1000.
    pub const fn max_items(&self) -> u64 {
        self.max_items
    }

    /// The most bytes of data written (`cat`) or of text produced (`dump`). Default 4 GiB.
    pub const fn max_output(&self) -> u64 {
        self.max_output
    }

    /// The most bytes of one value shown (a vlmetalayer's content): longer ones are shown as
    /// their length and this many first bytes. Default 1 KiB.
    pub const fn max_shown(&self) -> u64 {
        self.max_shown
    }

    /// The most entries of a chunk offsets index decoded (16 bytes of memory each). Default
    /// [`DEFAULT_MAX_LOCATIONS`], 4 Mi chunks.
    pub const fn max_chunks(&self) -> u64 {
        self.max_chunks
    }

    /// The most bytes of response bodies fetched from a remote source (a URL opened with
    /// feature `http`), over everything read through it. Default 4 GiB.
    pub const fn max_fetched(&self) -> u64 {
        self.max_fetched
    }

    /// The most requests sent to a remote source (retries included). Default 1 Mi.
    pub const fn max_requests(&self) -> u64 {
        self.max_requests
    }

    /// Sets [`Limits::max_fetched`].
    #[must_use]
    pub const fn with_max_fetched(mut self, bytes: u64) -> Self {
        self.max_fetched = bytes;
        self
    }

    /// Sets [`Limits::max_requests`].
    #[must_use]
    pub const fn with_max_requests(mut self, requests: u64) -> Self {
        self.max_requests = requests;
        self
    }

    /// Sets [`Limits::max_decompressed`].
    #[must_use]
    pub const fn with_max_decompressed(mut self, bytes: u64) -> Self {
        self.max_decompressed = bytes;
        self
    }

    /// Sets [`Limits::max_decompressed_total`].
    #[must_use]
    pub const fn with_max_decompressed_total(mut self, bytes: u64) -> Self {
        self.max_decompressed_total = bytes;
        self
    }

    /// Sets [`Limits::max_items`].
    #[must_use]
    pub const fn with_max_items(mut self, items: u64) -> Self {
        self.max_items = items;
        self
    }

    /// Sets [`Limits::max_output`].
    #[must_use]
    pub const fn with_max_output(mut self, bytes: u64) -> Self {
        self.max_output = bytes;
        self
    }

    /// Sets [`Limits::max_shown`].
    #[must_use]
    pub const fn with_max_shown(mut self, bytes: u64) -> Self {
        self.max_shown = bytes;
        self
    }

    /// Sets [`Limits::max_chunks`].
    #[must_use]
    pub const fn with_max_chunks(mut self, chunks: u64) -> Self {
        self.max_chunks = chunks;
        self
    }

    /// `Ok` when `needed` is within `limit`, else the budget error for `what` (found at
    /// `offset`), naming the option that raises it.
    pub fn check(what: &'static str, needed: u64, limit: Limit, max: u64, offset: usize) -> Result<()> {
        if needed <= max {
            return Ok(());
        }
        Err(Error::at(ErrorKind::BudgetExceeded { what, needed, limit, max }, offset))
    }

    /// The value of `limit` in these limits.
    pub const fn get(&self, limit: Limit) -> u64 {
        match limit {
            Limit::Decompressed => self.max_decompressed,
            Limit::DecompressedTotal => self.max_decompressed_total,
            Limit::Items => self.max_items,
            Limit::Output => self.max_output,
            Limit::Shown => self.max_shown,
            Limit::Chunks => self.max_chunks,
            Limit::Fetched => self.max_fetched,
            Limit::Requests => self.max_requests,
        }
    }

    /// Whether `bytes` more may be decompressed after `spent` within one inspection: within
    /// [`Limits::max_decompressed`] alone and [`Limits::max_decompressed_total`] in all.
    pub fn within_total(&self, spent: u64, bytes: u64) -> bool {
        bytes <= self.max_decompressed
            && spent.checked_add(bytes).is_some_and(|t| t <= self.max_decompressed_total)
    }

    /// [`Limits::check`] against this budget's value of `limit`.
    pub fn require(&self, what: &'static str, needed: u64, limit: Limit, offset: usize) -> Result<()> {
        Self::check(what, needed, limit, self.get(limit), offset)
    }
}

/// Reserves room for `n` more elements in `v` without aborting: an allocation that fails is a
/// budget error for `what` at `offset`.
// Used by the containers, which come with the `derive` feature.
#[cfg_attr(not(feature = "derive"), allow(dead_code))]
pub(crate) fn try_reserve<T>(
    v: &mut alloc::vec::Vec<T>,
    n: usize,
    what: &'static str,
    offset: usize,
) -> Result<()> {
    v.try_reserve_exact(n).map_err(|_| {
        Error::no_memory(what, (n as u64).saturating_mul(core::mem::size_of::<T>() as u64), offset)
    })
}

/// A vector of `n` zeros, allocated fallibly (see [`try_reserve`]).
// Used by the containers, which come with the `derive` feature.
#[cfg_attr(not(feature = "derive"), allow(dead_code))]
pub(crate) fn try_zeros(n: usize, what: &'static str, offset: usize) -> Result<alloc::vec::Vec<u8>> {
    let mut v = alloc::vec::Vec::new();
    try_reserve(&mut v, n, what, offset)?;
    v.resize(n, 0);
    Ok(v)
}
