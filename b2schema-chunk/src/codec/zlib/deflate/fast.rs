//! Level 2 (zlib-rs's `deflate_fast`): greedy matching, the strings of a short match inserted.

use super::hash::read_u32;
use super::{Full, MAX_DIST, MIN_LOOKAHEAD, STD_MIN_MATCH, State, WANT_MIN_MATCH};

impl State<'_> {
    pub(super) fn deflate_fast(&mut self) -> Result<(), Full> {
        loop {
            if self.lookahead < MIN_LOOKAHEAD {
                self.fill_window();
                if self.lookahead == 0 {
                    break;
                }
            }
            let lc = if self.lookahead >= WANT_MIN_MATCH {
                let val = read_u32(&self.window[..], self.strstart);
                let hash_head = self.quick_insert_value(self.strstart, val);
                let dist = self.strstart as isize - hash_head as isize;
                if dist <= MAX_DIST as isize && dist > 0 && hash_head != 0 {
                    let (mut match_len, match_start) = self.longest_match::<false, true>(hash_head);
                    self.match_start = match_start;
                    if match_len >= WANT_MIN_MATCH {
                        let bflush = self.block.tally_dist(
                            self.strstart - usize::from(self.match_start),
                            match_len - STD_MIN_MATCH,
                        );
                        self.lookahead -= match_len;
                        if match_len <= usize::from(self.max_lazy_match) && self.lookahead >= WANT_MIN_MATCH {
                            match_len -= 1;
                            self.strstart += 1;
                            self.insert_string(self.strstart, match_len);
                            self.strstart += match_len;
                        } else {
                            self.strstart += match_len;
                            self.quick_insert_standard(self.strstart + 2 - STD_MIN_MATCH);
                        }
                        if bflush {
                            self.flush_block(false)?;
                        }
                        continue;
                    }
                }
                val as u8
            } else {
                self.window[self.strstart]
            };
            let bflush = self.block.tally_lit(lc);
            self.lookahead -= 1;
            self.strstart += 1;
            if bflush {
                self.flush_block(false)?;
            }
        }
        self.finish()
    }
}
