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

/// `MASK8[n]`: the low `n` bits set (all 64 from 64 on), for counts read as bytes from the
/// tables: an index below 256 by its type, so neither masked nor checked.
pub(crate) const MASK8: [u64; 256] = {
    let mut m = [u64::MAX; 256];
    let mut i = 0;
    while i < 64 {
        m[i] = MASK[i];
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

    /// The unread bits at the top of a word, with a marker bit below them (at the position of the
    /// bits used so far): a loop that shifts bits out itself gives back how many are used as the
    /// marker's position ([`BitReader::set_used`] with `trailing_zeros`), as long as fewer than
    /// 64 are. The marker replaces the word's lowest bit, which such a loop never reads (it
    /// reloads after at most 55 bits).
    #[inline(always)]
    pub(crate) fn window_marked(&self) -> u64 {
        (self.container | 1) << (self.consumed & 63)
    }

    /// Sets how many bits of the loaded word are used (after [`BitReader::window_marked`]).
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

    /// How many reloads in a row can refill eight bytes when each follows at most 62 bits read
    /// (a reload then moves back by at most 7 bytes).
    #[inline(always)]
    pub(crate) fn fast_reloads(&self) -> usize {
        if self.pos >= 8 { (self.pos - 8) / 7 + 1 } else { 0 }
    }

    /// [`BitReader::reload`] where [`BitReader::fast_reloads`] is above zero and at most 64
    /// bits were read since the last reload.
    #[inline(always)]
    pub(crate) fn reload_fast(&mut self) {
        self.pos -= (self.consumed >> 3) as usize;
        self.consumed &= 7;
        self.container = load(self.src, self.pos);
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

/// A backward reader whose whole state is one number, the count of unread bits (`end`: the
/// stream's bits `0..end`, least significant first), kept by the caller in a local: each read
/// loads the eight bytes that end at or just past bit `end`. The sequence loop keeps fewer values
/// live this way than with [`BitReader`]'s container, position and count (which it spilled to
/// the stack every sequence, on the chain from one state to the next).
pub(crate) struct EndBits<'a> {
    src: &'a [u8],
    /// Eight zero bytes, then the stream's first eight (zero-padded): the words of the last
    /// 56 bits and of streams shorter than eight bytes.
    head: [u8; 16],
}

impl<'a> EndBits<'a> {
    /// A reader of `src` and the count of its bits below the start marker, or `None` when `src`
    /// is empty or its last byte is zero (no start marker).
    pub(crate) fn new(src: &'a [u8]) -> Option<(Self, isize)> {
        let &last = src.last()?;
        if last == 0 {
            return None;
        }
        let mut head = [0u8; 16];
        let n = src.len().min(8);
        head[8..8 + n].copy_from_slice(&src[..n]);
        // At most 128 KiB of stream (a block): the count fits with room.
        let end = (src.len() * 8) as isize - (last.leading_zeros() as isize + 1);
        Some((EndBits { src, head }, end))
    }

    /// The eight bytes at stream byte `ceil(end / 8) - 8`: their top `(-end) & 7` bits lie past
    /// `end`, the 57 bits below `end` at least are in them. Past the stream's start (`end` < 0,
    /// bits read that the stream does not hold) zero, for the caller's final check
    /// ([`EndBits::finished`]) to refuse.
    #[inline(always)]
    fn word(&self, end: isize) -> u64 {
        let q = ((end + 7) >> 3) - 8;
        if let Some(b) = usize::try_from(q).ok().and_then(|q| self.src.get(q..q + 8)) {
            return u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]);
        }
        self.word_near_start(end)
    }

    #[inline(never)]
    fn word_near_start(&self, end: isize) -> u64 {
        if end <= 0 {
            return 0;
        }
        // 1 <= end <= 63 here (q < 8 unless the stream has eight bytes, then q < 0): the word
        // at stream byte q = ceil(end / 8) - 8 in -8..=0, from `head`.
        let i = ((((end + 7) >> 3) as usize) & 15).min(8);
        let b = &self.head[i..i + 8];
        u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]])
    }

    /// Reads `n` <= 57 bits: the value and the new count. One right shift and a mask: the
    /// word's bit 0 is stream bit `8 * q` ([`EndBits::word`]), the value's lowest bit is stream
    /// bit `end - n`.
    #[inline(always)]
    pub(crate) fn read(&self, end: isize, n: u32) -> (u64, isize) {
        let next = end - n as isize;
        let q8 = (((end + 7) >> 3) - 8) << 3;
        let v = (self.word(end) >> ((next - q8) as u32 & 63)) & MASK[n as usize & 63];
        (v, next)
    }

    /// Whether every bit of the stream was read, exactly.
    #[inline(always)]
    pub(crate) fn finished(end: isize) -> bool {
        end == 0
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
    use proptest::prelude::*;

    proptest! {
        /// `EndBits` reads what `BitReader` reads, field by field (reloading as the Huffman and
        /// weight loops do), to the end of the stream and past it.
        #[test]
        fn end_bits_read_as_the_bit_reader(
            src in proptest::collection::vec(any::<u8>(), 1..40),
            sizes in proptest::collection::vec(0u32..=31, 1..80),
        ) {
            let Some(mut r) = BitReader::new(&src) else {
                prop_assert!(EndBits::new(&src).is_none());
                return Ok(());
            };
            let (e, mut end) = EndBits::new(&src).unwrap();
            for &n in &sizes {
                r.reload();
                // Past the start both read garbage (then refused): compare within the stream.
                if end < n as isize {
                    break;
                }
                let (v, next) = e.read(end, n);
                prop_assert_eq!(v, r.read(n), "{} bits at {}", n, end);
                end = next;
            }
            r.reload();
            prop_assert_eq!(EndBits::finished(end), r.finished());
        }
    }

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
