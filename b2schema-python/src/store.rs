//! Stores (`.b2z`, `.b2d`, `.b2e`, by path or URL) as a mapping of their members, and CTables'
//! columns and Arrow C streams.

use std::path::PathBuf;

use arrow_array::ffi_stream::FFI_ArrowArrayStream;
use b2schema::Value;
use pyo3::prelude::*;
use pyo3::types::{PyCapsule, PyDict, PyList};

use crate::array::{Container, limits};
use crate::errors::to_py;
use crate::values;

/// A python-blosc2 store opened for reading.
#[pyclass(frozen, module = "b2schema._b2schema")]
pub struct Store {
    inner: b2schema::store::Store,
    source: String,
}

/// Opens the store at `path`, or at an `http(s)://` or object-store URL (a `.b2z` or `.b2e`).
#[pyfunction]
#[pyo3(signature = (path, max_bytes=None))]
pub fn open_store(py: Python<'_>, path: String, max_bytes: Option<u64>) -> PyResult<Store> {
    let lim = limits(max_bytes);
    let inner = py
        .detach(|| {
            if crate::objects::is_object_url(&path) {
                crate::objects::open_store(&path, lim)
            } else if path.starts_with("http://") || path.starts_with("https://") {
                b2schema::store::Store::open_url_with(&path, lim, Default::default())
            } else {
                b2schema::store::Store::open_with_limits(PathBuf::from(&path), lim)
            }
        })
        .map_err(to_py)?;
    Ok(Store { inner, source: path })
}

#[pymethods]
impl Store {
    #[getter]
    fn source(&self) -> &str {
        &self.source
    }

    /// The members' keys, sorted.
    fn keys(&self) -> Vec<String> {
        self.inner.keys().map(String::from).collect()
    }

    /// The groups above the keys.
    fn groups(&self) -> Vec<String> {
        self.inner.groups()
    }

    /// The member `key`, opened.
    fn get(&self, py: Python<'_>, key: String) -> PyResult<Container> {
        let inner = py.detach(|| self.inner.get(&key)).map_err(to_py)?;
        Ok(Container::new(inner, format!("{}#{key}", self.source)))
    }

    /// The store's own vlmeta, decoded.
    fn vlmeta<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        values::named_to_dict(py, &self.inner.vlmeta().map_err(to_py)?)
    }
}

/// A CTable opened for reading.
#[pyclass(frozen, module = "b2schema._b2schema")]
pub struct Table {
    inner: b2schema::table::CTable,
    source: String,
}

/// Opens the CTable at `path` (a `.b2d` directory or a `.b2z`).
#[pyfunction]
#[pyo3(signature = (path, max_bytes=None))]
pub fn open_table(py: Python<'_>, path: PathBuf, max_bytes: Option<u64>) -> PyResult<Table> {
    let source = path.display().to_string();
    let inner =
        py.detach(|| b2schema::table::CTable::open_with_limits(&path, limits(max_bytes))).map_err(to_py)?;
    Ok(Table { inner, source })
}

#[pymethods]
impl Table {
    #[getter]
    fn source(&self) -> &str {
        &self.source
    }

    /// The columns as (name, kind, nullable), in the schema's order.
    fn columns(&self) -> Vec<(String, String, bool)> {
        self.inner.columns().iter().map(|c| (c.name.clone(), c.kind.clone(), c.nullable)).collect()
    }

    /// The live rows' count.
    fn n_rows(&self) -> PyResult<u64> {
        self.inner.n_rows().map_err(to_py)
    }

    /// The live rows of column `name`, `None` for a null, as a list of Python values.
    fn column<'py>(&self, py: Python<'py>, name: String) -> PyResult<Bound<'py, PyList>> {
        let cells: Vec<Option<Value>> = py.detach(|| self.inner.column::<Value>(&name)).map_err(to_py)?;
        let items = cells
            .iter()
            .map(|c| match c {
                Some(v) => values::to_py(py, v),
                None => Ok(py.None().into_bound(py)),
            })
            .collect::<PyResult<Vec<_>>>()?;
        PyList::new(py, items)
    }

    /// The live rows of `columns` (all when `None`) as an Arrow C stream, a PyCapsule named
    /// `arrow_array_stream` (the Arrow PyCapsule interface: pyarrow, Polars and DuckDB read it),
    /// `batch_rows` rows a batch, decoded on `nthreads` threads as the consumer pulls them.
    #[pyo3(signature = (columns=None, batch_rows=65536, nthreads=1))]
    fn arrow_stream<'py>(
        &self,
        py: Python<'py>,
        columns: Option<Vec<String>>,
        batch_rows: usize,
        nthreads: usize,
    ) -> PyResult<Bound<'py, PyCapsule>> {
        if batch_rows == 0 || nthreads == 0 {
            return Err(crate::errors::argument("batch_rows and nthreads must be at least 1"));
        }
        let names: Option<Vec<&str>> = columns.as_ref().map(|c| c.iter().map(String::as_str).collect());
        let reader = self.inner.arrow_reader(names.as_deref(), batch_rows).map_err(to_py)?.threads(nthreads);
        let stream = FFI_ArrowArrayStream::new(Box::new(reader));
        PyCapsule::new_with_value(py, stream, c"arrow_array_stream")
    }

    /// The live rows as lists of Python values.
    fn rows<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let rows = py.detach(|| self.inner.rows()).map_err(to_py)?;
        let items =
            rows.iter().map(|r| values::to_py(py, &Value::Array(r.clone()))).collect::<PyResult<Vec<_>>>()?;
        PyList::new(py, items)
    }
}
