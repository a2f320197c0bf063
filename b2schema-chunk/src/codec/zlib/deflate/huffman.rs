//! Huffman code construction as zlib-ng's `trees.c` (through zlib-rs 0.6.8): the heap ordered by
//! frequency then depth, the tree, code lengths limited as zlib limits them (and the block's
//! size in bits counted on the way), canonical codes.

use super::tables::{
    BL_CODES, D_CODES, EXTRA_BLBITS, EXTRA_DBITS, EXTRA_LBITS, L_CODES, LITERALS, MAX_BITS, MAX_BL_BITS,
    STATIC_DTREE, STATIC_LTREE, Value,
};

/// Nodes of the literal/length tree (and the heap's size for every tree).
pub(super) const HEAP_SIZE: usize = 2 * L_CODES + 1;

/// What a tree's build needs to know of its alphabet.
pub(super) struct StaticDesc {
    /// The static tree (for the static block's size), empty for the code-length tree.
    static_tree: &'static [Value],
    extra_bits: &'static [u8],
    /// First code with extra bits.
    extra_base: usize,
    elems: usize,
    max_length: u16,
}

pub(super) static L_DESC: StaticDesc = StaticDesc {
    static_tree: &STATIC_LTREE,
    extra_bits: &EXTRA_LBITS,
    extra_base: LITERALS + 1,
    elems: L_CODES,
    max_length: MAX_BITS as u16,
};
pub(super) static D_DESC: StaticDesc = StaticDesc {
    static_tree: &STATIC_DTREE,
    extra_bits: &EXTRA_DBITS,
    extra_base: 0,
    elems: D_CODES,
    max_length: MAX_BITS as u16,
};
pub(super) static BL_DESC: StaticDesc = StaticDesc {
    static_tree: &[],
    extra_bits: &EXTRA_BLBITS,
    extra_base: 0,
    elems: BL_CODES,
    max_length: MAX_BL_BITS as u16,
};

/// The heap of `build_tree`: `heap[1..=heap_len]` a priority queue by (frequency, depth), and
/// from `heap_max` on the nodes in the order they left it.
pub(super) struct Heap {
    heap: [u32; HEAP_SIZE],
    heap_len: usize,
    heap_max: usize,
    depth: [u8; HEAP_SIZE],
}

impl Heap {
    pub(super) fn new() -> Self {
        Self { heap: [0; HEAP_SIZE], heap_len: 0, heap_max: 0, depth: [0; HEAP_SIZE] }
    }

    /// Fills the heap with the codes used (clearing the length of the others); the largest used.
    fn initialize(&mut self, tree: &mut [Value]) -> isize {
        let mut max_code = -1;
        self.heap_len = 0;
        self.heap_max = HEAP_SIZE;
        for (n, node) in tree.iter_mut().enumerate() {
            if node.freq() > 0 {
                self.heap_len += 1;
                self.heap[self.heap_len] = n as u32;
                max_code = n as isize;
                self.depth[n] = 0;
            } else {
                node.b = 0;
            }
        }
        max_code
    }

    fn pqdownheap(&mut self, tree: &[Value], mut k: usize) {
        let key = |heap: &Self, i: u32| {
            (u32::from(tree[i as usize].freq()) << 8) | u32::from(heap.depth[i as usize])
        };
        let v = self.heap[k];
        let v_val = key(self, v);
        let mut j = k << 1;
        while j <= self.heap_len {
            let mut j_val = key(self, self.heap[j]);
            if j < self.heap_len {
                let j1_val = key(self, self.heap[j + 1]);
                if j1_val <= j_val {
                    j += 1;
                    j_val = j1_val;
                }
            }
            if v_val <= j_val {
                break;
            }
            self.heap[k] = self.heap[j];
            k = j;
            j <<= 1;
        }
        self.heap[k] = v;
    }

    fn pqremove(&mut self, tree: &[Value]) -> u32 {
        let top = self.heap[1];
        self.heap[1] = self.heap[self.heap_len];
        self.heap_len -= 1;
        self.pqdownheap(tree, 1);
        top
    }

    fn construct_huffman_tree(&mut self, tree: &mut [Value], mut node: usize) {
        loop {
            let n = self.pqremove(tree) as usize;
            let m = self.heap[1] as usize;
            self.heap_max -= 1;
            self.heap[self.heap_max] = n as u32;
            self.heap_max -= 1;
            self.heap[self.heap_max] = m as u32;
            tree[node].a = tree[n].freq().wrapping_add(tree[m].freq());
            self.depth[node] = self.depth[n].max(self.depth[m]).wrapping_add(1);
            tree[n].b = node as u16;
            tree[m].b = node as u16;
            self.heap[1] = node as u32;
            node += 1;
            self.pqdownheap(tree, 1);
            if self.heap_len < 2 {
                break;
            }
        }
        self.heap_max -= 1;
        self.heap[self.heap_max] = self.heap[1];
    }
}

/// Builds one tree from its frequencies: code lengths and codes, `opt_len` and `static_len`
/// updated. Returns the largest code used.
pub(super) fn build_tree(
    heap: &mut Heap,
    tree: &mut [Value],
    desc: &StaticDesc,
    opt_len: &mut usize,
    static_len: &mut usize,
) -> usize {
    let stree = desc.static_tree;
    let elements = desc.elems;
    let mut max_code = heap.initialize(&mut tree[..elements]);
    // At least two codes of non-zero frequency (pkzip needs one distance code, and one bit).
    while heap.heap_len < 2 {
        heap.heap_len += 1;
        let node = if max_code < 2 {
            max_code += 1;
            max_code as usize
        } else {
            0
        };
        heap.heap[heap.heap_len] = node as u32;
        tree[node].a = 1;
        heap.depth[node] = 0;
        *opt_len = opt_len.wrapping_sub(1);
        if !stree.is_empty() {
            *static_len = static_len.wrapping_sub(usize::from(stree[node].len()));
        }
    }
    let max_code = max_code as usize;
    let mut n = heap.heap_len / 2;
    while n >= 1 {
        heap.pqdownheap(tree, n);
        n -= 1;
    }
    heap.construct_huffman_tree(tree, elements);
    let bl_count = gen_bitlen(heap, tree, desc, max_code, opt_len, static_len);
    gen_codes(tree, max_code, &bl_count);
    max_code
}

/// Code lengths from the tree, limited to `max_length` as zlib limits them.
fn gen_bitlen(
    heap: &Heap,
    tree: &mut [Value],
    desc: &StaticDesc,
    max_code: usize,
    opt_len: &mut usize,
    static_len: &mut usize,
) -> [u16; MAX_BITS + 1] {
    let stree = desc.static_tree;
    let max_length = desc.max_length;
    let mut bl_count = [0u16; MAX_BITS + 1];
    tree[heap.heap[heap.heap_max] as usize].b = 0;
    let mut overflow: i32 = 0;
    for &n in &heap.heap[heap.heap_max + 1..HEAP_SIZE] {
        let n = n as usize;
        let mut bits = tree[usize::from(tree[n].dad())].len().wrapping_add(1);
        if bits > max_length {
            bits = max_length;
            overflow += 1;
        }
        tree[n].b = bits;
        if n > max_code {
            continue;
        }
        bl_count[usize::from(bits)] = bl_count[usize::from(bits)].wrapping_add(1);
        let xbits = if n >= desc.extra_base { usize::from(desc.extra_bits[n - desc.extra_base]) } else { 0 };
        let f = usize::from(tree[n].freq());
        *opt_len = opt_len.wrapping_add(f * (usize::from(bits) + xbits));
        if !stree.is_empty() {
            *static_len = static_len.wrapping_add(f * (usize::from(stree[n].len()) + xbits));
        }
    }
    if overflow == 0 {
        return bl_count;
    }
    loop {
        let mut bits = usize::from(max_length) - 1;
        while bl_count[bits] == 0 {
            bits -= 1;
        }
        bl_count[bits] -= 1;
        bl_count[bits + 1] += 2;
        bl_count[usize::from(max_length)] -= 1;
        overflow -= 2;
        if overflow <= 0 {
            break;
        }
    }
    let mut h = HEAP_SIZE;
    for bits in (1..=max_length).rev() {
        let mut n = bl_count[usize::from(bits)];
        while n != 0 {
            h -= 1;
            let m = heap.heap[h] as usize;
            if m > max_code {
                continue;
            }
            if tree[m].len() != bits {
                // zlib-rs multiplies in 16 bits here (wrapping in a release build).
                *opt_len = opt_len.wrapping_add(usize::from(bits.wrapping_mul(tree[m].freq())));
                *opt_len = opt_len.wrapping_sub(usize::from(tree[m].len().wrapping_mul(tree[m].freq())));
                tree[m].b = bits;
            }
            n -= 1;
        }
    }
    bl_count
}

/// Canonical codes (bit-reversed) from the code lengths.
fn gen_codes(tree: &mut [Value], max_code: usize, bl_count: &[u16; MAX_BITS + 1]) {
    let mut next_code = [0u16; MAX_BITS + 1];
    let mut code = 0u16;
    for bits in 1..=MAX_BITS {
        code = code.wrapping_add(bl_count[bits - 1]) << 1;
        next_code[bits] = code;
    }
    for node in &mut tree[..=max_code] {
        let len = node.len();
        if len == 0 || len > 15 {
            continue;
        }
        node.a = super::tables::reverse(next_code[usize::from(len)], len);
        next_code[usize::from(len)] = next_code[usize::from(len)].wrapping_add(1);
    }
}
