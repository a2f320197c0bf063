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

/// `chunk`, with the zlib decoder `zune-inflate` tried in issue 21's round: a 1 896-byte Blosc2
/// chunk of zlib streams, one crafted so that the decoder's bit reader failed its own
/// `debug_assert!` (a panic in every debug build; zlib decoding went back to `miniz_oxide`).
/// Whatever decodes it must say no with an error, never panic.
#[test]
fn a_zlib_stream_that_broke_a_bit_reader() {
    let chunk = unhex(concat!(
        "04017504400d0300400d030091060000000000000001000000000000000000002400000069060000785eeddde7db1ef2",
        "1d87e14711b11f11c48e1d3b76ecd8b163c78e1d3b76eca0035ddad2a24b69d11a553a746b6b6f9d5ada6a6bb5b455da",
        "a2a5fc07b9def485c7719e6ff32e47f2e4beafeff1fb6460f8e0a8d163c68e1b3f61e2a4c953a64e9b7ee125975f75fd",
        "2db7df71efa38f3ff5fc4baf0df875bf3ffe7cf8fbe1e7839f8ffe7df0efa3cf073e1ff97ce8f3b1ef07be1ff97ee8fb",
        "b13ea00fe803fa803ea00fe803fa803ea00fe803fa803ea00fe803fa803ea00fe803fa803ea00fe803fa803ea00fe803",
        "fa803ea00fe803fa803ea00fe803fa803ea00fe803fa803ea00fe803fa803ea00fe803fa803ea00fe803fa803ea00fe8",
        "03fa803ea00fe803fa803ea00fe803fa803ea00fe803fa803ea00fe803fa803ea00fe803fa803ea00fe803fa803ea00f",
        "e803fa803ea00fe803fa803ea00fe803fa803ea00fe803fa803ea00fe803fa803ea00fe803fa803ea00fe803fa803ea0",
        "0fe803fa803ea00fe803fa803ea00fe803fa803ea00fe803fa803ea00fe803fa803ea00fe803fa803ea00f7ae803fa80",
        "3ea00fe803fa803ea00fe803fa803ea00fe803fa803ea00fe803fa803ea00fe803fa803ea00fe803fa803ea00fe803fa",
        "803ea00fe803fa803ea00fe803fa803ea00fe803fa803e30a4fac0409829bc27cc1c6609b3866161b6303ccc1ee60873",
        "86b9c2dc619e306f180cf3851161fe30322c10160c0b855161e1b04858342c16160f4b8425c3e8b054583a2c13960dcb",
        "85e5c30a614c5831ac14560eab8455c36a61f53036ac11d60c6b85b5c33a61ddb05e1817d60f1b840dc34661e3b049d8",
        "348c0f9b85cdc31661cbb0552dc56c1326846dc37661fbb043d831ec14760e13c32e61d7b05bd83dec11f60c7b854961",
        "efb04fd837ec17f60f078403c3e4705038381c120e0d8785c3c311614a38321c158e0ec78463c371e1f830359c104e0c",
        "278593c329e1d4705a98164e0f678433c359e1ec704e38374c0fe785f3c305e1bde17de1fde103e1c27051b8387c307c",
        "287c387c247c345c123e163e1e3e112e0d97854f864f85cbc315e1caf0e9f0997af0d9f0b9f0f97055f842b83a5c13be",
        "18be14ae0dd785ebc397c357c20de1c67053b8397c35dc12be166e0db785af876f846f866f85dbc3b7c377c277c3f7c2",
        "f7c30fc20fc31de147e1c7e127e1ce7057b83bdc13ee0df785fbc303e1c1f05078383c12140d8f0c0000000000000085",
        "9f869f859f875f845f865f85c7c3afc36fc213e1c9f0dbf0bbf0fbf054f843f863f853783a3c139e0dcf85e7c39f245f",
        "c20be1c5f0d7f0b7f0f7f052f8477839bc12fe19fe15fe1d5e0daf85d7c37fc27fc31be1cdf0bff05670ff77ff77ff77",
        "ff77ff77ff77ff77ff77ff77ff77ff77ff77ff77ff77ff77ff77ff77ff77ff77ff77ff77ff77ff77ff77ff77ff77ff77",
        "ff77ff77ff77ff77fff7fedffb7fefffbdfff7fedffb7fefffbdfff7fedffb7fefffbdfff7fedffb7fefffbdfff7fedf",
        "fb7fefffbdfff7fedffb7fefffbdfff7fedf030303030303030303030303030303030303030303030303030303fb7fef",
        "ffbdfff7fedffb7fefffbdffb7ff6fc397c357c20de1c67053b8397c35dc12be166e0db785af876f846f866f85dbc3b7",
        "c377c277c3f7c2f7c30fc20fc31de147e1c7e127e1ce7057b83bdc13ee0df785fbc303e1c1f05078383c12140d8f859f",
        "869f859f875f845f865f85c7c3afc36fc213e1c9f0dbf0bbf0fbf054f843f863f853783a3c139e0dcf85e7c39fc35fc2",
        "0be1c5f0d7f0b7f0f7f052f8477839bc12fe19fe15fe1d5e0daf85d7c3ffdffebffd7ffbfff6ffedffdbffb7ff6fffdf",
        "febffd7ffbfff6ffedffdbffb7ff6fffdffebffd7ffbfff6ffedffdbffb7ff6fffdffebffd7ffbfff6ffedffdbff1f16",
        "660b31ff3f7cf610cfffe79833c4f97faeb9c33c61de30c3f1ffc1c1c1f9c20c1fff8f183b62fe30c3e3ffc891231708",
        "0b8685c2a8b07058242c1a160b8b8725c2926174582a2c1d9609cb86e5c2f261853026ac18560a2b8755c2aa61b5b07a",
        "181bd6086b86b5c2da619db06e582f8c0beb870dc28661a3b071d8246c1ac687cdc2e6618bb065d82a6c1db60913c274",
        "74747474747474747474747474747474747474747474747474747474747474747474747474747474747474b077d827ec",
        "1bf60bfb8703c281617238281c1c0e09878629c3c2e1e18830251c198e0a478763c2b1e1b8707c981a4e08278693c2c9",
        "e194706a382d4c0ba78733c299e1ac707638279c1ba607fbffdbf6b7ffffedffff6fffdffebffd7ffb00000000000011",
        "05000000fff6ffedffdbffb7ff6fffdffebffdfffbffeeffeeffeeffeeffeeffeeffeeffeeffeeffeeffeeffeeffeeff",
        "eeffeefff6ffedffdbffb7ff6fffdffebffd7ffbfff6ffedffdbffb7ff6fffdffebffd7ffbfff6ffbdff7f37bdff1f00",
        "0000000000000086bc99000000000000008021affe3f0c00000000000000e09d6f660000000000000060c89b05000000",
        "0000000018f266050000000000000086bc61c0ffcd000000000000000000000000000000000000000000000000000000",
        "00000000000000000000000000000003ef266f03f4d56021",
    ));
    assert_eq!(chunk.len(), 1896);
    let h = ChunkHeader::parse(&chunk).unwrap();
    assert_eq!(h.codec().unwrap().name(), Some("zlib"));
    assert!(b2schema::chunk::decompress_with_limit(&chunk, 4 << 20).is_err());
    let mut out = vec![0u8; 4096];
    assert!(b2schema::chunk::decompress_into(&chunk, &mut out).is_err());
}
