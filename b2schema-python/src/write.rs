//! `b2schema.asarray`: a NumPy array's bytes written as a `.b2nd` python-blosc2 opens, with
//! its chunks, blocks, compression parameters, metalayers and vlmetalayers.

use std::path::PathBuf;

use b2schema::chunk::{Codec, Filter};
use b2schema::writer::Array;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::errors::{argument, to_py};
use crate::values;

/// Writes `data` (the items' bytes in C order) of `shape` and NumPy dtype `dtype` to `path`.
/// `cparams` takes python-blosc2's keys: `codec` (a name or id), `clevel`, `filters` and
/// `filters_meta` (up to six, the last running last), `codec_meta`, `splitmode` (1-4),
/// `use_dict`, `nthreads`. `meta` and `vlmeta` are dicts of Python values.
#[pyfunction]
#[pyo3(signature = (path, data, shape, dtype, chunks=None, blocks=None, cparams=None, meta=None, vlmeta=None))]
#[allow(clippy::too_many_arguments)]
pub fn write_array(
    py: Python<'_>,
    path: PathBuf,
    data: numpy::PyReadonlyArray1<'_, u8>,
    shape: Vec<u64>,
    dtype: &str,
    chunks: Option<Vec<u64>>,
    blocks: Option<Vec<u64>>,
    cparams: Option<&Bound<'_, PyDict>>,
    meta: Option<&Bound<'_, PyDict>>,
    vlmeta: Option<&Bound<'_, PyDict>>,
) -> PyResult<()> {
    let mut a = Array::from_bytes(&shape, dtype, crate::codec::contiguous(&data)?.to_vec()).map_err(to_py)?;
    if let Some(c) = chunks {
        a = a.chunks(&c);
    }
    if let Some(b) = blocks {
        a = a.blocks(&b);
    }
    if let Some(c) = cparams {
        a = a.cparams(cparams_of(c)?);
    }
    let mut nd = a.to_ndarray().map_err(to_py)?;
    for (dict, into) in [(meta, &mut nd.metalayers), (vlmeta, &mut nd.vlmetalayers)] {
        if let Some(d) = dict {
            for (k, v) in d.iter() {
                let name: String = k.extract()?;
                let bytes = values::from_py(&v)?.to_msgpack().map_err(|e| to_py(e.into()))?;
                into.push((name, bytes));
            }
        }
    }
    py.detach(|| {
        let tmp = path.with_extension(format!("b2schema-tmp-{}", std::process::id()));
        let result = std::fs::File::create(&tmp).map_err(b2schema::Error::from).and_then(|f| {
            let mut out = std::io::BufWriter::with_capacity(1 << 20, f);
            nd.write_to(&mut out, |_, _| {})?;
            let f = out.into_inner().map_err(|e| b2schema::Error::from(e.into_error()))?;
            f.sync_all().map_err(b2schema::Error::from)?;
            std::fs::rename(&tmp, &path).map_err(b2schema::Error::from)
        });
        if result.is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
        result
    })
    .map_err(to_py)
}

/// python-blosc2's cparams dict as the writer's.
fn cparams_of(d: &Bound<'_, PyDict>) -> PyResult<b2schema::writer::CParams> {
    let mut c = b2schema::writer::CParams::default();
    for (k, v) in d.iter() {
        let key: String = k.extract()?;
        match key.as_str() {
            "codec" => {
                let text = match v.extract::<u8>() {
                    Ok(id) => id.to_string(),
                    Err(_) => v.str()?.to_string().rsplit('.').next().unwrap_or("").to_string(),
                };
                c.codec = text.parse::<Codec>().map_err(|e| argument(format!("codec {text:?}: {e}")))?;
            }
            "codec_meta" => c.codec_meta = v.extract()?,
            "clevel" => {
                c.clevel = v.extract()?;
                if c.clevel > 9 {
                    return Err(argument(format!("clevel {}: 0 to 9 expected", c.clevel)));
                }
            }
            "filters" | "filters_meta" => {
                // In the slots given, from the first, as python-blosc2 places them.
                let items: Vec<Bound<'_, PyAny>> = v.try_iter()?.collect::<PyResult<_>>()?;
                if items.len() > 6 {
                    return Err(argument(format!("{key}: at most 6, found {}", items.len())));
                }
                if key == "filters" {
                    c.filters = [Filter::NoFilter; 6];
                    for (slot, item) in c.filters.iter_mut().zip(&items) {
                        let text = match item.extract::<u8>() {
                            Ok(id) => id.to_string(),
                            Err(_) => item.str()?.to_string().rsplit('.').next().unwrap_or("").to_string(),
                        };
                        *slot =
                            text.parse::<Filter>().map_err(|e| argument(format!("filter {text:?}: {e}")))?;
                    }
                } else {
                    c.filters_meta = [0; 6];
                    for (slot, item) in c.filters_meta.iter_mut().zip(&items) {
                        *slot = item.extract::<i16>()? as u8;
                    }
                }
            }
            "splitmode" => {
                let n: u8 = match v.extract::<u8>() {
                    Ok(n) => n,
                    Err(_) => v.getattr("value")?.extract()?,
                };
                c.splitmode = b2schema::chunk::Split::from_value(n)
                    .ok_or_else(|| argument(format!("splitmode {n}: 1 to 4 expected")))?;
            }
            "use_dict" => c.use_dict = v.is_truthy()?,
            "nthreads" => c.nthreads = v.extract()?,
            // python-blosc2's keys that change nothing in the file.
            "typesize" | "blocksize" | "tuner" => {}
            other => {
                return Err(argument(format!(
                    "cparams key {other:?}: codec, codec_meta, clevel, filters, filters_meta, splitmode, use_dict or nthreads expected"
                )));
            }
        }
    }
    Ok(c)
}
