//! Times b2schema on the arrays `scripts/bench_plugins.py` writes with python-blosc2 for each of
//! c-blosc2's plugin codecs and filters (NDLZ, ZFP, ndcell, ndmean, int_trunc): decoding every
//! chunk of python-blosc2's file, and writing the same data with the same parameters (the whole
//! frame in memory); one thread, best of `reps`. Prints one JSON line per case.
//!
//! ```sh
//! cargo bench -p b2schema --bench plugin_bench -- CASES.json [REPS]
//! ```

use std::time::Instant;

use b2schema::chunk::{Codec, Filter};
use b2schema::frame::FrameFile;
use b2schema::writer::{CParams, Fill, NdArray};

fn main() {
    let args: Vec<String> = std::env::args().filter(|a| a != "--bench").collect();
    let Some(path) = args.get(1) else {
        eprintln!("usage: plugin_bench CASES.json [REPS]");
        std::process::exit(2);
    };
    let reps: usize = args.get(2).map_or(5, |r| r.parse().expect("a repetition count"));
    let cases: Vec<serde_json::Value> =
        serde_json::from_slice(&std::fs::read(path).expect("read the cases")).expect("JSON cases");
    for c in &cases {
        let file = FrameFile::open(c["theirs"].as_str().unwrap()).expect("open python-blosc2's array");
        let chunks = file.chunks().expect("the chunk index");
        let mut decode = f64::INFINITY;
        let mut nbytes = 0;
        for _ in 0..reps {
            let t = Instant::now();
            nbytes = 0;
            for info in &chunks {
                nbytes += file.chunk_data(info, 1 << 30).expect("decodes").len();
            }
            decode = decode.min(t.elapsed().as_secs_f64());
        }
        let data = std::fs::read(c["data"].as_str().unwrap()).expect("read the data");
        let ints =
            |k: &str| -> Vec<i64> { c[k].as_array().unwrap().iter().map(|v| v.as_i64().unwrap()).collect() };
        let (shape, chunkshape, blockshape) = (ints("shape"), ints("chunks"), ints("blocks"));
        let chunkshape: Vec<i32> = chunkshape.iter().map(|&v| v as i32).collect();
        let blockshape: Vec<i32> = blockshape.iter().map(|&v| v as i32).collect();
        let mut filters = [Filter::NoFilter; 6];
        let mut metas = [0u8; 6];
        for (i, (f, m)) in ints("filters").iter().zip(ints("filters_meta")).enumerate() {
            filters[i] = Filter::from_id(*f as u8);
            metas[i] = m as u8;
        }
        let dtype = c["dtype"].as_str().unwrap();
        let typesize: usize = dtype[2..].parse().unwrap();
        let mut array = NdArray::new(&shape, &chunkshape, &blockshape, dtype, typesize, Fill::Data(&data));
        array.cparams = CParams {
            codec: Codec::from_id(c["codec"].as_u64().unwrap() as u8),
            codec_meta: c["codec_meta"].as_i64().unwrap() as u8,
            clevel: c["clevel"].as_u64().unwrap() as u8,
            filters,
            filters_meta: metas,
            ..CParams::default()
        };
        let mut encode = f64::INFINITY;
        let mut cbytes = 0;
        for _ in 0..reps {
            let t = Instant::now();
            let frame = array.to_frame().expect("compresses");
            encode = encode.min(t.elapsed().as_secs_f64());
            cbytes = frame.to_vec().expect("a frame").len();
        }
        println!(
            r#"{{"name": "{}", "nbytes": {nbytes}, "decode": {decode}, "encode": {encode}, "frame_bytes": {cbytes}}}"#,
            c["name"].as_str().unwrap()
        );
    }
}
