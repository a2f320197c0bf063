//! The chunk codec for `b2schema.numcodecs`: Blosc2 chunks (every codec and filter) and c-blosc
//! 1.x's Blosc1 chunks, compressed and decompressed with the interpreter detached.

use b2schema::chunk::compress::{self as chunk_compress, Format, Params, Split};
use b2schema::chunk::{ChunkHeader, Codec, Decoder, Filter, Registry};
use numpy::{PyArray1, PyArrayMethods, PyReadonlyArray1};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::errors::{argument, chunk_to_py};

/// Largest chunk decompressed unless the caller says otherwise (c-blosc2's buffer limit).
const MAX_NBYTES: usize = i32::MAX as usize;

fn split(mode: u8) -> PyResult<Split> {
    Split::from_value(mode).ok_or_else(|| argument(format!("splitmode {mode}: 1 to 4 expected")))
}

/// Compresses `data` into one chunk: `format` `"blosc2"` (the 32-byte extended header) or
/// `"blosc1"` (c-blosc 1.x's 16-byte header; blosclz, lz4, lz4hc, zlib, zstd; one shuffle or
/// bitshuffle). `filters` and `filters_meta` are the six slots, the last running last.
#[pyfunction]
#[pyo3(signature = (data, typesize, codec, clevel, filters, filters_meta, blocksize=0, splitmode=4,
    nthreads=1, format="blosc2", codec_meta=0, use_dict=false))]
#[allow(clippy::too_many_arguments)]
pub fn compress<'py>(
    py: Python<'py>,
    data: PyReadonlyArray1<'py, u8>,
    typesize: usize,
    codec: &str,
    clevel: u8,
    filters: [u8; 6],
    filters_meta: [u8; 6],
    blocksize: usize,
    splitmode: u8,
    nthreads: usize,
    format: &str,
    codec_meta: u8,
    use_dict: bool,
) -> PyResult<Bound<'py, PyBytes>> {
    let codec: Codec = codec.parse().map_err(|e| argument(format!("codec {codec:?}: {e}")))?;
    if typesize == 0 || clevel > 9 {
        return Err(argument(format!(
            "typesize {typesize}, clevel {clevel}: typesize >= 1 and clevel 0-9 expected"
        )));
    }
    let format = match format {
        "blosc2" => Format::Blosc2,
        "blosc1" => Format::Blosc1,
        other => return Err(argument(format!("format {other:?}: \"blosc1\" or \"blosc2\" expected"))),
    };
    let mut fs = [Filter::NoFilter; 6];
    for (slot, id) in fs.iter_mut().zip(filters) {
        *slot = Filter::from_id(id);
    }
    let p = Params::new(typesize)
        .with_codec(codec)
        .with_codec_meta(codec_meta)
        .with_clevel(clevel)
        .with_filters(fs, filters_meta)
        .with_split(split(splitmode)?)
        .with_blocksize(blocksize)
        .with_nthreads(nthreads.max(1))
        .with_use_dict(use_dict)
        .with_format(format);
    // Copied while attached: no other Python thread can change the bytes under the encoder.
    let data = contiguous(&data)?.to_vec();
    let out = py.detach(|| chunk_compress::compress(&data, &p)).map_err(chunk_to_py)?;
    Ok(PyBytes::new(py, &out))
}

/// Decompresses the chunk at the start of `chunk` (Blosc1 or Blosc2) into a new 1-D `uint8`
/// NumPy array of its `nbytes`, refusing more than `max_nbytes`.
#[pyfunction]
#[pyo3(signature = (chunk, nthreads=1, max_nbytes=None))]
pub fn decompress<'py>(
    py: Python<'py>,
    chunk: PyReadonlyArray1<'py, u8>,
    nthreads: usize,
    max_nbytes: Option<usize>,
) -> PyResult<Bound<'py, PyArray1<u8>>> {
    let max = max_nbytes.unwrap_or(MAX_NBYTES);
    // Copied while attached: no other Python thread can change the bytes under the decoder.
    let chunk = contiguous(&chunk)?.to_vec();
    let h = ChunkHeader::parse(&chunk).map_err(chunk_to_py)?;
    let n = usize::try_from(h.nbytes).map_err(|_| argument(format!("a chunk of nbytes {}", h.nbytes)))?;
    if n > max {
        return Err(argument(format!("a chunk of nbytes {n}, over the limit of {max} bytes")));
    }
    let out = PyArray1::<u8>::zeros(py, [n], false);
    {
        let mut guard = out.readwrite();
        let buf = guard.as_slice_mut().map_err(|e| argument(e.to_string()))?;
        let decoder = Decoder::new(Registry::builtin()).max_nbytes(max).nthreads(nthreads.max(1));
        py.detach(|| decoder.decompress_into(&chunk, buf)).map_err(chunk_to_py)?;
    }
    Ok(out)
}

/// `(nbytes, cbytes, blocksize)` of the chunk at the start of `chunk` (numcodecs'
/// `cbuffer_sizes`).
#[pyfunction]
pub fn chunk_sizes(chunk: PyReadonlyArray1<'_, u8>) -> PyResult<(i64, i64, i64)> {
    let h = ChunkHeader::parse(contiguous(&chunk)?).map_err(chunk_to_py)?;
    Ok((i64::from(h.nbytes), i64::from(h.cbytes), i64::from(h.blocksize)))
}

/// The bytes of a 1-D `uint8` array, which must be contiguous.
pub fn contiguous<'a>(a: &'a PyReadonlyArray1<'_, u8>) -> PyResult<&'a [u8]> {
    a.as_slice().map_err(|e| argument(format!("a contiguous uint8 buffer: {e}")))
}
