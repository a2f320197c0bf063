//! Dictionaries (RFC 8878 §5), as libzstd's `ZSTD_createDDict` reads them: with the magic
//! 0xEC30A437, an id, the entropy tables (Huffman, then the offset, match length and literal
//! length FSE tables), three repeat offsets and the content; without it, raw content.
//!
//! Match history: the dictionary's whole bytes, header and tables included, as a `ZSTD_DDict`
//! keeps them (c-blosc2 decodes with `ZSTD_createDDict` + `ZSTD_decompress_usingDDict`):
//! `ZSTD_initDDict_internal` sets `dictContent` to the whole buffer and `ZSTD_loadEntropy_intoDDict`
//! only reads the tables from it, and `ZSTD_copyDDictParameters` makes `dictContent` ..
//! `dictContent + dictSize` the history before the frame (`virtualStart`: an offset past the
//! frame's output and the whole dictionary is refused, `ZSTD_execSequence`). Only the repeat
//! offsets are checked against the content after the tables (`ZSTD_loadDEntropy`). (libzstd's
//! `ZSTD_decompress_usingDict`, which c-blosc2 does not call, takes only the content after the
//! tables, the "past" RFC 8878 §5 names. No compressor references the header, so the two differ
//! only on crafted frames, and c-blosc2 decodes those with the whole bytes.)

use super::fse::Kind;
use super::huffman::HuffTable;
use super::sequences::Tables;
use alloc::boxed::Box;
use alloc::vec::Vec;

pub(crate) const MAGIC: u32 = super::super::DICT_MAGIC;

pub(crate) struct Dict {
    pub(crate) id: u32,
    /// The match history before each frame: the dictionary's whole bytes (see the module).
    pub(crate) history: Vec<u8>,
    /// The entropy tables of a formatted dictionary (the first block of each frame may reuse them).
    pub(crate) entropy: Option<Box<(HuffTable, Tables)>>,
    pub(crate) rep: [u32; 3],
}

impl Dict {
    /// Reads a dictionary: the error's offset in `src` and what was expected there.
    pub(crate) fn parse(src: &[u8]) -> Result<Self, (usize, &'static str)> {
        let raw = || Dict { id: 0, history: src.to_vec(), entropy: None, rep: [1, 4, 8] };
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
        let content = src.len() - (at + 12);
        let mut rep = [0u32; 3];
        for (i, r) in rep.iter_mut().enumerate() {
            let b = &reps[4 * i..4 * i + 4];
            *r = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
            if *r == 0 || *r as usize > content {
                return Err((at + 4 * i, "a dictionary repeat offset within its content"));
            }
        }
        Ok(Dict { id, history: src.to_vec(), entropy: Some(Box::new((huf, t))), rep })
    }
}
