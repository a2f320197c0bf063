//! Level 1 (zlib-rs's `deflate_quick`): one static-tree block for the whole input, each
//! position probing only its hash's head.

use super::hash::read_u32;
use super::tables::{END_BLOCK, STATIC_DTREE, STATIC_LENGTH_BITS, STATIC_LTREE};
use super::{Full, MAX_DIST, MIN_LOOKAHEAD, STD_MAX_MATCH, STD_MIN_MATCH, State, WANT_MIN_MATCH};

impl State<'_> {
    pub(super) fn deflate_quick(&mut self) -> Result<(), Full> {
        // The last (and only) block: static trees.
        self.bits.send_bits((1 << 1) | 1, 3);
        loop {
            if self.lookahead < MIN_LOOKAHEAD {
                self.fill_window();
                if self.bits.overflowed() {
                    return Err(Full);
                }
                if self.lookahead == 0 {
                    break;
                }
            }
            let strstart = self.strstart;
            let lc = if self.lookahead >= WANT_MIN_MATCH {
                let str_val = read_u32(&self.window[..], strstart);
                let hash_head = self.quick_insert_value(strstart, str_val);
                let dist = strstart as isize - hash_head as isize;
                if dist <= MAX_DIST as isize
                    && dist > 0
                    && str_val == read_u32(&self.window[..], usize::from(hash_head))
                {
                    let mut match_len = super::longest_match::compare256_at(
                        &self.window[..],
                        strstart + 2,
                        usize::from(hash_head) + 2,
                    ) + 2;
                    if match_len >= WANT_MIN_MATCH {
                        match_len = match_len.min(self.lookahead).min(STD_MAX_MATCH);
                        let (lbits, llen) = STATIC_LENGTH_BITS[match_len - STD_MIN_MATCH];
                        let (dbits, dlen) = super::trees::encode_dist(&STATIC_DTREE, dist as usize);
                        self.bits.send_bits(u64::from(lbits) | (dbits << llen), llen + dlen);
                        self.lookahead -= match_len;
                        self.strstart += match_len;
                        continue;
                    }
                }
                str_val as u8
            } else {
                self.window[strstart]
            };
            let node = STATIC_LTREE[usize::from(lc)];
            self.bits.send_bits(u64::from(node.code()), node.len() as u8);
            self.strstart += 1;
            self.lookahead -= 1;
        }
        self.insert = self.strstart.min(STD_MIN_MATCH - 1);
        let node = STATIC_LTREE[END_BLOCK];
        self.bits.send_bits(u64::from(node.code()), node.len() as u8);
        self.bits.emit_align();
        if self.bits.overflowed() { Err(Full) } else { Ok(()) }
    }
}
