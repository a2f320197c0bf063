//! A loop of metadata decodes and encodes for `valgrind --tool=callgrind` and `perf` (the
//! instruction counts in BENCHMARKS.md), on the values of the bench, by b2schema or by the
//! bench's hand-written floor:
//! `profile_decode [b2nd|b2nd-borrowed|header|header0|b2nd-encode|header-encode][-hand] [N]`
//! (`header0`: the same header with no metalayers, its fixed part alone).
use b2schema::b2nd::B2nd;
use b2schema::frame::FrameHeader;
use std::hint::black_box;

mod floor;

fn main() {
    // `cargo bench` adds `--bench` after the arguments given.
    let mut args = std::env::args().skip(1).filter(|a| a != "--bench");
    let what = args.next().unwrap_or_else(|| "b2nd".into());
    let n: usize = args.next().map(|a| a.parse().unwrap()).unwrap_or(20000);
    let m = floor::b2nd_value();
    let bytes = b2schema::encode_to_vec(&m).unwrap();
    let hbytes = floor::header_bytes(&floor::names(), &floor::contents());
    let h: FrameHeader = b2schema::decode_from_slice(&hbytes).unwrap();
    let h0bytes = floor::header_bytes(&[], &[]);
    let mut buf = Vec::with_capacity(2048);
    for _ in 0..n {
        buf.clear();
        match what.as_str() {
            "b2nd" => drop(black_box(b2schema::decode_from_slice::<B2nd>(black_box(&bytes)))),
            "b2nd-hand" => drop(black_box(floor::hand_decode_b2nd(black_box(&bytes)))),
            "b2nd-borrowed" => {
                drop(black_box(b2schema::decode_from_slice::<floor::B2ndFixed8>(black_box(&bytes))));
            }
            "header" => drop(black_box(b2schema::decode_from_slice::<FrameHeader>(black_box(&hbytes)))),
            "header0" => drop(black_box(b2schema::decode_from_slice::<FrameHeader>(black_box(&h0bytes)))),
            "header0-hand" => drop(black_box(floor::hand_decode_header(black_box(&h0bytes)))),
            "header-hand" => drop(black_box(floor::hand_decode_header(black_box(&hbytes)))),
            "b2nd-encode" => b2schema::encode_into(black_box(&m), &mut buf).unwrap(),
            "b2nd-encode-hand" => floor::hand_encode_b2nd(black_box(&m), &mut buf),
            "header-encode" => b2schema::encode_into(black_box(&h), &mut buf).unwrap(),
            "header-encode-hand" => floor::hand_encode_header(black_box(&h), &mut buf),
            other => panic!("unknown operation {other}"),
        }
        black_box(&buf);
    }
}
