//! The bit writer of zstd's backward streams (RFC 8878 §4.1): bits are appended low first into
//! a 64-bit container and flushed as little-endian bytes; [`BitWriter::close`] appends the 1 bit
//! that marks the end, so that a reader starting from the last byte finds the last bits written
//! first.

use alloc::vec::Vec;

/// Appends bits to a byte vector.
pub(crate) struct BitWriter<'a> {
    out: &'a mut Vec<u8>,
    acc: u64,
    n: u32,
}

impl<'a> BitWriter<'a> {
    pub(crate) fn new(out: &'a mut Vec<u8>) -> Self {
        BitWriter { out, acc: 0, n: 0 }
    }

    /// Appends the low `n` bits of `v` (`n` at most 56 minus the bits not yet flushed: callers
    /// flush every 56 bits at most).
    #[inline(always)]
    pub(crate) fn add(&mut self, v: u64, n: u32) {
        debug_assert!(n <= 57 && self.n + n <= 64);
        let masked = v & ((1u64 << n) - 1);
        self.acc |= masked << self.n;
        self.n += n;
    }

    /// Writes the whole bytes held.
    #[inline(always)]
    pub(crate) fn flush(&mut self) {
        let bytes = (self.n >> 3) as usize;
        self.out.extend_from_slice(&self.acc.to_le_bytes()[..bytes]);
        self.acc = if bytes == 8 { 0 } else { self.acc >> (bytes * 8) };
        self.n &= 7;
    }

    /// Appends the end marker and writes the last byte.
    pub(crate) fn close(mut self) {
        self.add(1, 1);
        self.flush();
        if self.n > 0 {
            self.out.push(self.acc as u8);
        }
    }
}
