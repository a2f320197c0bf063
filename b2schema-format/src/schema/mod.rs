//! The middle layer: the runtime of `#[derive(B2Layout)]`, over the format below it.
//!
//! A declared struct's static [`layout`] (diagrams, annotations, patching in place), the direct
//! [`codec`] that writes and reads it without serde's dispatch, and the `__private` support the
//! generated code names (the attributes' reference is `b2schema::attributes`, with the derive).

pub mod codec;
pub mod layout;
pub mod private;
