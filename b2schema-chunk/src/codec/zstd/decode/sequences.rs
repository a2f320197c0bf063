//! The sequences section of a compressed block (RFC 8878 §3.1.1.3.2): its header (the number
//! of sequences and the three table modes: predefined, RLE, compressed, repeat) and the decoding
//! loop, which executes each sequence as soon as it is decoded (`execute`).

use super::super::dispatch::Hot;
use super::bits::{EndBits, MASK8};
use super::execute::{Out, copy_literals, copy_match, wild_match};
use super::fse::{Kind, SEQ_ENTRIES, SLOT_AT, SeqTables};

/// The three sequence tables of a frame and whether each may be repeated.
pub(crate) struct Tables {
    /// The tables, predefined ones included.
    pub(crate) seq: SeqTables,
    /// Tables a later block may reuse (`Repeat_Mode`): set once a table was defined.
    pub(crate) ok: [bool; 3],
    /// Whether each table in use is the predefined one rather than the frame's own.
    pub(crate) use_pre: [bool; 3],
}

impl Tables {
    pub(crate) fn new() -> Self {
        Tables { seq: SeqTables::new(), ok: [false; 3], use_pre: [false; 3] }
    }

    /// The slots of the tables in use: literal lengths, offsets, match lengths.
    #[inline(always)]
    fn current(&self) -> [usize; 3] {
        core::array::from_fn(|i| i + 3 * usize::from(self.use_pre[i]))
    }
}

/// Parses the sequences section header at the start of `src`: the number of sequences and the
/// bytes read, the tables of the block set up in `t`.
pub(crate) fn read_header(src: &[u8], t: &mut Tables) -> Result<(usize, usize), (usize, &'static str)> {
    let &b0 = src.first().ok_or((0, "a sequences section header"))?;
    let (nb, mut at) = match b0 {
        0 => {
            if src.len() != 1 {
                return Err((1, "the end of the block after zero sequences"));
            }
            return Ok((0, 1));
        }
        1..=127 => (usize::from(b0), 1),
        128..=254 => {
            let &b1 = src.get(1).ok_or((0, "a sequences section header"))?;
            ((usize::from(b0 - 128) << 8) + usize::from(b1), 2)
        }
        255 => {
            let b = src.get(1..3).ok_or((0, "a sequences section header"))?;
            (usize::from(b[0]) + (usize::from(b[1]) << 8) + 0x7F00, 3)
        }
    };
    let &modes = src.get(at).ok_or((at, "the sequence compression modes"))?;
    if modes & 3 != 0 {
        return Err((at, "zero reserved bits in the sequence compression modes"));
    }
    at += 1;
    let specs = [
        (Kind::LiteralLengths, modes >> 6, 0usize),
        (Kind::Offsets, (modes >> 4) & 3, 1),
        (Kind::MatchLengths, (modes >> 2) & 3, 2),
    ];
    for (kind, mode, i) in specs {
        match mode {
            0 => {
                t.use_pre[i] = true;
                t.ok[i] = true;
                continue;
            }
            1 => {
                let &s = src.get(at).ok_or((at, "the symbol of an RLE sequence table"))?;
                if usize::from(s) > kind.limits().0 {
                    return Err((at, "an RLE sequence symbol within the range of its table"));
                }
                t.seq.rle(i, kind, s);
                t.use_pre[i] = false;
                at += 1;
            }
            2 => {
                t.ok[i] = false;
                let rest = src.get(at..).unwrap_or_default();
                at += t.seq.read(kind, rest).map_err(|e| (at, e))?;
                t.use_pre[i] = false;
            }
            _ => {
                if !t.ok[i] {
                    return Err((
                        at,
                        "a sequence table from an earlier block or the dictionary (repeat mode)",
                    ));
                }
                continue;
            }
        }
        t.ok[i] = true;
    }
    Ok((nb, at))
}

/// The sequences of one block and where they go: [`decode`]'s arguments, as a [`Hot`] loop that
/// [`super::super::dispatch::Build::run`] compiles for the CPU.
pub(crate) struct Decode<'a, 'o, 'b> {
    /// The sequence bitstream.
    pub(crate) src: &'a [u8],
    /// The number of sequences.
    pub(crate) nb: usize,
    pub(crate) t: &'a Tables,
    pub(crate) rep: &'a mut [u32; 3],
    /// The literals: the first `lit_len` bytes; the rest is padding.
    pub(crate) lits: &'a [u8],
    pub(crate) lit_len: usize,
    pub(crate) out: &'o mut Out<'b>,
}

impl Hot for Decode<'_, '_, '_> {
    type Output = Result<(), &'static str>;

    #[inline(always)]
    fn run(self) -> Self::Output {
        decode(self.src, self.nb, self.t, self.rep, self.lits, self.lit_len, self.out)
    }
}

/// Decodes `nb` sequences from the bitstream `src` and executes them into `out`, with the
/// literals `lits` (the first `lit_len` bytes; the rest is padding), then copies the
/// remaining literals. Inlined into each build of [`Decode::run`], with everything it calls on
/// the common path.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn decode(
    src: &[u8],
    nb: usize,
    t: &Tables,
    rep: &mut [u32; 3],
    lits: &[u8],
    lit_len: usize,
    out: &mut Out<'_>,
) -> Result<(), &'static str> {
    let (bits, mut end) = EndBits::new(src).ok_or("a sequence bitstream ending in a nonzero byte")?;
    let [ll_s, of_s, ml_s] = t.current();
    let st = &t.seq.entries;
    let state = |end: &mut isize, slot: usize| {
        let (v, e) = bits.read(*end, t.seq.log[slot]);
        *end = e;
        SLOT_AT[slot] + v as usize
    };
    let mut sll = state(&mut end, ll_s);
    let mut sof = state(&mut end, of_s);
    let mut sml = state(&mut end, ml_s);
    let mut lp = 0usize;
    let mut reps = *rep;
    // The fast path's bound, checked once per sequence: `wild`, the output's end for wild copies
    // (the block's limit, 32 bytes of room), past `op` (or at it when the fast path is closed:
    // no room past the literals, or the checked path went past it), so `wild - op` never wraps.
    let lits_room = lit_len + 32 <= lits.len();
    let wild_end = if lits_room { out.limit.min(out.buf.len().saturating_sub(32)) } else { 0 };
    let fs = out.frame_start;
    let mut op = out.pos;
    let mut wild = wild_end.max(op);
    // The output, out of `out` for the loop (one base address in a register); lent back to
    // `out` for the checked copies.
    let mut buf: &mut [u8] = core::mem::take(&mut out.buf);
    for left in (0..nb).rev() {
        let l = st[sll & (SEQ_ENTRIES - 1)];
        let o = st[sof & (SEQ_ENTRIES - 1)];
        let m = st[sml & (SEQ_ENTRIES - 1)];
        let (no, nm, nl) = (u32::from(o.extra), u32::from(m.extra), u32::from(l.extra));
        let extras = no + nm + nl;
        let (of_bits, ml_bits, ll_bits);
        if extras < 31 && left != 0 {
            // The common case: the three extra-bit fields and the three state updates, at most
            // 30 + 26 bits, in one read of the 57 below `end`, then split.
            let (sl, sm, so) = (u32::from(l.nb_bits), u32::from(m.nb_bits), u32::from(o.nb_bits));
            let r = extras + sl + sm + so;
            let (mut all, next) = bits.read(end, r);
            end = next;
            // Split from the lowest field up (the offset state's bits), shifting each out.
            sof = usize::from(o.next) + (all & MASK8[usize::from(o.nb_bits)]) as usize;
            all >>= so;
            sml = usize::from(m.next) + (all & MASK8[usize::from(m.nb_bits)]) as usize;
            all >>= sm;
            sll = usize::from(l.next) + (all & MASK8[usize::from(l.nb_bits)]) as usize;
            all >>= sl;
            ll_bits = all & MASK8[usize::from(l.extra)];
            all >>= nl;
            ml_bits = all & MASK8[usize::from(m.extra)];
            of_bits = (all >> nm) as u32;
        } else {
            // As RFC 8878 §3.1.1.3.2.1.3 reads them, one field at a time.
            let mut read = |n: u32| {
                let (v, e) = bits.read(end, n);
                end = e;
                v
            };
            of_bits = read(no) as u32;
            ml_bits = read(nm);
            ll_bits = read(nl);
            if left != 0 {
                sll = usize::from(l.next) + read(u32::from(l.nb_bits)) as usize;
                sml = usize::from(m.next) + read(u32::from(m.nb_bits)) as usize;
                sof = usize::from(o.next) + read(u32::from(o.nb_bits)) as usize;
            }
        }
        let ml = m.base as usize + ml_bits as usize;
        let ll = l.base as usize + ll_bits as usize;
        let offset: u32;
        if no > 1 {
            offset = o.base.wrapping_add(of_bits).wrapping_sub(3);
            reps = [offset, reps[0], reps[1]];
        } else {
            let ll0 = usize::from(l.base == 0);
            if no == 0 {
                offset = reps[ll0];
                reps[1] = reps[1 - ll0];
                reps[0] = offset;
            } else {
                let idx = 1 + ll0 + of_bits as usize;
                let v = if idx == 3 { reps[0].wrapping_sub(1) } else { reps[idx] };
                if idx != 1 {
                    reps[2] = reps[1];
                }
                reps[1] = reps[0];
                reps[0] = v;
                offset = v;
            }
        }
        let offset = offset as usize;
        // The fast path: room for whole 32-byte pieces past the literals and the match, in the
        // output and in the literals, and a match within the frame's output.
        if ll <= lit_len - lp && ll + ml <= wild - op && offset.wrapping_sub(1) < op + ll - fs {
            buf[op..op + 16].copy_from_slice(&lits[lp..lp + 16]);
            if ll > 16 {
                let mut k = 16;
                while k < ll {
                    buf[op + k..op + k + 32].copy_from_slice(&lits[lp + k..lp + k + 32]);
                    k += 32;
                }
            }
            lp += ll;
            let d = op + ll;
            op = d + ml;
            wild_match(buf, d, offset, ml);
            continue;
        }
        if ll > lit_len - lp {
            out.buf = buf;
            return Err("literal lengths within the block's literals");
        }
        out.buf = buf;
        out.pos = op;
        let r = copy_literals(out, lits, lp, ll).and_then(|()| copy_match(out, offset, ml));
        buf = core::mem::take(&mut out.buf);
        r?;
        lp += ll;
        op = out.pos;
        wild = wild_end.max(op);
    }
    out.buf = buf;
    out.pos = op;
    if !EndBits::finished(end) {
        return Err("a sequence bitstream that ends with its last sequence");
    }
    *rep = reps;
    let rest = lit_len - lp;
    copy_literals(out, lits, lp, rest)?;
    Ok(())
}
