//! The annotated dumps: `dump::annotate` on any bytes, and `layout::annotate` with every built-in
//! layout. They never panic and every line starts with an offset.
#![no_main]

use b2schema::b2nd::{B2nd, B2ndDev6, Caterva};
use b2schema::dump::{self, Options};
use b2schema::frame::{FilterPipeline, Fingerprint, FrameFlags, FrameHeader, MetaLayers, Trailer};
use b2schema::layout::{self, B2Layout, Layout};
use libfuzzer_sys::fuzz_target;

const LAYOUTS: [&Layout; 10] = [
    B2nd::LAYOUT,
    Caterva::LAYOUT,
    B2ndDev6::LAYOUT,
    FrameHeader::LAYOUT,
    Trailer::LAYOUT,
    FrameFlags::LAYOUT,
    FilterPipeline::LAYOUT,
    Fingerprint::LAYOUT,
    MetaLayers::<7>::LAYOUT,
    MetaLayers::<6>::LAYOUT,
];

fn lines_ok(text: &str) {
    for line in text.lines() {
        let offset = line.split("  ").next().unwrap_or("");
        assert!(usize::from_str_radix(offset, 16).is_ok(), "line without an offset: {line:?}");
    }
}

fuzz_target!(|data: &[u8]| {
    lines_ok(&dump::annotate(data));
    let short = Options { max_payload_lines: 1, base_offset: 0x1000, ..Options::default() };
    let _ = dump::annotate_with(data, short);
    for l in LAYOUTS {
        lines_ok(&layout::annotate(l, data));
    }
});
