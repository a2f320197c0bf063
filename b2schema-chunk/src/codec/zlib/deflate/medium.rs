//! Levels 3-6 (zlib-rs's `deflate_medium`, from Intel's zlib): each match looks one match
//! ahead (levels 5-6), and a following match may take over the end of the current one
//! (`fizzle_matches`).

use super::{Full, MAX_DIST, MIN_LOOKAHEAD, STD_MIN_MATCH, State, WANT_MIN_MATCH, WINDOW_SIZE};

/// A match (or a literal run of `match_length` < 4 bytes) at window position `strstart`.
#[derive(Clone, Copy, Default)]
struct Match {
    match_start: u16,
    match_length: u16,
    strstart: u16,
    orgstart: u16,
}

impl State<'_> {
    /// The match at `strstart` (`hash_head`: the head of its hash chain): the longest one in
    /// the window, or a literal (length 1) when none of `WANT_MIN_MATCH` bytes lies before it.
    /// In line: out of line, clevel 5 ran 7 % more instructions (callgrind of `zlib_own` with
    /// `ZLIB_OWN_ONLY=ours ZLIB_OWN_PASSES=1 ZLIB_OWN_DATA=normal`, less the run with 0 passes:
    /// 411.8 M out of line, 376.2 M in line, zlib-rs 386.6 M).
    #[inline(always)]
    fn match_at(&mut self, hash_head: u16) -> Match {
        let strstart = self.strstart as u16;
        let mut m = Match { match_start: 0, match_length: 1, strstart, orgstart: strstart };
        let dist = self.strstart as i64 - i64::from(hash_head);
        if dist <= MAX_DIST as i64 && dist > 0 && hash_head != 0 {
            let (match_length, match_start) = self.longest_match::<false, true>(hash_head);
            self.match_start = match_start;
            m.match_start = match_start;
            if usize::from(match_length as u16) >= WANT_MIN_MATCH && match_start < strstart {
                m.match_length = match_length as u16;
            }
        }
        m
    }

    pub(super) fn deflate_medium(&mut self) -> Result<(), Full> {
        let early_exit = self.level < 5;
        let mut current: Match;
        let mut next = Match::default();
        loop {
            // A run of literals (most positions of shuffled float data): the loop below for a
            // `current` of one literal, without its steps that do nothing for it (no positions
            // to insert, nothing to fizzle, no window to fill while the look-ahead is long).
            while !early_exit
                && next.match_length == 1
                && self.lookahead > MIN_LOOKAHEAD
                && self.strstart + 1 < WINDOW_SIZE - MIN_LOOKAHEAD
            {
                let literal = self.window[self.strstart];
                self.strstart += 1;
                let hash_head = self.quick_insert_standard(self.strstart);
                next = self.match_at(hash_head);
                let bflush = self.block.tally_lit(literal);
                self.lookahead -= 1;
                if bflush {
                    self.flush_block(false)?;
                }
            }
            if self.lookahead < MIN_LOOKAHEAD {
                self.fill_window();
                if self.lookahead == 0 {
                    break;
                }
                next.match_length = 0;
            }
            if !early_exit && next.match_length > 0 {
                current = next;
                next.match_length = 0;
            } else {
                let hash_head = if self.lookahead >= WANT_MIN_MATCH {
                    self.quick_insert_standard(self.strstart)
                } else {
                    0
                };
                current = self.match_at(hash_head);
            }

            self.insert_match(current);

            if !early_exit
                && self.lookahead > MIN_LOOKAHEAD
                && usize::from(current.strstart.wrapping_add(current.match_length))
                    < WINDOW_SIZE - MIN_LOOKAHEAD
            {
                self.strstart = usize::from(current.strstart.wrapping_add(current.match_length));
                let hash_head = self.quick_insert_standard(self.strstart);
                next = self.match_at(hash_head);
                if usize::from(next.match_length) >= WANT_MIN_MATCH {
                    fizzle_matches(&self.window[..], &mut current, &mut next);
                }
                self.strstart = usize::from(current.strstart);
            } else {
                next.match_length = 0;
            }

            let bflush = self.emit_match(current);
            self.strstart += usize::from(current.match_length);
            if bflush {
                self.flush_block(false)?;
            }
        }
        self.finish()
    }

    /// Counts the match (or its bytes as literals); true when the block is full. A single
    /// literal (most positions of shuffled float data) is counted without the loop.
    #[inline(always)]
    fn emit_match(&mut self, m: Match) -> bool {
        let mut bflush = false;
        if m.match_length == 1 {
            bflush = self.block.tally_lit(self.window[self.strstart]);
        } else if usize::from(m.match_length) < WANT_MIN_MATCH {
            for i in 0..usize::from(m.match_length) {
                let lc = self.window[self.strstart + i];
                bflush |= self.block.tally_lit(lc);
            }
        } else {
            bflush |= self.block.tally_dist(
                usize::from(m.strstart.wrapping_sub(m.match_start)),
                usize::from(m.match_length) - STD_MIN_MATCH,
            );
        }
        self.lookahead -= usize::from(m.match_length);
        bflush
    }

    /// Inserts the positions a match covers (zlib-rs's `insert_match`). A single literal
    /// covers no position after its own (zlib-rs's literal branch inserts `match_length - 1`
    /// of them): that case returns in line, the rest is [`Self::insert_match_covered`].
    #[inline(always)]
    fn insert_match(&mut self, m: Match) {
        if m.match_length > 1 {
            self.insert_match_covered(m);
        }
    }

    fn insert_match_covered(&mut self, mut m: Match) {
        if self.lookahead <= usize::from(m.match_length) + WANT_MIN_MATCH {
            return;
        }
        if usize::from(m.match_length) < WANT_MIN_MATCH {
            m.strstart = m.strstart.wrapping_add(1);
            m.match_length = m.match_length.wrapping_sub(1);
            if m.match_length > 0 && m.strstart >= m.orgstart {
                if m.strstart.wrapping_add(m.match_length) > m.orgstart {
                    self.insert_string(usize::from(m.strstart), usize::from(m.match_length));
                } else {
                    self.insert_string(
                        usize::from(m.strstart),
                        usize::from(m.orgstart.wrapping_sub(m.strstart).wrapping_add(1)),
                    );
                }
            }
            return;
        }
        if usize::from(m.match_length) <= 16 * usize::from(self.max_lazy_match)
            && self.lookahead >= WANT_MIN_MATCH
        {
            m.match_length -= 1;
            m.strstart = m.strstart.wrapping_add(1);
            if m.strstart >= m.orgstart {
                if m.strstart.wrapping_add(m.match_length) > m.orgstart {
                    self.insert_string(usize::from(m.strstart), usize::from(m.match_length));
                } else {
                    self.insert_string(
                        usize::from(m.strstart),
                        usize::from(m.orgstart.wrapping_sub(m.strstart).wrapping_add(1)),
                    );
                }
            } else if m.orgstart < m.strstart.wrapping_add(m.match_length) {
                self.insert_string(
                    usize::from(m.orgstart),
                    usize::from(m.strstart.wrapping_add(m.match_length).wrapping_sub(m.orgstart)),
                );
            }
        } else {
            m.strstart = m.strstart.wrapping_add(m.match_length);
            if usize::from(m.strstart) >= STD_MIN_MATCH - 2 {
                self.quick_insert_standard(usize::from(m.strstart) + 2 - STD_MIN_MATCH);
            }
        }
    }
}

/// Moves the start of `next` left over the end of `current` while the bytes before both agree
/// (zlib-rs's `fizzle_matches`).
fn fizzle_matches(window: &[u8], current: &mut Match, next: &mut Match) {
    if current.match_length <= 1 {
        return;
    }
    if current.match_length > 1 + next.match_start {
        return;
    }
    if current.match_length > 1 + next.strstart {
        return;
    }
    let m0 = usize::from(next.match_start + 1 - current.match_length);
    let o0 = usize::from(next.strstart + 1 - current.match_length);
    if window.get(m0) != window.get(o0) {
        return;
    }
    let limit = next.strstart.saturating_sub(MAX_DIST as u16);
    let mut c = *current;
    let mut n = *next;
    let mut m = window[..usize::from(n.match_start).min(window.len())].iter().rev();
    let mut orig = window[..usize::from(n.strstart).min(window.len())].iter().rev();
    let mut changed = 0;
    while m.next() == orig.next() {
        if c.match_length < 1 || n.strstart <= limit || n.match_length >= 256 || n.match_start <= 1 {
            break;
        }
        n.strstart -= 1;
        n.match_start -= 1;
        n.match_length += 1;
        c.match_length -= 1;
        changed += 1;
    }
    if changed == 0 {
        return;
    }
    if c.match_length <= 1 && n.match_length != 2 {
        n.orgstart += 1;
        *current = c;
        *next = n;
    }
}
