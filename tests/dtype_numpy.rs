//! Checks the parser against NumPy: `tests/data/dtype-cases.json`, made by `tests/data/make_dtype_cases.py`.

use b2schema::dtype::{ByteOrder, DType, Field, Kind, Scalar};
use serde_json::{Value, json};
use std::cmp::Ordering;

fn cases() -> Value {
    serde_json::from_str(include_str!("data/dtype-cases.json")).expect("tests/data/dtype-cases.json")
}

/// NumPy's `dtype.str` of a scalar on a little-endian machine (native resolved, no names).
fn numpy_scalar_str(s: &Scalar) -> String {
    let order_free = matches!(s.kind, Kind::Bool | Kind::Bytes | Kind::Void | Kind::Object)
        || (matches!(s.kind, Kind::Int | Kind::UInt) && s.size == 1);
    let order = if order_free { ByteOrder::NotApplicable } else { s.order.resolve(ByteOrder::Little) };
    DType::Scalar(Scalar { order, ..*s }).to_numpy_str()
}

/// The same tree `make_cases.py` builds from a NumPy dtype.
fn tree(dt: &DType) -> Value {
    match dt {
        DType::Scalar(s) => {
            json!({"scalar": {"str": numpy_scalar_str(s), "itemsize": dt.itemsize(), "alignment": dt.alignment()}})
        }
        DType::Subarray { base, shape } => json!({"subarray": {
            "itemsize": dt.itemsize(), "alignment": dt.alignment(), "base": tree(base), "shape": shape}}),
        DType::Struct { fields, itemsize, aligned, record } => json!({"struct": {
            "itemsize": itemsize, "alignment": dt.alignment(), "aligned": aligned, "record": record,
            "fields": fields.iter().map(|f| json!({
                "name": f.name, "title": f.title, "offset": f.offset, "dtype": tree(&f.dtype)})).collect::<Vec<_>>()}}),
    }
}

fn has_native(dt: &DType) -> bool {
    match dt {
        DType::Scalar(s) => s.order == ByteOrder::Native,
        DType::Subarray { base, .. } => has_native(base),
        DType::Struct { fields, .. } => fields.iter().any(|f| has_native(&f.dtype)),
    }
}

fn report(failures: Vec<String>, total: usize) {
    assert!(failures.is_empty(), "{} of {total} failed:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn written_strings_parse_like_numpy_and_round_trip() {
    let doc = cases();
    let list = doc["cases"].as_array().unwrap();
    assert!(list.len() > 200);
    let mut failures = Vec::new();
    for case in list {
        let s = case["written"].as_str().unwrap();
        match DType::parse(s) {
            Err(e) => failures.push(format!("{s:?}: {e}")),
            Ok(dt) => {
                if tree(&dt) != case["numpy"] {
                    failures.push(format!("{s:?}: layout\n  ours  {}\n  numpy {}", tree(&dt), case["numpy"]));
                }
                if dt.itemsize() as u64 != case["itemsize"].as_u64().unwrap() {
                    failures.push(format!("{s:?}: itemsize {} != {}", dt.itemsize(), case["itemsize"]));
                }
                if dt.alignment() as u64 != case["alignment"].as_u64().unwrap() {
                    failures.push(format!("{s:?}: alignment {} != {}", dt.alignment(), case["alignment"]));
                }
                if dt.to_numpy_str() != s {
                    failures.push(format!("{s:?}: printed back as {:?}", dt.to_numpy_str()));
                }
                if s.parse::<DType>().as_ref() != Ok(&dt) || dt.to_string() != s {
                    failures.push(format!("{s:?}: FromStr / Display disagree"));
                }
            }
        }
    }
    report(failures, list.len());
}

#[test]
fn strings_python_blosc2_wrote_round_trip() {
    let doc = cases();
    let list = doc["blosc2_written"].as_array().unwrap();
    assert!(!list.is_empty(), "regenerate cases.json with python-blosc2 installed");
    let mut failures = Vec::new();
    for case in list {
        let s = case["written"].as_str().unwrap();
        match DType::parse(s) {
            Ok(dt) if dt.to_numpy_str() == s => {}
            Ok(dt) => {
                failures.push(format!("{}: {s:?} printed back as {:?}", case["label"], dt.to_numpy_str()))
            }
            Err(e) => failures.push(format!("{}: {s:?}: {e}", case["label"])),
        }
    }
    report(failures, list.len());
}

#[test]
fn other_spellings_numpy_accepts() {
    let doc = cases();
    let list = doc["accepted"].as_array().unwrap();
    let mut failures = Vec::new();
    for case in list {
        let s = case["input"].as_str().unwrap();
        let dt = match DType::parse(s) {
            Ok(dt) => dt,
            Err(e) => {
                failures.push(format!("{s:?}: {e}"));
                continue;
            }
        };
        if tree(&dt) != case["numpy"] {
            failures.push(format!("{s:?}: layout\n  ours  {}\n  numpy {}", tree(&dt), case["numpy"]));
        }
        // NumPy's own canonical string, or (names for native types) one that reads back the same.
        let canonical = dt.to_numpy_str();
        if !has_native(&dt) {
            if canonical != case["canonical"].as_str().unwrap() {
                failures.push(format!("{s:?}: canonical {canonical:?}, NumPy writes {}", case["canonical"]));
            }
        } else if DType::parse(&canonical).as_ref() != Ok(&dt) {
            failures.push(format!("{s:?}: canonical {canonical:?} does not parse back to the same dtype"));
        }
    }
    report(failures, list.len());
}

#[test]
fn strings_numpy_rejects_are_rejected() {
    let doc = cases();
    let mut failures = Vec::new();
    let mut total = 0;
    for key in ["rejected", "divergent"] {
        for s in doc[key].as_array().unwrap() {
            total += 1;
            let s = s.as_str().unwrap();
            match DType::parse(s) {
                Ok(dt) => failures.push(format!("{key} {s:?} parsed as {dt:?}")),
                Err(e) => {
                    assert!(e.offset <= s.len() && s.is_char_boundary(e.offset), "{s:?}: {e:?}");
                }
            }
        }
    }
    report(failures, total);
}

fn name_repr(name: &str) -> String {
    let dt = DType::parse("[('x', 'u1')]").unwrap();
    let DType::Struct { mut fields, itemsize, aligned, record } = dt else { unreachable!() };
    fields[0].name = name.to_owned();
    let printed = DType::Struct { fields, itemsize, aligned, record }.to_numpy_str();
    let repr = printed.strip_prefix("[(").unwrap().strip_suffix(", 'u1')]").unwrap().to_owned();
    assert_eq!(DType::parse(&printed).unwrap().fields()[0].name, name, "{printed}");
    repr
}

#[test]
fn names_print_like_python_repr() {
    let doc = cases();
    let samples = doc["repr_samples"].as_array().unwrap();
    let mut failures = Vec::new();
    for sample in samples {
        let name = match &sample[0] {
            Value::Number(n) => char::from_u32(n.as_u64().unwrap() as u32).unwrap().to_string(),
            Value::String(s) => s.clone(),
            other => panic!("{other}"),
        };
        let want = sample[1].as_str().unwrap();
        let got = name_repr(&name);
        if got != want {
            failures.push(format!("{name:?}: {got} != {want}"));
        }
    }
    report(failures, samples.len());
}

#[test]
fn every_code_point_is_escaped_like_python() {
    let doc = cases();
    let ranges: Vec<(u32, u32)> = doc["nonprintable_ranges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r[0].as_u64().unwrap() as u32, r[1].as_u64().unwrap() as u32))
        .collect();
    // One field per code point, named by it; and the string Python would print for it.
    let mut fields = Vec::new();
    let mut want = String::from("[");
    for c in (0..=0x10ffff).filter_map(char::from_u32) {
        let n = c as u32;
        let escaped = ranges
            .binary_search_by(|&(lo, hi)| {
                if hi < n {
                    Ordering::Less
                } else if lo > n {
                    Ordering::Greater
                } else {
                    Ordering::Equal
                }
            })
            .is_ok();
        let repr = match c {
            '\'' => "\"'\"".to_owned(),
            '\\' => "'\\\\'".to_owned(),
            '\t' => "'\\t'".to_owned(),
            '\n' => "'\\n'".to_owned(),
            '\r' => "'\\r'".to_owned(),
            _ if !escaped => format!("'{c}'"),
            _ if n < 0x100 => format!("'\\x{n:02x}'"),
            _ if n < 0x10000 => format!("'\\u{n:04x}'"),
            _ => format!("'\\U{n:08x}'"),
        };
        if fields.is_empty() {
            want.push('(');
        } else {
            want.push_str(", (");
        }
        want.push_str(&repr);
        want.push_str(", 'u1')");
        let dtype = DType::Scalar(Scalar { order: ByteOrder::NotApplicable, kind: Kind::UInt, size: 1 });
        fields.push(Field { name: c.to_string(), title: None, dtype, offset: fields.len() });
    }
    want.push(']');
    let n = fields.len();
    let got = DType::Struct { fields, itemsize: n, aligned: false, record: false }.to_numpy_str();
    if got != want {
        let at = got.bytes().zip(want.bytes()).position(|(a, b)| a != b).unwrap_or(0);
        let from = (0..=at.saturating_sub(40))
            .rev()
            .find(|&i| got.is_char_boundary(i) && want.is_char_boundary(i))
            .unwrap();
        let to = |s: &str| s[from..].chars().take(80).collect::<String>();
        panic!("differs at byte {at}:\n  ours   {}\n  python {}", to(&got), to(&want));
    }
}

#[test]
fn mutations_agree_with_numpy() {
    let doc = cases();
    let list = doc["differential"].as_array().unwrap();
    assert!(list.len() > 4000);
    let mut failures = Vec::new();
    let (mut both, mut stricter) = (0, 0);
    for case in list {
        let s = case["input"].as_str().unwrap();
        match (DType::parse(s), case["numpy"].is_null()) {
            (Err(_), true) => {}
            // NumPy cannot read (numpy.record, ...) back at all.
            (Ok(_), true) if s.starts_with("(numpy.record,") => {}
            (Ok(dt), true) => {
                failures.push(format!("{s:?}: NumPy rejects it, parsed as {}", dt.to_numpy_str()))
            }
            (Err(_), false) => stricter += 1,
            (Ok(dt), false) => {
                both += 1;
                if tree(&dt) != case["numpy"] {
                    failures.push(format!("{s:?}: layout\n  ours  {}\n  numpy {}", tree(&dt), case["numpy"]));
                }
            }
        }
    }
    assert!(both > 300, "{both} accepted by both");
    assert!(stricter < both, "{stricter} accepted by NumPy only");
    report(failures, list.len());
}
