//! Metadata values both ways, as python-blosc2 gives and takes them: msgpack maps as `dict`,
//! lists as `list`, `["__tuple__", ...]` as `tuple`, ext 44 as `complex`, ext 45 as `set`, binary
//! as `bytes`; other ext values (python-blosc2's ext 42, a Blosc2 object, 46, a NumPy array) as
//! their bytes, never interpreted.

use b2schema::Value;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{
    PyBool, PyBytes, PyComplex, PyDict, PyFloat, PyFrozenSet, PyInt, PyList, PySet, PyString, PyTuple,
};

/// Deepest value taken from Python (as the library's reader: deeper is refused).
const MAX_DEPTH: usize = 128;

/// `v` as a Python object.
pub fn to_py<'py>(py: Python<'py>, v: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        Value::Nil => py.None().into_bound(py),
        Value::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        Value::Int(i) => i.into_pyobject(py)?.into_any(),
        Value::F32(f) => PyFloat::new(py, f64::from(*f)).into_any(),
        Value::F64(f) => PyFloat::new(py, *f).into_any(),
        Value::Str(s) => PyString::new(py, s).into_any(),
        Value::Bin(b) | Value::Ext(_, b) => PyBytes::new(py, b).into_any(),
        Value::Array(items) => {
            PyList::new(py, items.iter().map(|i| to_py(py, i)).collect::<PyResult<Vec<_>>>()?)?.into_any()
        }
        Value::Tuple(items) => {
            PyTuple::new(py, items.iter().map(|i| to_py(py, i)).collect::<PyResult<Vec<_>>>()?)?.into_any()
        }
        Value::Set(items) => {
            PySet::new(py, items.iter().map(|i| to_py(py, i)).collect::<PyResult<Vec<_>>>()?)?.into_any()
        }
        Value::Map(entries) => {
            let d = PyDict::new(py);
            for (k, v) in entries {
                d.set_item(to_py(py, k)?, to_py(py, v)?)?;
            }
            d.into_any()
        }
        Value::Complex { re, im } => PyComplex::from_doubles(py, *re, *im).into_any(),
    })
}

/// A list of named values as a `dict` (in their order).
pub fn named_to_dict<'py>(py: Python<'py>, named: &[(String, Value)]) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    for (k, v) in named {
        d.set_item(k, to_py(py, v)?)?;
    }
    Ok(d)
}

/// A Python value as a [`Value`] (what python-blosc2's msgpack packer takes: None, bool, int,
/// float, str, bytes, list, tuple, dict, complex, set; NumPy scalars through `.item()`).
pub fn from_py(o: &Bound<'_, PyAny>) -> PyResult<Value> {
    from_py_at(o, 0)
}

fn from_py_at(o: &Bound<'_, PyAny>, depth: usize) -> PyResult<Value> {
    if depth > MAX_DEPTH {
        return Err(PyTypeError::new_err(format!("a metadata value nested deeper than {MAX_DEPTH}")));
    }
    let all = |it: Bound<'_, pyo3::types::PyIterator>| -> PyResult<Vec<Value>> {
        it.map(|i| from_py_at(&i?, depth + 1)).collect()
    };
    if o.is_none() {
        Ok(Value::Nil)
    } else if let Ok(b) = o.cast::<PyBool>() {
        Ok(Value::Bool(b.is_true()))
    } else if o.is_instance_of::<PyInt>() {
        Ok(Value::Int(o.extract::<i128>()?))
    } else if let Ok(f) = o.cast::<PyFloat>() {
        Ok(Value::F64(f.value()))
    } else if let Ok(s) = o.cast::<PyString>() {
        Ok(Value::Str(s.to_str()?.to_owned()))
    } else if let Ok(b) = o.cast::<PyBytes>() {
        Ok(Value::Bin(b.as_bytes().to_vec()))
    } else if let Ok(c) = o.cast::<PyComplex>() {
        Ok(Value::Complex { re: c.real(), im: c.imag() })
    } else if o.is_instance_of::<PyList>() {
        Ok(Value::Array(all(o.try_iter()?)?))
    } else if o.is_instance_of::<PyTuple>() {
        Ok(Value::Tuple(all(o.try_iter()?)?))
    } else if o.is_instance_of::<PySet>() || o.is_instance_of::<PyFrozenSet>() {
        Ok(Value::Set(all(o.try_iter()?)?))
    } else if let Ok(d) = o.cast::<PyDict>() {
        let mut entries = Vec::with_capacity(d.len());
        for (k, v) in d.iter() {
            entries.push((from_py_at(&k, depth + 1)?, from_py_at(&v, depth + 1)?));
        }
        Ok(Value::Map(entries))
    } else if o.hasattr("item")? && o.hasattr("dtype")? && o.getattr("ndim")?.extract::<usize>()? == 0 {
        // A NumPy scalar: its Python value.
        from_py_at(&o.call_method0("item")?, depth + 1)
    } else {
        Err(PyTypeError::new_err(format!(
            "a metadata value of type {} (None, bool, int, float, str, bytes, list, tuple, dict, complex or set expected)",
            o.get_type().name()?
        )))
    }
}
