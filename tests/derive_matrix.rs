//! The contract of `#[derive(B2Layout)]` (`b2schema::attributes`) on the space of structs it
//! accepts, not on examples: the build script writes one struct per shape (field type ×
//! encoding attribute × role × position × container, `tests/matrix/gen.rs`) into `OUT_DIR`, and
//! each shape's test checks every clause with proptest values, boundary values included:
//!
//! 1. the serde path and the direct codec write the same bytes and read them back to the value;
//! 2. a `fixed_len` of `Some(n)` is the length of every encoding;
//! 3. a field's `marker_offset`, `value_offset` and `width` are where its bytes are: its handle
//!    reads exactly the field's value there, and patching changes that field alone, within
//!    `value_offset..marker_offset + width` (in memory and in a file);
//! 4. handles on `magic` and `computed` fields refuse to patch and change nothing;
//! 5. offsets are `None` from the first field whose width depends on the value;
//! 6. `layout::annotate` follows every valid encoding to its end (no `!!` line).
//!
//! `B2_MATRIX_CASES` sets the proptest cases per shape (64 by default).

use std::fmt::Debug;

use b2schema::B2Layout;
use b2schema::layout::{Layout, Role};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};

/// A fixed-width nested struct.
#[derive(B2Layout, Debug, Clone, PartialEq)]
pub struct Inner {
    a: i32,
    b: u8,
}

/// A nested struct whose width depends on its value.
#[derive(B2Layout, Debug, Clone, PartialEq)]
pub struct InnerVar {
    s: String,
    n: Option<u8>,
}

/// Four flag bytes, packed.
#[derive(B2Layout, Debug, Clone, PartialEq)]
#[b2(packed)]
pub struct Flags {
    a: u8,
    b: [u8; 2],
    c: bool,
}

/// A fixext16's 17 bytes, packed.
#[derive(B2Layout, Debug, Clone, PartialEq)]
#[b2(packed)]
pub struct Ext {
    t: u8,
    d: [u8; 16],
}

fn inner() -> impl Strategy<Value = Inner> {
    (any::<i32>(), 0u8..=127).prop_map(|(a, b)| Inner { a, b })
}

fn inner_var() -> impl Strategy<Value = InnerVar> {
    ("[a-z]{0,40}", proptest::option::of(0u8..=127)).prop_map(|(s, n)| InnerVar { s, n })
}

fn flags() -> impl Strategy<Value = Flags> {
    (any::<u8>(), any::<[u8; 2]>(), any::<bool>()).prop_map(|(a, b, c)| Flags { a, b, c })
}

fn ext() -> impl Strategy<Value = Ext> {
    (any::<u8>(), any::<[u8; 16]>()).prop_map(|(t, d)| Ext { t, d })
}

// The clauses' checks: `run`, `check_layout`, `check_whole!`, `check_field!`.
include!("matrix/checks.rs");

include!(concat!(env!("OUT_DIR"), "/derive_matrix.rs"));

// The generator must keep the matrix at 300 shapes or more (a compile-time check).
const _: () = assert!(SHAPES >= 300, "the matrix has fewer than 300 shapes");
