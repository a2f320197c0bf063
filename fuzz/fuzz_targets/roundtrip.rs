//! Whatever decodes in strict mode re-encodes to the same bytes: `B2nd`, the legacy layouts, the
//! frame header, the trailer and the metalayers sections.
#![no_main]

use b2schema::b2nd::{B2nd, B2ndDev6, Caterva};
use b2schema::frame::{FrameHeader, MetaLayers, Trailer};
use libfuzzer_sys::fuzz_target;
use serde::{Deserialize, Serialize};

fn check<'a, T: Deserialize<'a> + Serialize + std::fmt::Debug>(data: &'a [u8]) {
    if let Ok(value) = b2schema::from_slice::<T>(data) {
        let again = b2schema::to_vec(&value).unwrap_or_else(|e| panic!("{value:?} does not re-encode: {e}"));
        assert_eq!(again, data, "{value:?}");
        assert_eq!(b2schema::encoded_len(&value).unwrap(), data.len());
    }
}

fuzz_target!(|data: &[u8]| {
    check::<B2nd>(data);
    check::<Caterva>(data);
    check::<B2ndDev6>(data);
    check::<FrameHeader>(data);
    check::<Trailer>(data);
    check::<MetaLayers<7>>(data);
    check::<MetaLayers<6>>(data);
});
