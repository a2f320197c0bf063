//! Dictionaries (RFC 8878 §5), as libzstd's `ZSTD_createDDict` reads them: with the magic
//! 0xEC30A437, an id, the entropy tables (Huffman, then the offset, match length and literal
//! length FSE tables), three repeat offsets and the content; without it, raw content.

use super::fse::Kind;
use super::huffman::HuffTable;
use super::sequences::Tables;
use alloc::boxed::Box;
use alloc::vec::Vec;

pub(crate) const MAGIC: u32 = 0xEC30_A437;

pub(crate) struct Dict {
    pub(crate) id: u32,
    pub(crate) content: Vec<u8>,
    /// The entropy tables of a formatted dictionary (the first block of each frame may reuse them).
    pub(crate) entropy: Option<Box<(HuffTable, Tables)>>,
    pub(crate) rep: [u32; 3],
}

impl Dict {
    /// Reads a dictionary: the error's offset in `src` and what was expected there.
    pub(crate) fn parse(src: &[u8]) -> Result<Self, (usize, &'static str)> {
        let raw = || Dict { id: 0, content: src.to_vec(), entropy: None, rep: [1, 4, 8] };
        if src.len() < 8 || u32::from_le_bytes([src[0], src[1], src[2], src[3]]) != MAGIC {
            return Ok(raw());
        }
        let id = u32::from_le_bytes([src[4], src[5], src[6], src[7]]);
        let mut at = 8;
        let mut huf = HuffTable::new();
        at += huf.read(&src[at..]).map_err(|e| (at, e))?;
        let mut t = Tables::new();
        for kind in [Kind::Offsets, Kind::MatchLengths, Kind::LiteralLengths] {
            at += t.seq.read(kind, &src[at..]).map_err(|e| (at, e))?;
        }
        t.ok = [true; 3];
        let reps = src.get(at..at + 12).ok_or((at, "the three repeat offsets of a dictionary"))?;
        let content = &src[at + 12..];
        let mut rep = [0u32; 3];
        for (i, r) in rep.iter_mut().enumerate() {
            let b = &reps[4 * i..4 * i + 4];
            *r = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
            if *r == 0 || *r as usize > content.len() {
                return Err((at + 4 * i, "a dictionary repeat offset within its content"));
            }
        }
        Ok(Dict { id, content: content.to_vec(), entropy: Some(Box::new((huf, t))), rep })
    }
}
