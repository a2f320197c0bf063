//! b2schema-chunk's own zstd encoder (`__zstd_own_frame`): the input compressed at a zstd level
//! from its first byte (1 to 22; c-blosc2's clevels map to 1, 3, ..., 15 and 22), every frame
//! decoded by libzstd and by b2schema-chunk's decoder to the input.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let level = 1 + i32::from(first % 22);
    // A longer input from a short one: repeated with a stride, across a 128 KiB block.
    let input: Vec<u8> = if first & 0x80 != 0 && !rest.is_empty() {
        (0..(rest.len() * 97).min(300_000)).map(|i| rest[(i * 7 / 5) % rest.len()]).collect()
    } else {
        rest.to_vec()
    };
    let Some(frame) = b2schema_chunk::__zstd_own_frame(level, &input) else {
        return;
    };
    let back = zstd::bulk::decompress(&frame, input.len()).expect("libzstd decodes our frame");
    assert!(back == input, "libzstd: level {level}");
    let mut out = vec![0u8; input.len()];
    let n = b2schema_chunk::__zstd_fuzz_decode(None, &frame, &mut out).expect("our decoder decodes our frame");
    assert!(n == input.len() && out == input, "ours: level {level}");
});
