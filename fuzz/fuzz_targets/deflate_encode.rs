//! b2schema-chunk's own deflate encoder (`__zlib_own_deflate`, the zlib codec's compressor):
//! the input compressed at a level from its first byte (1 to 9, c-blosc2's clevels), byte for
//! byte the stream of zlib-rs's `compress2` (the reference it replaced: zlib-ng's algorithms, as
//! c-blosc2 bundles), into an output of any size (the same fit or no fit), and inflated back.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let level = 1 + first % 9;
    // A longer input from a short one: repeated with a stride, past the 32 KiB window.
    let input: Vec<u8> = if first & 0x80 != 0 && !rest.is_empty() {
        (0..(rest.len() * 97).min(300_000)).map(|i| rest[(i * 7 / 5) % rest.len()]).collect()
    } else {
        rest.to_vec()
    };
    let room = input.len() + input.len() / 8 + 64;
    let mut ours = vec![0u8; room];
    let n = b2schema_chunk::__zlib_own_deflate(level, &input, &mut ours);
    let mut theirs = vec![0u8; room];
    let (reference, code) =
        zlib_rs::compress_slice(&mut theirs, &input, zlib_rs::DeflateConfig::new(i32::from(level)));
    assert!(code == zlib_rs::ReturnCode::Ok, "zlib-rs fits its bound");
    assert!(ours[..n] == *reference, "level {level}: not zlib-rs's stream");
    // An output one byte short of the stream: no stream (as zlib-rs).
    if n > 0 {
        let mut short = vec![0u8; n - 1];
        assert!(b2schema_chunk::__zlib_own_deflate(level, &input, &mut short) == 0, "level {level}: too long");
    }
    let mut back = vec![0u8; input.len()];
    let (got, code) = zlib_rs::decompress_slice(&mut back, &ours[..n], zlib_rs::InflateConfig::default());
    assert!(code == zlib_rs::ReturnCode::Ok && got[..] == input[..], "level {level}: inflates to the input");
});
