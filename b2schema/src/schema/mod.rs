//! The middle layer: the runtime of `#[derive(B2Layout)]`, over the format below it.
//!
//! A declared struct's static [`layout`] (diagrams, annotations, patching in place), the direct
//! [`codec`] that writes and reads it without serde's dispatch, the attributes' reference, and
//! the `__private` support the generated code names.

pub mod attributes;
pub mod codec;
pub mod layout;
pub mod private;
