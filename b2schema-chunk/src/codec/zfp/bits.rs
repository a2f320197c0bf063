//! zfp's bit stream (`bitstream.inl` with 64-bit words on a little-endian machine): bits are
//! read and written least significant first, a 64-bit little-endian word at a time.

use alloc::vec::Vec;

/// Reads bits from a byte slice a word at a time. Reading past its end gives zeros and makes
/// [`BitReader::overrun`] true (c-blosc2 would read past its buffer): the caller reports it.
pub(crate) struct BitReader<'a> {
    bytes: &'a [u8],
    /// Bits consumed (read or skipped).
    pos: u64,
    /// The bits of the current word not read yet, lowest first.
    buffer: u64,
    /// How many of them.
    bits: u32,
}

impl<'a> BitReader<'a> {
    pub(crate) fn new(bytes: &'a [u8]) -> Self {
        BitReader { bytes, pos: 0, buffer: 0, bits: 0 }
    }

    /// The little-endian word at bit `pos` (a multiple of 64), zeros past the end.
    fn word(&self, pos: u64) -> u64 {
        let at = usize::try_from(pos / 8).unwrap_or(usize::MAX);
        let mut w = [0u8; 8];
        if let Some(rest) = self.bytes.get(at..) {
            let n = rest.len().min(8);
            w[..n].copy_from_slice(&rest[..n]);
        }
        u64::from_le_bytes(w)
    }

    /// Whether a bit past the end of the bytes was read or skipped.
    pub(crate) fn overrun(&self) -> bool {
        self.pos > self.bytes.len() as u64 * 8
    }

    /// The next bit.
    #[inline]
    pub(crate) fn bit(&mut self) -> u64 {
        if self.bits == 0 {
            self.buffer = self.word(self.pos);
            self.bits = 64;
        }
        let bit = self.buffer & 1;
        self.buffer >>= 1;
        self.bits -= 1;
        self.pos += 1;
        bit
    }

    /// The next `n` bits (at most 64), the first read in the lowest bit (`stream_read_bits`).
    #[inline]
    pub(crate) fn bits(&mut self, n: u32) -> u64 {
        if n == 0 {
            return 0;
        }
        let mut v = self.buffer;
        if self.bits < n {
            let w = self.word(self.pos + u64::from(self.bits));
            if self.bits > 0 {
                v |= w << self.bits;
            } else {
                v = w;
            }
            let used = n - self.bits;
            self.buffer = if used == 64 { 0 } else { w >> used };
            self.bits = 64 - used;
        } else {
            self.buffer = if n == 64 { 0 } else { self.buffer >> n };
            self.bits -= n;
        }
        self.pos += u64::from(n);
        if n < 64 { v & ((1u64 << n) - 1) } else { v }
    }

    /// Skips `n` bits (`stream_skip`).
    pub(crate) fn skip(&mut self, n: u32) {
        self.pos += u64::from(n);
        let offset = (self.pos % 64) as u32;
        self.buffer = self.word(self.pos - u64::from(offset)) >> offset;
        self.bits = 64 - offset;
        if offset == 0 {
            // the word at pos is read whole on the next read
            self.bits = 0;
        }
    }
}

/// Writes bits into a growing byte vector a word at a time; [`BitWriter::finish`] pads to a
/// 64-bit word as zfp's `stream_flush` does.
pub(crate) struct BitWriter {
    bytes: Vec<u8>,
    /// Bits waiting, lowest first.
    buffer: u64,
    /// How many.
    bits: u32,
}

impl BitWriter {
    pub(crate) fn new() -> Self {
        BitWriter { bytes: Vec::new(), buffer: 0, bits: 0 }
    }

    /// Writes the low bit of `bit`; returns it.
    #[inline]
    pub(crate) fn bit(&mut self, bit: u64) -> u64 {
        let bit = bit & 1;
        self.buffer |= bit << self.bits;
        self.bits += 1;
        if self.bits == 64 {
            self.bytes.extend_from_slice(&self.buffer.to_le_bytes());
            self.buffer = 0;
            self.bits = 0;
        }
        bit
    }

    /// Writes the low `n` bits of `v` (at most 64).
    #[inline]
    pub(crate) fn bits(&mut self, v: u64, n: u32) {
        if n == 0 {
            return;
        }
        let v = if n < 64 { v & ((1u64 << n) - 1) } else { v };
        self.buffer |= v << self.bits;
        let total = self.bits + n;
        if total >= 64 {
            self.bytes.extend_from_slice(&self.buffer.to_le_bytes());
            let used = 64 - self.bits;
            self.buffer = if used == 64 { 0 } else { v >> used };
            self.bits = total - 64;
        } else {
            self.bits = total;
        }
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
    pub(crate) fn finish(mut self) -> Vec<u8> {
        if self.bits > 0 {
            self.bytes.extend_from_slice(&self.buffer.to_le_bytes());
        }
        self.bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// Runs of bits of any widths, with skips, read back as written.
        #[test]
        fn bits_read_back_as_written(ops in proptest::collection::vec((0u32..=64, proptest::num::u64::ANY, 0u32..3), 0..200)) {
            let mut w = BitWriter::new();
            for &(n, v, kind) in &ops {
                match kind {
                    0 => w.bits(v, n),
                    1 => { w.bit(v); }
                    _ => w.pad(n),
                }
            }
            let bytes = w.finish();
            proptest::prop_assert_eq!(bytes.len() % 8, 0);
            let mut r = BitReader::new(&bytes);
            for &(n, v, kind) in &ops {
                match kind {
                    0 => {
                        let want = if n < 64 { v & ((1u64 << n) - 1) } else { v };
                        proptest::prop_assert_eq!(r.bits(n), want);
                    }
                    1 => proptest::prop_assert_eq!(r.bit(), v & 1),
                    _ => r.skip(n),
                }
            }
            proptest::prop_assert!(!r.overrun());
        }
    }
}
