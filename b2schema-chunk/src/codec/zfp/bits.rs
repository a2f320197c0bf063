//! zfp's bit stream (`bitstream.inl` with 64-bit words on a little-endian machine): bits are
//! read and written least significant first, byte after byte.

/// Reads bits from a byte slice. Reading past its end gives zeros and marks the reader
/// [`BitReader::overrun`] (c-blosc2 would read past its buffer): the caller reports it.
pub(crate) struct BitReader<'a> {
    bytes: &'a [u8],
    /// The next bit's position.
    pos: u64,
    /// Whether a bit past the end was asked for.
    pub(crate) overrun: bool,
}

impl<'a> BitReader<'a> {
    pub(crate) fn new(bytes: &'a [u8]) -> Self {
        BitReader { bytes, pos: 0, overrun: false }
    }

    /// The next bit.
    #[inline]
    pub(crate) fn bit(&mut self) -> u64 {
        let at = (self.pos >> 3) as usize;
        let bit = match self.bytes.get(at) {
            Some(b) => u64::from(b >> (self.pos & 7)) & 1,
            None => {
                self.overrun = true;
                0
            }
        };
        self.pos += 1;
        bit
    }

    /// The next `n` bits (at most 64), the first read in the lowest bit.
    #[inline]
    pub(crate) fn bits(&mut self, n: u32) -> u64 {
        let mut v = 0u64;
        let mut got = 0u32;
        while got < n {
            let at = (self.pos >> 3) as usize;
            let shift = (self.pos & 7) as u32;
            let take = (8 - shift).min(n - got);
            let byte = match self.bytes.get(at) {
                Some(&b) => u64::from(b),
                None => {
                    self.overrun = true;
                    0
                }
            };
            v |= ((byte >> shift) & ((1u64 << take) - 1)) << got;
            got += take;
            self.pos += u64::from(take);
        }
        v
    }

    /// Skips `n` bits (`stream_skip`).
    pub(crate) fn skip(&mut self, n: u32) {
        self.pos += u64::from(n);
    }
}

/// Writes bits into a growing byte vector; [`BitWriter::finish`] pads to a 64-bit word as
/// zfp's `stream_flush` does.
pub(crate) struct BitWriter {
    pub(crate) bytes: alloc::vec::Vec<u8>,
    /// Bits written.
    pos: u64,
}

impl BitWriter {
    pub(crate) fn new() -> Self {
        BitWriter { bytes: alloc::vec::Vec::new(), pos: 0 }
    }

    /// Writes the low bit of `bit`; returns it.
    #[inline]
    pub(crate) fn bit(&mut self, bit: u64) -> u64 {
        self.bits(bit & 1, 1);
        bit & 1
    }

    /// Writes the low `n` bits of `v` (at most 64); returns `v >> n`.
    #[inline]
    pub(crate) fn bits(&mut self, v: u64, n: u32) -> u64 {
        let mut left = n;
        let mut rest = v;
        while left > 0 {
            let shift = (self.pos & 7) as u32;
            if shift == 0 {
                self.bytes.push(0);
            }
            let take = (8 - shift).min(left);
            let last = self.bytes.len() - 1;
            self.bytes[last] |= ((rest & ((1u64 << take) - 1)) as u8) << shift;
            rest >>= take;
            left -= take;
            self.pos += u64::from(take);
        }
        if n >= 64 { 0 } else { v >> n }
    }

    /// Writes `n` zero bits (`stream_pad`).
    pub(crate) fn pad(&mut self, n: u32) {
        let mut left = n;
        while left > 0 {
            let take = left.min(64);
            self.bits(0, take);
            left -= take;
        }
    }

    /// Pads to a whole 64-bit word (`stream_flush`) and gives the bytes.
    pub(crate) fn finish(mut self) -> alloc::vec::Vec<u8> {
        let rem = (self.pos % 64) as u32;
        if rem != 0 {
            self.pad(64 - rem);
        }
        self.bytes
    }
}
