//! The bit writer of zstd's backward streams (RFC 8878 §4.1): bits are appended low first into
//! a 64-bit container and flushed as little-endian bytes; the stream ends with a 1 bit, so that a
//! reader starting from the last byte finds the last bits written first.
//!
//! [`write_bits`] sizes the caller's vector once for the stream's upper bound (given by the
//! caller) and lends the writer a slice of it: a flush then stores eight bytes where the next
//! ones go with one bounds check, and the writer's container, count and position stay in
//! registers through the caller's loop (no vector to grow, no drop). Past the bound (a wrong
//! estimate) the stream is given up and `write_bits` says so.

use alloc::vec::Vec;

/// `MASK[n]`: the low `n` bits set.
const MASK: [u64; 64] = {
    let mut m = [0u64; 64];
    let mut n = 1;
    while n < 64 {
        m[n] = (1 << n) - 1;
        n += 1;
    }
    m
};

/// Appends bits to a byte slice.
pub(crate) struct BitWriter<'a> {
    buf: &'a mut [u8],
    /// Where the next bytes go; past `last` when the bound was wrong (then the stream is given
    /// up: [`write_bits`] tests it once, at the end, not a flag at every flush).
    pos: usize,
    /// The last position eight bytes fit at: a flush past it writes there instead.
    last: usize,
    acc: u64,
    n: u32,
}

/// Appends to `out` the stream that `f` writes, of at most `bound` bytes; `false` (and `out`
/// as it was) when it did not fit the bound.
#[inline(always)]
pub(crate) fn write_bits(out: &mut Vec<u8>, bound: usize, f: impl FnOnce(&mut BitWriter<'_>)) -> bool {
    let at = out.len();
    out.resize(at + bound + 8, 0);
    let last = out.len() - 8;
    let mut w = BitWriter { buf: &mut out[..], pos: at, last, acc: 0, n: 0 };
    f(&mut w);
    // The end marker; the last byte, if partial, is in the eight just stored.
    w.add(1, 1);
    w.flush();
    let end = w.pos + usize::from(w.n > 0);
    // Positions only grow: every flush stored its bytes where they go when the last did.
    if w.pos > last {
        out.truncate(at);
        return false;
    }
    out.truncate(end);
    true
}

impl BitWriter<'_> {
    /// Appends the low `n` bits of `v`; the bits held stay at most 63 (callers flush).
    #[inline(always)]
    pub(crate) fn add(&mut self, v: u64, n: u32) {
        debug_assert!(n <= 57 && self.n + n <= 63);
        // The mask from a table (libzstd's `BIT_mask`): one `and` with a load, where
        // `(1 << n) - 1` takes four instructions without BMI2.
        let masked = v & MASK[(n & 63) as usize];
        self.acc |= masked << self.n;
        self.n += n;
    }

    /// Writes the whole bytes held (at most 7: the bits held are at most 63). Past the bound
    /// the eight bytes land at its end (a conditional move, no flag and no branch, as libzstd's
    /// `BIT_flushBits` clamps its pointer): the stream is then given up.
    #[inline(always)]
    pub(crate) fn flush(&mut self) {
        let bytes = self.n >> 3;
        let at = self.pos.min(self.last);
        if let Some(d) = self.buf.get_mut(at..).and_then(<[u8]>::first_chunk_mut::<8>) {
            *d = self.acc.to_le_bytes();
        }
        self.pos += bytes as usize;
        self.acc >>= bytes * 8;
        self.n &= 7;
    }
}

#[cfg(test)]
mod tests {
    use super::write_bits;
    use alloc::vec::Vec;

    /// 100 codes of 11 bits: 1100 bits and the end marker, 138 bytes.
    fn codes(w: &mut super::BitWriter<'_>) {
        for i in 0..100u64 {
            w.add((i * 13) & 0x7FF, 11);
            w.flush();
        }
    }

    #[test]
    fn a_stream_past_its_bound_is_given_up_and_leaves_the_vector_as_it_was() {
        let mut fits = alloc::vec![7u8; 3];
        assert!(write_bits(&mut fits, 138, codes));
        assert_eq!(fits.len(), 3 + 138);
        assert_eq!(fits[..3], [7, 7, 7]);
        // The last byte holds the last code's top 4 bits (1287 >> 7) under the end marker.
        assert_eq!(u32::from(fits[3 + 137]), 1 << 4 | (99 * 13) >> 7);
        // The same bits written whatever the room beyond the bound.
        let mut roomy = alloc::vec![7u8; 3];
        assert!(write_bits(&mut roomy, 1000, codes));
        assert_eq!(roomy, fits);
        // One byte short of the stream: given up, nothing appended.
        let mut short = alloc::vec![7u8; 3];
        assert!(!write_bits(&mut short, 129, codes));
        assert_eq!(short, Vec::from([7u8, 7, 7]));
    }
}
