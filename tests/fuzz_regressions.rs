//! What the fuzz targets (`fuzz/`, see its README) found, each input kept here as a test.

use b2schema::chunk::ChunkHeader;
use b2schema::dtype::DType;
use b2schema::frame::{FrameView, MAX_NCHUNKS};

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
}

/// `frame`, 10 minutes in: a 240-byte frame whose chunk index is a 40-byte repeat-value chunk
/// claiming 130 million chunks (nbytes 0x3e000048), with variable chunks (chunksize 0), so that
/// no header value bounds the count. `chunk_locations()` then allocates 1 GB for the decoded index
/// and 2 GB for the locations, and took 15 s under the fuzzer. The frame is valid as far as the
/// format goes (c-blosc2 writes such indexes for arrays of zeros), so this is a limit of the API,
/// not a decoding bug: the claim is what callers must bound before asking for every location
/// (`tests/alloc_bound.rs` measures the cost: 24 bytes per claimed chunk, nothing more).
#[test]
fn a_tiny_frame_whose_index_claims_130_million_chunks() {
    let frame = unhex(concat!(
        "9ea862326672616d6500d2000000a5cf00000000000000f0a412005502d30000000000000240d300000000000000",
        "00d20000ce04d200401000d200000000d10001d10001c2d8060000010100010500000000000000000093cd0011de",
        "0001a462306e64d20000006bdc0001c6000000359700ffff7a5fee3fb280000007d3000000000000000992d20000",
        "0003d20000000492d200000002d20000000200db000000033c6634050105084800003e4800000028000000000000",
        "000000000000000000000000300000000000f9ff81940193cd0006de0000dc0000ce00000023d800000000c60000",
        "00210501070101000000",
    ));
    assert_eq!(frame.len(), 240);
    let v = FrameView::from_slice(&frame).unwrap();
    assert_eq!(v.header.chunksize, 0);
    assert_eq!(v.header.nchunks_from_header(), None);
    let claimed = ChunkHeader::parse(v.index_bytes).unwrap().uncompressed_len() as u64 / 8;
    assert_eq!(claimed, 0x3e00_0048 / 8);
    assert!(claimed <= MAX_NCHUNKS);
}

/// `dtype`, 98 s in: a dict dtype with an empty field name prints (as NumPy's `str(dtype)` does)
/// as a list, in which an empty name means "call it f0", in NumPy as here. Checked against
/// NumPy 2.4.6: `np.dtype({'names': ['', 'b'], ...})` has names `('', 'b')` and prints
/// `[('', '<i8'), ('b', '<f8')]`, which `np.dtype` reads with names `('f0', 'b')`.
#[test]
fn an_empty_field_name_prints_as_numpy_and_reads_back_as_f0() {
    let dt =
        DType::parse("{'names': ['', 'b'], 'formats': ['<i8', '<f8'], 'offsets': [0, 8], 'itemsize': 16}")
            .unwrap();
    assert_eq!(dt.fields().iter().map(|f| f.name.as_str()).collect::<Vec<_>>(), ["", "b"]);
    let printed = dt.to_numpy_str();
    assert_eq!(printed, "[('', '<i8'), ('b', '<f8')]");
    let again = DType::parse(&printed).unwrap();
    assert_eq!(again.fields().iter().map(|f| f.name.as_str()).collect::<Vec<_>>(), ["f0", "b"]);
    assert_eq!(again.itemsize(), dt.itemsize());
    assert_eq!(DType::parse(&again.to_numpy_str()).unwrap().to_numpy_str(), again.to_numpy_str());
}

/// `dtype`, a second run, 9 minutes in: a struct holding a struct with padding of its own (an
/// explicit itemsize of 32 for 28 bytes of fields, aligned) prints, as NumPy's `str(dtype)` does,
/// as a plain nested list: the padding is lost, and the text reads back 7 bytes smaller. Checked
/// against NumPy 2.4.6, which prints the same list (with `'<u2'` for the native `'u2'`, printed
/// `'uint16'` here) and reads it back with an itemsize of 35 instead of 42.
#[test]
fn a_nested_struct_with_padding_prints_without_it_as_numpy() {
    let text = "{'names': ['a', 'b', 'c+'], 'formats': ['u2', ('>f4', (2,)), {'names': ['a', 'b', 'c+'], \
                'formats': [('>f8', (2,)), 'u1', ('>f4', (2,))], 'itemsize': 32, 'aligned': True}]}";
    let dt = DType::parse(text).unwrap();
    assert_eq!(dt.itemsize(), 2 + 8 + 32);
    let printed = dt.to_numpy_str();
    assert_eq!(
        printed,
        "[('a', 'uint16'), ('b', '>f4', (2,)), ('c+', [('a', '>f8', (2,)), ('b', 'u1'), ('c+', '>f4', (2,))])]"
    );
    let again = DType::parse(&printed).unwrap();
    assert_eq!(again.itemsize(), 2 + 8 + 25);
    assert_eq!(again.to_numpy_str(), printed);
    // On its own, the padded struct prints in the dict form that keeps it.
    let inner = &dt.fields()[2].dtype;
    assert_eq!(DType::parse(&inner.to_numpy_str()).unwrap().itemsize(), 32);
}

/// `frame`, at once: the empty input. The error named no field (now `header_len`, the first value
/// a frame reader looks for).
#[test]
fn the_empty_input_names_the_field_it_looked_for() {
    assert_eq!(
        FrameView::from_slice(&[]).unwrap_err().to_string(),
        "unexpected end of input: needed 5 bytes at offset 10 (header_len), 0 remain"
    );
}
