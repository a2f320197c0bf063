//! The match finder's tables, kept from one stream to the next.
//!
//! liblz4's `LZ4_compress_HC` zeroes its 256 KiB state for every stream. The tables here are
//! zeroed once and then reused: each stream gets indexes above every index the tables already
//! hold by more than 64 KiB (`GAP`), the way liblz4's streaming state moves its `dictLimit` on.
//! Both match finders take the stream's first index as the lowest they may reach, so an index
//! from an earlier stream is refused exactly where an empty slot (0) is; and with the gap, a
//! chain link computed from one exceeds 65 535 and is cut to 65 535, the link an empty slot
//! gives, so the chain table holds a fresh state's links. The output is therefore the bytes of a
//! fresh state, which the byte-identity tests check (with a gap of 0 and the lowest index taken
//! as a fresh state's, they fail).
//! When the indexes would pass 2^31, the tables are zeroed and the count starts again.
//!
//! With `std`, each thread keeps its tables (256 KiB) for its life; without it, every stream
//! allocates and zeroes its own.

use alloc::boxed::Box;
use alloc::vec::Vec;

/// Index of a fresh state's first byte (`LZ4HC_init_internal`'s starting offset): an empty slot
/// (0) is always out of reach.
pub(super) const PREFIX: u32 = 65_536;
/// `LZ4HC_HASH_LOG`: the hash chains' head table has 2^15 slots; `lz4mid` uses its two halves.
pub(super) const HEAD_LOG: u32 = 15;
/// `LZ4MID_HASHLOG`.
pub(super) const HALF_LOG: u32 = HEAD_LOG - 1;
const HALF: usize = 1 << HALF_LOG;
/// `LZ4HC_DICTIONARY_LOGSIZE`: chain links are indexed by an index's low 16 bits.
pub(super) const CHAIN_SIZE: usize = 1 << 16;
/// Distance between the last index of a stream and the first of the next.
const GAP: u64 = 1 << 16;
/// Indexes stay below this (so that `index + small` never wraps).
const INDEX_LIMIT: u64 = 1 << 31;

/// The head table (two halves of 2^14 slots) and the chain links of liblz4's HC state.
pub(super) struct Tables {
    pub(super) heads: Box<[[u32; HALF]; 2]>,
    pub(super) chain: Box<[u16; CHAIN_SIZE]>,
    next_base: u32,
}

impl Tables {
    fn new() -> Option<Tables> {
        let mut heads = Vec::new();
        heads.try_reserve_exact(2).ok()?;
        heads.resize(2, [0u32; HALF]);
        let mut chain = Vec::new();
        chain.try_reserve_exact(CHAIN_SIZE).ok()?;
        chain.resize(CHAIN_SIZE, 0u16);
        Some(Tables {
            heads: heads.into_boxed_slice().try_into().ok()?,
            chain: chain.into_boxed_slice().try_into().ok()?,
            next_base: PREFIX,
        })
    }

    /// The index of the first byte of a stream of `len` bytes (its dictionary included), which
    /// its caller keeps below 2^31 - [`PREFIX`].
    pub(super) fn start(&mut self, len: usize) -> u32 {
        let base = u64::from(self.next_base);
        if base + len as u64 + GAP > INDEX_LIMIT {
            for half in self.heads.iter_mut() {
                half.fill(0);
            }
            self.chain.fill(0);
            self.next_base = PREFIX;
        }
        let base = self.next_base;
        self.next_base = (u64::from(base) + len as u64 + GAP).min(INDEX_LIMIT) as u32;
        base
    }
}

#[cfg(feature = "std")]
std::thread_local! {
    static TABLES: core::cell::RefCell<Option<Tables>> = const { core::cell::RefCell::new(None) };
}

/// Runs `f` with this thread's tables (`None` when they cannot be allocated).
pub(super) fn with_tables<R>(f: impl FnOnce(&mut Tables) -> R) -> Option<R> {
    #[cfg(feature = "std")]
    {
        TABLES.with_borrow_mut(|slot| {
            if slot.is_none() {
                *slot = Tables::new();
            }
            slot.as_mut().map(f)
        })
    }
    #[cfg(not(feature = "std"))]
    {
        Tables::new().map(|mut t| f(&mut t))
    }
}
