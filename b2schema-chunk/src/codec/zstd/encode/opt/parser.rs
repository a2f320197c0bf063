//! The optimal parser (libzstd 1.5.7's `ZSTD_compressBlock_opt_generic`): from a position with
//! a match, a forward pass prices every position up to the end of the longest match reached so
//! far (each by the cheapest of "one more literal" and "a match ending here"), searching the
//! positions on the way, until a position past every match; the cheapest path to it is then
//! walked back and its sequences stored. Each node of the pass holds the cheapest "stretch"
//! ending there: a match then some literals, with the repeat offsets after it.

use super::super::block::Store;
use super::super::match_bt::{Cand, OPT_NUM, Tree};
use super::super::match_fast::Window;
use super::Scratch;
use super::price::{MAX_PRICE, ONE_BIT, Stats};

/// One position of the forward pass (libzstd's `ZSTD_optimal_t`).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Node {
    pub(crate) price: i32,
    /// The offset base of the stretch's match.
    pub(crate) off: u32,
    /// The stretch's match length (0: literals only, since the pass's start).
    pub(crate) mlen: u32,
    /// The literals after the match (0: the node ends a match).
    pub(crate) litlen: u32,
    /// The repeat offsets after the stretch (set once the pass reaches the node).
    pub(crate) rep: [u32; 3],
}

/// The repeat offsets after a match of offset base `off` after `rep`, the literal length 0 or
/// not (`ZSTD_updateRep`).
#[inline(always)]
fn new_rep(rep: [u32; 3], off: u32, ll0: bool) -> [u32; 3] {
    if off > 3 {
        return [off - 3, rep[0], rep[1]];
    }
    let code = (off - 1 + u32::from(ll0)) as usize;
    if code == 0 {
        return rep;
    }
    let current = if code == 3 { rep[0].wrapping_sub(1) } else { rep[code] };
    [current, rep[0], if code >= 2 { rep[1] } else { rep[2] }]
}

/// The distance of a match of offset base `off` after `rep` (the literal length 0 or not).
#[inline(always)]
fn distance(rep: &[u32; 3], off: u32, ll0: bool) -> u32 {
    if off > 3 {
        return off - 3;
    }
    match off - 1 + u32::from(ll0) {
        0 => rep[0],
        3 => rep[0].wrapping_sub(1),
        c => rep[c as usize],
    }
}

/// An optimal parser's state over one frame.
pub(crate) struct Opt {
    pub(crate) stats: Stats,
    pub(crate) rep: [u32; 3],
    /// The match length taken at once (`min(targetLength, OPT_NUM - 1)`).
    pub(crate) sufficient: usize,
}

impl Opt {
    /// Parses block `[w.start, w.end)` into `store` with the tree `t`.
    pub(crate) fn block(&mut self, w: &Window<'_>, t: &mut Tree<'_>, x: &mut Scratch, store: &mut Store) {
        // The hashed length a constant of each parse, as libzstd's templates on it.
        // So are the fractional weights (opt level 2, `FRAC`).
        match (t.mls, self.stats.frac()) {
            (3, true) => self.block_n::<3, true>(w, t, x, store),
            (4, true) => self.block_n::<4, true>(w, t, x, store),
            (5, true) => self.block_n::<5, true>(w, t, x, store),
            (_, true) => self.block_n::<6, true>(w, t, x, store),
            (3, false) => self.block_n::<3, false>(w, t, x, store),
            (4, false) => self.block_n::<4, false>(w, t, x, store),
            (5, false) => self.block_n::<5, false>(w, t, x, store),
            (_, false) => self.block_n::<6, false>(w, t, x, store),
        }
    }

    /// [`Opt::block`] with the tree's hashed length `MLS` (3 to 6; the minimum match is 3
    /// when it is 3, else 4) and the price model's weights fractional (`FRAC`: opt level 2) or
    /// whole (level 0).
    fn block_n<const MLS: u32, const FRAC: bool>(
        &mut self,
        w: &Window<'_>,
        t: &mut Tree<'_>,
        x: &mut Scratch,
        store: &mut Store,
    ) {
        let min_match: usize = if MLS == 3 { 3 } else { 4 };
        let s = w.src;
        let end = w.end;
        self.stats.rescale(&s[w.start..end]);
        let Scratch { nodes, matches, path } = x;
        if nodes.len() < OPT_NUM + 3 {
            nodes.resize(OPT_NUM + 3, Node::default());
        }
        let ilimit = end.saturating_sub(8);
        let sufficient = self.sufficient;
        let mut ip = w.first();
        let mut anchor = w.start;
        let mut rep = self.rep;
        let st = &mut self.stats;
        while ip < ilimit {
            let litlen = (ip - anchor) as u32;
            t.all_matches::<MLS>(w, ip, &rep, litlen == 0, matches);
            let Some(&longest) = matches.last() else {
                ip += 1;
                continue;
            };
            nodes[0] = Node { price: st.ll::<FRAC>(litlen), off: 0, mlen: 0, litlen, rep };
            let mut cur;
            let mut last_pos;
            let last;
            'forward: {
                if longest.len as usize > sufficient {
                    last = Node { litlen: 0, mlen: longest.len, off: longest.off, ..Node::default() };
                    cur = 0;
                    last_pos = longest.len as usize;
                    break 'forward;
                }
                let mut pos = 1;
                while pos < min_match {
                    nodes[pos] =
                        Node { price: MAX_PRICE, mlen: 0, litlen: litlen + pos as u32, ..nodes[pos] };
                    pos += 1;
                }
                let first = nodes[0].price + st.ll::<FRAC>(0);
                for m in matches.iter() {
                    let with_off = first + st.offset::<FRAC>(m.off);
                    while pos <= m.len as usize {
                        let price = with_off + st.length::<FRAC>(pos as u32);
                        nodes[pos] = Node { price, off: m.off, mlen: pos as u32, litlen: 0, ..nodes[pos] };
                        pos += 1;
                    }
                }
                last_pos = pos - 1;
                nodes[pos].price = MAX_PRICE;
                cur = 1;
                while cur <= last_pos {
                    let inr = ip + cur;
                    // One more literal, if cheaper.
                    let ll = nodes[cur - 1].litlen + 1;
                    let price = nodes[cur - 1].price + st.lit::<FRAC>(s[inr - 1]) + st.ll_inc::<FRAC>(ll);
                    if price <= nodes[cur].price {
                        let prev_match = nodes[cur];
                        nodes[cur] = Node { litlen: ll, price, ..nodes[cur - 1] };
                        if FRAC && prev_match.litlen == 0 && st.ll_inc::<FRAC>(1) < 0 && inr < end {
                            // The match then one literal may beat the longer literal run.
                            let with1 = prev_match.price + st.lit::<FRAC>(s[inr]) + st.ll_inc::<FRAC>(1);
                            let with_more = price + st.lit::<FRAC>(s[inr]) + st.ll_inc::<FRAC>(ll + 1);
                            if with1 < with_more && with1 < nodes[cur + 1].price {
                                let prev = cur.saturating_sub(prev_match.mlen as usize);
                                let reps = new_rep(nodes[prev].rep, prev_match.off, nodes[prev].litlen == 0);
                                nodes[cur + 1] = Node { rep: reps, litlen: 1, price: with1, ..prev_match };
                                if last_pos < cur + 1 {
                                    last_pos = cur + 1;
                                    nodes[last_pos + 1].price = MAX_PRICE;
                                }
                            }
                        }
                    }
                    if nodes[cur].litlen == 0 {
                        let prev = cur.saturating_sub(nodes[cur].mlen as usize);
                        nodes[cur].rep = new_rep(nodes[prev].rep, nodes[cur].off, nodes[prev].litlen == 0);
                    }
                    if inr > ilimit {
                        cur += 1;
                        continue;
                    }
                    if cur == last_pos {
                        break;
                    }
                    if !FRAC && nodes[cur + 1].price <= nodes[cur].price + (ONE_BIT / 2) as i32 {
                        cur += 1;
                        continue;
                    }
                    let ll0 = nodes[cur].litlen == 0;
                    let base_price = nodes[cur].price + st.ll::<FRAC>(0);
                    let here = nodes[cur].rep;
                    t.all_matches::<MLS>(w, inr, &here, ll0, matches);
                    let Some(&longest) = matches.last() else {
                        cur += 1;
                        continue;
                    };
                    let ml = longest.len as usize;
                    if ml > sufficient || cur + ml >= OPT_NUM || inr + ml >= end {
                        last = Node { litlen: 0, mlen: longest.len, off: longest.off, ..Node::default() };
                        last_pos = cur + ml;
                        break 'forward;
                    }
                    let mut from = min_match;
                    for &Cand { len, off } in matches.iter() {
                        let mut mlen = len as usize;
                        let with_off = base_price + st.offset::<FRAC>(off);
                        while mlen >= from {
                            let pos = cur + mlen;
                            let price = with_off + st.length::<FRAC>(mlen as u32);
                            if pos > last_pos || price < nodes[pos].price {
                                while last_pos < pos {
                                    last_pos += 1;
                                    nodes[last_pos].price = MAX_PRICE;
                                    nodes[last_pos].litlen = 1;
                                }
                                nodes[pos] = Node { mlen: mlen as u32, off, litlen: 0, price, ..nodes[pos] };
                            } else if !FRAC {
                                break;
                            }
                            mlen -= 1;
                        }
                        from = len as usize + 1;
                    }
                    nodes[last_pos + 1].price = MAX_PRICE;
                    cur += 1;
                }
                last = nodes[last_pos];
                cur = last_pos - last.mlen as usize;
            }
            // The shortest path, walked back from `last`.
            if last.mlen == 0 {
                // Literals only: they join the next sequence.
                ip += last_pos;
                continue;
            }
            let rep_before = rep;
            if last.litlen == 0 {
                rep = new_rep(nodes[cur].rep, last.off, nodes[cur].litlen == 0);
            } else {
                rep = last.rep;
                cur -= last.litlen as usize;
            }
            path.clear();
            path.push(last);
            let mut at = cur;
            loop {
                let stretch = nodes[at];
                if let Some(p) = path.last_mut() {
                    p.litlen = stretch.litlen;
                }
                if stretch.mlen == 0 {
                    break;
                }
                path.push(stretch);
                at = at.saturating_sub((stretch.litlen + stretch.mlen) as usize);
            }
            let mut r = rep_before;
            for seq in path.iter().rev() {
                let (llen, mlen) = (seq.litlen as usize, seq.mlen as usize);
                let ll0 = llen == 0;
                let dist = distance(&r, seq.off, ll0);
                r = new_rep(r, seq.off, ll0);
                st.update(&s[anchor..anchor + llen], seq.off, seq.mlen);
                store.push_from(s, anchor, anchor + llen, mlen, dist as usize);
                anchor += llen + mlen;
            }
            ip = anchor + if last.litlen > 0 { last.litlen as usize } else { 0 };
            st.set_base_prices();
        }
        store.lits.extend_from_slice(&s[anchor..end]);
        self.rep = rep;
    }
}
