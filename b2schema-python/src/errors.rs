//! The `b2schema.Error` hierarchy (its classes are Python's, in `python/b2schema/errors.py`, so
//! that `IoError` is also an `OSError` and `SelectionError` an `IndexError`): each library error
//! becomes the exception of its kind, with the library's whole message (file, place, expected
//! and found).

use b2schema::{Error, ErrorKind};
use pyo3::prelude::*;
use pyo3::types::PyType;

/// The exception `name` of `b2schema.errors` with `message`.
fn raise(name: &str, message: String) -> PyErr {
    Python::attach(|py| {
        let class = py
            .import("b2schema.errors")
            .and_then(|m| m.getattr(name))
            .and_then(|c| c.cast_into::<PyType>().map_err(PyErr::from));
        match class {
            Ok(class) => PyErr::from_type(class, message),
            Err(e) => e,
        }
    })
}

/// The exception for `e`, by its kind (issue 46: the library's kinds, never its text).
pub fn to_py(e: Error) -> PyErr {
    use b2schema::format::ErrorKind as Format;
    let name = match e.kind() {
        ErrorKind::NotAFrame { .. }
        | ErrorKind::AStore { .. }
        | ErrorKind::NotASparseFrame { .. }
        | ErrorKind::SparseIndex { .. } => "NotAFrameError",
        ErrorKind::Truncated { .. } | ErrorKind::NothingAt { .. } => "TruncatedError",
        ErrorKind::NoSuchKey { .. } => "KeyNotFoundError",
        ErrorKind::BudgetExceeded { .. } => "BudgetExceededError",
        ErrorKind::Chunk(_) => "ChunkError",
        ErrorKind::Io(io) if io.kind() == std::io::ErrorKind::UnexpectedEof => "TruncatedError",
        ErrorKind::Io(io) if io.kind() == std::io::ErrorKind::NotFound => "NotFoundError",
        ErrorKind::Io(_) => "IoError",
        ErrorKind::Invalid(f) => match f.kind() {
            Format::UnexpectedEof { .. } | Format::LengthExceedsInput { .. } => "TruncatedError",
            Format::AllocationFailed { .. } => "BudgetExceededError",
            _ => "FormatError",
        },
        _ => "FormatError",
    };
    raise(name, e.to_string())
}

/// The exception for a chunk codec's error.
pub fn chunk_to_py(e: b2schema::chunk::Error) -> PyErr {
    raise("ChunkError", e.to_string())
}

/// A selection outside the array (`SelectionError`, an `IndexError`).
pub fn selection(message: impl ToString) -> PyErr {
    raise("SelectionError", message.to_string())
}

/// Arguments b2schema refuses (`ValueError` and `b2schema.Error`).
pub fn argument(message: impl ToString) -> PyErr {
    raise("ArgumentError", message.to_string())
}
