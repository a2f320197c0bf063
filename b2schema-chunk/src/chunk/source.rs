//! A chunk's bytes as the compressor reads them ([`Src`]): in memory, or arriving while it is
//! compressed (std: [`Arriving`]), and the bytes of one block held
//! ([`Held`]): borrowed, or in the piece they arrived in.

use alloc::vec::Vec;

#[cfg(feature = "std")]
use super::arriving::Arriving;
use crate::error::Error;

/// A chunk's bytes: in memory, or arriving while it is compressed.
#[derive(Clone, Copy)]
pub(crate) enum Src<'a> {
    Whole(&'a [u8]),
    #[cfg(feature = "std")]
    Arriving(&'a Arriving),
}

/// Bytes of a [`Src`]: borrowed, or held in the piece they arrived in.
pub(crate) enum Held<'a> {
    Slice(&'a [u8]),
    #[cfg(feature = "std")]
    Piece(super::arriving::Piece, usize, usize),
}

impl Held<'_> {
    pub(crate) fn bytes(&self) -> &[u8] {
        match self {
            Held::Slice(s) => s,
            #[cfg(feature = "std")]
            Held::Piece(p, from, len) => &(**p).as_ref()[*from..*from + *len],
        }
    }
}

impl<'a> Src<'a> {
    pub(crate) fn len(&self) -> usize {
        match self {
            Src::Whole(s) => s.len(),
            #[cfg(feature = "std")]
            Src::Arriving(a) => a.len(),
        }
    }

    /// Bytes `at..at + len` (inside the chunk; for arriving bytes, inside one piece: a block,
    /// or the first block's start), waiting for them to arrive.
    pub(crate) fn get(&self, at: usize, len: usize) -> Result<Held<'a>, Error> {
        match *self {
            Src::Whole(s) => Ok(Held::Slice(&s[at..at + len])),
            #[cfg(feature = "std")]
            Src::Arriving(a) => a.get(at, len).map(|(p, from)| Held::Piece(p, from, len)),
        }
    }

    /// Tells an arriving source that the compressor no longer says how far it is (it reads every
    /// piece before it is done with any more, or its threads stopped): a reader that keeps only
    /// a few pieces ahead must read on.
    pub(crate) fn read_on(&self) {
        #[cfg(feature = "std")]
        if let Src::Arriving(a) = self {
            a.read_on();
        }
    }

    /// Appends every byte to `out` (a memcpy chunk's body), waiting for them all.
    pub(crate) fn append_to(&self, out: &mut Vec<u8>) -> Result<(), Error> {
        match *self {
            Src::Whole(s) => out.extend_from_slice(s),
            #[cfg(feature = "std")]
            Src::Arriving(a) => {
                a.read_on();
                let mut at = 0;
                while at < a.len() {
                    let len = a.piece_len().min(a.len() - at);
                    out.extend_from_slice(Src::Arriving(a).get(at, len)?.bytes());
                    at += len;
                }
            }
        }
        Ok(())
    }
}
