//! Misuses of `#[derive(B2Layout)]` are compile errors pointing at the offending tokens, with a
//! message that says what to write instead. The expected messages are in `tests/ui/*.stderr`
//! (written for the pinned toolchain; `TRYBUILD=overwrite` regenerates them for review).

#[test]
fn derive_misuse_is_a_compile_error() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
}
