//! The bit writer: deflate's bits, least significant first, straight into the caller's slice.
//! A byte that does not fit marks the writer as overflowed and is dropped (nothing is written
//! past the slice); the caller then reports that the stream does not fit.

/// Bits gathered before they are written as 8 bytes.
const BIT_BUF_SIZE: u8 = 64;

pub(super) struct BitWriter<'a> {
    out: &'a mut [u8],
    /// Bytes written so far.
    pos: usize,
    /// Pending bits, from the bottom.
    bit_buffer: u64,
    /// Number of valid bits in `bit_buffer` (all above it are zero).
    bits_valid: u8,
    /// Set when a byte did not fit.
    overflow: bool,
}

impl<'a> BitWriter<'a> {
    pub(super) fn new(out: &'a mut [u8]) -> Self {
        Self { out, pos: 0, bit_buffer: 0, bits_valid: 0, overflow: false }
    }

    /// Whether some byte of the stream did not fit.
    pub(super) fn overflowed(&self) -> bool {
        self.overflow
    }

    /// Bytes written (the stream's length once it is finished).
    pub(super) fn written(&self) -> usize {
        self.pos
    }

    /// Whole bytes, after the bits still pending.
    pub(super) fn put_bytes(&mut self, bytes: &[u8]) {
        match self.out.get_mut(self.pos..self.pos.saturating_add(bytes.len())) {
            Some(dst) => {
                dst.copy_from_slice(bytes);
                self.pos += bytes.len();
            }
            None => self.overflow = true,
        }
    }

    /// `len` bits of `val` (`len` at most 64, bits above `len` zero).
    #[inline(always)]
    pub(super) fn send_bits(&mut self, val: u64, len: u8) {
        let total_bits = len + self.bits_valid;
        if total_bits < BIT_BUF_SIZE {
            self.bit_buffer |= val << self.bits_valid;
            self.bits_valid = total_bits;
        } else {
            self.send_bits_overflow(val, total_bits);
        }
    }

    #[inline(always)]
    fn send_bits_overflow(&mut self, val: u64, total_bits: u8) {
        let full = if self.bits_valid == BIT_BUF_SIZE {
            let full = self.bit_buffer;
            self.bit_buffer = val;
            full
        } else {
            let full = self.bit_buffer | (val << self.bits_valid);
            self.bit_buffer = val.checked_shr(u32::from(BIT_BUF_SIZE - self.bits_valid)).unwrap_or(0);
            full
        };
        self.bits_valid = total_bits - BIT_BUF_SIZE;
        self.put_word(full);
    }

    #[inline(always)]
    fn put_word(&mut self, word: u64) {
        match self.out.get_mut(self.pos..self.pos.wrapping_add(8)) {
            Some(dst) => {
                dst.copy_from_slice(&word.to_le_bytes());
                self.pos += 8;
            }
            None => self.overflow = true,
        }
    }

    /// Writes the whole bytes pending, keeps the last bits (fewer than 8).
    pub(super) fn flush_bits(&mut self) {
        let keep_bytes = usize::from(self.bits_valid / 8);
        let removed = self.bits_valid.saturating_sub(7).next_multiple_of(8);
        let bytes = self.bit_buffer.to_le_bytes();
        self.put_bytes(&bytes[..keep_bytes]);
        self.bits_valid -= removed;
        self.bit_buffer = self.bit_buffer.checked_shr(u32::from(removed)).unwrap_or(0);
    }

    /// Writes every pending bit, the last byte padded with zeros.
    pub(super) fn emit_align(&mut self) {
        let keep_bytes = usize::from(self.bits_valid.div_ceil(8));
        let bytes = self.bit_buffer.to_le_bytes();
        self.put_bytes(&bytes[..keep_bytes]);
        self.bit_buffer = 0;
        self.bits_valid = 0;
    }
}
