//! Huffman-coded literals (RFC 8878 §4.2): the tree description (weights, direct or
//! FSE-compressed), a single-symbol decoding table indexed by the next `max_bits` bits, and the
//! 1- and 4-stream decoders.

use super::super::dispatch::Hot;
use super::bits::{BitReader, Status};
use super::fse::{SymbolTable, read_ncount};

/// The longest code libzstd accepts (`HUF_TABLELOG_MAX`; RFC 8878 says 11).
const MAX_BITS: u32 = 12;
const TABLE: usize = 1 << MAX_BITS;

/// The refusal of a Huffman stream whose bits do not end with its last literal.
/// The refusal of a Huffman stream without its start marker (a last byte of zero).
pub(crate) const HUF_MARKER: &str = "a Huffman stream ending in a nonzero byte";
/// The refusal of a Huffman stream whose bits do not end with its last literal.
pub(crate) const HUF_END: &str = "a Huffman stream that ends with its literals";

/// A Huffman decoding table: per value of the next `log` bits, `nb_bits | symbol << 8` (the
/// bit count where a shift by it takes it, as libzstd's `HUF_DEltX1`).
#[derive(Clone)]
pub(crate) struct HuffTable {
    pub(crate) log: u32,
    entries: [u16; TABLE],
}

impl HuffTable {
    pub(crate) fn new() -> Self {
        HuffTable { log: 0, entries: [0; TABLE] }
    }

    /// Reads a tree description from the start of `src` into this table: the bytes read.
    pub(crate) fn read(&mut self, src: &[u8]) -> Result<usize, &'static str> {
        let mut weights = [0u8; 256];
        let (count, read) = read_weights(src, &mut weights)?;
        self.build(&mut weights, count)?;
        Ok(read)
    }

    fn build(&mut self, weights: &mut [u8; 256], count: usize) -> Result<(), &'static str> {
        let mut ranks = [0u32; (MAX_BITS + 2) as usize];
        let mut total = 0u32;
        for &w in &weights[..count] {
            if u32::from(w) > MAX_BITS {
                return Err("Huffman weights of at most 12");
            }
            ranks[w as usize] += 1;
            total += (1u32 << w) >> 1;
        }
        if total == 0 {
            return Err("a Huffman table with a nonzero weight");
        }
        let log = 32 - total.leading_zeros();
        if log > MAX_BITS {
            return Err("a Huffman table of at most 12 bits");
        }
        let rest = (1u32 << log) - total;
        let high = 31 - rest.leading_zeros();
        if rest != 1 << high {
            return Err("Huffman weights whose sum leaves a power of two");
        }
        let last = (high + 1) as u8;
        weights[count] = last;
        ranks[last as usize] += 1;
        if ranks[1] < 2 || ranks[1] & 1 != 0 {
            return Err("a Huffman tree with an even number of weight-1 symbols");
        }
        // Codes are assigned by weight, then symbol: the lowest weights at the lowest positions.
        let mut start = [0u32; (MAX_BITS + 2) as usize];
        let mut next = 0u32;
        for w in 1..=log as usize {
            start[w] = next;
            next += ranks[w] << (w - 1);
        }
        // The table is indexed by the next MAX_BITS bits whatever the tree's depth: each code of
        // `log` bits fills 2^(MAX_BITS - log) entries, so that a lookup shifts by a constant and
        // its index is below TABLE by construction (no mask, no bounds check in the loop).
        let spread = MAX_BITS - log;
        for (s, &w) in weights[..=count].iter().enumerate() {
            if w == 0 {
                continue;
            }
            let len = (1u32 << w) >> 1;
            let at = (start[w as usize] as usize) << spread;
            let e = (log + 1 - u32::from(w)) as u16 | (s as u16) << 8;
            let run = (len as usize) << spread;
            self.entries.get_mut(at..at + run).ok_or("a Huffman table that fits")?.fill(e);
            start[w as usize] += len;
        }
        self.log = log;
        Ok(())
    }

    #[inline(always)]
    fn decode(&self, r: &mut BitReader<'_>) -> u8 {
        let e = self.entries[r.peek_nz(MAX_BITS) as usize & (TABLE - 1)];
        r.skip(u32::from(e & 255));
        (e >> 8) as u8
    }

    /// Decodes one stream filling `out`; the stream must end exactly.
    fn stream(&self, src: &[u8], out: &mut [u8]) -> Result<(), &'static str> {
        let mut r = BitReader::new(src).ok_or(HUF_MARKER)?;
        self.tail(&mut r, out)?;
        Ok(())
    }

    fn tail(&self, r: &mut BitReader<'_>, out: &mut [u8]) -> Result<(), &'static str> {
        let mut chunks = out.chunks_exact_mut(4);
        // Four symbols of at most 12 bits after each reload (57 bits in the container).
        for c in &mut chunks {
            if r.reload() != Status::Unfinished {
                // Near the stream's start: one symbol a reload.
                for x in c {
                    r.reload();
                    *x = self.decode(r);
                }
                continue;
            }
            c[0] = self.decode(r);
            c[1] = self.decode(r);
            c[2] = self.decode(r);
            c[3] = self.decode(r);
        }
        for x in chunks.into_remainder() {
            r.reload();
            *x = self.decode(r);
        }
        r.reload();
        if !r.finished() {
            return Err(HUF_END);
        }
        Ok(())
    }

    /// Decodes `N` symbols of each of the four streams per reload, while every stream can refill
    /// eight bytes and the shortest output (`o4`) has room: the symbols decoded per stream.
    ///
    /// After a fast reload at most 7 bits of the 64 loaded are used, and `N` codes of at most
    /// `56 / N` bits (11 for five, 12 for four) stay within them, never reaching the marker
    /// bit ([`BitReader::window_marked`]). A reload moves a stream back by at most 7 bytes, so
    /// a stream at byte `pos` >= 8 has `(pos - 8) / 7 + 1` fast reloads left: the loop runs
    /// that many rounds (and no more than the output has room for) without testing each stream.
    #[inline(always)]
    fn lockstep<const N: usize>(
        &self,
        rs: &mut [BitReader<'_>; 4],
        o1: &mut [u8],
        o2: &mut [u8],
        o3: &mut [u8],
        o4: &mut [u8],
    ) -> usize {
        let t: &[u16; TABLE] = &self.entries;
        // One symbol of a stream whose next bits are the top of `bits`, shifted out as they are
        // used. The word carries a marker bit below its data ([`BitReader::window_marked`]),
        // so how many bits are used is where the marker has moved to: no counter to keep.
        macro_rules! sym {
            ($bits:ident) => {{
                let e = t[($bits >> (64 - MAX_BITS)) as usize];
                $bits <<= u32::from(e) & 63;
                (e >> 8) as u8
            }};
        }
        let mut done = 0usize;
        loop {
            let Some(reloads) = rs.iter().map(BitReader::fast_reloads).min() else {
                return done;
            };
            let rounds = reloads.min((o4.len() - done) / N);
            if rounds == 0 {
                return done;
            }
            let end = done + rounds * N;
            let chunks = o1[done..end]
                .chunks_exact_mut(N)
                .zip(o2[done..end].chunks_exact_mut(N))
                .zip(o3[done..end].chunks_exact_mut(N))
                .zip(o4[done..end].chunks_exact_mut(N));
            let [r1, r2, r3, r4] = rs;
            for (((a, b), c), d) in chunks {
                r1.reload_fast();
                r2.reload_fast();
                r3.reload_fast();
                r4.reload_fast();
                let (mut b1, mut b2, mut b3, mut b4) =
                    (r1.window_marked(), r2.window_marked(), r3.window_marked(), r4.window_marked());
                for k in 0..N {
                    a[k] = sym!(b1);
                    b[k] = sym!(b2);
                    c[k] = sym!(b3);
                    d[k] = sym!(b4);
                }
                r1.set_used(b1.trailing_zeros());
                r2.set_used(b2.trailing_zeros());
                r3.set_used(b3.trailing_zeros());
                r4.set_used(b4.trailing_zeros());
            }
            done = end;
        }
    }

    /// Decodes `out.len()` literals from `src`, one stream or four (with the jump table).
    /// Inlined into each build of [`DecodeLiterals::run`], with the four streams' loop.
    #[inline(always)]
    fn decode_literals(&self, src: &[u8], out: &mut [u8], four: bool) -> Result<(), &'static str> {
        if self.log == 0 {
            return Err("a Huffman table before Huffman-coded literals");
        }
        if !four {
            return self.stream(src, out);
        }
        if src.len() < 10 {
            return Err("four Huffman streams with their 6-byte jump table");
        }
        let l1 = usize::from(u16::from_le_bytes([src[0], src[1]]));
        let l2 = usize::from(u16::from_le_bytes([src[2], src[3]]));
        let l3 = usize::from(u16::from_le_bytes([src[4], src[5]]));
        let body = &src[6..];
        if l1 + l2 + l3 > body.len() {
            return Err("Huffman stream sizes within the literals section");
        }
        let (s1, rest) = body.split_at(l1);
        let (s2, rest) = rest.split_at(l2);
        let (s3, s4) = rest.split_at(l3);
        let n = out.len();
        let seg = n.div_ceil(4);
        if 3 * seg > n {
            return Err("at least 4 literals per Huffman stream group");
        }
        let (o1, rest) = out.split_at_mut(seg);
        let (o2, rest) = rest.split_at_mut(seg);
        let (o3, o4) = rest.split_at_mut(seg);
        let bad = HUF_MARKER;
        let r1 = BitReader::new(s1).ok_or(bad)?;
        let r2 = BitReader::new(s2).ok_or(bad)?;
        let r3 = BitReader::new(s3).ok_or(bad)?;
        let r4 = BitReader::new(s4).ok_or(bad)?;
        // The four streams in lockstep while each can refill eight bytes: five symbols of each
        // per reload when codes have at most 11 bits (libzstd's fast loop), else four.
        let mut rs = [r1, r2, r3, r4];
        let i = if self.log <= 11 {
            self.lockstep::<5>(&mut rs, o1, o2, o3, o4)
        } else {
            self.lockstep::<4>(&mut rs, o1, o2, o3, o4)
        };
        let [mut r1, mut r2, mut r3, mut r4] = rs;
        let i4 = i.min(o4.len());
        self.tail(&mut r1, &mut o1[i..])?;
        self.tail(&mut r2, &mut o2[i..])?;
        self.tail(&mut r3, &mut o3[i..])?;
        self.tail(&mut r4, &mut o4[i4..])?;
        Ok(())
    }
}

/// Huffman-coded literals to decode: [`HuffTable::decode_literals`]'s arguments, as a [`Hot`]
/// loop that [`super::super::dispatch::Build::run`] compiles for the CPU.
pub(crate) struct DecodeLiterals<'a> {
    pub(crate) table: &'a HuffTable,
    /// One stream, or four with their jump table.
    pub(crate) src: &'a [u8],
    pub(crate) out: &'a mut [u8],
    pub(crate) four: bool,
}

impl Hot for DecodeLiterals<'_> {
    type Output = Result<(), &'static str>;

    #[inline(always)]
    fn run(self) -> Self::Output {
        self.table.decode_literals(self.src, self.out, self.four)
    }
}

/// Reads the weights of a tree description: the number of weights listed and the bytes read.
fn read_weights(src: &[u8], weights: &mut [u8; 256]) -> Result<(usize, usize), &'static str> {
    let &h = src.first().ok_or("a Huffman tree description")?;
    let h = usize::from(h);
    if h >= 128 {
        let count = h - 127;
        let bytes = count.div_ceil(2);
        let b = src.get(1..1 + bytes).ok_or("a Huffman tree description within the literals section")?;
        for (i, w) in weights[..count].iter_mut().enumerate() {
            let x = b[i / 2];
            *w = if i % 2 == 0 { x >> 4 } else { x & 15 };
        }
        return Ok((count, 1 + bytes));
    }
    let body = src.get(1..1 + h).ok_or("a Huffman tree description within the literals section")?;
    let mut norm = [0i16; 256];
    let (log, n) = read_ncount(body, &mut norm, 255, 6)?;
    // The weights' symbols up to the last one counted (at most 13 of the 256 read).
    let used = norm.iter().rposition(|&c| c != 0).map_or(0, |i| i + 1);
    let t = SymbolTable::build(&norm[..used], log)?;
    let mut r =
        BitReader::new(&body[n..]).ok_or("Huffman weights (an FSE stream ending in a nonzero byte)")?;
    let mut s1 = r.read(log) as u32;
    let mut s2 = r.read(log) as u32;
    let mut count = 0usize;
    let step = |s: &mut u32, r: &mut BitReader<'_>| -> u8 {
        let e = t.entries[*s as usize & 63];
        let nb = (e >> 8) & 255;
        *s = (e >> 16) + r.read(nb) as u32;
        e as u8
    };
    // As libzstd's FSE_decompress: alternate the states until the stream overflows, then the
    // other state's symbol is the last one.
    loop {
        r.reload();
        if count > 253 {
            return Err("at most 255 Huffman weights");
        }
        weights[count] = step(&mut s1, &mut r);
        count += 1;
        if r.reload() == Status::Overflow {
            weights[count] = (t.entries[s2 as usize & 63]) as u8;
            count += 1;
            break;
        }
        if count > 253 {
            return Err("at most 255 Huffman weights");
        }
        weights[count] = step(&mut s2, &mut r);
        count += 1;
        if r.reload() == Status::Overflow {
            weights[count] = (t.entries[s1 as usize & 63]) as u8;
            count += 1;
            break;
        }
    }
    Ok((count, 1 + h))
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;
    use alloc::vec::Vec;
    use proptest::prelude::*;

    /// A tree description (direct 4-bit weights) of a random complete prefix code: leaves split
    /// at random up to `depth` bits, given to the symbols in a random order. `None` when the
    /// code has fewer than two symbols or too many to list directly.
    fn description(splits: &[u16], depth: u32, order: u64) -> Option<Vec<u8>> {
        let mut leaves = vec![0u32];
        for &s in splits {
            let open: Vec<usize> = (0..leaves.len()).filter(|&i| leaves[i] < depth).collect();
            if open.is_empty() || leaves.len() >= 129 {
                break;
            }
            let i = open[usize::from(s) % open.len()];
            leaves[i] += 1;
            leaves.push(leaves[i]);
        }
        let log = *leaves.iter().max()?;
        if leaves.len() < 2 {
            return None;
        }
        // A random order of the leaves over the symbols.
        let mut x = order | 1;
        for i in (1..leaves.len()).rev() {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            leaves.swap(i, (x % (i as u64 + 1)) as usize);
        }
        let weights: Vec<u8> = leaves.iter().map(|&d| (log + 1 - d) as u8).collect();
        let listed = &weights[..weights.len() - 1];
        let mut desc = vec![127 + listed.len() as u8];
        for pair in listed.chunks(2) {
            desc.push(pair[0] << 4 | pair.get(1).copied().unwrap_or(0));
        }
        Some(desc)
    }

    /// Each symbol's code and length, read off the decoding table (a code's entries are a run
    /// starting at the code shifted up to `MAX_BITS` bits).
    fn codes(t: &HuffTable) -> Vec<(u32, u32)> {
        let mut c = vec![(0u32, 0u32); 256];
        for (i, &e) in t.entries.iter().enumerate() {
            let (s, nb) = (usize::from(e >> 8), u32::from(e & 255));
            if c[s].1 == 0 {
                c[s] = ((i >> (MAX_BITS - nb)) as u32, nb);
            }
        }
        c
    }

    /// A Huffman stream of `syms` as libzstd writes it: the last symbol's code first, from the
    /// lowest bit up, then the start marker.
    fn encode(codes: &[(u32, u32)], syms: &[u8]) -> Vec<u8> {
        let mut bits = Vec::new();
        for &s in syms.iter().rev() {
            let (c, nb) = codes[usize::from(s)];
            bits.extend((0..nb).map(|j| (c >> j) & 1 == 1));
        }
        bits.push(true);
        bits.chunks(8).map(|b| b.iter().rev().fold(0u8, |a, &x| a << 1 | u8::from(x))).collect()
    }

    /// Decodes each of the four streams on its own, one symbol at a time.
    fn one_at_a_time(t: &HuffTable, streams: &[&[u8]], out: &mut [u8]) -> Result<(), &'static str> {
        let seg = out.len().div_ceil(4);
        for (s, o) in streams.iter().zip(out.chunks_mut(seg)) {
            let mut r = BitReader::new(s).ok_or(HUF_MARKER)?;
            t.tail(&mut r, o)?;
        }
        Ok(())
    }

    proptest! {
        /// The four streams decoded in lockstep (five or four symbols a reload) give the
        /// literals encoded, as each stream decoded on its own one symbol at a time does, on
        /// random codes of 1 to 12 bits; with a bit flipped, both refuse or both give the same.
        #[test]
        fn lockstep_decodes_as_one_symbol_at_a_time(
            splits in proptest::collection::vec(any::<u16>(), 1..300),
            depth in 1u32..=12,
            order in any::<u64>(),
            picks in proptest::collection::vec(any::<u16>(), 6..3000),
            flip in proptest::option::of(any::<usize>()),
        ) {
            let Some(desc) = description(&splits, depth, order) else { return Ok(()) };
            let mut t = HuffTable::new();
            prop_assert_eq!(t.read(&desc), Ok(desc.len()));
            let c = codes(&t);
            let mut used: Vec<u8> = (0..=255u8).filter(|&s| c[usize::from(s)].1 != 0).collect();
            // Half the picks among the two longest codes: streams that use the most bits a
            // reload allows.
            used.sort_by_key(|&s| core::cmp::Reverse(c[usize::from(s)].1));
            let pick = |p: u16| if p & 1 == 0 { usize::from(p >> 1) } else { usize::from(p >> 1) % 2 };
            let syms: Vec<u8> = picks.iter().map(|&p| used[pick(p) % used.len()]).collect();
            let n = syms.len();
            let seg = n.div_ceil(4);
            let streams: Vec<Vec<u8>> = syms.chunks(seg).map(|s| encode(&c, s)).collect();
            prop_assume!(streams.len() == 4 && streams.iter().all(|s| s.len() <= 0xFFFF));
            let mut src = Vec::new();
            for s in &streams[..3] {
                src.extend_from_slice(&(s.len() as u16).to_le_bytes());
            }
            for s in &streams {
                src.extend_from_slice(s);
            }
            if let Some(f) = flip {
                let bit = 48 + f % (8 * (src.len() - 6));
                src[bit / 8] ^= 1 << (bit % 8);
            }
            let mut fast = vec![0u8; n];
            let got = t.decode_literals(&src, &mut fast, true);
            let body = &src[6..];
            let (a, rest) = body.split_at(streams[0].len());
            let (b, rest) = rest.split_at(streams[1].len());
            let (cc, d) = rest.split_at(streams[2].len());
            let mut slow = vec![0u8; n];
            let want = one_at_a_time(&t, &[a, b, cc, d], &mut slow);
            prop_assert_eq!(got.is_ok(), want.is_ok(), "{:?} {:?}", got, want);
            if got.is_ok() {
                prop_assert_eq!(&fast, &slow);
            }
            if flip.is_none() {
                prop_assert_eq!(got, Ok(()));
                prop_assert_eq!(fast, syms);
            }
        }
    }
}
