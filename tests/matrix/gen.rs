//! The generator of `tests/derive_matrix.rs`'s structs: the space of structs `#[derive(B2Layout)]`
//! accepts, as a Rust source file written by the build script into `OUT_DIR`.
//!
//! A shape is one field under test (`x`: a Rust type × an encoding attribute × a role) at a
//! position (first, after a fixed `i32`, after a variable `String`), followed by a fixed `u16`
//! whose place depends on `x`'s, in a container (fixarray, array16, map, minimal, packed inside a
//! fixstr or raw field). Each shape gets its struct, a proptest strategy of owned values
//! (boundary values of the encoding mixed with random ones) and one `#[test]` that checks every
//! clause of the derive's contract (`b2schema::attributes`) through `tests/matrix/check.rs`.

use std::fmt::Write as _;

/// How a field's value is made from its owned value `x` (a `&Owned`).
#[derive(Clone, Copy)]
enum Conv {
    /// `x.clone()`.
    Clone,
    /// `x.as_str()`.
    Str,
    /// `x.as_slice()`.
    Slice,
    /// `x.as_deref()` (an `Option<Vec<u8>>` as an `Option<&[u8]>`).
    OptSlice,
}

/// A field type under an encoding attribute.
#[derive(Clone)]
struct Kind {
    /// A name usable in an identifier.
    id: String,
    /// The field's Rust type (`'a` for borrowed ones).
    ty: String,
    /// The owned type the strategy generates.
    owned: String,
    conv: Conv,
    /// The encoding attribute, empty for the type's default.
    attr: String,
    /// The strategy of owned values (data role).
    strat: String,
    /// `magic = <this>` and the owned value it gives, when the kind can be a constant.
    magic: Option<(String, String)>,
    /// `computed = <this>` and the owned value it gives, when the kind can be computed.
    computed: Option<(String, String)>,
    /// Byte-sized, so that it can sit in a packed struct.
    packable: bool,
}

impl Kind {
    fn borrowed(&self) -> bool {
        self.ty.contains("'a")
    }
}

fn int_range(ty: &str) -> (i128, i128) {
    match ty {
        "u8" => (0, u8::MAX as i128),
        "u16" => (0, u16::MAX as i128),
        "u32" => (0, u32::MAX as i128),
        "u64" => (0, u64::MAX as i128),
        "i8" => (i8::MIN as i128, i8::MAX as i128),
        "i16" => (i16::MIN as i128, i16::MAX as i128),
        "i32" => (i32::MIN as i128, i32::MAX as i128),
        "i64" => (i64::MIN as i128, i64::MAX as i128),
        other => panic!("not an integer type: {other}"),
    }
}

fn enc_range(attr: &str) -> (i128, i128) {
    match attr {
        "fixint" => (0, 127),
        "" => (i128::MIN, i128::MAX),
        a if a.starts_with("uint") => (0, (1i128 << a[4..].parse::<u32>().unwrap()) - 1),
        a if a.starts_with("int") => {
            let bits = a[3..].parse::<u32>().unwrap();
            (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
        }
        other => panic!("not an integer encoding: {other}"),
    }
}

/// Integers of `ty` under `attr`: the boundary values of the encoding and of the type (0, 127,
/// 128, 255, min, max, ...) that fit both, and any value in between.
fn int_kind(ty: &str, attr: &str) -> Kind {
    let (tmin, tmax) = int_range(ty);
    let (emin, emax) = enc_range(if attr.is_empty() && ty == "u8" { "fixint" } else { attr });
    let (min, max) = (tmin.max(emin), tmax.min(emax));
    let mut edges = vec![min, max];
    for v in [0i128, 1, -1, 127, 128, -32, -33, -128, -129, 255, 256, 32767, 32768, 65535, 65536] {
        if v >= min && v <= max && !edges.contains(&v) {
            edges.push(v);
        }
    }
    let mut s = String::from("prop_oneof![");
    for v in &edges {
        write!(s, "Just({v}{ty}), ").unwrap();
    }
    write!(s, "{min}{ty}..={max}{ty}]").unwrap();
    let magic = 1.min(max);
    Kind {
        id: format!("{ty}_{}", if attr.is_empty() { "default" } else { attr }),
        ty: ty.into(),
        owned: ty.into(),
        conv: Conv::Clone,
        attr: attr.into(),
        strat: s,
        magic: Some((format!("{magic}"), format!("{magic}{ty}"))),
        computed: Some(("self.pre_len()".into(), format!("3{ty}"))),
        packable: matches!(ty, "u8" | "i8") && attr.is_empty(),
    }
}

fn kind(id: &str, ty: &str, owned: &str, conv: Conv, attr: &str, strat: &str) -> Kind {
    Kind {
        id: id.into(),
        ty: ty.into(),
        owned: owned.into(),
        conv,
        attr: attr.into(),
        strat: strat.into(),
        magic: None,
        computed: None,
        packable: false,
    }
}

fn kinds() -> Vec<Kind> {
    let mut out = Vec::new();
    let ints: &[(&str, &[&str])] = &[
        ("u8", &["", "fixint", "uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64"]),
        ("i8", &["", "fixint", "int16", "int32", "int64"]),
        ("u16", &["", "uint32", "uint64", "int32", "int64"]),
        ("u32", &["", "uint64", "int64"]),
        ("u64", &["", "uint64"]),
        ("i16", &["", "int16", "int32", "int64"]),
        ("i32", &["", "int32", "int64"]),
        ("i64", &["", "int64"]),
    ];
    for (ty, attrs) in ints {
        for attr in *attrs {
            out.push(int_kind(ty, attr));
        }
    }
    let mut b = kind("bool", "bool", "bool", Conv::Clone, "", "any::<bool>()");
    b.magic = Some(("true".into(), "true".into()));
    b.packable = true;
    out.push(b);
    for (ty, attr, magic) in
        [("f32", "", "1.5"), ("f32", "float32", "-0.25"), ("f64", "", "1.5"), ("f64", "float64", "1e300")]
    {
        let mut k = kind(
            &format!("{ty}_{}", if attr.is_empty() { "default" } else { attr }),
            ty,
            ty,
            Conv::Clone,
            attr,
            &format!(
                "prop_oneof![Just(0.0{ty}), Just(-0.0{ty}), Just({ty}::MIN), Just({ty}::MAX), Just({ty}::INFINITY), \
                 Just({ty}::MIN_POSITIVE), any::<{ty}>().prop_filter(\"NaN is not equal to itself\", |v| !v.is_nan())]"
            ),
        );
        k.magic = Some((magic.into(), format!("{magic}{ty}")));
        out.push(k);
    }
    // Up to 31 bytes: the most a fixstr holds (`\u{e9}` is 2 bytes).
    let text = "prop_oneof![Just(String::new()), Just(\"a\".repeat(31)), Just(\"\\u{e9}\".repeat(15)), \"[a-z]{0,31}\"]";
    let text4 = "prop_oneof![Just(\"abcd\".to_string()), Just(\"\\u{e9}\\u{e9}\".to_string()), \"[a-z]{4}\"]";
    for (ty, conv) in [("String", Conv::Clone), ("&'a str", Conv::Str)] {
        let short = if ty == "String" { "string" } else { "str" };
        for (attr, strat) in [("", text), ("str32", text), ("fixstr", text), ("fixstr(len = 4)", text4)] {
            let id = match attr {
                "" => format!("{short}_default"),
                "fixstr(len = 4)" => format!("{short}_fixstr4"),
                a => format!("{short}_{a}"),
            };
            let mut k = kind(&id, ty, "String", conv, attr, strat);
            if matches!(conv, Conv::Str) {
                k.magic = Some(("\"m/s \"".into(), "\"m/s \".to_string()".into()));
            }
            out.push(k);
        }
    }
    let bytes =
        "prop_oneof![Just(Vec::new()), Just(vec![0xff; 31]), proptest::collection::vec(any::<u8>(), 0..40)]";
    let mut k = kind("slice_bin32", "&'a [u8]", "Vec<u8>", Conv::Slice, "bin32", bytes);
    k.magic = Some(("b\"cd\"".into(), "b\"cd\".to_vec()".into()));
    out.push(k);
    let mut k = kind("vecu8_bin32", "Vec<u8>", "Vec<u8>", Conv::Clone, "bin32", bytes);
    k.magic = Some(("b\"cd\"".into(), "b\"cd\".to_vec()".into()));
    out.push(k);
    let fix = |n: usize| {
        format!(
            "prop_oneof![Just(Vec::new()), Just(vec![127u8; {n}]), proptest::collection::vec(0u8..=127, 0..={n})]"
        )
    };
    out.push(kind("vecu8_default", "Vec<u8>", "Vec<u8>", Conv::Clone, "", &fix(15)));
    out.push(kind("vecu8_counted", "Vec<u8>", "Vec<u8>", Conv::Clone, "counted", &fix(16)));
    out.push(kind("vecu8_array16", "Vec<u8>", "Vec<u8>", Conv::Clone, "array16", &fix(20)));
    let arr = "prop_oneof![Just([0u8; 4]), Just([0xffu8; 4]), any::<[u8; 4]>()]";
    let arr7 = "prop_oneof![Just([0u8; 4]), Just([127u8; 4]), proptest::array::uniform4(0u8..=127)]";
    for (attr, strat) in [
        ("", arr7),
        ("fixarray", arr7),
        ("array16", arr7),
        ("fixstr", arr),
        ("raw", arr),
        ("bin32", arr),
        ("str32", arr),
    ] {
        let id = format!("arr4_{}", if attr.is_empty() { "default" } else { attr });
        let mut k = kind(&id, "[u8; 4]", "[u8; 4]", Conv::Clone, attr, strat);
        k.magic = if matches!(attr, "" | "fixarray" | "array16") {
            Some(("b\"b2\\x00\\x7f\"".into(), "*b\"b2\\x00\\x7f\"".into()))
        } else {
            Some(("b\"b2\\x00\\xff\"".into(), "*b\"b2\\x00\\xff\"".into()))
        };
        k.packable = attr.is_empty() || attr == "raw";
        out.push(k);
    }
    out.push(kind("arr17_fixext16", "[u8; 17]", "[u8; 17]", Conv::Clone, "fixext16", "any::<[u8; 17]>()"));
    let i32s = "prop_oneof![Just([i32::MIN, 0, i32::MAX]), any::<[i32; 3]>()]";
    for attr in ["", "fixarray", "array16"] {
        let id = format!("arri32_{}", if attr.is_empty() { "default" } else { attr });
        out.push(kind(&id, "[i32; 3]", "[i32; 3]", Conv::Clone, attr, i32s));
    }
    let vec_i32 = |n: usize| {
        format!(
            "prop_oneof![Just(Vec::new()), Just(vec![i32::MIN; {n}]), proptest::collection::vec(any::<i32>(), 0..={n})]"
        )
    };
    for (attr, n) in [("", 15), ("fixarray", 15), ("counted", 16), ("array16", 20)] {
        let id = format!("veci32_{}", if attr.is_empty() { "default" } else { attr });
        out.push(kind(&id, "Vec<i32>", "Vec<i32>", Conv::Clone, attr, &vec_i32(n)));
    }
    out.push(kind(
        "option_i32",
        "Option<i32>",
        "Option<i32>",
        Conv::Clone,
        "",
        "prop_oneof![Just(None), Just(Some(0)), Just(Some(i32::MIN)), any::<Option<i32>>()]",
    ));
    out.push(kind(
        "option_string",
        "Option<String>",
        "Option<String>",
        Conv::Clone,
        "",
        "prop_oneof![Just(None), Just(Some(String::new())), proptest::option::of(\"[a-z]{0,31}\")]",
    ));
    out.push(kind("inner_default", "Inner", "Inner", Conv::Clone, "", "inner()"));
    out.push(kind("inner_array16", "Inner", "Inner", Conv::Clone, "array16", "inner()"));
    out.push(kind("innervar_default", "InnerVar", "InnerVar", Conv::Clone, "", "inner_var()"));
    let mut k = kind("flags_fixstr", "Flags", "Flags", Conv::Clone, "fixstr", "flags()");
    k.packable = false;
    out.push(k);
    let mut k = kind("flags_raw", "Flags", "Flags", Conv::Clone, "raw", "flags()");
    k.packable = true;
    out.push(k);
    out.push(kind("ext_fixext16", "Ext", "Ext", Conv::Clone, "fixext16", "ext()"));
    // Issue 38: the types a user writes with no attribute, nested and borrowed.
    let mut k = kind("slice_default", "&'a [u8]", "Vec<u8>", Conv::Slice, "", bytes);
    k.magic = Some(("b\"cd\"".into(), "b\"cd\".to_vec()".into()));
    out.push(k);
    out.push(kind(
        "option_slice_default",
        "Option<&'a [u8]>",
        "Option<Vec<u8>>",
        Conv::OptSlice,
        "",
        "proptest::option::of(proptest::collection::vec(any::<u8>(), 0..20))",
    ));
    let mut k = kind("vecu8_bin32_magic4", "Vec<u8>", "Vec<u8>", Conv::Clone, "bin32", bytes);
    k.magic = Some(("b\"B2HD\"".into(), "b\"B2HD\".to_vec()".into()));
    out.push(k);
    let nested: &[(&str, &str, &str)] = &[
        ("option_inner", "Option<Inner>", "proptest::option::of(inner())"),
        ("vec_inner", "Vec<Inner>", "proptest::collection::vec(inner(), 0..=15)"),
        ("arr_inner2", "[Inner; 2]", "proptest::array::uniform2(inner())"),
        ("box_inner", "Box<Inner>", "inner().prop_map(Box::new)"),
        ("vec_option_i32", "Vec<Option<i32>>", "proptest::collection::vec(any::<Option<i32>>(), 0..=15)"),
        (
            "option_vec_i32",
            "Option<Vec<i32>>",
            "proptest::option::of(proptest::collection::vec(any::<i32>(), 0..=15))",
        ),
        ("arr_option_u8", "[Option<u8>; 2]", "proptest::array::uniform2(proptest::option::of(0u8..=127))"),
        ("option_arr4", "Option<[u8; 4]>", "proptest::option::of(proptest::array::uniform4(0u8..=127))"),
        ("vec_string", "Vec<String>", "proptest::collection::vec(\"[a-z]{0,8}\", 0..=15)"),
        (
            "vec_vecu8",
            "Vec<Vec<u8>>",
            "proptest::collection::vec(proptest::collection::vec(0u8..=127, 0..4), 0..=15)",
        ),
        ("option_innervar", "Option<InnerVar>", "proptest::option::of(inner_var())"),
    ];
    for (id, ty, strat) in nested {
        out.push(kind(id, ty, ty, Conv::Clone, "", strat));
    }
    out
}

#[derive(Clone, Copy, PartialEq)]
enum Role {
    Data,
    Magic,
    Computed,
}

#[derive(Clone, Copy, PartialEq)]
enum Pos {
    First,
    AfterFixed,
    AfterVariable,
}

#[derive(Clone, Copy, PartialEq)]
enum Container {
    FixArray,
    Array16,
    Map,
    Minimal,
    /// `minimal` and `map` together (python-blosc2's user metalayers as dicts).
    MinimalMap,
    /// A packed struct inside a `raw` field.
    Packed,
}

fn shapes(kinds: &[Kind]) -> Vec<(Kind, Role, Pos, Container)> {
    use Container::*;
    use Pos::*;
    let mut out = Vec::new();
    for (i, k) in kinds.iter().enumerate() {
        let positions: &[Pos] =
            if i % 2 == 0 { &[First, AfterFixed, AfterVariable] } else { &[AfterFixed, AfterVariable] };
        for &pos in positions {
            out.push((k.clone(), Role::Data, pos, FixArray));
        }
        // The other containers in turn, one per kind (every kind family meets each of them).
        out.push((k.clone(), Role::Data, AfterFixed, [Array16, Map, Minimal, MinimalMap][i % 4]));
        if k.magic.is_some() {
            let (pos, c) = [(First, FixArray), (AfterVariable, FixArray), (AfterFixed, Map)][i % 3];
            out.push((k.clone(), Role::Magic, pos, c));
        }
        if k.computed.is_some() {
            out.push((k.clone(), Role::Computed, [AfterFixed, AfterVariable][i % 2], FixArray));
        }
        if k.packable {
            for pos in [First, AfterFixed] {
                out.push((k.clone(), Role::Data, pos, Packed));
            }
            if k.magic.is_some() {
                out.push((k.clone(), Role::Magic, AfterFixed, Packed));
            }
        }
    }
    out
}

/// The whole generated file: one module per shape.
pub fn generate() -> (String, usize) {
    let kinds = kinds();
    let shapes = shapes(&kinds);
    let mut s = String::new();
    for (n, (k, role, pos, container)) in shapes.iter().enumerate() {
        shape(&mut s, n, k, *role, *pos, *container);
    }
    writeln!(s, "/// The number of struct shapes above.\npub const SHAPES: usize = {};", shapes.len())
        .unwrap();
    (s, shapes.len())
}

fn shape(s: &mut String, n: usize, k: &Kind, role: Role, pos: Pos, container: Container) {
    let packed = container == Container::Packed;
    let (pre_ty, pre_owned, pre_conv, pre_strat) = match (pos, packed) {
        (Pos::First, _) => (None, "()", Conv::Clone, "Just(())"),
        (Pos::AfterFixed, false) => {
            (Some("i32"), "i32", Conv::Clone, "prop_oneof![Just(i32::MIN), Just(-1), any::<i32>()]")
        }
        (Pos::AfterFixed, true) => (Some("u8"), "u8", Conv::Clone, "any::<u8>()"),
        (Pos::AfterVariable, _) => (
            Some("String"),
            "String",
            Conv::Clone,
            "prop_oneof![Just(String::new()), Just(\"z\".repeat(40)), \"[a-z]{0,8}\"]",
        ),
    };
    let post_ty = if packed { "u8" } else { "u16" };
    let post_strat =
        if packed { "any::<u8>()" } else { "prop_oneof![Just(0u16), Just(u16::MAX), any::<u16>()]" };
    let lt = if k.borrowed() { "<'a>" } else { "" };
    let role_name = match role {
        Role::Data => "data",
        Role::Magic => "magic",
        Role::Computed => "computed",
    };
    let pos_name = match pos {
        Pos::First => "first",
        Pos::AfterFixed => "after_fixed",
        Pos::AfterVariable => "after_variable",
    };
    let cont_name = match container {
        Container::FixArray => "fixarray",
        Container::Array16 => "array16",
        Container::Map => "map",
        Container::Minimal => "minimal",
        Container::MinimalMap => "minimal_map",
        Container::Packed => "packed",
    };
    let name = format!("s{n:03}_{}_{role_name}_{pos_name}_{cont_name}", k.id);
    let mut attrs: Vec<String> = Vec::new();
    if !k.attr.is_empty() && !packed {
        attrs.push(k.attr.clone());
    }
    if packed && k.attr == "raw" {
        attrs.push("raw".into());
    }
    let x_strat = match role {
        Role::Data => k.strat.clone(),
        Role::Magic => {
            let (lit, owned) = k.magic.clone().unwrap();
            attrs.push(format!("magic = {lit}"));
            format!("Just({owned})")
        }
        Role::Computed => {
            let (expr, owned) = k.computed.clone().unwrap();
            attrs.push(format!("computed = {expr}"));
            format!("Just({owned})")
        }
    };
    let x_attr = if attrs.is_empty() { String::new() } else { format!("#[b2({})]", attrs.join(", ")) };
    let cattr = match container {
        Container::FixArray => "",
        Container::Array16 => "#[b2(array16)]",
        Container::Map => "#[b2(map)]",
        Container::Minimal => "#[b2(minimal)]",
        Container::MinimalMap => "#[b2(minimal, map)]",
        Container::Packed => "#[b2(packed)]",
    };
    let conv = |c: Conv, e: &str| match c {
        Conv::Clone => format!("{e}.clone()"),
        Conv::Str => format!("{e}.as_str()"),
        Conv::Slice => format!("{e}.as_slice()"),
        Conv::OptSlice => format!("{e}.as_deref()"),
    };
    let pre_field = pre_ty.map(|t| format!("pre: {t},")).unwrap_or_default();
    let pre_init = pre_ty.map(|_| format!("pre: {},", conv(pre_conv, "o.0"))).unwrap_or_default();
    let pre_len = "3";
    let x_init = conv(k.conv, "o.1");
    let (outer, outer_build, base) = if packed {
        (
            "#[derive(B2Layout, Debug, Clone, PartialEq)]\n    pub struct Outer { #[b2(raw)] p: S }\n"
                .to_string(),
            "|v| Outer { p: v }",
            "Outer::P.layout().value_offset.unwrap()",
        )
    } else {
        (String::new(), "|v| v", "0")
    };
    let outer_ty = match (packed, k.borrowed()) {
        (true, _) => "Outer",
        (false, true) => "S<'_>",
        (false, false) => "S",
    };
    let pre_check = if pre_ty.is_some() {
        format!(
            "check_field!(S::PRE, v, pre, {}, \"data\", {outer_build}, {base}, bytes, {outer_ty});",
            conv(pre_conv, "o2.0")
        )
    } else {
        String::new()
    };
    writeln!(
        s,
        r#"
mod {name} {{
    #![allow(clippy::all, dead_code, unused_imports)]
    use super::*;

    #[derive(B2Layout, Debug, Clone, PartialEq)]
    {cattr}
    pub struct S{lt} {{
        {pre_field}
        {x_attr}
        x: {ty},
        post: {post_ty},
    }}

    impl{lt} S{lt} {{
        fn pre_len(&self) -> usize {{
            {pre_len}
        }}
    }}

    {outer}

    type Owned = ({pre_owned}, {owned}, {post_ty});

    fn strategy() -> impl Strategy<Value = Owned> {{
        ({pre_strat}, {x_strat}, {post_strat})
    }}

    #[test]
    fn contract() {{
        run(strategy, |o: &Owned, o2: &Owned| {{
            let v = S {{ {pre_init} x: {x_init}, post: o.2.clone() }};
            let v2 = S {{ {pre_init2} x: {x_init2}, post: o2.2.clone() }};
            let _ = &v2;
            let whole = ({outer_build})(v.clone());
            let bytes = check_whole!(whole, {outer_ty});
            check_layout({outer_layout}, &bytes)?;
            check_layout(S::LAYOUT, &bytes[{base}..])?;
            {pre_check}
            check_field!(S::X, v, x, {x_init2}, "{role_name}", {outer_build}, {base}, bytes, {outer_ty});
            check_field!(S::POST, v, post, o2.2.clone(), "data", {outer_build}, {base}, bytes, {outer_ty});
            Ok(())
        }});
    }}
}}
"#,
        ty = k.ty,
        outer_layout = if packed { "Outer::LAYOUT" } else { "S::LAYOUT" },
        owned = k.owned,
        pre_init2 = pre_init.replace("o.0", "o2.0"),
        x_init2 = conv(k.conv, "o2.1"),
    )
    .unwrap();
}
