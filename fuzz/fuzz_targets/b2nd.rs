//! The `b2nd` metalayer readers (`b2nd::read`, strict; `b2nd::read_compat`, positional as
//! c-blosc2) and everything derived from what they return.
#![no_main]

use b2schema::b2nd;
use b2schema::frame::{FilterPipeline, FrameFlags, FrameHeader, MetaLayers};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let typesize = data.last().copied().unwrap_or(8) as i32;
    for meta in [b2nd::read(data), b2nd::read_compat(data)] {
        let meta = match meta {
            Ok(m) => m,
            Err(e) => {
                let text = e.to_string();
                if let Some(at) = e.offset() {
                    assert!(at <= data.len(), "offset {at} past the input ({}): {text}", data.len());
                }
                continue;
            }
        };
        assert!(meta.ndim() <= b2nd::MAX_DIM);
        let _ = meta.extchunkshape();
        let _ = meta.nitems();
        let nchunks = meta.nchunks();
        let chunksize = meta.chunksize(typesize as u64);
        let _ = meta.blocksize(typesize as u64);
        let _ = meta.parsed_dtype();
        let header = FrameHeader {
            magic: *b"b2frame\0",
            header_len: 0,
            frame_len: 0,
            flags: FrameFlags::default(),
            nbytes: chunksize as i64,
            cbytes: 0,
            typesize,
            blocksize: 0,
            chunksize: chunksize as i32,
            nthreads_comp: 1,
            nthreads_decomp: 1,
            has_vlmetalayers: false,
            filter_pipeline: FilterPipeline::default(),
            metalayers: MetaLayers::build(&[], 87),
        };
        let _ = meta.inconsistencies(&header, nchunks);
    }
});
