//! The fixed tables of the deflate format (RFC 1951 §3.2.5-3.2.6), computed at compile time:
//! length and distance codes with their bases, and the static literal/length and distance trees.

/// Length codes (not counting the end-of-block code).
pub(super) const LENGTH_CODES: usize = 29;
/// Literal bytes 0..=255.
pub(super) const LITERALS: usize = 256;
/// The end-of-block symbol.
pub(super) const END_BLOCK: usize = 256;
/// Literal/length codes, the end-of-block code among them.
pub(super) const L_CODES: usize = LITERALS + 1 + LENGTH_CODES;
/// Distance codes.
pub(super) const D_CODES: usize = 30;
/// Codes of the code-length alphabet.
pub(super) const BL_CODES: usize = 19;
/// Longest code of the literal/length and distance trees.
pub(super) const MAX_BITS: usize = 15;
/// Longest code of the code-length tree.
pub(super) const MAX_BL_BITS: usize = 7;

/// Extra bits of each length code.
pub(super) const EXTRA_LBITS: [u8; LENGTH_CODES] =
    [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
/// Extra bits of each distance code.
pub(super) const EXTRA_DBITS: [u8; D_CODES] =
    [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13];
/// Extra bits of each code-length code.
pub(super) const EXTRA_BLBITS: [u8; BL_CODES] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 3, 7];
/// The order in which the code-length code lengths are sent.
pub(super) const BL_ORDER: [u8; BL_CODES] =
    [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];

/// Length code of each match length minus 3 (0..=255).
pub(super) static LENGTH_CODE: [u8; 256] = length_tables().0;
/// First match length minus 3 of each length code.
pub(super) static BASE_LENGTH: [u8; LENGTH_CODES] = length_tables().1;
/// Distance code of each distance minus 1: `dist` below 256, `256 + (dist >> 7)` above.
pub(super) static DIST_CODE: [u8; 512] = dist_tables().0;
/// First distance minus 1 of each distance code.
pub(super) static BASE_DIST: [u16; D_CODES] = dist_tables().1;
/// The static literal/length tree (codes 286 and 287 complete it; they are never sent).
pub(super) static STATIC_LTREE: [Value; L_CODES + 2] = static_ltree();
/// The static distance tree: every code 5 bits.
pub(super) static STATIC_DTREE: [Value; D_CODES] = static_dtree();
/// Each match length minus 3 as the static tree sends it: the length code's bits with its
/// extra bits above them, and their count.
pub(super) static STATIC_LENGTH_BITS: [(u32, u8); 256] = static_length_bits();

const fn length_tables() -> ([u8; 256], [u8; LENGTH_CODES]) {
    let mut code_of = [0u8; 256];
    let mut base = [0u8; LENGTH_CODES];
    let mut length = 0usize;
    let mut code = 0;
    while code < LENGTH_CODES - 1 {
        base[code] = length as u8;
        let mut n = 0;
        while n < (1 << EXTRA_LBITS[code]) {
            code_of[length] = code as u8;
            length += 1;
            n += 1;
        }
        code += 1;
    }
    // Length 258 (255 here) has its own code, 28, in place of the last of code 27's range.
    code_of[length - 1] = code as u8;
    (code_of, base)
}

const fn dist_tables() -> ([u8; 512], [u16; D_CODES]) {
    let mut code_of = [0u8; 512];
    let mut base = [0u16; D_CODES];
    let mut dist = 0usize;
    let mut code = 0;
    while code < 16 {
        base[code] = dist as u16;
        let mut n = 0;
        while n < (1 << EXTRA_DBITS[code]) {
            code_of[dist] = code as u8;
            dist += 1;
            n += 1;
        }
        code += 1;
    }
    dist >>= 7;
    while code < D_CODES {
        base[code] = (dist << 7) as u16;
        let mut n = 0;
        while n < (1 << (EXTRA_DBITS[code] - 7)) {
            code_of[256 + dist] = code as u8;
            dist += 1;
            n += 1;
        }
        code += 1;
    }
    (code_of, base)
}

/// `code`'s low `len` bits reversed (deflate sends Huffman codes from their top bit).
pub(super) const fn reverse(code: u16, len: u16) -> u16 {
    code.reverse_bits() >> (16 - len)
}

const fn static_ltree() -> [Value; L_CODES + 2] {
    let mut tree = [Value::new(0, 0); L_CODES + 2];
    let mut bl_count = [0u16; MAX_BITS + 1];
    let mut n = 0;
    while n < L_CODES + 2 {
        let len = if n < 144 {
            8
        } else if n < 256 {
            9
        } else if n < 280 {
            7
        } else {
            8
        };
        tree[n] = Value::new(0, len);
        bl_count[len as usize] += 1;
        n += 1;
    }
    let mut next_code = [0u16; MAX_BITS + 1];
    let mut code = 0u16;
    let mut bits = 1;
    while bits <= MAX_BITS {
        code = (code + bl_count[bits - 1]) << 1;
        next_code[bits] = code;
        bits += 1;
    }
    let mut n = 0;
    while n < L_CODES + 2 {
        let len = tree[n].len();
        tree[n] = Value::new(reverse(next_code[len as usize], len), len);
        next_code[len as usize] += 1;
        n += 1;
    }
    tree
}

const fn static_dtree() -> [Value; D_CODES] {
    let mut tree = [Value::new(0, 0); D_CODES];
    let mut n = 0;
    while n < D_CODES {
        tree[n] = Value::new(reverse(n as u16, 5), 5);
        n += 1;
    }
    tree
}

const fn static_length_bits() -> [(u32, u8); 256] {
    let ltree = static_ltree();
    let (code_of, base) = length_tables();
    let mut out = [(0u32, 0u8); 256];
    let mut lc = 0;
    while lc < 256 {
        let code = code_of[lc] as usize;
        let node = ltree[code + LITERALS + 1];
        let mut bits = node.code() as u32;
        let mut len = node.len() as u8;
        let extra = EXTRA_LBITS[code];
        if extra != 0 {
            bits |= ((lc - base[code] as usize) as u32) << len;
            len += extra;
        }
        out[lc] = (bits, len);
        lc += 1;
    }
    out
}

/// Distance code of `dist` (the match distance minus 1, below 32768).
#[inline(always)]
pub(super) fn d_code(dist: usize) -> usize {
    let index = if dist < 256 { dist } else { 256 + (dist >> 7) };
    usize::from(DIST_CODE[index & 511])
}

/// One tree node: frequency or code in `a`, parent or code length in `b`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) struct Value {
    pub(super) a: u16,
    pub(super) b: u16,
}

impl Value {
    pub(super) const fn new(a: u16, b: u16) -> Self {
        Self { a, b }
    }
    #[inline(always)]
    pub(super) const fn code(self) -> u16 {
        self.a
    }
    #[inline(always)]
    pub(super) const fn len(self) -> u16 {
        self.b
    }
    #[inline(always)]
    pub(super) fn freq(self) -> u16 {
        self.a
    }
    #[inline(always)]
    pub(super) fn dad(self) -> u16 {
        self.b
    }
}
