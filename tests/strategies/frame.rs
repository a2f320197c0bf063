//! Strategies for the frame header's fixed-width parts, shared by the property tests that build
//! frame headers (`builtin_contract.rs`, `hostile_props.rs`).

use b2schema::frame::{FilterPipeline, FrameFlags};
use proptest::prelude::*;

pub fn borrowed(layers: &[(String, Vec<u8>)]) -> Vec<(&str, &[u8])> {
    layers.iter().map(|(n, c)| (n.as_str(), c.as_slice())).collect()
}

pub fn flags() -> impl Strategy<Value = FrameFlags> {
    any::<[u8; 4]>().prop_map(|[general, frame_type, codec, other]| FrameFlags {
        general,
        frame_type,
        codec,
        other,
    })
}

pub fn pipeline() -> impl Strategy<Value = FilterPipeline> {
    (any::<u8>(), any::<[u8; 6]>(), any::<[u8; 3]>(), any::<[u8; 6]>(), any::<u8>()).prop_map(
        |(nfilters, filters, [udcodec, codec_meta, other_flags2], filters_meta, reserved)| FilterPipeline {
            nfilters,
            filters,
            udcodec,
            codec_meta,
            filters_meta,
            other_flags2,
            reserved,
        },
    )
}
