//! Huffman-coded literals (RFC 8878 §4.2): the tree description (weights, direct or
//! FSE-compressed), a single-symbol decoding table indexed by the next `max_bits` bits, and the
//! 1- and 4-stream decoders.

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

/// A Huffman decoding table: per value of the next `log` bits, `symbol | nb_bits << 8`.
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
            let e = s as u16 | ((log + 1 - u32::from(w)) as u16) << 8;
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
        r.skip(u32::from(e >> 8));
        e as u8
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

    /// Decodes `out.len()` literals from `src`, one stream or four (with the jump table).
    pub(crate) fn decode_literals(&self, src: &[u8], out: &mut [u8], four: bool) -> Result<(), &'static str> {
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
        let mut r1 = BitReader::new(s1).ok_or(bad)?;
        let mut r2 = BitReader::new(s2).ok_or(bad)?;
        let mut r3 = BitReader::new(s3).ok_or(bad)?;
        let mut r4 = BitReader::new(s4).ok_or(bad)?;
        // The four streams in lockstep while each can refill eight bytes.
        let mut i = 0;
        let end = o4.len().saturating_sub(3);
        let t: &[u16; TABLE] = &self.entries;
        // One symbol of a stream whose next bits are the top of `bits`, shifted out as they are
        // used. The word carries a marker bit below its data ([`BitReader::window_marked`]),
        // so how many bits are used is where the marker has moved to: no counter to keep.
        macro_rules! sym {
            ($bits:ident) => {{
                let e = t[($bits >> (64 - MAX_BITS)) as usize];
                $bits <<= u32::from(e >> 8);
                e as u8
            }};
        }
        // After a fast reload at most 7 bits are used: four symbols of at most 12 bits each stay
        // within the 64 loaded, and never reach the marker (the lowest bit).
        while i < end
            && r1.can_fast_reload()
            && r2.can_fast_reload()
            && r3.can_fast_reload()
            && r4.can_fast_reload()
        {
            r1.reload();
            r2.reload();
            r3.reload();
            r4.reload();
            let (mut b1, mut b2, mut b3, mut b4) =
                (r1.window_marked(), r2.window_marked(), r3.window_marked(), r4.window_marked());
            let (a, b, c, d) = (&mut o1[i..i + 4], &mut o2[i..i + 4], &mut o3[i..i + 4], &mut o4[i..i + 4]);
            for k in 0..4 {
                a[k] = sym!(b1);
                b[k] = sym!(b2);
                c[k] = sym!(b3);
                d[k] = sym!(b4);
            }
            r1.set_used(b1.trailing_zeros());
            r2.set_used(b2.trailing_zeros());
            r3.set_used(b3.trailing_zeros());
            r4.set_used(b4.trailing_zeros());
            i += 4;
        }
        let i4 = i.min(o4.len());
        self.tail(&mut r1, &mut o1[i..])?;
        self.tail(&mut r2, &mut o2[i..])?;
        self.tail(&mut r3, &mut o3[i..])?;
        self.tail(&mut r4, &mut o4[i4..])?;
        Ok(())
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
