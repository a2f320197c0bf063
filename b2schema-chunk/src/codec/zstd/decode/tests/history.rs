//! A formatted dictionary's match history is its whole bytes, header and entropy tables
//! included, as libzstd's `ZSTD_DDict` (c-blosc2's `ZSTD_createDDict` +
//! `ZSTD_decompress_usingDDict`) keeps it (`dict.rs` says where in libzstd).
//!
//! The frames are libzstd's, compressed with a prefix (`ZSTD_CCtx_refPrefix`: raw content, so the
//! compressor's matches reach any byte of it, the dictionary's magic and tables included), the
//! prefix being the dictionary, or bytes `x` then the dictionary (matches into `x` reach past the
//! history: both decoders refuse them). The dictionaries are trained ones, whose repeat offsets
//! are libzstd's start values (1, 4, 8), which a prefix starts from too.

use super::*;
use zstd::zstd_safe::{CCtx, DCtx, DDict};

/// libzstd's frame of `src` at `level`, its matches reaching into `prefix`.
fn compress_with_prefix(src: &[u8], level: i32, prefix: &[u8]) -> Vec<u8> {
    let mut c = CCtx::create();
    c.set_parameter(CParameter::CompressionLevel(level)).unwrap();
    c.ref_prefix(prefix).unwrap();
    let mut z = Vec::with_capacity(zstd::zstd_safe::compress_bound(src.len()));
    c.compress2(&mut z, src).unwrap();
    z
}

/// libzstd's decoding with the dictionary's bytes as history before the frame but not its
/// header and tables (`ZSTD_decompress_usingDict`, which c-blosc2 does not call): what the
/// tests below hold us apart from.
fn content_only(src: &[u8], cap: usize, dict: &[u8]) -> Option<Vec<u8>> {
    let mut out = vec![0u8; cap];
    let n = DCtx::create().decompress_using_dict(&mut out[..], src, dict).ok()?;
    out.truncate(n);
    Some(out)
}

/// A trained dictionary and its three repeat offsets (checked to be 1, 4, 8).
fn trained(seed: u64) -> Vec<u8> {
    let d = dictionary(1, seed);
    assert_eq!(u32::from_le_bytes([d[0], d[1], d[2], d[3]]), super::super::dict::MAGIC);
    let rep = super::super::dict::Dict::parse(&d).ok().unwrap().rep;
    assert_eq!(rep, [1, 4, 8]);
    d
}

/// A piece of data: where it starts in the prefix (anywhere, or in its first `head` + 320
/// bytes, the dictionary's header and tables), its length, and the noise after it.
type Piece = (bool, prop::sample::Index, usize, u8);

/// Data made of pieces of `from` between runs of noise.
fn pieces_of(from: &[u8], head: usize, pieces: &[Piece], seed: u64) -> Vec<u8> {
    let mut r = rng(seed);
    let mut v = Vec::new();
    for (in_head, at, len, noise) in pieces {
        let s = at.index(if *in_head { from.len().min(head + 320) } else { from.len() });
        v.extend_from_slice(&from[s..(s + len).min(from.len())]);
        v.extend((0..*noise % 8).map(|_| r() as u8));
    }
    v
}

#[test]
fn a_match_into_the_dictionary_header_decodes_as_libzstd_ddict() {
    let d = trained(7);
    // The dictionary's first 200 bytes (its magic, id and tables), twice: libzstd's matches
    // take them from the dictionary's first byte on (an offset of exactly the dictionary's
    // length), the second time from the frame's output.
    let src: Vec<u8> = d[..200].iter().chain(&d[..200]).copied().collect();
    let z = compress_with_prefix(&src, 19, &d);
    assert!(z.len() < 100, "the frame copies the header from the dictionary ({} bytes)", z.len());
    assert_eq!(reference(&z, src.len(), Some(&d)).as_deref(), Some(&src[..]));
    assert!(ours(&z, src.len(), Some(&d)).unwrap() == src);
    // Not what a history of the content after the tables gives: the frame does reach the header.
    assert!(content_only(&z, src.len(), &d).as_deref() != Some(&src[..]));
    // Bytes before the dictionary are past the history: a match from them refused by both.
    let mut x = data(0, 16, 7);
    x.extend_from_slice(&d);
    let past: Vec<u8> = x[..216].to_vec();
    let z = compress_with_prefix(&past, 19, &x);
    assert!(z.len() < 100, "the frame copies from before the dictionary ({} bytes)", z.len());
    assert_eq!(reference(&z, past.len(), Some(&d)), None);
    let e = ours(&z, past.len(), Some(&d)).unwrap_err();
    assert_eq!(e.what, "a match offset within the frame's output and the dictionary");
}

#[test]
fn repeat_offsets_stay_within_the_content_after_the_tables() {
    // The history is the whole dictionary, but libzstd (`ZSTD_loadDEntropy`) holds a
    // dictionary's repeat offsets to its content after the tables, and so do we.
    let d = trained(3);
    let at = d.windows(12).position(|w| w == [1, 0, 0, 0, 4, 0, 0, 0, 8, 0, 0, 0]).unwrap();
    let content = d.len() - at - 12;
    let with_rep = |r: u32| {
        let mut x = d.clone();
        x[at..at + 4].copy_from_slice(&r.to_le_bytes());
        x
    };
    let ok = with_rep(content as u32);
    assert_eq!(super::super::dict::Dict::parse(&ok).ok().unwrap().rep[0], content as u32);
    assert!(DDict::try_create(&ok).is_some());
    let bad = with_rep(content as u32 + 1);
    assert!(DDict::try_create(&bad).is_none());
    let e = Decoder::with_dict(&bad).err().unwrap();
    assert_eq!((e.offset, e.what), (at, "a dictionary repeat offset within its content"));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: proptest_cases(128), ..ProptestConfig::default() })]

    /// Frames whose matches start anywhere in the dictionary (its magic, id, tables, repeat
    /// offsets, content) or before it decode as libzstd's `ZSTD_DDict` decodes them: to the
    /// data where every match is within the dictionary, refused by both where one reaches
    /// before it.
    #[test]
    fn matches_anywhere_in_the_dictionary_decode_as_libzstd_ddict(
        seed in any::<u64>(),
        before in prop::sample::select(vec![0usize, 0, 1, 40]),
        pieces in prop::collection::vec((any::<bool>(), any::<prop::sample::Index>(), 3usize..80, any::<u8>()), 1..40),
        level in prop::sample::select(vec![1, 3, 9, 19, 22]),
    ) {
        let d = trained(seed);
        let mut prefix: Vec<u8> = data(0, before, seed);
        prefix.extend_from_slice(&d);
        let src = pieces_of(&prefix, before, &pieces, seed);
        let z = compress_with_prefix(&src, level, &prefix);
        let cap = src.len() + 64;
        let want = reference(&z, cap, Some(&d));
        let got = ours(&z, cap, Some(&d));
        match (&want, &got) {
            (Some(w), Ok(g)) => prop_assert!(w == g && *w == src, "both decode, to different bytes"),
            (None, Err(_)) => prop_assert!(before > 0, "a frame within the dictionary refused by both"),
            _ => prop_assert!(false, "libzstd {:?}, ours {:?}", want.map(|w| w.len()), got.map(|g| g.len())),
        }
    }
}
