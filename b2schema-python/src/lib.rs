//! The native part of the Python package `b2schema` (`b2schema._b2schema`): the library's
//! containers, stores, tables, writer and chunk codec, for the Python classes in
//! `python/b2schema/`, which give them NumPy's and python-blosc2's faces.
//!
//! No `unsafe` here: what touches the interpreter and NumPy's memory is PyO3's and the `numpy`
//! crate's (FFI by nature; they parse no file bytes: SECURITY.md, "Python and the rule on
//! `unsafe`"). Reads decode straight into a NumPy array's buffer, borrowed through the `numpy`
//! crate's checked borrows, with the interpreter detached while decoding.
#![forbid(unsafe_code)]

mod array;
mod codec;
mod errors;
mod objects;
mod store;
mod values;
mod write;

use pyo3::prelude::*;

/// The module `b2schema._b2schema`; it holds no global state, so it runs without the GIL on a
/// free-threaded interpreter.
#[pymodule(gil_used = false)]
fn _b2schema(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<array::Container>()?;
    m.add_class::<store::Store>()?;
    m.add_class::<store::Table>()?;
    m.add_function(wrap_pyfunction!(array::open, m)?)?;
    m.add_function(wrap_pyfunction!(array::open_url, m)?)?;
    m.add_function(wrap_pyfunction!(array::from_cframe, m)?)?;
    m.add_function(wrap_pyfunction!(store::open_store, m)?)?;
    m.add_function(wrap_pyfunction!(store::open_table, m)?)?;
    m.add_function(wrap_pyfunction!(write::write_array, m)?)?;
    m.add_function(wrap_pyfunction!(codec::compress, m)?)?;
    m.add_function(wrap_pyfunction!(codec::decompress, m)?)?;
    m.add_function(wrap_pyfunction!(codec::chunk_sizes, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
