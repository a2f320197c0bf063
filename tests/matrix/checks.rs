// The checks of the contract of `#[derive(B2Layout)]` (`b2schema::attributes`), shared by the
// generated matrix (`tests/derive_matrix.rs`) and the built-in layouts
// (`tests/builtin_contract.rs`), which `include!` this file. The including file imports
// `std::fmt::Debug`, `b2schema::B2Layout`, `b2schema::layout::{Layout, Role}`,
// `proptest::prelude::*` and `proptest::test_runner::{Config, TestCaseError, TestRunner}`.

fn cases() -> u32 {
    std::env::var("B2_MATRIX_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(64)
}

/// Runs `check` on pairs of values of `strategy` (the second one patched into the first's bytes).
fn run<S: Strategy>(
    strategy: impl Fn() -> S,
    check: impl Fn(&S::Value, &S::Value) -> Result<(), TestCaseError>,
) where
    S::Value: Debug,
{
    let config = Config { cases: cases(), failure_persistence: None, ..Config::default() };
    let mut runner = TestRunner::new(config);
    if let Err(e) = runner.run(&(strategy(), strategy()), |(a, b)| check(&a, &b)) {
        panic!("{e}");
    }
}

fn fail(what: &str, e: impl std::fmt::Display) -> TestCaseError {
    TestCaseError::fail(format!("{what}: {e}"))
}

fn role_name(role: Role) -> &'static str {
    match role {
        Role::Data => "data",
        Role::Magic(_) => "magic",
        Role::Computed(_) => "computed",
    }
}

/// Clauses 2 and 5 on one encoding `bytes` of a struct of layout `layout` (from its first byte).
fn check_layout(layout: &Layout, bytes: &[u8]) -> Result<(), TestCaseError> {
    if let Some(n) = layout.fixed_len {
        prop_assert!(bytes.len() >= n, "{}: fixed_len {n} but {} bytes", layout.name, bytes.len());
    }
    let mut fixed = true;
    for f in layout.fields {
        if !fixed {
            prop_assert_eq!(
                f.marker_offset,
                None,
                "{}.{} has an offset after a variable field",
                layout.name,
                f.name
            );
            prop_assert_eq!(f.value_offset, None, "{}.{}", layout.name, f.name);
        }
        fixed &= f.width.is_some() && f.marker_offset.is_some();
        if let (Some(m), Some(w)) = (f.marker_offset, f.width) {
            prop_assert!(m + w <= bytes.len(), "{}.{} ends past the input", layout.name, f.name);
        }
    }
    prop_assert_eq!(layout.fixed_len.is_some(), fixed, "{}: fixed_len against its fields", layout.name);
    Ok(())
}

/// Clause 1 (and 2: the exact length) on the whole value; evaluates to its bytes.
macro_rules! check_whole {
    ($whole:expr, $ty:ty) => {{
        let whole = &$whole;
        let ser = b2schema::to_vec(whole).map_err(|e| fail("to_vec", e))?;
        let direct = b2schema::encode_to_vec(whole).map_err(|e| fail("encode_to_vec", e))?;
        prop_assert_eq!(&ser, &direct, "the serde and direct encoders differ");
        let back: $ty = b2schema::from_slice(&ser).map_err(|e| fail("from_slice", e))?;
        prop_assert_eq!(&back, whole, "from_slice");
        let back: $ty = b2schema::decode_from_slice(&ser).map_err(|e| fail("decode_from_slice", e))?;
        prop_assert_eq!(&back, whole, "decode_from_slice");
        if let Some(n) = <$ty as B2Layout>::LAYOUT.fixed_len {
            prop_assert_eq!(ser.len(), n, "fixed_len");
        }
        // The annotated dump of a valid encoding follows the layout to its end: no `!!` line.
        let text = b2schema::layout::annotate(<$ty as B2Layout>::LAYOUT, &ser);
        let stopped = text.lines().any(|l| l.get(4..).is_some_and(|r| r.trim_start().starts_with("!!")));
        prop_assert!(!stopped, "annotate stopped on a valid encoding:\n{text}");
        ser
    }};
}

/// Clauses 3 and 4 on field `$field` of `$v` (handle `$h`), whose struct starts at byte `$base` of
/// `$bytes`, the encoding of `$whole(v)` (a closure building the encoded value) of type `$ty`.
macro_rules! check_field {
    ($h:expr, $v:ident, $field:ident, $new:expr, $role:expr, $whole:expr, $base:expr, $bytes:ident, $ty:ty) => {{
        let h = $h;
        let fl = h.layout();
        prop_assert_eq!(role_name(fl.role), $role, "role of {}", fl.name);
        let base: usize = $base;
        match (fl.marker_offset, fl.width) {
            (Some(m), Some(w)) => {
                let got = h.read(&$bytes[base..]).map_err(|e| fail("read", e))?;
                prop_assert_eq!(&got, &$v.$field, "read {} at {}", fl.name, m);
                if let Some(vo) = fl.value_offset {
                    prop_assert!(vo >= m && vo <= m + w, "value_offset {vo} outside {m}..{}", m + w);
                }
                let new = $new;
                let mut patched = $bytes.clone();
                let r = h.patch(&mut patched[base..], &new);
                let mut file = std::io::Cursor::new($bytes.clone());
                let rf = h.patch_file(&mut file, base as u64, &new);
                if $role == "data" {
                    r.map_err(|e| fail("patch", e))?;
                    rf.map_err(|e| fail("patch_file", e))?;
                    prop_assert_eq!(file.get_ref(), &patched, "patch_file and patch differ");
                    let lo = base + fl.value_offset.unwrap_or(m);
                    for (i, (a, b)) in $bytes.iter().zip(&patched).enumerate() {
                        prop_assert!(
                            a == b || (i >= lo && i < base + m + w),
                            "patching {} changed byte {i}, outside {lo}..{}",
                            fl.name,
                            base + m + w
                        );
                    }
                    let mut changed = $v.clone();
                    changed.$field = new;
                    let want = ($whole)(changed);
                    let back: $ty =
                        b2schema::from_slice(&patched).map_err(|e| fail("from_slice after patch", e))?;
                    prop_assert_eq!(&back, &want, "after patching {}", fl.name);
                } else {
                    prop_assert!(r.is_err() && rf.is_err(), "a {} field was patched", $role);
                    prop_assert_eq!(&patched, &$bytes);
                    prop_assert_eq!(file.get_ref(), &$bytes);
                }
            }
            _ => {
                prop_assert!(h.read(&$bytes[base..]).is_err(), "{} has no fixed place but reads", fl.name);
            }
        }
    }};
}
