//! Levels 7-9 (zlib-rs's `deflate_slow`): lazy matching, a match kept only if the next
//! position has none longer.

use super::{Full, MAX_DIST, MIN_LOOKAHEAD, STD_MIN_MATCH, State, WANT_MIN_MATCH};

impl State<'_> {
    pub(super) fn deflate_slow(&mut self) -> Result<(), Full> {
        let use_slow = self.roll;
        loop {
            if self.lookahead < MIN_LOOKAHEAD {
                self.fill_window();
                if self.lookahead == 0 {
                    break;
                }
            }
            let hash_head =
                if self.lookahead >= WANT_MIN_MATCH { self.quick_insert_string(self.strstart) } else { 0 };
            self.prev_match = self.match_start;
            let mut match_len = STD_MIN_MATCH - 1;
            let dist = self.strstart as isize - hash_head as isize;
            if (1..=MAX_DIST as isize).contains(&dist)
                && self.prev_length < self.max_lazy_match
                && hash_head != 0
            {
                let (len, start) = if use_slow {
                    self.longest_match::<true, false>(hash_head)
                } else {
                    self.longest_match::<false, false>(hash_head)
                };
                match_len = len;
                self.match_start = start;
            }
            if usize::from(self.prev_length) >= STD_MIN_MATCH && match_len <= usize::from(self.prev_length) {
                let max_insert = self.strstart + self.lookahead - STD_MIN_MATCH;
                let bflush = self.block.tally_dist(
                    self.strstart - 1 - usize::from(self.prev_match),
                    usize::from(self.prev_length) - STD_MIN_MATCH,
                );
                self.prev_length -= 1;
                self.lookahead -= usize::from(self.prev_length);
                let mov_fwd = usize::from(self.prev_length) - 1;
                if max_insert > self.strstart {
                    let insert_cnt = mov_fwd.min(max_insert - self.strstart);
                    self.insert_string(self.strstart + 1, insert_cnt);
                }
                self.prev_length = 0;
                self.match_available = false;
                self.strstart += mov_fwd + 1;
                if bflush {
                    self.flush_block(false)?;
                }
            } else if self.match_available {
                let lc = self.window[self.strstart - 1];
                if self.block.tally_lit(lc) {
                    self.flush_block(false)?;
                }
                self.prev_length = match_len as u16;
                self.strstart += 1;
                self.lookahead -= 1;
            } else {
                self.prev_length = match_len as u16;
                self.match_available = true;
                self.strstart += 1;
                self.lookahead -= 1;
            }
        }
        if self.match_available {
            let lc = self.window[self.strstart - 1];
            let _ = self.block.tally_lit(lc);
            self.match_available = false;
        }
        self.finish()
    }
}
