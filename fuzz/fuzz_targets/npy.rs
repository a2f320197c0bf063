//! The `.npy` reader `pack` runs on a user's files, and the `.npy` header `cat --npy` and
//! `unpack` make from a frame's dtype string: no panic, no allocation sized by a claim the bytes
//! do not back, and every header written is one the reader reads back to the same descr and
//! shape, on one line (no text of the file broke out of the dict).
#![no_main]

use b2schema_cli::npy;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(h) = npy::read_header(data) {
        // What the header claims is checked against the bytes before anything is read.
        assert!(h.data_at <= data.len());
        let _ = npy::read(data);
    }
    // The first bytes as a stored dtype string, the next as a typesize.
    let (ts, text) = data.split_first().map_or((1, &[][..]), |(t, rest)| (usize::from(*t), rest));
    if let Ok(stored) = std::str::from_utf8(text)
        && let Ok(descr) = npy::descr_for(stored, ts)
    {
        let header = npy::header(&descr, &[2, 3], 0);
        assert_eq!(header.len() % 64, 0);
        let mut file = header.clone();
        file.resize(header.len() + 6 * ts, 0);
        let back = npy::read(&file).expect("the header written reads back");
        assert_eq!((back.descr.as_str(), back.shape.as_slice()), (descr.as_str(), &[2u64, 3][..]));
        let dict = &header[10..];
        assert_eq!(dict.iter().filter(|&&b| b == b'\n').count(), 1, "one line");
    }
});
