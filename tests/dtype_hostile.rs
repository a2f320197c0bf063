//! Hostile input: limits, overflow, and random strings and mutations that must never panic.

use b2schema::dtype::{ByteOrder, DType, DTypeError, DateTimeUnit, Kind, MAX_DEPTH, MAX_ITEMSIZE, Scalar};
use b2schema_tests::Rng;

fn err(s: &str) -> DTypeError {
    match DType::parse(s) {
        Ok(dt) => panic!("{s:?} parsed as {dt:?}"),
        Err(e) => e,
    }
}

#[test]
fn error_messages() {
    let e = err("<f8q");
    assert_eq!(e, DTypeError { offset: 3, expected: "the end of the type code", found: "q".into() });
    assert_eq!(e.to_string(), "expected the end of the type code at offset 3 of the dtype string, found 'q'");
    assert_eq!(err("q8").to_string(), "expected a type code at offset 0 of the dtype string, found 'q8'");
    assert_eq!(
        err("").to_string(),
        "expected a type code at offset 0 of the dtype string, found end of string"
    );
    assert_eq!(err("[('a', '<i3')]").offset, 10);
    assert_eq!(err("[('a', '<i3')]").expected, "an itemsize of 1, 2, 4 or 8");
    assert_eq!(err("[('a', 'u1'), ('a', 'u1')]").offset, 15);
    assert_eq!(err("[('a', 'u1'), ('a', 'u1')]").found, "'a'");
    assert_eq!(
        err("[('a', 'u1')").to_string(),
        "expected ',' or ']' after the field at offset 12 of the dtype string, found end of string"
    );
    assert_eq!(err("{'names': ['a'], 'formats': ['u1'], 'nope': 1}").found, "'nope'");
    // offsets inside escaped literals point at the literal
    assert_eq!(err("[('a', '\\x3ci3')]").offset, 8);
    // multi-byte characters: offsets stay on char boundaries
    let e = err("[('é', 'ü8')]");
    assert_eq!((e.offset, e.found.as_str()), (9, "ü8"));
}

#[test]
fn depth_limit() {
    let nested = |levels: usize| {
        let mut s = String::from("'<i4'");
        for _ in 0..levels {
            s = format!("[('a', {s})]");
        }
        s
    };
    let ok = DType::parse(&nested(MAX_DEPTH)).unwrap();
    assert_eq!(ok.itemsize(), 4);
    assert_eq!(nested(MAX_DEPTH), ok.to_numpy_str());
    assert_eq!(err(&nested(MAX_DEPTH + 1)).expected, "at most 32 levels of nested dtypes");
    for open in ["[", "(", "{'names': ['a'], 'formats': [", "[('a', ", "(('<f8', (2,)), "] {
        let s = open.repeat(100_000);
        let e = err(&s);
        assert!(e.offset < s.len(), "{open}: {e}");
    }
    // dict forms that turn alignment on re-read their formats: still linear per level
    let mut dict = String::from("'<i4'");
    for _ in 0..MAX_DEPTH {
        dict = format!("{{'names': ['a', 'b'], 'formats': ['u1', {dict}], 'aligned': True}}");
    }
    let dt = DType::parse(&dict).unwrap();
    assert_eq!(dt.itemsize(), 4 * (MAX_DEPTH + 1));
    assert_eq!(DType::parse(&dt.to_numpy_str()).unwrap(), dt);
    assert!(DType::parse(&format!("{{'names': ['a'], 'formats': [{dict}]}}")).is_err());
    let mut subarray = String::from("'<i2'");
    for _ in 0..MAX_DEPTH {
        subarray = format!("({subarray}, (1,))");
    }
    assert_eq!(DType::parse(&subarray).unwrap().shape(), vec![1; MAX_DEPTH]);
    assert!(DType::parse(&format!("({subarray}, (1,))")).is_err());
}

#[test]
fn sizes_are_checked() {
    assert_eq!(DType::parse("|S2147483647").unwrap().itemsize(), MAX_ITEMSIZE);
    assert!(DType::parse("|S2147483648").is_err());
    assert!(DType::parse(&format!("|S{}", "9".repeat(100_000))).is_err());
    assert_eq!(DType::parse("<U536870911").unwrap().itemsize(), 2_147_483_644);
    assert!(DType::parse("<U536870912").is_err());
    assert_eq!(DType::parse("[('a', 'u1', (46340, 46340))]").unwrap().itemsize(), 2_147_395_600);
    assert!(DType::parse("[('a', 'u1', (46341, 46341))]").is_err());
    assert!(DType::parse("[('a', '<f8', (65536, 65536, 65536, 65536, 65536))]").is_err());
    assert_eq!(DType::parse("[('a', '<f8', (0, 2147483647))]").unwrap().itemsize(), 0);
    assert!(DType::parse("[('a', '<f8', (0, 2147483648))]").is_err());
    assert!(DType::parse("[('a', 'S2147483647'), ('b', 'u1')]").is_err());
    assert!(DType::parse("{'names': ['a'], 'formats': ['u1'], 'offsets': [2147483647]}").is_err());
    assert!(
        DType::parse("{'names': ['a'], 'formats': ['<i4'], 'offsets': [2147483644], 'aligned': True}")
            .is_err()
    );
    assert!(
        DType::parse("{'names': ['a'], 'formats': ['u1'], 'itemsize': 99999999999999999999999}").is_err()
    );
    assert!(DType::parse("<M8[2147483648s]").is_err());
    let dims = |n: usize| format!("[('a', 'u1', ({}))]", vec!["1"; n].join(", "));
    assert_eq!(DType::parse(&dims(64)).unwrap().fields()[0].dtype.shape().len(), 64);
    assert!(DType::parse(&dims(65)).is_err());
}

#[test]
fn many_fields() {
    let n = 20_000;
    let fields: Vec<String> = (0..n).map(|i| format!("('f{i}', '<f8')")).collect();
    let s = format!("[{}]", fields.join(", "));
    let dt = DType::parse(&s).unwrap();
    assert_eq!(dt.itemsize(), 8 * n);
    assert_eq!(dt.to_numpy_str(), s);
    let dup = s.replace("'f19999'", "'f0'");
    assert!(DType::parse(&dup).is_err());
    // dict form with many object fields: the overlap check is not quadratic
    let names: Vec<String> = (0..n).map(|i| format!("'o{i}'")).collect();
    let offsets: Vec<String> = (0..n).map(|i| (8 * i).to_string()).collect();
    let s = format!(
        "{{'names': [{}], 'formats': [{}], 'offsets': [{}], 'itemsize': {}}}",
        names.join(", "),
        vec!["'O'"; n].join(", "),
        offsets.iter().rev().cloned().collect::<Vec<_>>().join(", "),
        8 * n + 1
    );
    let dt = DType::parse(&s).unwrap();
    assert_eq!(dt.to_numpy_str(), s);
}

#[test]
fn api() {
    let dt = DType::parse("<M8[5s]").unwrap();
    let want = Scalar {
        order: ByteOrder::Little,
        kind: Kind::DateTime { unit: DateTimeUnit::Second, count: 5 },
        size: 8,
    };
    assert_eq!(dt, DType::Scalar(want));
    let dt = DType::parse("float64").unwrap();
    assert_eq!(dt, DType::Scalar(Scalar { order: ByteOrder::Native, kind: Kind::Float, size: 8 }));
    assert_eq!(dt.to_numpy_str(), "float64");
    assert_eq!(DType::parse("=f8").unwrap(), dt);
    assert_eq!(DType::parse("|u1").unwrap().to_numpy_str(), "|u1");
    assert_eq!(DType::parse(">u1").unwrap().to_numpy_str(), "|u1");
    assert_eq!(DType::parse("uint8").unwrap().to_numpy_str(), "uint8");
    let dt = DType::parse("[('a', ('<f8', (2,)), (3,)), ('b', 'u1')]").unwrap();
    let a = &dt.fields()[0];
    assert_eq!(a.dtype.shape(), vec![3, 2]);
    assert_eq!(a.dtype.base(), &DType::parse("<f8").unwrap());
    assert_eq!(dt.fields()[1].offset, 48);
    assert_eq!(dt.alignment(), 1);
    let dt = DType::parse(
        "{'names': ['a', 'b'], 'formats': ['u1', '<f8'], 'offsets': [0, 8], 'itemsize': 16, 'aligned': True}",
    )
    .unwrap();
    assert_eq!(dt.alignment(), 8);
    assert!(matches!(dt, DType::Struct { aligned: true, record: false, itemsize: 16, .. }));
    assert_eq!(ByteOrder::Native.resolve(ByteOrder::Little), ByteOrder::Little);
    assert_eq!(ByteOrder::Big.resolve(ByteOrder::Little), ByteOrder::Big);
    assert_eq!(DateTimeUnit::Microsecond.as_str(), "us");
    assert_eq!(Kind::TimeDelta { unit: DateTimeUnit::Generic, count: 1 }.code(), 'm');
    // c-blosc2's defaults
    assert_eq!(DType::parse("|S4").unwrap().itemsize(), 4);
    assert_eq!(DType::parse("|u1").unwrap().itemsize(), 1);
}

const TOKENS: &[&str] = &[
    "[",
    "]",
    "(",
    ")",
    "{",
    "}",
    "'",
    "\"",
    ",",
    ", ",
    ":",
    " ",
    "\\",
    "\\x",
    "\\u00",
    "\\U0001",
    "\\n",
    "0",
    "1",
    "2",
    "8",
    "16",
    "2147483647",
    "2147483648",
    "<",
    ">",
    "|",
    "=",
    "?",
    "b",
    "i",
    "u",
    "f",
    "c",
    "S",
    "U",
    "V",
    "M",
    "m",
    "O",
    "[s]",
    "[5ms]",
    "[generic]",
    "<f8",
    "|u1",
    "'<i4'",
    "'u1'",
    "'a'",
    "\"b\"",
    "(3,)",
    "(2, 3)",
    "()",
    "numpy.record",
    "'names'",
    "'formats'",
    "'offsets'",
    "'titles'",
    "'itemsize'",
    "'aligned'",
    "True",
    "False",
    "None",
    "uint8",
    "float64",
    "datetime64",
    "bool",
    "é",
    "\u{200b}",
    "🦀",
    "\0",
];

/// Parsing never panics; what parses prints back to a string that parses to the same dtype.
fn check(s: &str) {
    match DType::parse(s) {
        Err(e) => {
            assert!(e.offset <= s.len() && s.is_char_boundary(e.offset), "{s:?}: {e:?}");
            assert!(e.found.chars().count() <= 16);
            let _ = e.to_string();
        }
        Ok(dt) => {
            assert!(dt.itemsize() <= MAX_ITEMSIZE, "{s:?}");
            let printed = dt.to_numpy_str();
            let again = DType::parse(&printed).unwrap_or_else(|e| panic!("{s:?} -> {printed:?}: {e}"));
            // NumPy's own printing loses the padding of aligned structs nested in packed ones, and
            // prints empty names (dict form) that its list form reads as `f0`, `f1`, ...
            if lossy(&dt) {
                // a fixed point within two more rounds
                let twice = again.to_numpy_str();
                let thrice = DType::parse(&twice).unwrap().to_numpy_str();
                assert_eq!(DType::parse(&thrice).unwrap().to_numpy_str(), thrice, "{s:?}");
            } else {
                assert_eq!(again, dt, "{s:?} -> {printed:?}");
                assert_eq!(again.to_numpy_str(), printed, "{s:?}");
            }
        }
    }
}

fn lossy(dt: &DType) -> bool {
    match dt {
        DType::Scalar(_) => false,
        DType::Subarray { base, .. } => lossy(base),
        DType::Struct { fields, aligned, .. } => {
            fields.iter().any(|f| f.name.is_empty())
                || fields
                    .iter()
                    .any(|f| matches!(f.dtype.base(), DType::Struct { aligned: true, .. }) && !aligned)
                || fields.iter().any(|f| lossy(&f.dtype))
        }
    }
}

#[test]
fn random_token_strings_never_panic() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut parsed = 0;
    for _ in 0..100_000 {
        let mut s = String::new();
        for _ in 0..rng.below(24) {
            s.push_str(TOKENS[rng.below(TOKENS.len())]);
        }
        check(&s);
        parsed += usize::from(DType::parse(&s).is_ok());
    }
    assert!(parsed > 100, "{parsed}");
}

#[test]
fn mutations_of_valid_strings_never_panic() {
    let doc: serde_json::Value = serde_json::from_str(include_str!("data/dtype-cases.json")).unwrap();
    let seeds: Vec<String> = doc["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["written"].as_str().unwrap().to_owned())
        .chain(doc["accepted"].as_array().unwrap().iter().map(|c| c["input"].as_str().unwrap().to_owned()))
        .collect();
    let mut rng = Rng(0x0123_4567_89ab_cdef);
    let mut parsed = 0;
    for seed in &seeds {
        check(seed);
        for _ in 0..300 {
            let mut chars: Vec<char> = seed.chars().collect();
            for _ in 0..1 + rng.below(3) {
                let n = chars.len();
                let at = if n == 0 { 0 } else { rng.below(n + 1) };
                match rng.below(6) {
                    0 if n > 0 => {
                        let end = (at + 1 + rng.below(4)).min(n);
                        chars.drain(at.min(n - 1)..end);
                    }
                    1 => chars.splice(at..at, TOKENS[rng.below(TOKENS.len())].chars()).for_each(drop),
                    2 if n > 0 => {
                        chars[at.min(n - 1)] = TOKENS[rng.below(TOKENS.len())].chars().next().unwrap()
                    }
                    3 if n > 0 => {
                        let from = rng.below(n);
                        let len = rng.below(n - from + 1).min(16);
                        let piece: Vec<char> = chars[from..from + len].to_vec();
                        chars.splice(at..at, piece).for_each(drop);
                    }
                    4 => chars.truncate(at),
                    _ => {
                        if let Some(c) = chars.get_mut(at) {
                            *c = char::from_u32(*c as u32 ^ (1 << rng.below(7))).unwrap_or('x');
                        }
                    }
                }
            }
            let s: String = chars.into_iter().collect();
            check(&s);
            parsed += usize::from(DType::parse(&s).is_ok());
        }
    }
    assert!(parsed > 1000, "{parsed}");
}
