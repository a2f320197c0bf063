//! The bit writer of zstd's backward streams (RFC 8878 §4.1): bits are appended low first into
//! a 64-bit container and flushed as little-endian bytes; [`BitWriter::close`] appends the 1 bit
//! that marks the end, so that a reader starting from the last byte finds the last bits written
//! first.
//!
//! The writer takes the caller's vector for the stream's life (its pointer and length then stay
//! in registers, not behind a reference) and sizes it once for the stream's upper bound (given
//! by the caller); a flush then stores eight bytes where the next ones go with one bounds check,
//! and past the bound (a wrong estimate) the vector grows. The vector goes back, cut to the
//! stream's end, when the writer is dropped.

use alloc::vec::Vec;

/// Appends bits to a byte vector.
pub(crate) struct BitWriter<'a> {
    out: &'a mut Vec<u8>,
    buf: Vec<u8>,
    pos: usize,
    acc: u64,
    n: u32,
}

impl<'a> BitWriter<'a> {
    /// A writer appending to `out` a stream of at most `bound` bytes.
    pub(crate) fn new(out: &'a mut Vec<u8>, bound: usize) -> Self {
        let mut buf = core::mem::take(out);
        let pos = buf.len();
        buf.resize(pos + bound + 8, 0);
        BitWriter { out, buf, pos, acc: 0, n: 0 }
    }

    /// Appends the low `n` bits of `v`; the bits held stay at most 63 (callers flush).
    #[inline(always)]
    pub(crate) fn add(&mut self, v: u64, n: u32) {
        debug_assert!(n <= 57 && self.n + n <= 63);
        let masked = v & ((1u64 << n) - 1);
        self.acc |= masked << self.n;
        self.n += n;
    }

    /// Appends `v`, which has no bits above its low `n`.
    #[inline(always)]
    pub(crate) fn add_exact(&mut self, v: u64, n: u32) {
        debug_assert!(n <= 57 && self.n + n <= 63 && v >> n == 0);
        self.acc |= v << self.n;
        self.n += n;
    }

    /// Writes the whole bytes held.
    #[inline(always)]
    pub(crate) fn flush(&mut self) {
        let bytes = (self.n >> 3) as usize;
        let b = self.acc.to_le_bytes();
        match self.buf.get_mut(self.pos..self.pos + 8) {
            Some(d) => d.copy_from_slice(&b),
            None => {
                self.buf.truncate(self.pos);
                self.buf.extend_from_slice(&b);
            }
        }
        self.pos += bytes;
        self.acc = if bytes == 8 { 0 } else { self.acc >> (bytes * 8) };
        self.n &= 7;
    }

    /// Appends the end marker and writes the last byte.
    pub(crate) fn close(mut self) {
        self.add(1, 1);
        self.flush();
        self.buf.truncate(self.pos);
        if self.n > 0 {
            self.buf.push(self.acc as u8);
        }
    }
}

impl Drop for BitWriter<'_> {
    /// Gives the vector back (cut to the stream's end by [`BitWriter::close`]).
    fn drop(&mut self) {
        *self.out = core::mem::take(&mut self.buf);
    }
}
