//! A chunk's bytes that arrive while it is compressed (std): [`Arriving`], for a caller that
//! reads the chunk from a file or a socket and wants its first blocks compressed while the
//! rest is read (`b2schema pack` of an array of one or a few large chunks, where the read would
//! otherwise come first, whole: [`compress_arriving`](super::compress::compress_arriving)).
//!
//! The bytes come in pieces, in order, each `piece` bytes long (the last one shorter), `piece`
//! a whole number of the chunk's blocks so that every block lies in one piece. A compressing
//! thread that needs a block not yet there waits for it; a source that fails ([`Arriving::fail`])
//! wakes every waiting thread with an error, so none waits for bytes that will not come.
//!
//! Pieces are let go as soon as nothing can need them again: once the chunk's blocks appended
//! so far, with every block left at its largest (stored raw), fit c-blosc2's output limit, the
//! chunk can no longer fall back to a memcpy chunk (the one use of its bytes after their blocks
//! are done), and every piece whose blocks are all appended is dropped (but the first, that a
//! delta filter reads for every block). A reader that keeps only a few pieces ahead of the
//! compressor ([`Arriving::ahead`], [`Arriving::wait_done`]) and reuses the buffers let go then
//! holds a few pieces of a large chunk, not all of it.

use alloc::sync::Arc;
use alloc::vec::Vec;
use std::sync::{Condvar, Mutex, PoisonError};

use crate::error::{Error, ErrorKind, Expected, Found, num};

/// The bytes of one piece, owned by whoever holds it (a `Vec`, a map of huge pages, ...).
pub type Piece = Arc<dyn AsRef<[u8]> + Send + Sync>;

/// A chunk of `len` bytes arriving in pieces of `piece` bytes: see the module's documentation.
///
/// ```
/// use std::sync::Arc;
/// use b2schema_chunk::compress::{Arriving, Params, compress, compress_arriving};
/// use b2schema_chunk::{Codec, Registry};
///
/// let data: Vec<u8> = (0..4096u32).flat_map(|v| (v / 3).to_le_bytes()).collect();
/// let p = Params::new(4).with_codec(Codec::Lz4).with_blocksize(4096);
/// let src = Arriving::new(data.len(), 8192).unwrap();
/// let mut out = Vec::new();
/// std::thread::scope(|s| {
///     s.spawn(|| {
///         for piece in data.chunks(8192) {
///             src.push(Arc::new(piece.to_vec())).unwrap();
///         }
///     });
///     compress_arriving(&src, &p, &Registry::new(), &mut out, None).unwrap();
/// });
/// assert_eq!(out, compress(&data, &p).unwrap());
/// ```
pub struct Arriving {
    len: usize,
    piece: usize,
    state: Mutex<State>,
    arrived: Condvar,
}

struct State {
    /// The pieces pushed; `None` for those let go.
    pieces: Vec<Option<Piece>>,
    failed: bool,
    /// How many pieces from the first the compressor is done with.
    done: usize,
    /// Whether the chunk can no longer end as a memcpy chunk: then every piece it is done with
    /// was let go (but the first, when a delta filter reads it).
    releasing: bool,
    /// Whether the compressor no longer tells how far it is (it reads the whole chunk before it
    /// is done with any more pieces, or stopped): a reader must not wait for it.
    whole: bool,
}

impl Arriving {
    /// A chunk of `len` bytes whose pieces will be `piece` bytes long (the last one what is
    /// left); `piece` must be at least 1.
    pub fn new(len: usize, piece: usize) -> Result<Self, Error> {
        if piece == 0 {
            return Err(Error::new(ErrorKind::Invalid, 0, "piece", Expected::AtLeast(1), Found::Value(0)));
        }
        let count = len.div_ceil(piece);
        let mut pieces = Vec::new();
        pieces.try_reserve_exact(count).map_err(|_| super::buffers::alloc_error(count))?;
        Ok(Arriving {
            len,
            piece,
            state: Mutex::new(State { pieces, failed: false, done: 0, releasing: false, whole: false }),
            arrived: Condvar::new(),
        })
    }

    /// The chunk's length.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the chunk has no bytes.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Each piece's length (the last one's is what is left).
    pub fn piece_len(&self) -> usize {
        self.piece
    }

    /// The next piece: its length must be the piece length (what is left for the last one).
    /// Pushing past the end, or a piece of another length, is an error (and fails the chunk).
    pub fn push(&self, bytes: Piece) -> Result<(), Error> {
        let mut st = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        let at = st.pieces.len().saturating_mul(self.piece);
        let want = self.len.saturating_sub(at).min(self.piece);
        let got = (*bytes).as_ref().len();
        if at >= self.len || got != want || st.failed {
            st.failed = true;
            self.arrived.notify_all();
            return Err(Error::new(
                ErrorKind::Invalid,
                at,
                "piece",
                Expected::Exactly(num(want)),
                Found::Value(num(got)),
            ));
        }
        st.pieces.push(Some(bytes));
        self.arrived.notify_all();
        Ok(())
    }

    /// The source failed: threads waiting for a piece, and those that will ask for one not
    /// there yet, get an error.
    pub fn fail(&self) {
        let mut st = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        st.failed = true;
        self.arrived.notify_all();
    }

    /// The piece holding bytes `at..at + len` (waiting for it) and where they start in it; an
    /// error when the source failed first, or when the bytes straddle two pieces.
    pub(crate) fn get(&self, at: usize, len: usize) -> Result<(Piece, usize), Error> {
        let idx = at / self.piece;
        let from = at % self.piece;
        let end = at.checked_add(len).filter(|&e| e <= self.len);
        if end.is_none() || from + len > self.piece {
            let err = Expected::Text("bytes inside one piece of the chunk");
            return Err(Error::new(ErrorKind::Invalid, at, "piece", err, Found::Value(num(len))));
        }
        let mut st = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        loop {
            match st.pieces.get(idx) {
                Some(Some(p)) => return Ok((Arc::clone(p), from)),
                Some(None) => {
                    let err = Expected::Text("a piece still held");
                    return Err(Error::new(ErrorKind::Invalid, at, "piece", err, Found::Text("one let go")));
                }
                None => {}
            }
            if st.failed {
                let err = Expected::Text("the chunk's bytes from their source");
                return Err(Error::new(
                    ErrorKind::ShortInput,
                    at,
                    "piece",
                    err,
                    Found::Text("a failed source"),
                ));
            }
            st = self.arrived.wait(st).unwrap_or_else(PoisonError::into_inner);
        }
    }

    /// The compressor is done with the pieces before piece `upto` (their blocks are all
    /// appended); when `let_go` (the chunk can no longer end as a memcpy chunk) it lets go of
    /// them, but the first when `keep_first`. Called by the compressor only.
    pub(crate) fn done_through(&self, upto: usize, let_go: bool, keep_first: bool) {
        let mut st = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        let upto = upto.min(st.pieces.len());
        let moved = upto > st.done || (let_go && !st.releasing);
        // Those before `done` are let go already once releasing (`let_go` never turns false).
        let from = if st.releasing { st.done } else { 0 }.max(usize::from(keep_first));
        st.done = st.done.max(upto);
        if let_go {
            let done = st.done;
            for p in st.pieces.get_mut(from..done).into_iter().flatten() {
                *p = None;
            }
            st.releasing = true;
        }
        if moved {
            self.arrived.notify_all();
        }
    }

    /// How many pieces were pushed that the compressor is not done with, and how many it is
    /// done with: a reader that keeps the first below a few reads only that far ahead, and
    /// reuses the buffers of the pieces let go ([`Arriving::wait_done`]). None ahead once the
    /// compressor no longer tells how far it is: it reads the whole chunk before it is done
    /// with any more pieces (a memcpy chunk's body, a dictionary trained on the chunk), its
    /// threads stopped (some may wait for pieces not read yet), or it returned. The reader must
    /// then push every piece.
    pub fn ahead(&self) -> (usize, usize) {
        let st = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        let ahead = if st.whole { 0 } else { st.pieces.len() - st.done.min(st.pieces.len()) };
        (ahead, st.done)
    }

    /// The compressor no longer tells how far it is (see [`Arriving::ahead`]): a reader
    /// waiting for it ([`Arriving::wait_done`]) is woken and reads on.
    pub(crate) fn read_on(&self) {
        let mut st = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        st.whole = true;
        self.arrived.notify_all();
    }

    /// Whether pieces are let go as the compressor is done with them (the chunk can no longer
    /// end as a memcpy chunk), and how many from the first were.
    pub fn released(&self) -> (bool, usize) {
        let st = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        (st.releasing, if st.releasing { st.done } else { 0 })
    }

    /// Waits until the compressor is done with more than `seen` pieces or no longer tells how
    /// far it is, the source failed, or `timeout` passed (whichever first); returns how many
    /// pieces it is done with.
    pub fn wait_done(&self, seen: usize, timeout: std::time::Duration) -> usize {
        let st = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        let (st, _) = self
            .arrived
            .wait_timeout_while(st, timeout, |st| st.done <= seen && !st.failed && !st.whole)
            .unwrap_or_else(PoisonError::into_inner);
        st.done
    }
}
