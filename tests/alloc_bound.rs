//! Allocation bounds (issue 8), measured with a counting global allocator (this test binary only).
//!
//! - Decoding allocates at most a small constant factor of the input's length, plus a constant:
//!   the frame reader, `from_slice::<serde_json::Value>`, `b2nd::read`, the dtype parser, on every
//!   fixture and on random and mutated inputs. The one input-independent term is the chunk index:
//!   `chunk_locations()` allocates 8 bytes (the decoded index) and a 16-byte `ChunkLocation` per
//!   chunk the header claims, and a tiny repeat-value index (what c-blosc2 writes for an all-zeros
//!   array) legitimately claims up to `MAX_NCHUNKS` (2^28) chunks; that term is measured separately.
//! - Decoding borrowed types allocates nothing: a struct of `&str`, `&[u8]` and integers, the
//!   fixed parts of the frame header, and a frame header, trailer or whole `FrameView` without
//!   metalayers. What allocates, and why: `MetaLayers` holds two `Vec`s (names and contents), one
//!   allocation each when there are layers (and `validate` builds the expected section, three
//!   more, freed at once); `B2nd`'s three shapes are `Vec`s; errors are boxed.

use b2schema::chunk::ChunkHeader;
use b2schema::dtype::DType;
use b2schema::frame::{FrameHeader, FrameView, Trailer};
use b2schema::wrap::{Bin32, FixStr, Str32};
use b2schema::{Config, b2nd};
use b2schema_tests::{Rng, repo_root};

/// Counts, per thread, the bytes asked for (allocations, and reallocations' growth) and how many
/// allocations were made.
/// Runs `f` and returns its result with the heap bytes and allocations it asked for (the
/// `allocation-counter` crate's global allocator counts them, per thread).
fn measure<R>(f: impl FnOnce() -> R) -> (R, usize, usize) {
    let mut f = Some(f);
    let mut out = None;
    let info = allocation_counter::measure(|| out = f.take().map(|f| f()));
    (out.expect("the closure ran"), info.bytes_total as usize, info.count_total as usize)
}

const ERROR_BYTES: usize = 1024;

fn fixtures() -> Vec<(String, Vec<u8>)> {
    let dir = repo_root().join("tests/data/fixtures");
    let mut out: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read(&p).unwrap()))
        .collect();
    out.sort();
    out
}

/// `bytes` with a few random changes: bit flips, bytes set to 00/ff/7f/80 or anything, a cut.
fn mutate(rng: &mut Rng, bytes: &[u8]) -> Vec<u8> {
    let mut b = bytes.to_vec();
    if b.is_empty() {
        return b;
    }
    for _ in 0..1 + rng.below(4) {
        let i = rng.below(b.len());
        match rng.below(3) {
            0 => b[i] ^= 1 << rng.below(8),
            1 => b[i] = [0x00, 0xff, 0x7f, 0x80][rng.below(4)],
            _ => b[i] = rng.next_u64() as u8,
        }
    }
    if rng.below(8) == 0 {
        b.truncate(rng.below(b.len() + 1));
    }
    b
}

fn random_bytes(rng: &mut Rng, max: usize) -> Vec<u8> {
    (0..rng.below(max)).map(|_| rng.next_u64() as u8).collect()
}

/// Chunks the index of a frame claims (0 when it has none, or it does not parse).
fn claimed_chunks(frame: &[u8]) -> usize {
    FrameView::from_slice(frame)
        .ok()
        .and_then(|v| ChunkHeader::peek(v.index_bytes).ok())
        .map_or(0, |h| h.uncompressed_len() / 8)
}

/// The frame reader: at most 8 bytes per input byte, 48 per claimed chunk (8 decoded, 16 per
/// location, doubled by the vector's growth) and a constant.
fn check_frame(name: &str, frame: &[u8]) -> usize {
    let claimed = claimed_chunks(frame);
    if claimed > 1 << 16 {
        return 0; // measured by a_tiny_index_claiming_many_chunks
    }
    let ((), bytes, _) = measure(|| {
        if let Ok(v) = FrameView::from_slice(frame) {
            let _ = v.chunk_locations();
        }
    });
    let bound = 8 * frame.len() + 48 * claimed + 4 * ERROR_BYTES;
    assert!(bytes <= bound, "{name}: {bytes} bytes for {} input bytes and {claimed} chunks", frame.len());
    bytes
}

/// `from_slice::<serde_json::Value>` (minimal, lenient). All of it is serde_json's
/// representation, none the deserializer's (which allocates nothing: `IgnoredAny` below): a
/// `Value` is 32 bytes and every msgpack byte can be one (`90`, an empty array); an array's
/// elements go in a `Vec` that starts at 4 (a 1-byte `91` costs 128 bytes) and grows by doubling;
/// a map is a `BTreeMap` whose first leaf takes about 640 bytes (a 3-byte `81 a0 c0`). At most
/// 256 bytes per input byte, that is 8 `Value`s of 32 bytes: the bound is written in `Value`s
/// ([`PER_BYTE`]), because serde_json's `preserve_order` (which the command line turns on, and a
/// workspace build unifies) makes a `Value` larger. Returns the bytes when it decoded.
/// What one msgpack byte may cost as serde_json `Value`s: 8 of them (256 bytes without
/// `preserve_order`).
const PER_BYTE: usize = 8 * core::mem::size_of::<serde_json::Value>();

fn check_value(name: &str, bytes: &[u8]) -> Option<usize> {
    let (r, n, _) = measure(|| b2schema::from_slice_with::<serde_json::Value>(bytes, Config::minimal()));
    assert!(n <= PER_BYTE * bytes.len() + ERROR_BYTES, "{name}: {n} bytes for {} input bytes", bytes.len());
    if r.is_ok() {
        let (any, n, _) =
            measure(|| b2schema::from_slice_with::<serde::de::IgnoredAny>(bytes, Config::minimal()));
        assert!(any.is_ok());
        assert_eq!(n, 0, "{name}: the deserializer itself allocated");
    }
    r.ok().map(|_| n)
}

/// `b2nd::read` and `read_compat`: the shapes and the dtype, twice at most.
fn check_b2nd(name: &str, bytes: &[u8]) {
    let (_, n, _) = measure(|| (b2nd::read(bytes), b2nd::read_compat(bytes)));
    assert!(n <= 4 * bytes.len() + 2 * ERROR_BYTES, "{name}: {n} bytes for {} input bytes", bytes.len());
}

/// The dtype parser: a `Vec` of fields, their names, a boxed dtype per level; at most 128 bytes
/// per input byte (a level of `[('a', ...)]` is 9 bytes and takes about 640).
fn check_dtype(name: &str, text: &str) -> usize {
    let (_, n, _) = measure(|| DType::parse(text));
    assert!(
        n <= 128 * text.len() + ERROR_BYTES,
        "{name}: {n} bytes for {} input bytes ({text:?})",
        text.len()
    );
    n
}

#[test]
fn decoding_fixtures_allocates_a_constant_factor_of_the_input() {
    let (mut worst_value, mut worst_frame) = (0f64, 0f64);
    for (name, frame) in fixtures() {
        let n = check_frame(&name, &frame);
        worst_frame = worst_frame.max(n as f64 / frame.len() as f64);
        let Ok(v) = FrameView::from_slice(&frame) else { continue };
        for (_, _, content) in v.header.metalayers.iter() {
            if let Some(n) = check_value(&name, content) {
                worst_value = worst_value.max(n as f64 / content.len() as f64);
            }
            check_b2nd(&name, content);
            if let Ok(m) = b2nd::read(content)
                && let Some(dtype) = &m.dtype
            {
                check_dtype(&name, dtype);
            }
        }
        for (_, _, content) in v.trailer.vlmetalayers.iter() {
            if let Ok(value) = b2schema::chunk::decompress(content) {
                check_value(&name, &value);
            }
        }
    }
    eprintln!("worst Value bytes per input byte on the fixtures: {worst_value:.1}");
    eprintln!("worst frame reader (view + chunk_locations) bytes per input byte: {worst_frame:.2}");
    assert!(worst_value <= PER_BYTE as f64, "{worst_value}");
}

#[test]
fn decoding_random_and_mutated_inputs_allocates_a_constant_factor_of_the_input() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let fixtures = fixtures();
    let cases: Vec<String> = {
        let text = std::fs::read_to_string(repo_root().join("tests/data/dtype-cases.json")).unwrap();
        let json: serde_json::Value = serde_json::from_str(&text).unwrap();
        json["cases"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|c| c["written"].as_str().map(String::from))
            .collect()
    };
    for round in 0..3000 {
        let (name, frame) = &fixtures[rng.below(fixtures.len())];
        let mutated = mutate(&mut rng, frame);
        check_frame(name, &mutated);
        if let Ok(v) = FrameView::from_slice(frame)
            && let Some((_, _, content)) = v.header.metalayers.iter().next()
        {
            let m = mutate(&mut rng, content);
            check_value(name, &m);
            check_b2nd(name, &m);
        }
        let random = random_bytes(&mut rng, 256);
        check_value("random", &random);
        check_b2nd("random", &random);
        let case = rng.below(cases.len());
        let dtype = mutate(&mut rng, cases[case].as_bytes());
        if let Ok(text) = std::str::from_utf8(&dtype) {
            check_dtype(&format!("round {round}"), text);
        }
    }
}

#[test]
fn the_worst_inputs_for_value_and_dtype() {
    // Arrays of empty arrays: one 32-byte Value per input byte.
    let mut many = vec![0xdc, 0xff, 0xff];
    many.extend(std::iter::repeat_n(0x90, 0xffff));
    let n = check_value("65535 empty arrays", &many).unwrap();
    assert!(n >= core::mem::size_of::<serde_json::Value>() * 0xffff, "{n}");
    // Nested arrays, as deep as the limit allows.
    let mut deep = vec![0x91; 127];
    deep.push(0x90);
    // Each level: a `Vec` of 4 `Value`s (128 bytes without `preserve_order`).
    let value = core::mem::size_of::<serde_json::Value>();
    assert_eq!(check_value("127 nested arrays", &deep), Some(4 * value * 127));
    // Maps of distinct keys.
    let mut map = vec![0xde, 0x03, 0xe8];
    for i in 0..1000u16 {
        map.extend([0xa2, b'a' + (i / 26 % 26) as u8, b'a' + (i % 26) as u8, 0xc0]);
    }
    let n = check_value("1000 map entries", &map).unwrap();
    eprintln!("Value, 1000 map entries: {n} bytes for {} input bytes", map.len());
    let n = check_value("a one-entry map", &[0x81, 0xa0, 0xc0]).unwrap();
    eprintln!("Value, a one-entry map: {n} bytes for 3 input bytes");
    // Structured dtypes with many short fields, deep nesting, big subarrays.
    let fields: Vec<String> = (0..500).map(|i| format!("('f{i}', 'u1')")).collect();
    let text = format!("[{}]", fields.join(", "));
    let n = check_dtype("500 fields", &text);
    eprintln!("dtype, 500 fields: {n} bytes for {} input bytes", text.len());
    let mut nested = String::from("'<i4'");
    for _ in 0..b2schema::dtype::MAX_DEPTH {
        nested = format!("[('a', {nested})]");
    }
    let n = check_dtype("nested", &nested);
    eprintln!("dtype, {} levels: {n} bytes for {} input bytes", b2schema::dtype::MAX_DEPTH, nested.len());
    check_dtype("subarray", "('<f8', (1000, 1000, 100))");
}

/// The one input-independent term: a frame's index may be a 40-byte repeat-value chunk that
/// claims any number of chunks (c-blosc2 writes one for `blosc2.zeros`). Here a 172-byte frame
/// claims 2^20 chunks: 24 MiB for the locations, exactly as claimed, nothing more; the header
/// caps the claim at `MAX_NCHUNKS`.
#[test]
fn a_tiny_index_claiming_many_chunks() {
    let mut frame =
        std::fs::read(repo_root().join("tests/data/fixtures/schunk-fill-special-zero.b2frame")).unwrap();
    let n: usize = 1 << 20;
    let index = {
        let v = FrameView::from_slice(&frame).unwrap();
        v.index_offset as usize
    };
    frame[30..38].copy_from_slice(&(n as i64 * 800).to_be_bytes());
    frame[index + 4..index + 8].copy_from_slice(&(8 * n as i32).to_le_bytes());
    let (locations, bytes, allocations) =
        measure(|| FrameView::from_slice(&frame).unwrap().chunk_locations().unwrap());
    assert_eq!(locations.len(), n);
    assert!(bytes >= 8 * n + 16 * n, "{bytes}");
    assert!(bytes <= 48 * n + ERROR_BYTES, "{bytes}");
    assert!(allocations < 64, "{allocations}");
    assert!(frame.len() < 200);
}

#[test]
fn decoding_borrowed_types_allocates_nothing() {
    #[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq)]
    struct Borrowed<'a> {
        version: u8,
        #[serde(borrow)]
        name: Str32<&'a str>,
        #[serde(borrow)]
        short: FixStr<&'a str>,
        #[serde(borrow)]
        payload: Bin32<&'a [u8]>,
        #[serde(borrow, with = "serde_bytes")]
        raw: &'a [u8],
        size: i64,
        count: u32,
        flag: bool,
        nothing: Option<u16>,
        pair: (i8, f64),
    }
    let value = Borrowed {
        version: 1,
        name: Str32("a name in a str32"),
        short: FixStr("fix"),
        payload: Bin32(b"\x00\x01\x02"),
        raw: b"raw bytes",
        size: -1,
        count: 7,
        flag: true,
        nothing: None,
        pair: (-3, 0.5),
    };
    let bytes = b2schema::to_vec(&value).unwrap();
    let (back, n, count) = measure(|| b2schema::from_slice::<Borrowed>(&bytes).unwrap());
    assert_eq!(back, value);
    assert_eq!((n, count), (0, 0), "a struct of borrowed fields");

    // The fixed-width parts of the header: flags, filter pipeline, fingerprint.
    let frame =
        std::fs::read(repo_root().join("tests/data/fixtures/schunk-fill-special-zero.b2frame")).unwrap();
    let (v, n, count) = measure(|| FrameView::from_slice(&frame).unwrap());
    assert!(v.header.metalayers.iter().next().is_none() && v.trailer.vlmetalayers.iter().next().is_none());
    assert_eq!((n, count), (0, 0), "a whole FrameView without metalayers or vlmetalayers");
    let (_, n, count) = measure(|| b2schema::from_slice::<FrameHeader>(v.header_bytes).unwrap());
    assert_eq!((n, count), (0, 0), "a FrameHeader without metalayers");
    let (_, n, count) = measure(|| b2schema::from_slice::<Trailer>(v.trailer_bytes).unwrap());
    assert_eq!((n, count), (0, 0), "a Trailer without vlmetalayers");

    // With metalayers: exactly the two vectors of MetaLayers (names and contents); the contents
    // themselves are borrowed.
    let frame = std::fs::read(repo_root().join("tests/data/fixtures/nd-meta-vlmeta.b2nd")).unwrap();
    let v = FrameView::from_slice(&frame).unwrap();
    let (_, _, count) = measure(|| b2schema::from_slice::<FrameHeader>(v.header_bytes).unwrap());
    assert_eq!(count, 2, "a FrameHeader with metalayers: the names and the contents vectors");
    let (_, _, count) = measure(|| b2schema::from_slice::<Trailer>(v.trailer_bytes).unwrap());
    assert_eq!(count, 2, "a Trailer with vlmetalayers");
    // b2nd: the three shape vectors; a 0-d array has none.
    let meta = v.metalayer("b2nd").unwrap();
    let (_, _, count) = measure(|| b2schema::from_slice::<b2nd::B2nd>(meta).unwrap());
    assert_eq!(count, 3, "B2nd: shape, chunkshape, blockshape");
    let scalar = std::fs::read(repo_root().join("tests/data/fixtures/nd-0d-f8.b2nd")).unwrap();
    let v = FrameView::from_slice(&scalar).unwrap();
    let (_, _, count) = measure(|| b2schema::from_slice::<b2nd::B2nd>(v.metalayer("b2nd").unwrap()).unwrap());
    assert_eq!(count, 0, "a 0-d B2nd");
}
/// What the array reader allocates does not depend on the number of blocks. An array
/// of 2^10 and one of 2^24 one-item blocks (one special chunk each, read whole on one thread
/// into an output allocated outside the measure, and streamed through `read_to`) allocate
/// about the same few kilobytes: no vector of one entry per block row, no visit of each block of
/// a special chunk (an earlier reader asked for 2.4 GB here, for 2^24 blocks).
#[test]
fn array_reads_allocate_independently_of_the_block_count() {
    use b2schema::array::{ArrayReader, ReadOptions, Selection};
    use b2schema::frame::FrameFile;
    use b2schema::writer::{Fill, NdArray};
    let dir = std::env::temp_dir().join(format!("b2schema-alloc-bands-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut seen = Vec::new();
    for n in [1u64 << 10, 1 << 24] {
        let path = dir.join(format!("blocks-{n}.b2nd"));
        let a = NdArray::new(&[n as i64], &[n as i32], &[1], "|u1", 1, Fill::Value(&[7]));
        a.to_frame().unwrap().write_file(&path).unwrap();
        let file = FrameFile::open(&path).unwrap();
        let reader = ArrayReader::new(&file).unwrap();
        let sel = Selection::all(reader.shape());
        let opts = ReadOptions::one_thread(u64::MAX);
        let mut out = vec![0u8; n as usize];
        let (r, into, _) = measure(|| reader.read_into(&sel, &mut out, &opts));
        r.unwrap();
        assert!(out.iter().all(|&b| b == 7));
        let mut total = 0u64;
        let (r, streamed, _) = measure(|| {
            reader.read_to(&sel, &opts, 1 << 20, |piece| {
                total += piece.len() as u64;
                Ok(())
            })
        });
        r.unwrap();
        assert_eq!(total, n);
        seen.push((n, into, streamed));
    }
    let _ = std::fs::remove_dir_all(&dir);
    for &(n, into, streamed) in &seen {
        // read_to holds one piece of at most 1 MiB (the slab asked for).
        assert!(into < 64 << 10 && streamed < (1 << 20) + (64 << 10), "{n} blocks: {seen:?}");
    }
}

/// Nor on the number of chunks. An array of 2^20 one-item chunks (special, the index
/// 8 MiB) read whole on one thread holds at most a few kilobytes at any time (its peak heap
/// above the output, which is allocated outside), however many chunks it visits; the reader
/// of issue 32 read every touched chunk up front, about 120 bytes each (120 MiB here), and
/// scanned all of them for every band (2^40 steps here).
#[test]
fn array_reads_hold_memory_independently_of_the_chunk_count() {
    use b2schema::array::{ArrayReader, ReadOptions, Selection};
    use b2schema::frame::FrameFile;
    use b2schema::writer::{Fill, NdArray};
    let dir = std::env::temp_dir().join(format!("b2schema-alloc-chunks-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let n = 1u64 << 20;
    let path = dir.join("chunks.b2nd");
    NdArray::new(&[n as i64], &[1], &[1], "|u1", 1, Fill::Value(&[9]))
        .to_frame()
        .unwrap()
        .write_file(&path)
        .unwrap();
    let file = FrameFile::open(&path).unwrap();
    let reader = ArrayReader::new(&file).unwrap();
    let sel = Selection::all(reader.shape());
    let opts = ReadOptions::one_thread(u64::MAX);
    let mut out = vec![0u8; n as usize];
    let mut result = None;
    let info = allocation_counter::measure(|| result = Some(reader.read_into(&sel, &mut out, &opts)));
    result.unwrap().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(out.iter().all(|&b| b == 9));
    assert!(info.bytes_max < 256 << 10, "a peak of {} bytes over {n} chunks", info.bytes_max);
}

/// Opening a store (`b2schema::store`: the ZIP's end record and central directory, the embed
/// store's map) allocates a constant factor of the file plus the tail searched for the end
/// record (64 KiB) and what the budget lets one value decompress to, for the store fixtures
/// and 300 mutations of each (their central directories and end records mutated most).
#[test]
fn opening_a_store_allocates_a_constant_factor_of_the_file() {
    use b2schema::store::Store;
    let limits = b2schema::Limits::default().with_max_decompressed(1 << 20);
    let dir = std::env::temp_dir().join(format!("b2schema-alloc-store-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut rng = Rng(0x0b2_5707e);
    let mut worst = 0.0f64;
    for name in ["tree.b2z", "dict.b2z", "small.b2z", "embed.b2e"] {
        let good = std::fs::read(repo_root().join("tests/data/stores").join(name)).unwrap();
        for i in 0..301 {
            let bytes = if i == 0 {
                good.clone()
            } else if i % 2 == 0 {
                mutate(&mut rng, &good)
            } else {
                // The last 400 bytes: the central directory and the end records.
                let mut b = good.clone();
                for _ in 0..1 + rng.below(6) {
                    let at = b.len() - 1 - rng.below(400.min(b.len()));
                    b[at] = rng.next_u64() as u8;
                }
                b
            };
            let path = dir.join(format!("a-{name}"));
            std::fs::write(&path, &bytes).unwrap();
            let (_, allocated, _) =
                measure(|| Store::open_with_limits(&path, limits).map(|s| s.members().len()));
            let bound = 64 * bytes.len() + (64 << 10) + 2 * (1 << 20) + ERROR_BYTES;
            assert!(allocated <= bound, "{name} #{i}: {allocated} bytes allocated, bound {bound}");
            worst = worst.max(allocated as f64 / bytes.len() as f64);
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
    eprintln!("store open: at most {worst:.1} bytes allocated per byte of the file");
}
