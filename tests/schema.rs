//! The derive and its runtime (`b2schema-derive`, `b2schema/src/schema/`): the generated matrix,
//! error messages and offsets, compile errors (trybuild), the built-in layouts' contract, layouts
//! and the direct codec.
//!
//! One test binary (`cargo test --test schema`) whose modules are the files beside it.

mod builtin_contract;
mod codec;
mod compile_fail;
mod derive;
mod derive_errors;
mod derive_matrix;
mod derive_regressions;
mod layout;
