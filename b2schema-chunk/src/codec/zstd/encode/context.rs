//! The encoder's context, as libzstd's `ZSTD_CCtx` (and c-blosc2's per-thread one): the match
//! finders' tables, the block's matches and sequences and the frame's output, allocated once
//! and reused from frame to frame (a table is refilled with "empty", never reallocated, while
//! it is large enough). Each thread keeps one ([`with_context`]).

use super::block::Store;
use super::opt::Scratch;
use super::sequences::{Defaults, Seq};
use alloc::vec::Vec;

/// A context keeps buffers at most this large (bytes each) between frames.
#[cfg(feature = "std")]
const KEPT: usize = 8 << 20;

/// The tables and buffers one frame uses.
pub(crate) struct Context {
    /// The finder's first table (fast's, dfast's long one, the chain's heads).
    pub(crate) first: Vec<u32>,
    /// The finder's second table (dfast's short one, the chain's links).
    pub(crate) second: Vec<u32>,
    /// The binary tree's 3-byte hash table ([`super::match_bt`]).
    pub(crate) third: Vec<u32>,
    /// The row finder's positions and tags ([`super::match_row`]).
    pub(crate) rows: Vec<u32>,
    pub(crate) tags: Vec<u8>,
    pub(crate) store: Store,
    pub(crate) seqs: Vec<Seq>,
    /// The frame.
    pub(crate) out: Vec<u8>,
    /// What the next frame adds to its positions in `first` and `second`: past every entry
    /// written so far, so that the tables need no emptying between frames
    /// ([`super::match_fast::Window::stamp`]).
    pub(crate) base: u32,
    /// The sequences' predefined tables, built by the first frame.
    pub(crate) defaults: Option<Defaults>,
    /// The optimal parser's buffers ([`super::opt`]).
    pub(crate) opt: Scratch,
}

impl Context {
    pub(crate) fn new() -> Self {
        Context {
            first: Vec::new(),
            second: Vec::new(),
            third: Vec::new(),
            rows: Vec::new(),
            tags: Vec::new(),
            store: Store::new(),
            seqs: Vec::new(),
            out: Vec::new(),
            base: 0,
            defaults: None,
            opt: Scratch::new(),
        }
    }

    /// The capacity of the largest buffer, in bytes.
    #[cfg(feature = "std")]
    fn largest(&self) -> usize {
        [
            self.first.capacity() * 4,
            self.second.capacity() * 4,
            self.third.capacity() * 4,
            self.opt.capacity(),
            self.rows.capacity() * 4,
            self.tags.capacity(),
            self.store.lits.capacity(),
            self.store.matches.capacity() * core::mem::size_of::<super::block::Match>(),
            self.seqs.capacity() * core::mem::size_of::<Seq>(),
            self.out.capacity(),
        ]
        .into_iter()
        .max()
        .unwrap_or(0)
    }
}

#[cfg(feature = "std")]
std::thread_local! {
    /// The calling thread's context.
    static CONTEXT: core::cell::RefCell<Context> = core::cell::RefCell::new(Context::new());
}

/// Runs `f` with the thread's kept context (a new one without `std`, or when it is in use
/// further up the stack); one grown above [`KEPT`] is freed afterwards.
pub(crate) fn with_context<R>(f: impl FnOnce(&mut Context) -> R) -> R {
    #[cfg(feature = "std")]
    {
        CONTEXT.with(|cell| match cell.try_borrow_mut() {
            Ok(mut ctx) => {
                let r = f(&mut ctx);
                if ctx.largest() > KEPT {
                    *ctx = Context::new();
                }
                r
            }
            Err(_) => f(&mut Context::new()),
        })
    }
    #[cfg(not(feature = "std"))]
    {
        f(&mut Context::new())
    }
}
