//! A loop of metadata decodes and encodes for `valgrind --tool=callgrind` and `perf` (the
//! instruction counts in BENCHMARKS.md): `profile_decode [b2nd|header|b2nd-encode|header-encode] [N]`.
use b2schema::b2nd::B2nd;
use b2schema::frame::{FrameHeader, MetaLayers};
use std::hint::black_box;

fn main() {
    let what = std::env::args().nth(1).unwrap_or_else(|| "b2nd".into());
    let n: usize = std::env::args().nth(2).map(|a| a.parse().unwrap()).unwrap_or(20000);
    let m = B2nd {
        version: 0,
        ndim: 8,
        shape: vec![100, 200, 3, 4, 5, 6, 7, 8],
        chunkshape: vec![10, 20, 3, 4, 5, 6, 7, 8],
        blockshape: vec![5, 10, 3, 2, 5, 3, 7, 4],
        dtype_format: 0,
        dtype: "<f8",
    };
    let bytes = b2schema::encode_to_vec(&m).unwrap();
    let file =
        std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/data/fixtures/nd-3d-f8-zstd.b2nd"))
            .unwrap();
    let names: Vec<String> = (0..16).map(|i| format!("layer{i:02}")).collect();
    let contents: Vec<Vec<u8>> = (0..16).map(|i| vec![i as u8; 20 + i]).collect();
    let layers: Vec<(&str, &[u8])> =
        names.iter().map(|s| s.as_str()).zip(contents.iter().map(|c| c.as_slice())).collect();
    let (mut h, _) = b2schema::decode_take::<FrameHeader>(&file).unwrap();
    h.metalayers = MetaLayers::build(&layers, 87);
    let hbytes = b2schema::encode_to_vec(&h).unwrap();
    let mut buf = Vec::with_capacity(2048);
    for _ in 0..n {
        match what.as_str() {
            "b2nd" => drop(black_box(b2schema::decode_from_slice::<B2nd>(black_box(&bytes)).unwrap())),
            "header" => {
                drop(black_box(b2schema::decode_from_slice::<FrameHeader>(black_box(&hbytes)).unwrap()))
            }
            "b2nd-encode" => {
                buf.clear();
                b2schema::encode_into(black_box(&m), &mut buf).unwrap();
                black_box(&buf);
            }
            _ => {
                buf.clear();
                b2schema::encode_into(black_box(&h), &mut buf).unwrap();
                black_box(&buf);
            }
        }
    }
}
