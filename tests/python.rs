//! Everything that needs python-blosc2 (the pinned environment of `scripts/pyenv.sh`, installed
//! on first use): b2schema and python-blosc2 reading each other's arrays, chunks, dictionaries,
//! metalayer patches and plugins. Run alone with `cargo test --test python`; every other test
//! binary runs without it.
//!
//! One test binary (`cargo test --test python`) whose modules are the files beside it.

mod array_python;
mod batch_write_python;
mod chunk_blosc1_python;
mod compress_python;
mod dict_python;
mod edits_python;
mod metalayer_patch;
mod nd_codecs_python;
mod open_python;
mod plugins_python;
mod python_accepts;
mod python_package;
mod store_access_python;
mod store_edits_python;
mod store_python;
mod store_write_python;
mod table_arrow_python;
mod table_python;
mod typed_write_python;
