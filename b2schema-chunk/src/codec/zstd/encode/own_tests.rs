//! The encoder's frames decoded by libzstd and by this crate's decoder.

use super::frame::compress;
use crate::codec::zstd::decode::Decoder;
use alloc::vec::Vec;

fn check(level: i32, input: &[u8]) -> usize {
    let frame = compress(level, input, &[], 0).expect("a supported level");
    let back = zstd::bulk::decompress(&frame, input.len() + 16).expect("libzstd decodes");
    assert!(back == input, "libzstd: level {level}, {} bytes", input.len());
    let mut out = alloc::vec![0u8; input.len()];
    let n = Decoder::new().decode(&frame, &mut out).expect("our decoder decodes");
    assert!(n == input.len() && out == input, "ours: level {level}");
    frame.len()
}

#[test]
fn smoke() {
    let text: Vec<u8> =
        (0..200_000u32).flat_map(|i| format!("line {} of {}\n", i % 977, i / 3).into_bytes()).collect();
    for level in [1, 3, 5, 7, 9] {
        let n = check(level, &text);
        let r = zstd::bulk::compress(&text, level).unwrap().len();
        std::println!("level {level}: ours {n} libzstd {r}");
    }
}
