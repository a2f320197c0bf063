//! Stores (`b2schema::store`): the input written to a file and opened as a `.b2z` (a ZIP whose
//! central directory says where members are) or, when it starts with a frame, a `.b2e` (an
//! EmbedStore whose map says where embedded frames are); every member listed is described and
//! opened, and an NDArray member's first items read. No panic, no hang, no allocation sized by a
//! claim the bytes do not back; a key is a checked relative path (no `..`, no control
//! characters); a member's frame lies inside the file. The same bytes are also read as a
//! BatchArray frame (every item of every batch decoded) and, as text, by the CTable schema's
//! JSON reader; a store with `/_meta` is read as a CTable (schema, live rows), and every member
//! that is a BatchArray has its items read.
#![no_main]

use b2schema::Limits;
use b2schema::array::{ArrayReader, ReadOptions, Selection};
use b2schema::frame::FrameFile;
use b2schema::store::Store;
use b2schema::table::{BatchArray, CTable};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let path = std::env::temp_dir().join(format!("b2schema-fuzz-store-{}.b2z", std::process::id()));
    if std::fs::write(&path, data).is_err() {
        return;
    }
    let limits = Limits::default()
        .with_max_decompressed(16 << 20)
        .with_max_decompressed_total(64 << 20)
        .with_max_chunks(4096);
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = b2schema::table::__fuzz_schema_json(text);
    }
    if let Ok(f) = FrameFile::from_bytes(data.to_vec(), "fuzz.b2b", limits)
        && let Ok(b) = BatchArray::new(f)
    {
        let _ = b.items();
    }
    let Ok(store) = Store::open_with_limits(&path, limits) else { return };
    if let Ok(t) = CTable::open_with_limits(&path, limits) {
        let _ = t.n_rows();
        let _ = t.rows();
    }
    for m in store.members() {
        assert!(!m.key.split('/').any(|part| part == ".."), "{:?}", m.key);
        assert!(!m.key.chars().any(char::is_control), "{:?}", m.key);
        let _ = store.describe(&m.key);
        let Ok(frame) = store.open_member(&m.key) else { continue };
        assert!(frame.offset() <= data.len() as u64);
        if let Ok(b) = store.open_member(&m.key).and_then(BatchArray::new) {
            let _ = b.items();
        }
        if let Ok(reader) = ArrayReader::new(&frame) {
            let shape = reader.shape().to_vec();
            let first: Vec<u64> = shape.iter().map(|&n| n.min(1)).collect();
            if let Ok(sel) = Selection::new(first.iter().map(|&n| 0..n).collect(), &shape) {
                let _ = reader.read(&sel, &ReadOptions::one_thread(1 << 20));
            }
        }
    }
});
