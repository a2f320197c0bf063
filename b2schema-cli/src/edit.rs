//! `append`, `resize` and `write`: an array changed in place (`b2schema::writer::ArrayMut`),
//! each change one crash-safe switch of the frame (the library's new bytes first, then the
//! header, synced; a failure leaves the old array), under the library's writer lock. The
//! array changed is never one of the command's inputs (the `.npy` read), by whatever name.

use std::path::Path;
use std::process::ExitCode;

use b2schema::array::Selection;
use b2schema::writer::ArrayMut;

use crate::Failure;
use crate::npy;

/// The regular file `input`, read whole (at most `max` bytes; a larger one refused).
pub fn read_whole(input: &Path, max: u64) -> Result<Vec<u8>, Failure> {
    use std::io::Read;
    let (f, len) = b2schema::frame::open_regular(input).map_err(|e| Failure::at(input, e))?;
    if len > max {
        return Err(Failure::at(
            input,
            format!("{len} bytes, over the limit of {max} (raise --max-decompressed-total)"),
        ));
    }
    let mut bytes = Vec::new();
    f.take(max).read_to_end(&mut bytes).map_err(|e| Failure::at(input, e))?;
    Ok(bytes)
}

/// The `.npy` file `input`, read whole (at most `max` bytes), in C order.
fn read_npy(input: &Path, max: u64) -> Result<npy::Npy, Failure> {
    npy::read(&read_whole(input, max)?).map_err(|e| Failure::at(input, e))
}

/// The dtype string `d` as the library prints it (`<f8`, a structured dtype), for comparing.
fn same_dtype(a: &str, b: &str) -> bool {
    let norm = |d: &str| b2schema::dtype::DType::parse(d).map(|t| t.to_numpy_str()).ok();
    norm(a).is_some() && norm(a) == norm(b)
}

/// Opens the array `file` for changes (after [`crate::output::refuse_input`] said it is none of
/// the files read).
fn open(file: &Path) -> Result<ArrayMut, Failure> {
    ArrayMut::open(file).map_err(|e| Failure::at(file, e))
}

/// Checks the `.npy` items against the array's dtype.
fn check_dtype(file: &Path, input: &Path, n: &npy::Npy) -> Result<(), Failure> {
    check_items(&dtype_of(file)?, input, n)
}

/// The dtype of the array `file`, as NumPy writes it.
fn dtype_of(file: &Path) -> Result<String, Failure> {
    let c = b2schema::open(file).map_err(|e| Failure::at(file, e))?;
    Ok(c.dtype().map(|d| d.to_numpy_str()).unwrap_or_default())
}

/// Checks the `.npy` items against `dtype`, the array's.
fn check_items(dtype: &str, input: &Path, n: &npy::Npy) -> Result<(), Failure> {
    if !same_dtype(dtype, &n.descr) {
        return Err(Failure::at(input, format!("items of dtype {}, the array's is {dtype}", n.descr)));
    }
    Ok(())
}

/// The rows a change of `append` takes at most before it is committed: the chunks made from them
/// wait in memory for the change's one switch.
const APPEND_BATCH_BYTES: usize = 64 << 20;

/// `b2schema append IN.npy... INTO.b2nd`: each `.npy`'s rows appended along the first axis (its
/// other dimensions the array's), in order; `INTO` is created (as `pack` writes it) from the
/// first when missing. The files are appended in changes of up to [`APPEND_BATCH_BYTES`] of rows
/// (one file alone may be more), each one crash-safe switch: a failure leaves the array with the
/// files of the changes before it appended.
///
/// `synced` false leaves out the syncs of each change (`--no-sync`: the changes are still made
/// in the crash-safe order, so a reader or a killed process sees whole changes, but a crash of
/// the system may lose or tear the last ones; [`ArrayMut::set_synced`]).
pub fn append(
    inputs: &[std::path::PathBuf],
    into: &Path,
    max: u64,
    pack: &crate::pack::PackOptions<'_>,
    synced: bool,
) -> Result<ExitCode, Failure> {
    let Some((first, _)) = inputs.split_first() else {
        return Err(Failure::Message("append: no input".into()));
    };
    let all: Vec<&Path> = inputs.iter().map(|p| p.as_path()).collect();
    let rest = if std::fs::symlink_metadata(into).is_err() {
        crate::output::refuse_input(into, &all)?;
        crate::pack::pack(first, into, pack)?;
        &inputs[1..]
    } else {
        inputs
    };
    if rest.is_empty() {
        return Ok(ExitCode::SUCCESS);
    }
    crate::output::refuse_input(into, &all)?;
    let dtype = dtype_of(into)?;
    let mut a = open(into)?;
    a.set_synced(synced);
    let shape = a.shape().map_err(|e| Failure::at(into, e))?;
    let mut batch: Vec<Vec<u8>> = Vec::new();
    let mut batch_bytes = 0usize;
    for input in rest {
        let n = read_npy(input, max)?;
        check_items(&dtype, input, &n)?;
        if n.shape.len() != shape.len() || n.shape[1..] != shape[1..] {
            return Err(Failure::at(
                input,
                format!(
                    "shape {:?}: appending to an array of shape {shape:?} needs (n, {})",
                    n.shape,
                    rest_of(&shape)
                ),
            ));
        }
        if batch_bytes > 0 && batch_bytes.saturating_add(n.data.len()) > APPEND_BATCH_BYTES {
            commit(&mut a, into, &mut batch)?;
            batch_bytes = 0;
        }
        batch_bytes = batch_bytes.saturating_add(n.data.len());
        batch.push(n.data);
    }
    commit(&mut a, into, &mut batch)?;
    Ok(ExitCode::SUCCESS)
}

/// The slabs of `batch` appended to `a` in one change, then forgotten.
fn commit(a: &mut ArrayMut, into: &Path, batch: &mut Vec<Vec<u8>>) -> Result<(), Failure> {
    a.append_all(batch.iter().map(|b| b.as_slice())).map_err(|e| Failure::at(into, e))?;
    batch.clear();
    Ok(())
}

fn rest_of(shape: &[u64]) -> String {
    shape.iter().skip(1).map(|d| d.to_string()).collect::<Vec<_>>().join(", ")
}

/// `b2schema resize FILE SHAPE`: the array resized as python-blosc2's `resize` does (new
/// regions zeros, chunks outside the new shape dropped).
pub fn resize(file: &Path, shape: &str) -> Result<ExitCode, Failure> {
    crate::output::refuse_input(file, &[])?;
    let mut a = open(file)?;
    let ndim = a.shape().map_err(|e| Failure::at(file, e))?.len();
    let s: Vec<u64> = shape
        .split(',')
        .map(|d| {
            d.trim()
                .parse::<u64>()
                .map_err(|_| Failure::Message(format!("shape {shape:?}: comma-separated integers")))
        })
        .collect::<Result<_, _>>()?;
    if s.len() != ndim {
        return Err(Failure::Message(format!(
            "shape {shape:?} has {} dimensions, the array {ndim}",
            s.len()
        )));
    }
    a.resize(&s).map_err(|e| Failure::at(file, e))?;
    Ok(ExitCode::SUCCESS)
}

/// `b2schema write FILE --slice S IN.npy`: the `.npy`'s items written at `S` (steps of 1; the
/// `.npy` of the selection's shape, with or without its indexed dimensions).
pub fn write(file: &Path, slice: &str, input: &Path, max: u64) -> Result<ExitCode, Failure> {
    crate::output::refuse_input(file, &[input])?;
    let n = read_npy(input, max)?;
    crate::output::refuse_input(file, &[input])?;
    check_dtype(file, input, &n)?;
    let mut a = open(file)?;
    let shape = a.shape().map_err(|e| Failure::at(file, e))?;
    let sel =
        Selection::parse(slice, &shape).map_err(|e| Failure::Message(format!("--slice {slice:?}: {e}")))?;
    if sel.is_strided() {
        return Err(Failure::Message(format!("--slice {slice:?}: steps of 1 only")));
    }
    if n.shape != sel.shape() && n.shape != sel.numpy_shape() {
        return Err(Failure::at(
            input,
            format!("shape {:?}, the slice's is {:?}", n.shape, sel.numpy_shape()),
        ));
    }
    a.write_bytes(sel.ranges(), &n.data).map_err(|e| Failure::at(file, e))?;
    Ok(ExitCode::SUCCESS)
}
