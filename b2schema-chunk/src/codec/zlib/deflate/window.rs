//! The sliding window: input copied in as zlib-rs's `fill_window` reads it (as much as fits),
//! the upper half moved down once the position nears its end, and the hash tables slid with it.

use super::{MAX_DIST, MIN_LOOKAHEAD, STD_MIN_MATCH, State, W_SIZE, WINDOW_SIZE};

impl State<'_> {
    /// Fills the window while the look-ahead is short and input remains (zlib's `fill_window`,
    /// the whole input being available at once).
    pub(super) fn fill_window(&mut self) {
        loop {
            let mut more = WINDOW_SIZE - self.lookahead - self.strstart;
            if self.strstart >= W_SIZE + MAX_DIST {
                self.window.copy_within(W_SIZE..WINDOW_SIZE, 0);
                if usize::from(self.match_start) >= W_SIZE {
                    self.match_start -= W_SIZE as u16;
                } else {
                    self.match_start = 0;
                    self.prev_length = 0;
                }
                self.strstart -= W_SIZE;
                self.block_start -= W_SIZE as isize;
                self.insert = self.insert.min(self.strstart);
                slide_hash(&mut self.head[..], &mut self.prev[..]);
                more += W_SIZE;
            }
            let avail = self.input.len() - self.next_in;
            if avail == 0 {
                break;
            }
            let n = avail.min(more);
            let at = self.strstart + self.lookahead;
            self.window[at..at + n].copy_from_slice(&self.input[self.next_in..self.next_in + n]);
            self.next_in += n;
            self.lookahead += n;
            if self.lookahead + self.insert >= STD_MIN_MATCH {
                let string = self.strstart - self.insert;
                if self.roll {
                    self.ins_h =
                        self.update_hash(u32::from(self.window[string]), u32::from(self.window[string + 1]));
                } else if string >= 1 {
                    self.quick_insert_string(string + 2 - STD_MIN_MATCH);
                }
                let mut count = self.insert;
                if self.lookahead == 1 {
                    count -= 1;
                }
                if count > 0 {
                    self.insert_string(string, count);
                    self.insert -= count;
                }
            }
            if !(self.lookahead < MIN_LOOKAHEAD && self.next_in < self.input.len()) {
                break;
            }
        }
    }
}

/// Positions move down by a window; those that fall out become 0 (no match).
fn slide_hash(head: &mut [u16], prev: &mut [u16]) {
    // Fixed-size chunks, one table at a time: the compiler makes vector saturating subtractions.
    for table in [head, prev] {
        let mut chunks = table.chunks_exact_mut(32);
        for chunk in &mut chunks {
            for m in chunk {
                *m = m.saturating_sub(W_SIZE as u16);
            }
        }
        for m in chunks.into_remainder() {
            *m = m.saturating_sub(W_SIZE as u16);
        }
    }
}
