//! The backward bit reader of zstd's entropy-coded streams (FSE and Huffman, RFC 8878 §4.1 and
//! §4.2): the stream is read from its last byte towards its first, the highest set bit of the last
//! byte marking where the bits start. Bits are kept in a 64-bit container refilled with
//! `u64::from_le_bytes` from the stream, as libzstd's `BIT_DStream_t` does, so a well-formed
//! stream is read with the same steps and a malformed one is found at the same place.

/// The state of [`BitReader::reload`], as libzstd's `BIT_DStream_status`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Status {
    /// More bytes remain to be loaded.
    Unfinished,
    /// The first byte of the stream is loaded; bits remain in the container.
    EndOfBuffer,
    /// Every bit of the stream was read, exactly.
    Completed,
    /// More bits were read than the stream holds.
    Overflow,
}

#[derive(Clone, Copy)]
pub(crate) struct BitReader<'a> {
    src: &'a [u8],
    /// The bits, the first unread one `consumed` bits below the top.
    container: u64,
    /// Bits of `container` already read (more than 64: read past the stream's start).
    consumed: u32,
    /// Where `container` was loaded from (`src[pos..pos + 8]`, or all of `src` when shorter).
    pos: usize,
}

/// `MASK[n]`: the low `n` bits set.
pub(crate) const MASK: [u64; 64] = {
    let mut m = [0u64; 64];
    let mut i = 0;
    while i < 64 {
        m[i] = (1u64 << i) - 1;
        i += 1;
    }
    m
};

#[inline(always)]
fn load(src: &[u8], pos: usize) -> u64 {
    match src.get(pos..pos + 8) {
        Some(b) => u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]),
        None => 0,
    }
}

impl<'a> BitReader<'a> {
    /// A reader of `src`, or `None` when `src` is empty or its last byte is zero (no start marker).
    pub(crate) fn new(src: &'a [u8]) -> Option<Self> {
        let &last = src.last()?;
        if last == 0 {
            return None;
        }
        let marker = last.leading_zeros() + 1;
        if src.len() >= 8 {
            let pos = src.len() - 8;
            Some(BitReader { src, container: load(src, pos), consumed: marker, pos })
        } else {
            let mut c = 0u64;
            for (i, &b) in src.iter().enumerate() {
                c |= u64::from(b) << (8 * i);
            }
            let consumed = marker + (8 - src.len() as u32) * 8;
            Some(BitReader { src, container: c, consumed, pos: 0 })
        }
    }

    /// The next `n` bits (`n` <= 56 after a reload) without reading them.
    #[inline(always)]
    pub(crate) fn peek(&self, n: u32) -> u64 {
        ((self.container << (self.consumed & 63)) >> 1) >> ((63 - n) & 63)
    }

    /// The next `n` bits, `n` >= 1, without reading them.
    #[inline(always)]
    pub(crate) fn peek_nz(&self, n: u32) -> u64 {
        (self.container << (self.consumed & 63)) >> ((64 - n) & 63)
    }

    /// The unread bits at the top of a word, and how many bits are used: for a loop that
    /// shifts them out itself and then gives the count back ([`BitReader::set_used`]).
    #[inline(always)]
    pub(crate) fn window(&self) -> (u64, u32) {
        (self.container << (self.consumed & 63), self.consumed)
    }

    /// Sets how many bits of the loaded word are used (after [`BitReader::window`]).
    #[inline(always)]
    pub(crate) fn set_used(&mut self, used: u32) {
        self.consumed = used;
    }

    #[inline(always)]
    pub(crate) fn skip(&mut self, n: u32) {
        self.consumed += n;
    }

    /// Reads `n` bits (0 <= `n` <= 56 after a reload).
    #[inline(always)]
    pub(crate) fn read(&mut self, n: u32) -> u64 {
        let v = self.peek(n);
        self.consumed += n;
        v
    }

    /// Whether the next reload can refill eight bytes (the fast path).
    #[inline(always)]
    pub(crate) fn can_fast_reload(&self) -> bool {
        self.pos >= 8
    }

    /// Refills the container: afterwards at least 57 bits can be read unless the stream ends.
    #[inline(always)]
    pub(crate) fn reload(&mut self) -> Status {
        if self.consumed > 64 {
            return Status::Overflow;
        }
        if self.pos >= 8 {
            self.pos -= (self.consumed >> 3) as usize;
            self.consumed &= 7;
            self.container = load(self.src, self.pos);
            return Status::Unfinished;
        }
        self.reload_slow()
    }

    // Inlined too: a call would take the reader's address and keep its fields in memory.
    #[inline(always)]
    fn reload_slow(&mut self) -> Status {
        if self.pos == 0 {
            return if self.consumed < 64 { Status::EndOfBuffer } else { Status::Completed };
        }
        let mut n = (self.consumed >> 3) as usize;
        let mut status = Status::Unfinished;
        if n > self.pos {
            n = self.pos;
            status = Status::EndOfBuffer;
        }
        self.pos -= n;
        self.consumed -= (n * 8) as u32;
        self.container = load(self.src, self.pos);
        status
    }

    /// Whether every bit of the stream was read, exactly.
    pub(crate) fn finished(&self) -> bool {
        self.pos == 0 && self.consumed == 64
    }
}

/// A little-endian integer of `n` <= 8 bytes at `src[at..]`, or `None` past the end.
#[inline]
pub(crate) fn le(src: &[u8], at: usize, n: usize) -> Option<u64> {
    let b = src.get(at..at.checked_add(n)?)?;
    Some(b.iter().rev().fold(0u64, |acc, &x| (acc << 8) | u64::from(x)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_backwards_from_the_marker() {
        // Bits (from the end): marker 1 then 101 then 0011 ...
        let src = [0b0011_0000u8, 0b0000_1101];
        let mut r = BitReader::new(&src).unwrap();
        assert_eq!(r.read(3), 0b101);
        assert_eq!(r.read(4), 0b0011);
        assert_eq!(r.read(0), 0);
        assert_eq!(r.read(4), 0);
        assert_eq!(r.reload(), Status::Completed);
        assert!(r.finished());
        assert!(BitReader::new(&[1, 0]).is_none());
        assert!(BitReader::new(&[]).is_none());
    }

    #[test]
    fn long_streams_reload() {
        let src: alloc::vec::Vec<u8> = (0..40u8).map(|i| i.wrapping_mul(37) | 1).collect();
        let mut r = BitReader::new(&src).unwrap();
        let mut total = r.consumed;
        while !r.finished() {
            assert_ne!(r.reload(), Status::Overflow);
            if r.finished() {
                break;
            }
            let n = 7.min((r.pos as u32) * 8 + 64 - r.consumed);
            r.read(n);
            total += n;
        }
        assert_eq!(total as usize, src.len() * 8);
    }
}
