//! Blocks as zlib-ng's `trees.c` (through zlib-rs 0.6.8) writes them: symbol counts, the
//! code-length tree and the trees' lengths sent with it, the choice of a stored, static or
//! dynamic block by its size in bits, and the symbols' codes. The trees are built in
//! [`super::huffman`].

use super::bits::BitWriter;
use super::huffman::{BL_DESC, D_DESC, HEAP_SIZE, Heap, L_DESC, build_tree};
use super::tables::{
    BASE_DIST, BASE_LENGTH, BL_CODES, BL_ORDER, D_CODES, END_BLOCK, EXTRA_DBITS, EXTRA_LBITS, L_CODES,
    LENGTH_CODE, LITERALS, STATIC_DTREE, STATIC_LENGTH_BITS, STATIC_LTREE, Value, d_code,
};
use alloc::vec::Vec;

/// Repeat the previous length 3-6 times (2 extra bits).
const REP_3_6: usize = 16;
/// Repeat a zero length 3-10 times (3 extra bits).
const REPZ_3_10: usize = 17;
/// Repeat a zero length 11-138 times (7 extra bits).
const REPZ_11_138: usize = 18;

/// The block being gathered: its symbols, their counts, and the three trees (kept from block to
/// block as zlib's are: a tree's unused nodes keep their old contents).
pub(super) struct Block {
    /// Symbols: `dist << 8 | lc` (a literal has distance 0, a match its length minus 3).
    syms: Vec<u32>,
    /// A block is flushed when it holds this many symbols (`lit_bufsize - 1`).
    max_syms: usize,
    ltree: [Value; HEAP_SIZE],
    dtree: [Value; 2 * D_CODES + 1],
    bltree: [Value; 2 * BL_CODES + 1],
    l_max: usize,
    d_max: usize,
    /// Bits of the block with dynamic trees, and with static ones.
    opt_len: usize,
    static_len: usize,
    heap: Heap,
}

impl Block {
    /// An empty block flushed at `lit_bufsize - 1` symbols.
    pub(super) fn new(lit_bufsize: usize) -> Self {
        let max_syms = lit_bufsize - 1;
        let mut b = Self {
            syms: Vec::with_capacity(max_syms),
            max_syms,
            ltree: [Value::new(0, 0); HEAP_SIZE],
            dtree: [Value::new(0, 0); 2 * D_CODES + 1],
            bltree: [Value::new(0, 0); 2 * BL_CODES + 1],
            l_max: 0,
            d_max: 0,
            opt_len: 0,
            static_len: 0,
            heap: Heap::new(),
        };
        b.init();
        b
    }

    fn init(&mut self) {
        self.ltree[..L_CODES].iter_mut().for_each(|v| v.a = 0);
        self.dtree[..D_CODES].iter_mut().for_each(|v| v.a = 0);
        self.bltree[..BL_CODES].iter_mut().for_each(|v| v.a = 0);
        self.ltree[END_BLOCK].a = 1;
        self.opt_len = 0;
        self.static_len = 0;
        self.syms.clear();
    }

    /// Counts a literal; true when the block is full.
    #[inline(always)]
    pub(super) fn tally_lit(&mut self, c: u8) -> bool {
        self.syms.push(u32::from(c));
        let f = &mut self.ltree[usize::from(c)].a;
        *f = f.wrapping_add(1);
        self.syms.len() == self.max_syms
    }

    /// Counts a match of distance `dist` (1..=32506) and length `len` minus 3; true when the
    /// block is full.
    #[inline(always)]
    pub(super) fn tally_dist(&mut self, dist: usize, len: usize) -> bool {
        self.syms.push(((dist as u32) << 8) | (len as u32 & 0xff));
        let l = &mut self.ltree[usize::from(LENGTH_CODE[len & 0xff]) + LITERALS + 1].a;
        *l = l.wrapping_add(1);
        let d = &mut self.dtree[d_code(dist.wrapping_sub(1))].a;
        *d = d.wrapping_add(1);
        self.syms.len() == self.max_syms
    }

    /// Ends the block: `stored` is its input when still in the window (zlib's `buf != NULL`),
    /// `stored_len` its length. Chooses the smallest of stored, static and dynamic as zlib does.
    pub(super) fn flush(&mut self, bits: &mut BitWriter, stored: Option<&[u8]>, stored_len: u32, last: bool) {
        let mut opt_lenb;
        let static_lenb;
        let mut max_blindex = 0;
        if self.syms.is_empty() {
            opt_lenb = 0;
            static_lenb = 0;
            self.static_len = 7;
        } else {
            self.l_max =
                build_tree(&mut self.heap, &mut self.ltree, &L_DESC, &mut self.opt_len, &mut self.static_len);
            self.d_max =
                build_tree(&mut self.heap, &mut self.dtree, &D_DESC, &mut self.opt_len, &mut self.static_len);
            max_blindex = self.build_bl_tree();
            opt_lenb = (self.opt_len.wrapping_add(3 + 7)) >> 3;
            static_lenb = (self.static_len.wrapping_add(3 + 7)) >> 3;
            if static_lenb <= opt_lenb {
                opt_lenb = static_lenb;
            }
        }
        match stored {
            Some(data) if stored_len as usize + 4 <= opt_lenb => {
                bits.send_bits(u64::from(last), 3);
                bits.emit_align();
                // zlib writes the length as 16 bits (a stored block is never longer here).
                let len = stored_len as u16;
                bits.put_bytes(&len.to_le_bytes());
                bits.put_bytes(&(!len).to_le_bytes());
                bits.put_bytes(data);
            }
            _ if static_lenb == opt_lenb => {
                bits.send_bits((1 << 1) | u64::from(last), 3);
                self.compress_static(bits);
            }
            _ => {
                bits.send_bits((2 << 1) | u64::from(last), 3);
                self.send_all_trees(bits, self.l_max + 1, self.d_max + 1, max_blindex + 1);
                self.compress_dynamic(bits);
            }
        }
        self.init();
        if last {
            bits.emit_align();
        }
    }

    fn compress_static(&self, out: &mut BitWriter) {
        // A local writer: its bit buffer stays in registers (through `out` it would be stored
        // at every symbol, as the output bytes could alias it).
        let mut w = core::mem::replace(out, BitWriter::new(&mut []));
        let bits = &mut w;
        for &sym in &self.syms {
            let (dist, lc) = ((sym >> 8) as usize, (sym & 0xff) as usize);
            if dist == 0 {
                let node = STATIC_LTREE[lc];
                bits.send_bits(u64::from(node.code()), node.len() as u8);
            } else {
                let (lbits, llen) = STATIC_LENGTH_BITS[lc];
                let (dbits, dlen) = encode_dist(&STATIC_DTREE, dist);
                bits.send_bits(u64::from(lbits) | (dbits << llen), llen + dlen);
            }
        }
        let node = STATIC_LTREE[END_BLOCK];
        bits.send_bits(u64::from(node.code()), node.len() as u8);
        *out = w;
    }

    fn compress_dynamic(&self, out: &mut BitWriter) {
        // A local writer, as in `compress_static`.
        let mut w = core::mem::replace(out, BitWriter::new(&mut []));
        let bits = &mut w;
        let (ltree, dtree) = (&self.ltree, &self.dtree);
        for &sym in &self.syms {
            let (dist, lc) = ((sym >> 8) as usize, (sym & 0xff) as usize);
            if dist == 0 {
                let node = ltree[lc];
                bits.send_bits(u64::from(node.code()), node.len() as u8);
            } else {
                let code = usize::from(LENGTH_CODE[lc]);
                let node = ltree[code + LITERALS + 1];
                let mut lbits = u64::from(node.code());
                let mut llen = node.len() as u8;
                let extra = EXTRA_LBITS[code];
                if extra != 0 {
                    lbits |= ((lc - usize::from(BASE_LENGTH[code])) as u64) << llen;
                    llen += extra;
                }
                let (dbits, dlen) = encode_dist(dtree, dist);
                bits.send_bits(lbits | (dbits << llen), llen + dlen);
            }
        }
        let node = ltree[END_BLOCK];
        bits.send_bits(u64::from(node.code()), node.len() as u8);
        *out = w;
    }

    /// Builds the code-length tree over both trees' lengths; the index in `BL_ORDER` of the last
    /// code-length code to send.
    fn build_bl_tree(&mut self) -> usize {
        scan_tree(&mut self.bltree, &mut self.ltree, self.l_max);
        scan_tree(&mut self.bltree, &mut self.dtree, self.d_max);
        build_tree(&mut self.heap, &mut self.bltree, &BL_DESC, &mut self.opt_len, &mut self.static_len);
        let mut max_blindex = BL_CODES - 1;
        while max_blindex >= 3 {
            if self.bltree[usize::from(BL_ORDER[max_blindex])].len() != 0 {
                break;
            }
            max_blindex -= 1;
        }
        self.opt_len = self.opt_len.wrapping_add(3 * (max_blindex + 1) + 5 + 5 + 4);
        max_blindex
    }

    fn send_all_trees(&self, bits: &mut BitWriter, lcodes: usize, dcodes: usize, blcodes: usize) {
        bits.send_bits(lcodes as u64 - 257, 5);
        bits.send_bits(dcodes as u64 - 1, 5);
        bits.send_bits(blcodes as u64 - 4, 4);
        for &sym in &BL_ORDER[..blcodes] {
            bits.send_bits(u64::from(self.bltree[usize::from(sym)].len()), 3);
        }
        send_tree(bits, &self.ltree, &self.bltree, lcodes - 1);
        send_tree(bits, &self.dtree, &self.bltree, dcodes - 1);
    }
}

/// A match distance's code and extra bits, and their count.
#[inline(always)]
pub(super) fn encode_dist(dtree: &[Value], dist: usize) -> (u64, u8) {
    let dist = dist.wrapping_sub(1);
    let code = d_code(dist);
    let node = dtree[code];
    let mut bits = u64::from(node.code());
    let mut len = node.len() as u8;
    let extra = EXTRA_DBITS[code];
    if extra != 0 {
        bits |= (dist.wrapping_sub(usize::from(BASE_DIST[code])) as u64 & 0x1fff) << len;
        len += extra;
    }
    (bits, len)
}

/// Counts the code-length symbols that will send `tree` (runs of equal lengths).
fn scan_tree(bltree: &mut [Value], tree: &mut [Value], max_code: usize) {
    let mut prevlen: isize = -1;
    let mut nextlen = tree[0].len();
    let mut count: u16 = 0;
    let (mut max_count, mut min_count) = if nextlen == 0 { (138, 3) } else { (7, 4) };
    tree[max_code + 1].b = 0xffff; // guard
    for n in 0..=max_code {
        let curlen = nextlen as isize;
        nextlen = tree[n + 1].len();
        count += 1;
        if count < max_count && curlen == nextlen as isize {
            continue;
        } else if count < min_count {
            let f = &mut bltree[curlen as usize].a;
            *f = f.wrapping_add(count);
        } else if curlen != 0 {
            if curlen != prevlen {
                bltree[curlen as usize].a = bltree[curlen as usize].a.wrapping_add(1);
            }
            bltree[REP_3_6].a = bltree[REP_3_6].a.wrapping_add(1);
        } else if count <= 10 {
            bltree[REPZ_3_10].a = bltree[REPZ_3_10].a.wrapping_add(1);
        } else {
            bltree[REPZ_11_138].a = bltree[REPZ_11_138].a.wrapping_add(1);
        }
        count = 0;
        prevlen = curlen;
        (max_count, min_count) = if nextlen == 0 {
            (138, 3)
        } else if curlen == nextlen as isize {
            (6, 3)
        } else {
            (7, 4)
        };
    }
}

/// Sends `tree`'s code lengths with the code-length tree (as `scan_tree` counted them).
fn send_tree(bits: &mut BitWriter, tree: &[Value], bltree: &[Value], max_code: usize) {
    let send_code = |bits: &mut BitWriter, c: usize| {
        let node = bltree[c];
        bits.send_bits(u64::from(node.code()), node.len() as u8);
    };
    let mut prevlen: isize = -1;
    let mut nextlen = tree[0].len();
    let mut count: u16 = 0;
    let (mut max_count, mut min_count) = if nextlen == 0 { (138, 3) } else { (7, 4) };
    for n in 0..=max_code {
        let curlen = nextlen;
        nextlen = tree[n + 1].len();
        count += 1;
        if count < max_count && curlen == nextlen {
            continue;
        } else if count < min_count {
            for _ in 0..count {
                send_code(bits, usize::from(curlen));
            }
        } else if curlen != 0 {
            if curlen as isize != prevlen {
                send_code(bits, usize::from(curlen));
                count -= 1;
            }
            send_code(bits, REP_3_6);
            bits.send_bits(u64::from(count.wrapping_sub(3)) & 3, 2);
        } else if count <= 10 {
            send_code(bits, REPZ_3_10);
            bits.send_bits(u64::from(count - 3) & 7, 3);
        } else {
            send_code(bits, REPZ_11_138);
            bits.send_bits(u64::from(count - 11) & 0x7f, 7);
        }
        count = 0;
        prevlen = curlen as isize;
        (max_count, min_count) = if nextlen == 0 {
            (138, 3)
        } else if curlen == nextlen {
            (6, 3)
        } else {
            (7, 4)
        };
    }
}
