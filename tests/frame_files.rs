//! Frames in files: at an offset inside a larger file, in-place updates that change nothing else,
//! and the reference reader's checklist on broken frames.

use b2schema::b2nd::{self, B2nd};
use b2schema::frame::{FrameFile, FrameHeader, FrameView, Trailer};
use b2schema::layout::{self, B2Layout};
use b2schema_tests::{fixture_file, read_compat, read_file, repo_root, snapshot};

const SAMPLE: &str = "c-blosc2/plugins/test_data/example_day_month_temp.b2nd";

fn temp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("b2schema-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn a_frame_inside_a_larger_file() {
    let frame = read_compat(SAMPLE);
    let path = temp("embedded.bin");
    let mut data = b"some prefix".repeat(10);
    let at = data.len() as u64;
    data.extend_from_slice(&frame);
    data.extend_from_slice(b"trailing bytes are allowed");
    std::fs::write(&path, &data).unwrap();
    let f = FrameFile::open_at(&path, at).unwrap();
    let v = f.view().unwrap();
    assert_eq!(v.frame_len(), frame.len() as u64);
    let first = f.read_chunk(v.chunk_locations().unwrap()[0]).unwrap();
    assert_eq!(first[..4], [0x05, 0x01, 0x07, 0x04]);
    // Opening read the header, the index and the trailer: a small part of the file.
    assert!(f.bytes_read() < 400, "{}", f.bytes_read());
    assert!(FrameFile::open_at(&path, at + 1).is_err());
}

#[test]
fn resizing_rewrites_the_b2nd_shape_in_place() {
    let original = read_compat(SAMPLE);
    let path = temp("resize.b2nd");
    std::fs::write(&path, &original).unwrap();
    let mut f = FrameFile::open(&path).unwrap();
    let new_meta = {
        let v = f.view().unwrap();
        let mut meta: B2nd = b2schema::from_slice(v.metalayer("b2nd").unwrap()).unwrap();
        meta.shape = vec![440, 3];
        b2schema::to_vec(&meta).unwrap()
    };
    f.update_metalayer("b2nd", &new_meta).unwrap();
    let after = std::fs::read(&path).unwrap();
    assert_eq!(after.len(), original.len());
    let changed: Vec<usize> = (0..after.len()).filter(|&i| after[i] != original[i]).collect();
    assert_eq!(changed, [0x7c]); // the low byte of shape[0]: 0x190 -> 0x1b8
    let reopened = FrameFile::open(&path).unwrap();
    let m = b2nd::read(reopened.view().unwrap().metalayer("b2nd").unwrap()).unwrap();
    assert_eq!(m.shape, [440, 3]);

    // A content of another length is refused, and the file is left as it was.
    let e = f.update_metalayer("b2nd", &new_meta[..50]).unwrap_err();
    assert!(e.to_string().contains("same length"), "{e}");
    assert!(f.update_metalayer("nope", &new_meta).is_err());
    assert_eq!(std::fs::read(&path).unwrap(), after);
}

#[test]
fn the_reference_checklist_rejects_broken_frames() {
    let frame = read_compat(SAMPLE);
    let check = |mutate: &dyn Fn(&mut Vec<u8>), expect: &str| {
        let mut b = frame.clone();
        mutate(&mut b);
        let e = FrameView::from_slice(&b).unwrap_err();
        assert_eq!(e.to_string(), expect);
    };
    check(
        &|b| b.truncate(2000),
        "expected frame_len equal to the buffer length 2000 at offset 16 (frame_len), found 2633",
    );
    check(&|b| b[25] = 0x14, "expected frame format version <= 3 at offset 25 (flags.general), found 4");
    check(&|b| b[26] = 1, "expected frame_type 0 at offset 26 (flags.frame_type), found 1");
    check(&|b| b[51] = 0, "expected typesize > 0 at offset 48 (typesize), found 0");
    check(
        &|b| b[2633 - 23] = 0xcd,
        "expected uint32 marker ce at offset 2610 (trailer_len), found cd (uint16)",
    );
    check(
        &|b| b[2633 - 20] = 0x10,
        "expected 25 <= trailer_len <= 2546 at offset 2611 (trailer_len), found 4131",
    );
    check(
        &|b| b[0x67] = 0x6c,
        "expected the offset of the content's c6 marker 107 at offset 99 (metalayers.index[\"b2nd\"]), found 108",
    );
    check(
        &|b| b[3] = b'X',
        "field `magic`: expected constant b\"b2frame\\x00\", found b\"bXframe\\x00\" at offset 1 (magic)",
    );
    // Too short to hold even the fixed header.
    assert!(FrameView::from_slice(&frame[..50]).is_err());
}

#[test]
fn every_truncation_and_byte_flip_of_a_frame_is_an_error_or_a_frame() {
    let frame = read_compat(SAMPLE);
    for end in 0..frame.len() {
        assert!(FrameView::from_slice(&frame[..end]).is_err(), "prefix {end}");
    }
    for i in (0..frame.len()).step_by(3) {
        for bit in [0x01, 0x80] {
            let mut b = frame.clone();
            b[i] ^= bit;
            if let Ok(v) = FrameView::from_slice(&b) {
                let _ = v.chunk_locations();
            }
        }
    }
}

#[test]
fn snapshots_of_the_trailer_and_the_legacy_layouts() {
    let frame = read_file(&fixture_file("nd-meta-vlmeta.b2nd"));
    let f = FrameView::from_slice(&frame).unwrap();
    let mut s = layout::diagram(Trailer::LAYOUT);
    s.push('\n');
    s.push_str(&layout::annotate(Trailer::LAYOUT, f.trailer_bytes));
    snapshot!("trailer", s);
    snapshot!("caterva_diagram", layout::diagram(b2nd::Caterva::LAYOUT));
    snapshot!("b2nd_dev6_diagram", layout::diagram(b2nd::B2ndDev6::LAYOUT));
    snapshot!("frame_flags_diagram", layout::diagram(b2schema::frame::FrameFlags::LAYOUT));
    let scalar_frame = read_file(&fixture_file("nd-0d-U6.b2nd"));
    let scalar = FrameView::from_slice(&scalar_frame).unwrap().metalayer("b2nd").unwrap();
    snapshot!("b2nd_scalar_annotated", layout::annotate(B2nd::LAYOUT, scalar));
    let _ = FrameHeader::LAYOUT;
}

#[test]
fn a_sixteen_dimensional_array_from_python() {
    let path = repo_root().join("tests/data/fixtures/nd-16d-i2.b2nd");
    let f = FrameFile::open(&path).unwrap();
    let v = f.view().unwrap();
    let raw = v.metalayer("b2nd").unwrap();
    assert_eq!(raw[..4], [0x97, 0x00, 0x10, 0xa0]);
    let meta: B2nd = b2schema::from_slice(raw).unwrap();
    assert_eq!(meta.shape.len(), 16);
    assert_eq!(b2schema::to_vec(&meta).unwrap(), raw);
}

#[test]
fn a_tiny_frame_cannot_make_the_index_allocate_gigabytes() {
    use b2schema::frame::SpecialValue;
    use b2schema::writer::{Chunk, Frame};
    // Variable chunks (chunksize 0), all zeros: the index is one 40-byte repeat-value chunk.
    let mut f = Frame::new(1);
    f.chunksize = 0;
    f.chunks = vec![Chunk::Special { kind: SpecialValue::Zeros, nbytes: 10 }; 2];
    let mut bytes = f.to_vec().unwrap();
    let view = FrameView::from_slice(&bytes).unwrap();
    assert_eq!(view.nchunks().unwrap(), 2);
    // Make the index claim 130 million chunks: still a 40-byte chunk.
    let at = view.index_offset as usize;
    let n = (130_000_000u64 * 8) as u32;
    bytes[at + 4..at + 8].copy_from_slice(&n.to_le_bytes());
    let view = FrameView::from_slice(&bytes).unwrap();
    // Counting needs no allocation; listing them stops at the default limit, with a message.
    assert_eq!(view.nchunks().unwrap(), 130_000_000);
    let e = view.chunk_locations().unwrap_err();
    assert!(matches!(e.kind(), b2schema::ErrorKind::BudgetExceeded { .. }), "{e}");
    assert!(
        e.to_string().contains("budget exceeded") && e.to_string().contains("raise Limits::max_chunks"),
        "{e}"
    );
    assert!(view.chunk_locations_with_limit(1 << 10).is_err());
}
