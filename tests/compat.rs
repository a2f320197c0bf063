//! Frames from older writers (`tests/data/compat/`, see its MANIFEST.md): caterva, the b2nd
//! development layouts, c-blosc2 3.0 variable chunks and VL blocks, the c-blosc2 fuzz corpus and
//! python-blosc2 samples. Each reads as its manifest says, and re-encodes byte for byte.

use b2schema::b2nd::{self, LayoutKind};
use b2schema::frame::{ChunkLocation, FrameFile, SpecialValue};
use b2schema_tests::{compat_file, fixture_file};

fn open(rel: &str) -> FrameFile {
    FrameFile::open(compat_file(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// Every frame in the compat folder opens and re-encodes exactly.
#[test]
fn every_compat_frame_round_trips() {
    let mut seen = 0;
    let root = compat_file("");
    let mut stack = vec![root];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
            if ext != "b2nd" && ext != "b2frame" {
                continue;
            }
            let f = FrameFile::open(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let v = f.view().unwrap();
            assert_eq!(v.encode_header().unwrap(), f.header_bytes(), "{}", path.display());
            assert_eq!(v.encode_trailer().unwrap(), f.trailer_bytes(), "{}", path.display());
            let locs = v.chunk_locations().unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            assert_eq!(locs.len() as u64, v.nchunks().unwrap(), "{}", path.display());
            seen += 1;
        }
    }
    assert_eq!(seen, 28, "frames in tests/data/compat");
}

fn nd(rel: &str, name: &str) -> b2nd::NdMeta {
    let f = open(rel);
    let v = f.view().unwrap();
    b2nd::read(v.metalayer(name).unwrap_or_else(|| panic!("{rel}: no {name}"))).unwrap()
}

#[test]
fn b2nd_layouts_of_every_era() {
    let cur = nd("c-blosc2/plugins/test_data/example_day_month_temp.b2nd", "b2nd");
    assert_eq!(
        (cur.layout, cur.shape.as_slice(), cur.dtype.as_deref()),
        (LayoutKind::B2nd7, &[400i64, 3][..], Some("|u1"))
    );

    let caterva = nd("c-blosc2-history/b6e2e566/plugins/test_data/example_day_month_temp.b2nd", "caterva");
    assert_eq!(caterva.layout, LayoutKind::Caterva5);
    assert_eq!(caterva.dtype, None);

    for commit in ["3304bcd0", "22b900bf"] {
        let m = nd(&format!("c-blosc2-history/{commit}/plugins/test_data/example_item_prices.b2nd"), "b2nd");
        assert_eq!(m.layout, LayoutKind::Caterva5, "{commit}");
    }

    // The 6-element development layout: read strictly, and refused by the positional reader
    // exactly as c-blosc2 refuses it.
    let rel = "c-blosc2-history/1e65a17e/plugins/test_data/example_day_month_temp.b2nd";
    let dev = nd(rel, "b2nd");
    assert_eq!((dev.layout, dev.dtype.as_deref()), (LayoutKind::B2nd6, Some("uint8")));
    assert!(!dev.layout.readable_by_c_blosc2());
    let f = open(rel);
    let e = b2nd::read_compat(f.view().unwrap().metalayer("b2nd").unwrap()).unwrap_err();
    assert!(e.to_string().starts_with("expected str32 marker db"), "{e}");

    // 0x96 with 7 values: strict msgpack refuses it, c-blosc2's positional reading takes it.
    let f = open("c-blosc2-history/8123f7ea/plugins/test_data/example_day_month_temp.b2nd");
    let raw = f.view().unwrap().metalayer("b2nd").unwrap();
    assert_eq!(raw[0], 0x96);
    assert!(b2nd::read(raw).is_err());
    let m = b2nd::read_compat(raw).unwrap();
    assert_eq!((m.layout, m.dtype.as_deref()), (LayoutKind::B2nd7, Some("|u1")));
}

#[test]
fn fuzz_corpus_frames_from_the_beta() {
    for codec in ["blosclz", "lz4", "lz4hc", "zlib", "zstd"] {
        let rel = format!("c-blosc2/tests/fuzz/corpus/frame_simple-{codec}.b2frame");
        let f = open(&rel);
        let v = f.view().unwrap();
        assert_eq!(v.header.flags.format_version(), 2, "{rel}");
        assert_eq!(v.header.flags.other, 0, "{rel}: other_flags before 2.5");
        let locs = v.chunk_locations().unwrap();
        assert_eq!(locs.len(), 10, "{rel}");
        // The first chunk holds zeros: a special-zero index entry in most of these files, but in
        // the blosclz one a stored 52-byte chunk at offset 0 whose blocks are zero runs.
        match locs[0] {
            ChunkLocation::Special(SpecialValue::Zeros) => assert_ne!(codec, "blosclz"),
            loc => {
                assert_eq!((codec, loc), ("blosclz", ChunkLocation::Offset(0)));
                let first = f.read_chunk(loc).unwrap();
                assert_eq!(first.len(), 52, "{rel}");
                assert!(b2schema::chunk::decompress(&first).unwrap().iter().all(|&b| b == 0), "{rel}");
            }
        }
        let h = f.chunk_header(locs[1]).unwrap();
        assert_eq!(h.version, 4, "{rel}: chunks v4");
        let vl = v.vlmetalayer("vlmetalayer").unwrap();
        assert_eq!(b2schema::chunk::decompress(vl).unwrap(), (0u8..10).collect::<Vec<_>>(), "{rel}");
    }
}

#[test]
fn c_blosc2_3_variable_chunks_and_vl_blocks() {
    let v = open("c-blosc2/compat/varchunks-lz4-3.0.0.b2frame");
    let view = v.view().unwrap();
    assert_eq!((view.header.flags.general, view.header.chunksize), (0x53, 0));
    assert!(view.header.flags.variable_chunks());
    assert_eq!(view.nchunks().unwrap(), 5);
    for (rel, general) in [("fixed", 0x93), ("variable", 0xd3)] {
        let f = open(&format!("c-blosc2/compat/vlblocks-lz4-{rel}-3.0.0.b2frame"));
        let view = f.view().unwrap();
        assert_eq!(view.header.flags.general, general);
        assert!(view.header.flags.vl_blocks());
        for loc in view.chunk_locations().unwrap() {
            assert!(f.chunk_header(loc).unwrap().is_vl_blocks());
        }
    }
}

#[test]
fn scalar_vlmeta_schunk_and_python_samples() {
    let fixture = |name: &str| FrameFile::open(fixture_file(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    let f = fixture("nd-0d-U6.b2nd");
    let v = f.view().unwrap();
    let m = b2nd::read(v.metalayer("b2nd").unwrap()).unwrap();
    assert_eq!((m.ndim(), m.dtype.as_deref(), m.nchunks()), (0, Some("<U6"), 1));

    let f = fixture("nd-meta-vlmeta.b2nd");
    let v = f.view().unwrap();
    let names: Vec<&str> = v.trailer.vlmetalayers.iter().map(|(n, _, _)| n).collect();
    assert_eq!(names, ["title", "attrs"]);
    assert!(v.header.has_vlmetalayers);
    assert_eq!(b2schema::chunk::decompress(v.vlmetalayer("title").unwrap()).unwrap(), b"\xada small array");

    let plain = fixture("schunk-many-chunks.b2frame");
    assert_eq!(plain.view().unwrap().nchunks().unwrap(), 100);
    assert!(plain.view().unwrap().metalayer("b2nd").is_none());

    let expr = open("python-blosc2/tests/data/legacy_lazyexpr_v1/expr.b2nd");
    let v = expr.view().unwrap();
    let names: Vec<&str> = v.header.metalayers.iter().map(|(n, _, _)| n).collect();
    assert_eq!(names, ["b2nd", "LazyArray"]);
    assert!(v.vlmetalayer("_LazyArray").is_some());
}

#[test]
fn derived_values_agree_with_the_header() {
    let f = open("c-blosc2/plugins/test_data/example_day_month_temp.b2nd");
    let v = f.view().unwrap();
    let m = b2nd::read(v.metalayer("b2nd").unwrap()).unwrap();
    assert_eq!(m.extchunkshape(), [114, 3]);
    assert_eq!((m.chunksize(4), m.blocksize(4), m.nchunks()), (1368, 684, 4));
    // This c-blosc2 example stores 4-byte items under the default dtype "|u1".
    assert_eq!(
        m.inconsistencies(&v.header, v.nchunks().unwrap()),
        ["dtype |u1 has an item size of 1 but the header's typesize is 4"]
    );
    let f = FrameFile::open(fixture_file("dtype-struct.b2nd")).unwrap();
    let v = f.view().unwrap();
    let m = b2nd::read(v.metalayer("b2nd").unwrap()).unwrap();
    assert!(m.dtype.as_deref().unwrap().starts_with("[("), "{:?}", m.dtype);
    assert!(m.inconsistencies(&v.header, v.nchunks().unwrap()).is_empty());
}
