//! The viewer's request parsing on bytes a client sends: the head parser (every size bounded,
//! strict), the query decoding and the Host check; no panic, and what parses keeps to what the
//! parser promises (GET or HEAD, an origin-form target of visible ASCII, one Host).
#![no_main]

use b2schema_cli::serve::__fuzz::{percent_decode, query_param, read_request};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(req) = read_request(data) {
        assert!(req.method == "GET" || req.method == "HEAD");
        assert!(req.path.starts_with('/'));
        assert!(req.path.bytes().chain(req.query.bytes()).all(|b| (0x21..0x7f).contains(&b)));
        for key in ["root", "path", "slice", "x"] {
            let _ = query_param(&req.query, key);
        }
    }
    if let Ok(s) = std::str::from_utf8(data) {
        let _ = percent_decode(s);
        let _ = query_param(s, "path");
    }
});
