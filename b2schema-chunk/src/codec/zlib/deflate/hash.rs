//! The hash chains: `head` holds the last position of each hash, `prev` links a position to the
//! previous one of its hash. Two hashes as zlib-rs picks them: levels 1-8 hash 4 bytes by
//! multiplication (16 bits), level 9 rolls a 15-bit hash over 3 bytes (`ins_h`).

use super::{STD_MIN_MATCH, State, W_MASK};

/// The multiplicative hash of 4 bytes read little-endian.
#[inline(always)]
pub(super) fn standard_hash(val: u32) -> usize {
    (val.wrapping_mul(2_654_435_761) >> 16) as usize & 0xffff
}

/// One step of the rolling hash.
#[inline(always)]
fn roll_hash(h: u32, val: u32) -> u32 {
    ((h << 5) ^ val) & 0x7fff
}

/// The 4 bytes at `at`, little-endian.
#[inline(always)]
pub(super) fn read_u32(window: &[u8], at: usize) -> u32 {
    match window.get(at..at + 4) {
        Some(&[a, b, c, d]) => u32::from_le_bytes([a, b, c, d]),
        _ => 0,
    }
}

impl State<'_> {
    /// One step of the level's hash (`update_hash`): the standard hash ignores `h`.
    #[inline(always)]
    pub(super) fn update_hash(&self, h: u32, val: u32) -> u32 {
        if self.roll { roll_hash(h, val) } else { standard_hash(val) as u32 }
    }

    /// Inserts position `string` whose 4 bytes are `val` (standard hash); the previous head.
    #[inline(always)]
    pub(super) fn quick_insert_value(&mut self, string: usize, val: u32) -> u16 {
        let hm = standard_hash(val);
        let head = self.head[hm];
        if head != string as u16 {
            self.prev[string & W_MASK] = head;
            self.head[hm] = string as u16;
        }
        head
    }

    /// Inserts position `string` with the level's hash; the previous head of its chain.
    #[inline(always)]
    pub(super) fn quick_insert_string(&mut self, string: usize) -> u16 {
        if self.roll {
            let val = u32::from(self.window.get(string + STD_MIN_MATCH - 1).copied().unwrap_or(0));
            self.ins_h = roll_hash(self.ins_h, val);
            let hm = self.ins_h as usize;
            let head = self.head[hm];
            if head != string as u16 {
                self.prev[string & W_MASK] = head;
                self.head[hm] = string as u16;
            }
            head
        } else {
            self.quick_insert_standard(string)
        }
    }

    /// Inserts position `string` with the standard hash (levels 1-6 call it directly).
    #[inline(always)]
    pub(super) fn quick_insert_standard(&mut self, string: usize) -> u16 {
        let val = read_u32(&self.window[..], string);
        self.quick_insert_value(string, val)
    }

    /// Inserts `count` positions from `string` with the level's hash (zlib-rs's
    /// `insert_string`: within the window's 64 KiB).
    pub(super) fn insert_string(&mut self, string: usize, count: usize) {
        let end = super::WINDOW_SIZE;
        if self.roll {
            let from = (string + STD_MIN_MATCH - 1).min(end);
            let to = from.saturating_add(count).min(end);
            for (i, at) in (from..to).enumerate() {
                let idx = (string as u16).wrapping_add(i as u16);
                self.ins_h = roll_hash(self.ins_h, u32::from(self.window[at]));
                let hm = self.ins_h as usize;
                let head = self.head[hm];
                if head != idx {
                    self.prev[usize::from(idx) & W_MASK] = head;
                    self.head[hm] = idx;
                }
            }
        } else {
            // Positions whose 4 bytes lie within the window buffer.
            let n = count.min(end.saturating_sub(string).saturating_sub(3));
            // Every position is below the window's 64 KiB: the reads at a 16-bit position lie
            // within the padded window (no bounds checks, fewer instructions than `windows`).
            let window = &*self.window;
            for i in 0..n {
                let idx = (string as u16).wrapping_add(i as u16);
                let at = usize::from(idx);
                let w = &window[at..at + 4];
                let hm = standard_hash(u32::from_le_bytes([w[0], w[1], w[2], w[3]]));
                let head = self.head[hm];
                if head != idx {
                    self.prev[usize::from(idx) & W_MASK] = head;
                    self.head[hm] = idx;
                }
            }
        }
    }
}
