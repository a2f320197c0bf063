use b2schema::frame::{FrameHeader, MetaLayers};
fn main() {
    let names: Vec<String> = (0..16).map(|i| format!("layer{i:02}")).collect();
    let contents: Vec<Vec<u8>> = (0..16).map(|i| vec![i as u8; 20 + i]).collect();
    let layers: Vec<(&str, &[u8])> =
        names.iter().map(|n| n.as_str()).zip(contents.iter().map(|c| c.as_slice())).collect();
    let file = std::fs::read("tests/data/fixtures/nd-3d-f8-zstd.b2nd").unwrap();
    let (mut h, _) = b2schema::take_from_slice::<FrameHeader>(&file).unwrap();
    h.metalayers = MetaLayers::build(&layers, 87);
    let bytes = b2schema::to_vec(&h).unwrap();
    let mode = std::env::args().nth(1).unwrap_or_default();
    let mut n = 0;
    for _ in 0..20_000 {
        if mode == "de" {
            let v: FrameHeader = b2schema::from_slice(std::hint::black_box(&bytes)).unwrap();
            n += v.metalayers.contents.len();
        } else {
            let mut out = Vec::with_capacity(1024);
            b2schema::to_writer(&mut out, std::hint::black_box(&h)).unwrap();
            n += out.len();
        }
    }
    println!("{n}");
}
