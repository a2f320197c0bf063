//! Frames: every fixture written by python-blosc2 reads back as python-blosc2 reports it, and its
//! header and trailer re-encode to the exact original bytes.

use b2schema::b2nd::{self, LayoutKind};
use b2schema::frame::{ChunkLocation, FrameFile, FrameView, SpecialValue};
use b2schema_tests::{Fixture, fixtures, hex, repo_root};

fn special_name(loc: &ChunkLocation, header: Option<&b2schema::chunk::ChunkHeader>) -> &'static str {
    match loc {
        ChunkLocation::Special(SpecialValue::Zeros) => "ZERO",
        ChunkLocation::Special(SpecialValue::Nan) => "NAN",
        ChunkLocation::Special(SpecialValue::Uninit) => "UNINIT",
        ChunkLocation::Special(SpecialValue::Value) => "VALUE",
        _ => match header.and_then(SpecialValue::of_chunk) {
            Some(SpecialValue::Zeros) => "ZERO",
            Some(SpecialValue::Nan) => "NAN",
            Some(SpecialValue::Uninit) => "UNINIT",
            Some(SpecialValue::Value) => "VALUE",
            None => "NOT_SPECIAL",
        },
    }
}

fn check_fixture(name: &str, fx: &Fixture) {
    let path = repo_root().join("tests/data/fixtures").join(name);
    let file = FrameFile::open(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
    let v = file.view().unwrap();
    let h = &v.header;
    let s = &fx.schunk;
    assert_eq!(h.nbytes, s.nbytes, "{name}: nbytes");
    assert_eq!(h.cbytes, s.cbytes, "{name}: cbytes");
    assert_eq!(h.typesize, s.typesize, "{name}: typesize");
    assert_eq!(v.nchunks().unwrap(), s.nchunks, "{name}: nchunks");
    assert_eq!(h.codec_id() as i64, fx.cparams.codec_value, "{name}: codec");
    assert_eq!(h.flags.clevel() as i64, fx.cparams.clevel, "{name}: clevel");
    assert_eq!(h.filter_pipeline.filters.map(i64::from), fx.cparams.filters, "{name}: filters");
    assert_eq!(
        h.filter_pipeline.filters_meta.map(|m| m as i8 as i64),
        fx.cparams.filters_meta,
        "{name}: filters_meta"
    );
    assert_eq!(h.flags.splitmode().value() as i64, fx.cparams.splitmode_value, "{name}: splitmode");
    assert_eq!(h.filter_pipeline.use_dict(), fx.cparams.use_dict, "{name}: use_dict");
    assert_eq!(v.is_sparse(), fx.kind == "sframe", "{name}: kind");

    // Metalayers: names, order and raw bytes.
    let metas: Vec<(String, String)> =
        v.header.metalayers.iter().map(|(n, _, c)| (n.to_string(), hex(c))).collect();
    let want: Vec<(String, String)> =
        fx.meta.iter().map(|m| (m.name.clone(), m.raw_hex.clone().unwrap_or_default())).collect();
    assert_eq!(metas, want, "{name}: metalayers");

    // Vlmetalayers: names and order, and the decompressed value bytes.
    let vl: Vec<(String, String)> = v
        .trailer
        .vlmetalayers
        .iter()
        .map(|(n, _, c)| (n.to_string(), hex(&b2schema::chunk::decompress(c).unwrap())))
        .collect();
    let want: Vec<(String, String)> =
        fx.vlmeta.iter().map(|m| (m.name.clone(), m.raw_hex.clone().unwrap_or_default())).collect();
    assert_eq!(vl, want, "{name}: vlmetalayers");

    // The b2nd metalayer, when there is one.
    if let Some(nd) = &fx.ndarray {
        let meta = b2nd::read(v.metalayer("b2nd").expect("b2nd metalayer")).unwrap();
        assert_eq!(meta.layout, LayoutKind::B2nd7);
        assert_eq!(meta.shape, nd.shape, "{name}: shape");
        assert_eq!(
            meta.chunkshape.iter().map(|&c| c as i64).collect::<Vec<_>>(),
            nd.chunks,
            "{name}: chunks"
        );
        assert_eq!(
            meta.blockshape.iter().map(|&c| c as i64).collect::<Vec<_>>(),
            nd.blocks,
            "{name}: blocks"
        );
        // python-blosc2 stores dtype.str, except for void/structured dtypes: str(dtype).
        let stored = if nd.dtype_str.starts_with("|V") { &nd.dtype_repr } else { &nd.dtype_str };
        assert_eq!(meta.dtype.as_deref(), Some(stored.as_str()), "{name}: dtype");
        assert_eq!(meta.nchunks(), s.nchunks, "{name}: nchunks from the shapes");
        assert_eq!(b2nd::read_compat(v.metalayer("b2nd").unwrap()).unwrap(), meta);
        let dtype = meta.parsed_dtype().unwrap().unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(dtype.itemsize() as i64, nd.itemsize, "{name}: itemsize");
        assert_eq!(dtype.to_numpy_str(), *stored, "{name}: dtype round trip");
        let problems = meta.inconsistencies(&v.header, v.nchunks().unwrap());
        assert!(problems.is_empty(), "{name}: {problems:?}");
    }

    // The chunk index: one location per chunk, each stored chunk's header as python saw it.
    let locs = v.chunk_locations().unwrap();
    assert_eq!(locs.len() as u64, s.nchunks, "{name}: index length");
    for (loc, c) in locs.iter().zip(&fx.chunks) {
        let header = match loc {
            ChunkLocation::Special(_) => None,
            _ => Some(file.chunk_header(*loc).unwrap()),
        };
        assert_eq!(special_name(loc, header.as_ref()), c.special, "{name}: chunk {} special", c.index);
        if header.is_some() {
            let bytes = file.read_chunk(*loc).unwrap();
            assert_eq!(bytes.len(), c.len, "{name}: chunk {} length", c.index);
            assert_eq!(hex(&bytes[..32.min(bytes.len())]), c.head_hex, "{name}: chunk {} header", c.index);
        }
    }

    // Re-encoding from the decoded structures gives the original bytes.
    assert_eq!(v.encode_header().unwrap(), file.header_bytes(), "{name}: header re-encoding");
    assert_eq!(v.encode_trailer().unwrap(), file.trailer_bytes(), "{name}: trailer re-encoding");

    // Opening reads only the metadata.
    assert!(
        file.bytes_read() <= (v.header_bytes.len() + v.index_bytes.len() + v.trailer_bytes.len() + 23) as u64
    );

    // An in-memory cframe reads the same.
    if fx.kind == "cframe" {
        let bytes = std::fs::read(&path).unwrap();
        let mem = FrameView::from_slice(&bytes).unwrap();
        assert_eq!(mem.header, v.header);
        assert_eq!(mem.trailer, v.trailer);
        assert_eq!(mem.chunk_locations().unwrap(), locs);
    }
}

#[test]
fn every_fixture_reads_as_python_blosc2_reports() {
    let all = fixtures();
    assert!(all.len() >= 100, "only {} fixtures", all.len());
    for (name, fx) in &all {
        check_fixture(name, fx);
    }
}
