//! Any msgpack into `serde_json::Value` (`deserialize_any`), lenient (`Config::minimal()`) and
//! strict (`Config::fixed()`), and into `b2schema::Value` (`Value::take_from_msgpack`). What
//! decodes re-encodes in minimal form and decodes to the same value.
#![no_main]

use b2schema::Config;
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let minimal = Config::minimal();
    match b2schema::from_slice_with::<Value>(data, minimal) {
        Ok(v) => {
            let again = b2schema::to_vec_with(&v, minimal).expect("a decoded value re-encodes");
            let back: Value = b2schema::from_slice_with(&again, minimal).expect("its encoding decodes");
            assert_eq!(back, v);
        }
        Err(e) => {
            let text = e.to_string();
            if let Some(at) = e.offset() {
                assert!(at <= data.len(), "offset {at} past the input ({}): {text}", data.len());
            }
        }
    }
    let _ = b2schema::take_from_slice_with::<Value>(data, minimal);
    match b2schema::Value::take_from_msgpack(data) {
        Ok((v, used)) => {
            assert!(used <= data.len());
            let again = v.to_msgpack().expect("a decoded value is in msgpack's range");
            let back = b2schema::Value::from_msgpack(&again).expect("its encoding decodes");
            // NaN is not equal to itself: compare the bytes of the two encodings instead.
            assert_eq!(back.to_msgpack().unwrap(), again);
        }
        Err(e) => assert!(e.offset().is_some_and(|at| at <= data.len()), "{e}"),
    }
    let _ = b2schema::from_slice::<Value>(data);
});
