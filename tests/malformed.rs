//! The malformed-input corpus: real fixtures, each broken by one named mutation, and the error a
//! user reads for each (`snapshots/malformed_errors.snap`, one line per case). Every message must
//! name an offset and a field.
//!
//! The cases are built here from the fixtures rather than stored as binaries, so nothing needs a
//! hex review: each case is a fixture plus the mutation its name describes. To look at them with
//! the command line tool, write them out:
//!
//! ```sh
//! B2SCHEMA_WRITE_MALFORMED=/tmp/malformed cargo test --test malformed
//! cargo run -p b2schema-cli -- inspect /tmp/malformed/frame-len-past-end.b2frame
//! ```

use b2schema::b2nd;
use b2schema::chunk::{self, ChunkError};
use b2schema::dtype::DType;
use b2schema::frame::{FrameFile, FrameView};
use b2schema_tests::with_metalayers;
use b2schema_tests::{read_compat, repo_root, snapshot};

/// 2-d `<u2` array: 1 metalayer (`b2nd`), 9 zstd chunks, a memcpyed offsets index, no vlmetalayers.
const ND: &str = "nd-2d-u2.b2nd";
/// 5 metalayers and 2 vlmetalayers.
const VL: &str = "nd-meta-vlmeta.b2nd";
/// 16 dimensions.
const ND16: &str = "nd-16d-i2.b2nd";
/// Compressed chunks: zstd, shuffle, 800 bytes in 4 blocks of 200, one stream per block.
const ZSTD: &str = "codec-zstd-9.b2nd";

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(repo_root().join("tests/data/fixtures").join(name)).unwrap()
}

fn put(b: &mut [u8], at: usize, bytes: &[u8]) {
    b[at..at + bytes.len()].copy_from_slice(bytes);
}

/// Where things are in a valid frame.
struct Places {
    header_len: usize,
    /// The offsets chunk.
    index: usize,
    trailer: usize,
    /// Each metalayer's `c6` marker.
    metas: Vec<usize>,
    /// The trailer's name map (after `de` + count).
    vl_entries: usize,
    /// Each vlmetalayer's `c6` marker, from the frame start.
    vls: Vec<usize>,
    /// Each stored chunk's first byte.
    chunks: Vec<usize>,
}

fn places(frame: &[u8]) -> Places {
    let v = FrameView::from_slice(frame).unwrap();
    let header_len = v.header_bytes.len();
    let trailer = v.trailer_offset as usize;
    let chunks = v
        .chunk_locations()
        .unwrap()
        .iter()
        .filter_map(|l| match l {
            b2schema::frame::ChunkLocation::Offset(o) => Some(header_len + *o as usize),
            _ => None,
        })
        .collect();
    Places {
        header_len,
        index: v.index_offset as usize,
        trailer,
        metas: v.header.metalayers.iter().map(|(_, o, _)| o as usize).collect(),
        vl_entries: trailer + 2 + 1 + 3 + 3,
        vls: v.trailer.vlmetalayers.iter().map(|(_, o, _)| trailer + o as usize).collect(),
        chunks,
    }
}

/// Everything a reader of a frame does: the view, the chunk index, the `b2nd` metalayer, the
/// vlmetalayers and the stored chunks.
fn read_frame(b: &[u8]) -> Result<(), String> {
    let v = FrameView::from_slice(b).map_err(|e| e.to_string())?;
    let locations = v.chunk_locations().map_err(|e| e.to_string())?;
    for (name, offset, content) in v.header.metalayers.iter() {
        if name == "b2nd" {
            b2nd::read(content).map_err(|e| e.shift_offset(offset as usize + 5).to_string())?;
        }
    }
    for (_, offset, content) in v.trailer.vlmetalayers.iter() {
        let at = v.trailer_offset as usize + offset as usize + 5;
        chunk::decompress_with_limit(content, 1 << 20)
            .map_err(|e| b2schema::Error::chunk(e, at).in_field("vlmetalayers").to_string())?;
    }
    for loc in locations {
        if let b2schema::frame::ChunkLocation::Offset(o) = loc {
            let at = v.header_bytes.len() + o as usize;
            chunk::decompress_with_limit(&b[at..], 1 << 20)
                .map_err(|e| b2schema::Error::chunk(e, at).in_field("chunks").to_string())?;
        }
    }
    Ok(())
}

fn chunk_err(r: Result<Vec<u8>, ChunkError>) -> Result<(), String> {
    r.map(|_| ()).map_err(|e| e.to_string())
}

/// One case: a file name saying what it breaks, its bytes, and how it is read.
struct Case {
    name: &'static str,
    bytes: Vec<u8>,
    read: fn(&[u8]) -> Result<(), String>,
}

fn frame_case(name: &'static str, base: &str, mutate: impl FnOnce(&mut Vec<u8>, &Places)) -> Case {
    let mut bytes = fixture(base);
    let p = places(&bytes);
    mutate(&mut bytes, &p);
    Case { name, bytes, read: read_frame }
}

fn b2nd_read(b: &[u8]) -> Result<(), String> {
    b2nd::read(b).map(|_| ()).map_err(|e| e.to_string())
}

fn b2nd_compat(b: &[u8]) -> Result<(), String> {
    b2nd::read_compat(b).map(|_| ()).map_err(|e| e.to_string())
}

fn meta_case(
    name: &'static str,
    base: &str,
    read: fn(&[u8]) -> Result<(), String>,
    mutate: impl FnOnce(&mut Vec<u8>),
) -> Case {
    let frame = fixture(base);
    let v = FrameView::from_slice(&frame).unwrap();
    let mut bytes = v.metalayer("b2nd").unwrap().to_vec();
    mutate(&mut bytes);
    Case { name, bytes, read }
}

fn chunk_case(name: &'static str, mutate: impl FnOnce(&mut Vec<u8>)) -> Case {
    let frame = fixture(ZSTD);
    let p = places(&frame);
    let mut bytes = frame[p.chunks[0]..p.chunks[1]].to_vec();
    mutate(&mut bytes);
    Case { name, bytes, read: |b| chunk_err(chunk::decompress_with_limit(b, 1 << 20)) }
}

fn cases() -> Vec<Case> {
    let i32b = |v: i32| v.to_be_bytes();
    let i64b = |v: i64| v.to_be_bytes();
    let u32b = |v: u32| v.to_be_bytes();
    let nd_meta = FrameView::from_slice(&fixture(ND)).unwrap().metalayer("b2nd").unwrap().to_vec();
    vec![
        // The fixed part of the header (values at the offsets of FrameHeader::LAYOUT).
        frame_case("frame-empty.b2frame", ND, |b, _| b.clear()),
        frame_case("frame-shorter-than-fixed-header.b2frame", ND, |b, _| b.truncate(50)),
        frame_case("frame-truncated-by-one.b2frame", ND, |b, _| {
            b.pop();
        }),
        frame_case("frame-byte-after-end.b2frame", ND, |b, _| b.push(0)),
        frame_case("frame-header-fixarray-lies.b2frame", ND, |b, _| b[0] = 0x9d),
        frame_case("frame-magic.b2frame", ND, |b, _| b[3] = b'X'),
        frame_case("header-len-marker.b2frame", ND, |b, _| b[10] = 0xce),
        frame_case("header-len-negative.b2frame", ND, |b, _| put(b, 11, &i32b(-1))),
        frame_case("header-len-huge.b2frame", ND, |b, _| put(b, 11, &i32b(i32::MAX))),
        frame_case("header-len-below-fixed-part.b2frame", ND, |b, _| put(b, 11, &i32b(86))),
        frame_case("header-len-off-by-one.b2frame", ND, |b, p| put(b, 11, &i32b(p.header_len as i32 + 1))),
        frame_case("frame-len-past-end.b2frame", ND, |b, _| {
            let len = b.len() as i64 + 1;
            put(b, 16, &i64b(len))
        }),
        frame_case("frame-len-huge.b2frame", ND, |b, _| put(b, 16, &i64b(i64::MAX))),
        frame_case("frame-len-negative.b2frame", ND, |b, _| put(b, 16, &i64b(-1))),
        frame_case("flags-marker.b2frame", ND, |b, _| b[24] = 0xa5),
        frame_case("flags-format-version-4.b2frame", ND, |b, _| b[25] = 0x14),
        frame_case("flags-frame-type-sparse.b2frame", ND, |b, _| b[26] = 1),
        frame_case("nbytes-negative.b2frame", ND, |b, _| put(b, 30, &i64b(-288))),
        frame_case("cbytes-negative.b2frame", ND, |b, _| put(b, 39, &i64b(-1))),
        frame_case("cbytes-past-trailer.b2frame", ND, |b, _| put(b, 39, &i64b(1 << 40))),
        frame_case("typesize-zero.b2frame", ND, |b, _| put(b, 48, &i32b(0))),
        frame_case("typesize-negative.b2frame", ND, |b, _| put(b, 48, &i32b(-2))),
        frame_case("chunksize-negative-with-data.b2frame", ND, |b, _| put(b, 58, &i32b(-5))),
        frame_case("nchunks-over-limit.b2frame", ND, |b, _| {
            put(b, 30, &i64b(i64::MAX));
            put(b, 58, &i32b(1));
        }),
        frame_case("has-vlmetalayers-marker.b2frame", ND, |b, _| b[68] = 0xc0),
        frame_case("filter-pipeline-marker.b2frame", ND, |b, _| b[69] = 0xd7),
        frame_case("filter-pipeline-7-filters.b2frame", ND, |b, _| b[70] = 7),
        // The metalayers section.
        frame_case("metalayers-fixarray-lies.b2frame", ND, |b, _| b[87] = 0x94),
        frame_case("metalayers-idx-wrong.b2frame", ND, |b, _| b[90] += 1),
        frame_case("metalayers-name-count-lies.b2frame", VL, |b, _| b[93] += 1),
        frame_case("metalayers-content-count-lies.b2frame", VL, |b, p| b[p.metas[0] - 1] -= 1),
        frame_case("metalayer-offset-outside.b2frame", ND, |b, _| put(b, 100, &i32b(i32::MAX))),
        frame_case("metalayer-offset-negative.b2frame", ND, |b, _| put(b, 100, &i32b(-107))),
        frame_case("metalayer-len-huge.b2frame", ND, |b, p| put(b, p.metas[0] + 1, &u32b(u32::MAX))),
        frame_case("metalayer-name-not-utf8.b2frame", ND, |b, _| b[95] = 0xff),
        frame_case("metalayer-name-marker.b2frame", ND, |b, _| b[94] = 0xd9),
        frame_case("metalayer-names-duplicate.b2frame", ND, |b, _| {
            *b = with_metalayers(b, &[("b2nd", &nd_meta), ("b2nd", b"\xc0")]);
        }),
        frame_case("metalayers-17.b2frame", ND, |b, _| {
            let names: Vec<String> = (0..17).map(|i| format!("m{i:02}")).collect();
            let layers: Vec<(&str, &[u8])> = names.iter().map(|n| (n.as_str(), &b"\xc0"[..])).collect();
            *b = with_metalayers(b, &layers);
        }),
        frame_case("metalayer-offset-into-name-map.b2frame", ND, |b, _| put(b, 100, &i32b(94))),
        // The b2nd metalayer inside a frame (offsets from the frame start).
        frame_case("frame-b2nd-ndim-17.b2frame", ND16, |b, p| b[p.metas[0] + 5 + 2] = 17),
        frame_case("frame-b2nd-shape-negative.b2frame", ND, |b, p| put(b, p.metas[0] + 5 + 5, &i64b(-10))),
        // The offsets index.
        frame_case("index-chunk-blocksize-zero.b2frame", ND, |b, p| put(b, p.index + 8, &0i32.to_le_bytes())),
        frame_case("index-nbytes-not-multiple-of-8.b2frame", ND, |b, p| b[p.index + 4] += 1),
        frame_case("nbytes-more-chunks-than-index.b2frame", ND, |b, _| put(b, 30, &i64b(288 + 32))),
        frame_case("index-cbytes-short.b2frame", ND, |b, p| b[p.index + 12] -= 8),
        frame_case("index-entry-past-chunks.b2frame", ND, |b, p| {
            let entry = p.index + 32 + 8;
            put(b, entry, &10_000i64.to_le_bytes())
        }),
        frame_case("index-entry-negative-not-special.b2frame", ND, |b, p| {
            put(b, p.index + 32, &i64::MIN.to_le_bytes())
        }),
        // The trailer.
        frame_case("trailer-len-marker.b2frame", ND, |b, _| {
            let at = b.len() - 23;
            b[at] = 0xcd
        }),
        frame_case("trailer-len-below-minimum.b2frame", ND, |b, _| {
            let at = b.len() - 22;
            put(b, at, &u32b(24))
        }),
        frame_case("trailer-len-huge.b2frame", ND, |b, _| {
            let at = b.len() - 22;
            put(b, at, &u32b(u32::MAX))
        }),
        frame_case("trailer-len-off-by-one.b2frame", ND, |b, _| {
            let at = b.len() - 22;
            put(b, at, &u32b(36))
        }),
        frame_case("trailer-fixarray-lies.b2frame", ND, |b, p| b[p.trailer] = 0x95),
        frame_case("trailer-version-marker.b2frame", ND, |b, p| b[p.trailer + 1] = 0xcc),
        frame_case("trailer-fingerprint-marker.b2frame", ND, |b, _| {
            let at = b.len() - 18;
            b[at] = 0xd7
        }),
        frame_case("vlmetalayers-name-count-lies.b2frame", VL, |b, p| b[p.vl_entries - 1] += 1),
        frame_case("vlmetalayer-offset-outside.b2frame", VL, |b, p| {
            put(b, p.vl_entries + 1 + "title".len() + 1, &i32b(i32::MAX))
        }),
        frame_case("vlmetalayer-len-huge.b2frame", VL, |b, p| put(b, p.vls[0] + 1, &u32b(u32::MAX))),
        frame_case("vlmetalayer-chunk-cbytes-past-end.b2frame", VL, |b, p| {
            put(b, p.vls[1] + 5 + 12, &1000i32.to_le_bytes())
        }),
        // A chunk inside a frame.
        frame_case("chunk-in-frame-codec-unknown.b2frame", ZSTD, |b, p| {
            b[p.chunks[1] + 2] = (b[p.chunks[1] + 2] & 0x1f) | (7 << 5)
        }),
        // The b2nd metalayer on its own (b2nd::read, strict; read_compat, positional).
        meta_case("b2nd-truncated.b2nd", ND, b2nd_read, |b| b.truncate(30)),
        meta_case("b2nd-fixarray-lies.b2nd", ND, b2nd_read, |b| b[0] = 0x98),
        meta_case("b2nd-ndim-lies.b2nd", ND, b2nd_read, |b| b[2] = 3),
        meta_case("b2nd-shape-marker.b2nd", ND, b2nd_read, |b| b[4] = 0xd2),
        meta_case("b2nd-shape-negative.b2nd", ND, b2nd_read, |b| put(b, 5, &i64b(-1))),
        meta_case("b2nd-chunkshape-zero.b2nd", ND, b2nd_read, |b| put(b, 24, &i32b(0))),
        meta_case("b2nd-blockshape-negative.b2nd", ND, b2nd_read, |b| put(b, 35, &i32b(-2))),
        meta_case("b2nd-chunkshape-count-lies.b2nd", ND, b2nd_read, |b| {
            b[22] = 0x91;
            b.drain(28..33);
        }),
        meta_case("b2nd-dtype-len-huge.b2nd", ND, b2nd_read, |b| put(b, 46, &u32b(u32::MAX))),
        meta_case("b2nd-dtype-not-utf8.b2nd", ND, b2nd_read, |b| b[50] = 0xff),
        meta_case("b2nd-dtype-format-not-fixint.b2nd", ND, b2nd_read, |b| b[44] = 0xcc),
        meta_case("b2nd-17-dims-counted-a1.b2nd", ND16, b2nd_read, |b| {
            b[2] = 17;
            b[3] = 0xa1;
        }),
        meta_case("b2nd-compat-ndim-17.b2nd", ND16, b2nd_compat, |b| b[2] = 17),
        meta_case("b2nd-compat-ndim-negative.b2nd", ND, b2nd_compat, |b| b[2] = 0xff),
        meta_case("b2nd-compat-dtype-len-negative.b2nd", ND, b2nd_compat, |b| put(b, 46, &i32b(-1))),
        meta_case("b2nd-compat-dtype-marker.b2nd", ND, b2nd_compat, |b| b[45] = 0xd9),
        meta_case("b2nd-compat-dtype-not-utf8.b2nd", ND, b2nd_compat, |b| b[50] = 0xff),
        meta_case("b2nd-compat-truncated-in-blockshape.b2nd", ND, b2nd_compat, |b| b.truncate(40)),
        // dtype strings.
        Case {
            name: "dtype-itemsize-3.txt",
            bytes: b"<f3".to_vec(),
            read: |b| DType::parse(std::str::from_utf8(b).unwrap()).map(|_| ()).map_err(|e| e.to_string()),
        },
        Case {
            name: "dtype-struct-unclosed.txt",
            bytes: b"[('a', '<i4')".to_vec(),
            read: |b| DType::parse(std::str::from_utf8(b).unwrap()).map(|_| ()).map_err(|e| e.to_string()),
        },
        // One chunk on its own (chunk 0 of codec-zstd-9: 800 bytes in 4 blocks, bstarts at 32).
        chunk_case("chunk-shorter-than-header.cdata", |b| b.truncate(10)),
        chunk_case("chunk-newer-version-unknown-feature.cdata", |b| {
            b[0] = 0xff;
            b[30] |= 0x02;
        }),
        chunk_case("chunk-cbytes-past-end.cdata", |b| put(b, 12, &1000i32.to_le_bytes())),
        chunk_case("chunk-nbytes-negative.cdata", |b| put(b, 4, &(-1i32).to_le_bytes())),
        chunk_case("chunk-nbytes-huge.cdata", |b| put(b, 4, &(1i32 << 30).to_le_bytes())),
        Case {
            name: "chunk-nbytes-over-limit.cdata",
            read: |b| chunk_err(chunk::decompress_with_limit(b, 100)),
            ..chunk_case("", |_| {})
        },
        chunk_case("chunk-blocksize-zero.cdata", |b| put(b, 8, &0i32.to_le_bytes())),
        chunk_case("chunk-bstart-outside.cdata", |b| put(b, 36, &5000i32.to_le_bytes())),
        chunk_case("chunk-stream-csize-huge.cdata", |b| {
            let at = i32::from_le_bytes(b[32..36].try_into().unwrap()) as usize;
            put(b, at, &i32::MAX.to_le_bytes())
        }),
        chunk_case("chunk-codec-unknown.cdata", |b| b[2] = (b[2] & 0x1f) | (7 << 5)),
        chunk_case("chunk-filter-unknown.cdata", |b| b[16] = 99),
        Case {
            name: "blosc1-chunk-typesize-0.cdata",
            bytes: {
                let mut b = read_compat("c-blosc2/compat/blosc-1.14.0-lz4.cdata");
                b[3] = 0;
                b
            },
            read: |b| chunk_err(chunk::decompress_with_limit(b, 1 << 24)),
        },
    ]
}

/// Whether a message names an offset and a field: `... at offset N (field) ...`, a chunk's
/// `at offset N (field)`, or a dtype's `at offset N of the dtype string`.
fn names_offset_and_field(msg: &str) -> bool {
    let Some(i) = msg.find(" at offset ") else { return false };
    let rest = &msg[i + " at offset ".len()..];
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    digits > 0 && (rest[digits..].starts_with(" (") || rest[digits..].starts_with(" of the dtype string"))
}

#[test]
fn every_malformed_case_is_an_error_that_names_an_offset_and_a_field() {
    let cases = cases();
    assert!(cases.len() >= 40, "only {} cases", cases.len());
    let out = std::env::var_os("B2SCHEMA_WRITE_MALFORMED").map(std::path::PathBuf::from);
    let mut names = std::collections::BTreeSet::new();
    let mut lines = String::new();
    let mut unnamed = Vec::new();
    for case in &cases {
        assert!(names.insert(case.name), "two cases named {}", case.name);
        if let Some(dir) = &out {
            std::fs::create_dir_all(dir).unwrap();
            std::fs::write(dir.join(case.name), &case.bytes).unwrap();
        }
        let msg = match (case.read)(&case.bytes) {
            Ok(()) => {
                unnamed.push(format!("{}: reads without an error", case.name));
                continue;
            }
            Err(msg) => msg,
        };
        if !names_offset_and_field(&msg) {
            unnamed.push(format!("{}: {msg}", case.name));
        }
        lines.push_str(&format!("{} -> {msg}\n", case.name));
    }
    snapshot!("malformed_errors", lines);
    assert!(unnamed.is_empty(), "messages without an offset and a field:\n{}", unnamed.join("\n"));
}

/// The frame cases read from files say the same as from memory (FrameFile has its own checks on
/// the sizes it reads first; its messages are snapshot-tested with the same file names).
#[test]
fn malformed_frames_from_files() {
    let dir = std::env::temp_dir().join(format!("b2schema-malformed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut lines = String::new();
    let mut unnamed = Vec::new();
    for case in cases().iter().filter(|c| c.name.ends_with(".b2frame")) {
        let path = dir.join(case.name);
        std::fs::write(&path, &case.bytes).unwrap();
        let r = FrameFile::open(&path).and_then(|f| f.chunks().map(|_| ()));
        if let Err(e) = r {
            // The opener names the file (a temporary path): the snapshot keeps what follows.
            if let Some(file) = e.file() {
                assert_eq!(file, path.display().to_string(), "{e}");
            }
            let msg = e.detail().to_string();
            if !names_offset_and_field(&msg) {
                unnamed.push(format!("{}: {msg}", case.name));
            }
            lines.push_str(&format!("{} -> {msg}\n", case.name));
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
    snapshot!("malformed_errors_files", lines);
    assert!(unnamed.is_empty(), "messages without an offset and a field:\n{}", unnamed.join("\n"));
}
