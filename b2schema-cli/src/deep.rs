//! `verify --deep`: every stored chunk of a frame decompressed (one at a time, each within
//! `--max-decompressed`; a special chunk is its header, not built), its length checked against
//! its header's `nbytes`, and the sizes
//! checked against what the frame says: for an NDArray each chunk is the padded chunk shape
//! times the typesize and there are as many chunks as the shape needs; for any frame the
//! chunks' sizes add up to the header's `nbytes`.

use b2schema::Segment;
use b2schema::frame::{ChunkInfo, ChunkLocation, FrameFile};

use crate::open::in_file;

/// How many chunks decoded, or the first thing wrong.
pub fn decode_all(file: &FrameFile) -> Result<u64, String> {
    let v = file.view().map_err(|e| in_file(file.offset(), e))?;
    let nbytes = v.header.nbytes.max(0) as u64;
    let typesize = v.header.typesize.max(0) as u64;
    let nd = file.ndarray_meta().map_err(|e| format!("b2nd metalayer: {}", in_file(file.offset(), e)))?;
    let per_chunk = nd.as_ref().map(|nd| nd.chunksize(typesize));
    let max = usize::try_from(file.limits().max_decompressed()).unwrap_or(usize::MAX);
    let (mut count, mut total) = (0u64, 0u64);
    let mut wrong: Option<String> = None;
    let walked = file.for_each_chunk(|info| {
        // A special chunk (zeros, NaN, uninit, a repeated value) is its header: nothing to
        // decode, and its size is its nbytes (not built in memory to be measured).
        let len = match info.special {
            Some(_) => info.nbytes,
            None => decode(file, &info, max)?,
        };
        if let Some(want) = per_chunk
            && len != want
        {
            wrong = Some(format!(
                "chunk {} decodes to {len} bytes, the array's chunk shape needs {want}",
                info.index
            ));
            return Err(b2schema::Error::invalid("a chunk of the array's size", want, len, 0));
        }
        count += 1;
        total += len;
        Ok(())
    });
    if let Some(w) = wrong {
        return Err(w);
    }
    // The error names the chunk (`[i]` in its path): a chunk whose header cannot be read fails
    // before it reaches the closure, so no index kept here would be the right one.
    walked.map_err(|e| in_file(file.offset(), e))?;
    if let Some(nd) = &nd
        && count != nd.nchunks()
    {
        return Err(format!("{count} chunks, the array's shape needs {}", nd.nchunks()));
    }
    if total != nbytes {
        return Err(format!("the chunks decode to {total} bytes, the header says nbytes {nbytes}"));
    }
    Ok(count)
}

/// The decoded length of stored chunk `info` (exactly its `nbytes`, or an error), decoded within
/// `max` bytes; a decoding error's offset is absolute in the file (for a sparse frame, in the
/// chunk's own file).
fn decode(file: &FrameFile, info: &ChunkInfo, max: usize) -> b2schema::Result<u64> {
    let in_chunks = |e: b2schema::Error| e.in_segment(Segment::Index(info.index)).in_field("chunks");
    let n = usize::try_from(info.nbytes).unwrap_or(usize::MAX);
    if n > max {
        // The library's own budget error, which names the option that raises it.
        return file.chunk_data(info, max).map(|d| d.len() as u64);
    }
    let bytes = file.read_chunk(info.location)?;
    let start = match info.location {
        ChunkLocation::Offset(o) => {
            file.offset().saturating_add(file.header_bytes().len() as u64).saturating_add(o) as usize
        }
        _ => 0,
    };
    let data = b2schema::chunk::Decoder::new(file.registry())
        .max_nbytes(n)
        .decompress(&bytes)
        .map_err(|e| in_chunks(b2schema::Error::chunk(e, start)))?;
    if data.len() != n {
        let e = b2schema::Error::invalid("a chunk as long as its nbytes", n, data.len(), start + 4);
        return Err(in_chunks(e));
    }
    Ok(n as u64)
}
