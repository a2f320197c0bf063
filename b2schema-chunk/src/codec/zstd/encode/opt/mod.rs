//! libzstd's optimal parsers (zstd_opt.c of 1.5.7): btopt (opt level 0), btultra (level 2) and
//! btultra2 (level 2, the first block's statistics gathered by a first pass over it), over the
//! binary tree finder ([`super::match_bt`]) and the price model ([`price`]).

mod parser;
mod price;

pub(crate) use parser::{Node, Opt};
pub(crate) use price::Stats;

/// The optimal parser's buffers, kept in the context from frame to frame.
pub(crate) struct Scratch {
    /// The forward pass's cheapest way to each position ahead (`ZSTD_OPT_SIZE` of them).
    pub(crate) nodes: alloc::vec::Vec<Node>,
    /// The matches found at one position.
    pub(crate) matches: alloc::vec::Vec<super::match_bt::Cand>,
    /// The chosen sequences of one forward pass, last first.
    pub(crate) path: alloc::vec::Vec<Node>,
}

impl Scratch {
    pub(crate) fn new() -> Self {
        Scratch {
            nodes: alloc::vec::Vec::new(),
            matches: alloc::vec::Vec::new(),
            path: alloc::vec::Vec::new(),
        }
    }

    /// The bytes held.
    #[cfg(feature = "std")]
    pub(crate) fn capacity(&self) -> usize {
        self.nodes.capacity() * core::mem::size_of::<Node>()
            + self.matches.capacity() * 8
            + self.path.capacity() * core::mem::size_of::<Node>()
    }
}
