//! The bit writer of zstd's backward streams (RFC 8878 §4.1): bits are appended low first into
//! a 64-bit container and flushed as little-endian bytes; [`BitWriter::close`] appends the 1 bit
//! that marks the end, so that a reader starting from the last byte finds the last bits written
//! first.
//!
//! The writer reserves the stream's upper bound (given by the caller) once, without zeroing it,
//! and a flush then appends the eight bytes held where the next ones go and keeps the whole
//! ones (the vector's length is the stream's end plus the bytes not yet complete); past the
//! bound (a wrong estimate) the vector grows.

use alloc::vec::Vec;

/// Appends bits to a byte vector.
pub(crate) struct BitWriter<'a> {
    out: &'a mut Vec<u8>,
    pos: usize,
    acc: u64,
    n: u32,
}

impl<'a> BitWriter<'a> {
    /// A writer appending to `out` a stream of at most `bound` bytes.
    pub(crate) fn new(out: &'a mut Vec<u8>, bound: usize) -> Self {
        let pos = out.len();
        out.reserve(bound + 8);
        BitWriter { out, pos, acc: 0, n: 0 }
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
        self.out.truncate(self.pos);
        self.out.extend_from_slice(&self.acc.to_le_bytes());
        self.pos += bytes;
        self.acc = if bytes == 8 { 0 } else { self.acc >> (bytes * 8) };
        self.n &= 7;
    }

    /// Appends the end marker and writes the last byte.
    pub(crate) fn close(mut self) {
        self.add(1, 1);
        self.flush();
        if self.n > 0 {
            self.out.truncate(self.pos);
            self.out.push(self.acc as u8);
        } else {
            self.out.truncate(self.pos);
        }
    }
}
