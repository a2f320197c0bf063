//! Property tests on hostile input (issue 8):
//!
//! - random valid values of every built-in layout (`B2nd` with 0..=16 dimensions, `FrameHeader`
//!   with 0..=16 metalayers, `Trailer`, `Caterva`, `FrameFlags`, `FilterPipeline`) round-trip byte
//!   for byte, and frames built from them read back;
//! - random mutations of real fixtures never panic, and the mutations that break a rule of the
//!   format (truncations, length fields set to huge values, offsets pointing outside, duplicate
//!   names, negative sizes, ndim > 16, array counts that lie) are errors, from memory and from a
//!   file.

use b2schema_tests::with_metalayers;
use std::path::PathBuf;

use b2schema::b2nd::{self, B2nd, Caterva, LayoutKind};
use b2schema::chunk::{self, ChunkHeader};
use b2schema::frame::{
    ChunkLocation, FilterPipeline, Fingerprint, FrameFile, FrameFlags, FrameHeader, FrameView,
    MAX_VLMETALAYERS, MetaLayers, Trailer,
};
use b2schema::wrap::{FixExt16, FixStr};
use b2schema_tests::{compat_file, repo_root};
use proptest::prelude::*;
use proptest::sample::Index;

#[path = "strategies/frame.rs"]
mod frame_strategies;
use frame_strategies::{borrowed, flags, pipeline};

// ---------------------------------------------------------------------------------------------
// Round trips of the built-in layouts.

fn dims(n: usize, valid: bool) -> BoxedStrategy<(Vec<i64>, Vec<i32>, Vec<i32>)> {
    if valid {
        (
            prop::collection::vec(1..=i64::MAX, n),
            prop::collection::vec(1..=i32::MAX, n),
            prop::collection::vec(1..=i32::MAX, n),
        )
            .boxed()
    } else {
        (
            prop::collection::vec(any::<i64>(), n),
            prop::collection::vec(any::<i32>(), n),
            prop::collection::vec(any::<i32>(), n),
        )
            .boxed()
    }
}

fn shapes(valid: bool) -> impl Strategy<Value = (Vec<i64>, Vec<i32>, Vec<i32>)> {
    (0usize..=16).prop_flat_map(move |n| dims(n, valid))
}

/// Unique metalayer names (fixstr: at most 31 bytes), some of them not ASCII.
fn names(max: usize) -> impl Strategy<Value = Vec<String>> {
    prop::collection::btree_set("[a-z0-9_]{0,31}|\\PC{1,7}", 0..=max)
        .prop_map(|s| s.into_iter().filter(|n| n.len() <= 31).collect::<Vec<_>>())
}

fn layers(max: usize) -> impl Strategy<Value = Vec<(String, Vec<u8>)>> {
    names(max).prop_flat_map(|names| {
        let n = names.len();
        (Just(names), prop::collection::vec(prop::collection::vec(any::<u8>(), 0..48), n))
            .prop_map(|(names, contents)| names.into_iter().zip(contents).collect())
    })
}

/// The fixed-width values of a header (everything but the metalayers and the computed length).
#[derive(Debug, Clone)]
struct Fixed {
    frame_len: i64,
    flags: FrameFlags,
    nbytes: i64,
    cbytes: i64,
    ints: [i32; 3],
    threads: [i16; 2],
    has_vlmetalayers: bool,
    pipeline: FilterPipeline,
}

fn fixed() -> impl Strategy<Value = Fixed> {
    (
        0..=i64::MAX,
        flags(),
        any::<i64>(),
        any::<i64>(),
        any::<[i32; 3]>(),
        any::<[i16; 2]>(),
        any::<bool>(),
        pipeline(),
    )
        .prop_map(|(frame_len, flags, nbytes, cbytes, ints, threads, has_vlmetalayers, pipeline)| {
            Fixed { frame_len, flags, nbytes, cbytes, ints, threads, has_vlmetalayers, pipeline }
        })
}

fn header<'a>(f: &Fixed, metalayers: MetaLayers<'a, 7>) -> FrameHeader<'a> {
    FrameHeader {
        magic: *b"b2frame\0",
        header_len: (87 + metalayers.encoded_len()) as i32,
        frame_len: f.frame_len,
        flags: f.flags,
        nbytes: f.nbytes,
        cbytes: f.cbytes,
        typesize: f.ints[0],
        blocksize: f.ints[1],
        chunksize: f.ints[2],
        nthreads_comp: f.threads[0],
        nthreads_decomp: f.threads[1],
        has_vlmetalayers: f.has_vlmetalayers,
        filter_pipeline: f.pipeline,
        metalayers,
    }
}

fn trailer<'a>(vlmetalayers: MetaLayers<'a, 6>, fingerprint: Fingerprint) -> Trailer<'a> {
    let trailer_len = (vlmetalayers.encoded_len() + b2schema::frame::TRAILER_FIXED_LEN) as u32;
    Trailer { version: 1, vlmetalayers, trailer_len, fingerprint }
}

/// Encodes `value`, checks that the bytes decode to it, and that decoding and re-encoding gives
/// the same bytes.
fn round_trip<'a, T>(value: &T, bytes: &'a [u8]) -> Result<(), TestCaseError>
where
    T: serde::Serialize + serde::Deserialize<'a> + PartialEq + std::fmt::Debug,
{
    let back: T = b2schema::from_slice(bytes).map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(&back, value);
    prop_assert_eq!(b2schema::to_vec(&back).unwrap(), bytes);
    prop_assert_eq!(b2schema::encoded_len(&back).unwrap(), bytes.len());
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn b2nd_round_trips(
        (shape, chunkshape, blockshape) in shapes(false),
        version in 0u8..=127,
        dtype_format in 0u8..=127,
        dtype in "\\PC{0,40}",
    ) {
        let n = shape.len();
        let meta = B2nd { version, ndim: n as u8, shape, chunkshape, blockshape, dtype_format, dtype: &dtype };
        let bytes = b2schema::to_vec(&meta).unwrap();
        prop_assert_eq!(bytes.len(), 12 + 19 * n + dtype.len());
        // c-blosc2's counted arrays: 0x90 + ndim in a byte (16 dimensions write a0).
        prop_assert_eq!(bytes[3], 0x90 + n as u8);
        round_trip(&meta, &bytes)?;
    }

    #[test]
    fn valid_b2nd_reads_the_same_both_ways((shape, chunkshape, blockshape) in shapes(true), dtype in "[<>|][fiu][1248]") {
        let n = shape.len();
        let meta = B2nd { version: 0, ndim: n as u8, shape, chunkshape, blockshape, dtype_format: 0, dtype: &dtype };
        let bytes = b2schema::to_vec(&meta).unwrap();
        let strict = b2nd::read(&bytes).unwrap();
        prop_assert_eq!(strict.layout, LayoutKind::B2nd7);
        prop_assert_eq!(&strict.shape, &meta.shape);
        prop_assert_eq!(b2nd::read_compat(&bytes).unwrap(), strict);
    }

    #[test]
    fn caterva_round_trips((shape, chunkshape, blockshape) in shapes(false), version in 0u8..=127) {
        let meta = Caterva { version, ndim: shape.len() as u8, shape, chunkshape, blockshape };
        let bytes = b2schema::to_vec(&meta).unwrap();
        prop_assert_eq!(bytes.len(), 6 + 19 * meta.shape.len());
        round_trip(&meta, &bytes)?;
    }

    #[test]
    fn flags_and_pipeline_round_trip(f in flags(), p in pipeline()) {
        let bytes = b2schema::to_vec(&f).unwrap();
        prop_assert_eq!(&bytes, &[f.general, f.frame_type, f.codec, f.other]);
        round_trip(&f, &bytes)?;
        let bytes = b2schema::to_vec(&p).unwrap();
        prop_assert_eq!(bytes.len(), 17);
        round_trip(&p, &bytes)?;
        // Under the markers the header gives them.
        let bytes = b2schema::to_vec(&FixStr(f)).unwrap();
        prop_assert_eq!(bytes[0], 0xa4);
        round_trip(&FixStr(f), &bytes)?;
        let bytes = b2schema::to_vec(&FixExt16(p)).unwrap();
        prop_assert_eq!(&bytes[..2], &[0xd8, p.nfilters]);
        round_trip(&FixExt16(p), &bytes)?;
    }

    #[test]
    fn frame_header_round_trips(f in fixed(), layers in layers(16)) {
        let h = header(&f, MetaLayers::build(&borrowed(&layers), 87));
        let bytes = b2schema::to_vec(&h).unwrap();
        prop_assert_eq!(bytes.len(), h.header_len as usize);
        round_trip(&h, &bytes)?;
        h.metalayers.validate(87, 87, 16, "metalayers").unwrap();
        for (name, offset, content) in h.metalayers.iter() {
            prop_assert_eq!(bytes[offset as usize], 0xc6, "{}", name);
            prop_assert_eq!(&bytes[offset as usize + 5..][..content.len()], content);
        }
    }

    #[test]
    fn trailer_round_trips(layers in layers(24), kind in any::<u8>(), value in any::<[u8; 16]>()) {
        let t = trailer(MetaLayers::build(&borrowed(&layers), 2), Fingerprint { kind, value });
        let bytes = b2schema::to_vec(&t).unwrap();
        prop_assert_eq!(bytes.len(), t.trailer_len as usize);
        round_trip(&t, &bytes)?;
        t.vlmetalayers.validate(2, 2, MAX_VLMETALAYERS, "vlmetalayers").unwrap();
    }

    /// A frame with no data, made of a random header and trailer, reads back with everything in
    /// place, and re-encodes to its own bytes.
    #[test]
    fn built_frames_read_back(
        f in fixed(),
        metas in layers(16),
        vls in layers(8),
        version in 1u8..=3,
        typesize in 1..=i32::MAX,
    ) {
        let mut f = f;
        f.flags.general = (f.flags.general & 0xf0) | version;
        f.flags.frame_type = 0;
        f.pipeline.nfilters %= 7;
        (f.nbytes, f.cbytes, f.ints[0]) = (0, 0, typesize);
        let t = trailer(MetaLayers::build(&borrowed(&vls), 2), Fingerprint::default());
        let mut h = header(&f, MetaLayers::build(&borrowed(&metas), 87));
        h.frame_len = (h.header_len as u32 + t.trailer_len) as i64;
        let mut frame = b2schema::to_vec(&h).unwrap();
        frame.extend(b2schema::to_vec(&t).unwrap());
        let v = FrameView::from_slice(&frame).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(&v.header, &h);
        prop_assert_eq!(&v.trailer, &t);
        for (name, content) in &metas {
            prop_assert_eq!(v.metalayer(name), Some(content.as_slice()));
        }
        for (name, content) in &vls {
            prop_assert_eq!(v.vlmetalayer(name), Some(content.as_slice()));
        }
        prop_assert_eq!(v.chunk_locations().unwrap(), vec![]);
        prop_assert_eq!(v.encode_header().unwrap(), v.header_bytes);
        prop_assert_eq!(v.encode_trailer().unwrap(), v.trailer_bytes);
    }
}

// ---------------------------------------------------------------------------------------------
// Mutations of real fixtures.

/// The fixtures mutated: a 2-d array (memcpyed chunks and index), 5 metalayers and 2
/// vlmetalayers, 16 dimensions, compressed chunks (bstarts tables), 16 metalayers, special
/// chunks, and a legacy `caterva` metalayer.
const FIXTURES: [&str; 7] = [
    "nd-2d-u2.b2nd",
    "nd-meta-vlmeta.b2nd",
    "nd-16d-i2.b2nd",
    "codec-zstd-9.b2nd",
    "schunk-meta-16.b2frame",
    "special-partial-zeros-f8.b2nd",
    "compat:c-blosc2-history/b6e2e566/plugins/test_data/example_day_month_temp.b2nd",
];

fn fixture(i: usize) -> Vec<u8> {
    let name = FIXTURES[i];
    let path = match name.strip_prefix("compat:") {
        Some(rel) => compat_file(rel),
        None => repo_root().join("tests/data/fixtures").join(name),
    };
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A field of a fixture: where it is, how wide, and in which byte order.
#[derive(Clone, Copy, Debug)]
struct Field {
    at: usize,
    width: usize,
    le: bool,
}

impl Field {
    const fn be(at: usize, width: usize) -> Self {
        Field { at, width, le: false }
    }

    const fn le(at: usize, width: usize) -> Self {
        Field { at, width, le: true }
    }

    fn write(self, b: &mut [u8], value: i64) {
        let bytes = value.to_be_bytes();
        let mut v = bytes[8 - self.width..].to_vec();
        if self.le {
            v.reverse();
        }
        b[self.at..self.at + self.width].copy_from_slice(&v);
    }
}

/// The places in a fixture that each kind of mutation targets.
#[derive(Default, Debug)]
struct Sites {
    /// Length fields: header_len, frame_len, trailer_len, bin32/str32 lengths, chunk sizes.
    lengths: Vec<Field>,
    /// Offsets: metalayer and vlmetalayer offsets, index entries, chunk bstarts.
    offsets: Vec<Field>,
    /// Sizes that must not be negative: header sizes, b2nd dimensions, chunk nbytes.
    sizes: Vec<Field>,
    /// Array and map counts: (position of the marker or of the low count byte, its value, whether
    /// it is a fix marker whose low nibble is the count).
    counts: Vec<(usize, u8, bool)>,
    /// The `b2nd`/`caterva` metalayer's ndim byte.
    ndim: Option<usize>,
    /// The metalayers (name, content).
    metalayers: Vec<(String, Vec<u8>)>,
}

fn sites(frame: &[u8]) -> Sites {
    let v = FrameView::from_slice(frame).unwrap();
    let mut s = Sites::default();
    let len = frame.len();
    let t = v.trailer_offset as usize;
    s.lengths.extend([Field::be(11, 4), Field::be(16, 8), Field::be(len - 22, 4)]);
    s.sizes.extend([Field::be(30, 8), Field::be(39, 8), Field::be(48, 4)]);
    if v.header.nbytes > 0 {
        s.sizes.push(Field::be(58, 4));
    }
    for (at, fix) in [(0, true), (87, true), (93, false), (t, true), (t + 2, true), (t + 8, false)] {
        s.counts.push((at, frame[at], fix));
    }
    let mut entry = 94;
    for (name, offset, content) in v.header.metalayers.iter() {
        s.offsets.push(Field::be(entry + 1 + name.len() + 1, 4));
        entry += 6 + name.len();
        let c = offset as usize;
        s.lengths.push(Field::be(c + 1, 4));
        s.metalayers.push((name.to_string(), content.to_vec()));
        if (name == "b2nd" || name == "caterva") && !content.is_empty() {
            let c = c + 5;
            let n = content[2] as usize;
            s.ndim = Some(c + 2);
            s.counts.extend([(c, content[0], true), (c + 3, content[3], true)]);
            s.counts.push((c + 4 + 9 * n, content[4 + 9 * n], true));
            for i in 0..n {
                s.sizes.push(Field::be(c + 5 + 9 * i, 8));
                s.sizes.push(Field::be(c + 6 + 9 * n + 5 * i, 4));
                s.sizes.push(Field::be(c + 7 + 14 * n + 5 * i, 4));
            }
            if content[0] == 0x97 {
                s.lengths.push(Field::be(c + 8 + 19 * n, 4));
            }
        }
    }
    let mut entry = t + 9;
    for (name, offset, _) in v.trailer.vlmetalayers.iter() {
        s.offsets.push(Field::be(entry + 1 + name.len() + 1, 4));
        entry += 6 + name.len();
        let c = t + offset as usize;
        s.lengths.push(Field::be(c + 1, 4));
        s.lengths.push(Field::le(c + 5 + 12, 4));
    }
    let index = v.index_offset as usize;
    if !v.index_bytes.is_empty() {
        s.lengths.extend([Field::le(index + 4, 4), Field::le(index + 12, 4)]);
        let h = ChunkHeader::parse(v.index_bytes).unwrap();
        if h.is_memcpyed() {
            for i in 0..h.uncompressed_len() / 8 {
                s.offsets.push(Field::le(index + 32 + 8 * i, 8));
            }
        }
    }
    for loc in v.chunk_locations().unwrap() {
        let ChunkLocation::Offset(o) = loc else { continue };
        let c = v.header_bytes.len() + o as usize;
        let h = ChunkHeader::parse(&frame[c..]).unwrap();
        s.lengths.push(Field::le(c + 12, 4));
        // A special chunk's nbytes can be anything up to the limit: only the others' is a length.
        if h.special() == chunk::Special::None {
            s.lengths.push(Field::le(c + 4, 4));
        }
        s.sizes.push(Field::le(c + 4, 4));
        if !h.is_memcpyed() && h.special() == chunk::Special::None {
            for i in 0..h.nblocks() {
                s.offsets.push(Field::le(c + h.header_len() + 4 * i, 4));
            }
        }
    }
    s
}

#[derive(Clone, Debug)]
enum Mutation {
    /// Flips one bit.
    Flip(Index, u8),
    /// Cuts the frame short.
    Truncate(Index),
    /// Sets a length field to a value larger than the frame (or negative, as a signed field).
    HugeLength(Index, u64),
    /// Points an offset past the end of its section.
    OffsetOutside(Index, u32),
    /// Gives two metalayers the same name.
    DuplicateName(Index, Index),
    /// Makes a size negative.
    NegativeSize(Index, i64),
    /// Sets the b2nd ndim above 16.
    NdimOver16(u8),
    /// Makes an array or map count lie.
    CountLies(Index, u8),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<Index>(), 0u8..8).prop_map(|(i, b)| Mutation::Flip(i, b)),
        any::<Index>().prop_map(Mutation::Truncate),
        (any::<Index>(), any::<u64>()).prop_map(|(i, v)| Mutation::HugeLength(i, v)),
        (any::<Index>(), any::<u32>()).prop_map(|(i, v)| Mutation::OffsetOutside(i, v)),
        (any::<Index>(), any::<Index>()).prop_map(|(a, b)| Mutation::DuplicateName(a, b)),
        (any::<Index>(), i64::MIN..0).prop_map(|(i, v)| Mutation::NegativeSize(i, v)),
        (17u8..=255).prop_map(Mutation::NdimOver16),
        (any::<Index>(), 1u8..16).prop_map(|(i, d)| Mutation::CountLies(i, d)),
    ]
}

/// Applies `m` to `frame`; returns whether the result must be an error (`None`: the mutation
/// does not apply to this fixture).
fn apply(m: &Mutation, frame: &mut Vec<u8>) -> Option<bool> {
    let s = sites(frame);
    let len = frame.len() as u64;
    match m {
        Mutation::Flip(i, bit) => {
            let i = i.index(frame.len());
            frame[i] ^= 1 << bit;
            Some(false)
        }
        Mutation::Truncate(i) => {
            frame.truncate(i.index(frame.len()));
            Some(true)
        }
        Mutation::HugeLength(i, v) => {
            let f = *i.get(&s.lengths);
            // Larger than the whole frame, in the field's width (negative when signed).
            let max = if f.width == 8 { u64::MAX } else { u64::from(u32::MAX) };
            let v = len + 1 + v % (max - len);
            f.write(frame, v as i64);
            Some(true)
        }
        Mutation::OffsetOutside(i, v) => {
            let f = *i.get(&s.offsets);
            let v = len + u64::from(*v) % (i32::MAX as u64 - len);
            f.write(frame, v as i64);
            Some(true)
        }
        Mutation::DuplicateName(a, b) => {
            if s.metalayers.is_empty() {
                return None;
            }
            let mut layers = borrowed(&s.metalayers);
            let (a, b) = (a.index(layers.len()), b.index(layers.len()));
            if a == b {
                layers.insert(a, layers[a]);
            } else {
                layers[b].0 = layers[a].0;
            }
            if layers.len() > 16 {
                // Keep the two copies (at a and a + 1).
                let drop = if a + 2 == layers.len() { 0 } else { layers.len() - 1 };
                layers.remove(drop);
            }
            *frame = with_metalayers(frame, &layers);
            Some(true)
        }
        Mutation::NegativeSize(i, v) => {
            let f = *i.get(&s.sizes);
            let v = if f.width == 4 { (*v).max(i32::MIN as i64) } else { *v };
            f.write(frame, v);
            Some(true)
        }
        Mutation::NdimOver16(n) => {
            frame[s.ndim?] = *n;
            Some(true)
        }
        Mutation::CountLies(i, d) => {
            let (at, value, fix) = *i.get(&s.counts);
            frame[at] =
                if fix { (value & 0xf0) | (value.wrapping_add(*d) & 0x0f) } else { value.wrapping_add(*d) };
            Some(frame[at] != value)
        }
    }
}

/// Everything a reader does with a frame in memory: the view, the chunk index, the b2nd
/// metalayer (both readers), the vlmetalayers and every stored chunk.
fn read_all(b: &[u8]) -> b2schema::Result<()> {
    let v = FrameView::from_slice(b)?;
    let locations = v.chunk_locations()?;
    for (name, offset, content) in v.header.metalayers.iter() {
        if name == "b2nd" || name == "caterva" {
            b2nd::read(content).map_err(|e| e.shift_offset(offset as usize + 5))?;
            b2nd::read_compat(content).map_err(|e| e.shift_offset(offset as usize + 5))?;
        }
    }
    for (_, offset, content) in v.trailer.vlmetalayers.iter() {
        let at = v.trailer_offset as usize + offset as usize + 5;
        chunk::decompress_with_limit(content, 1 << 20).map_err(|e| b2schema::Error::chunk(e, at))?;
    }
    for loc in locations {
        if let ChunkLocation::Offset(o) = loc {
            let at = v.header_bytes.len() + o as usize;
            chunk::decompress_with_limit(&b[at..], 1 << 20).map_err(|e| b2schema::Error::chunk(e, at))?;
        }
    }
    Ok(())
}

/// The same from a file: open (its own size checks), the chunks' headers, every stored chunk.
fn read_file(path: &std::path::Path) -> b2schema::Result<()> {
    let f = FrameFile::open(path)?;
    let v = f.view()?;
    for (name, _, content) in v.header.metalayers.iter() {
        if name == "b2nd" || name == "caterva" {
            b2nd::read(content)?;
        }
    }
    for (_, _, content) in v.trailer.vlmetalayers.iter() {
        chunk::decompress_with_limit(content, 1 << 20).map_err(|e| b2schema::Error::chunk(e, 0))?;
    }
    for info in f.chunks()? {
        if info.special.is_none() || info.cbytes > 0 {
            let bytes = f.read_chunk(info.location)?;
            chunk::decompress_with_limit(&bytes, 1 << 20).map_err(|e| b2schema::Error::chunk(e, 0))?;
        }
    }
    Ok(())
}

#[test]
fn every_fixture_reads_whole_before_mutation() {
    for (i, name) in FIXTURES.iter().enumerate() {
        let frame = fixture(i);
        read_all(&frame).unwrap_or_else(|e| panic!("{name}: {e}"));
        let s = sites(&frame);
        assert!(!s.lengths.is_empty() && !s.offsets.is_empty() && !s.sizes.is_empty(), "{name}");
    }
}

fn temp_path() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("b2schema-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(format!("{:?}.b2frame", std::thread::current().id()).replace(['(', ')'], ""))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1024, ..ProptestConfig::default() })]

    #[test]
    fn mutated_fixtures_are_errors_and_never_panic(which in 0..FIXTURES.len(), m in mutation()) {
        let mut frame = fixture(which);
        let Some(must_fail) = apply(&m, &mut frame) else { return Ok(()) };
        let r = read_all(&frame);
        if must_fail {
            prop_assert!(r.is_err(), "{} with {:?} reads", FIXTURES[which], m);
        }
        if let Err(e) = r {
            prop_assert!(e.offset().is_some(), "{}", e);
            let _ = e.to_string();
        }
        // The annotated dumps of whatever is there.
        let _ = b2schema::dump::annotate(&frame[..frame.len().min(512)]);
        let _ = b2schema::layout::annotate(<FrameHeader as b2schema::B2Layout>::LAYOUT, &frame);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn mutated_fixture_files_are_errors_and_never_panic(which in 0..FIXTURES.len(), m in mutation()) {
        let mut frame = fixture(which);
        let Some(must_fail) = apply(&m, &mut frame) else { return Ok(()) };
        let path = temp_path();
        std::fs::write(&path, &frame).unwrap();
        let r = read_file(&path);
        // From a file, a frame may be followed by other bytes: a truncation that keeps a whole
        // frame is not an error (none of these fixtures ends with one).
        if must_fail {
            prop_assert!(r.is_err(), "{} with {:?} reads from a file", FIXTURES[which], m);
        }
    }
}
