//! `b2schema::Value`: any msgpack value read and written as python-blosc2 writes user metadata.
//! Generated values round-trip through their bytes; the same values in every width of their
//! markers read alike; crafted bytes (lying counts, deep nesting, cut inputs) are errors naming
//! where, never panics.

use b2schema::Value;
use proptest::prelude::*;

fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Nil),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|i| Value::Int(i.into())),
        any::<u64>().prop_map(|i| Value::Int(i.into())),
        (-40i64..300).prop_map(|i| Value::Int(i.into())),
        any::<f64>().prop_filter("NaN is not equal to itself", |f| !f.is_nan()).prop_map(Value::F64),
        any::<f32>().prop_filter("NaN is not equal to itself", |f| !f.is_nan()).prop_map(Value::F32),
        ".{0,40}".prop_map(Value::Str),
        prop::collection::vec(any::<u8>(), 0..300).prop_map(Value::Bin),
        (any::<f64>(), any::<f64>())
            .prop_filter("no NaN", |(a, b)| !a.is_nan() && !b.is_nan())
            .prop_map(|(re, im)| Value::Complex { re, im }),
        (
            any::<i8>().prop_filter("44 and 45 are decoded", |c| *c != 44 && *c != 45),
            prop::collection::vec(any::<u8>(), 0..40)
        )
            .prop_map(|(c, d)| Value::Ext(c, d)),
    ]
}

fn value() -> impl Strategy<Value = Value> {
    leaf().prop_recursive(4, 64, 20, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..20).prop_map(|v| {
                // A list led by "__tuple__" is a tuple: generated lists are not.
                if v.first().and_then(Value::as_str) == Some("__tuple__") {
                    Value::Tuple(v[1..].to_vec())
                } else {
                    Value::Array(v)
                }
            }),
            prop::collection::vec(inner.clone(), 0..20).prop_map(Value::Tuple),
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Set),
            prop::collection::vec((inner.clone(), inner), 0..20).prop_map(Value::Map),
        ]
    })
}

/// The same value written with the widest markers (`cf`/`d3` ints, str32, bin32, array32,
/// map32, ext32): what Blosc2's fixed-width metadata looks like.
fn widest(v: &Value, out: &mut Vec<u8>) {
    match v {
        Value::Int(i) if *i >= 0 => {
            out.push(0xcf);
            out.extend_from_slice(&(*i as u64).to_be_bytes());
        }
        Value::Int(i) => {
            out.push(0xd3);
            out.extend_from_slice(&(*i as i64).to_be_bytes());
        }
        Value::Str(s) => {
            out.push(0xdb);
            out.extend_from_slice(&(s.len() as u32).to_be_bytes());
            out.extend_from_slice(s.as_bytes());
        }
        Value::Bin(b) => {
            out.push(0xc6);
            out.extend_from_slice(&(b.len() as u32).to_be_bytes());
            out.extend_from_slice(b);
        }
        Value::Array(items) | Value::Tuple(items) => {
            let tag = matches!(v, Value::Tuple(_));
            out.push(0xdd);
            out.extend_from_slice(&((items.len() + usize::from(tag)) as u32).to_be_bytes());
            if tag {
                widest(&Value::from("__tuple__"), out);
            }
            items.iter().for_each(|i| widest(i, out));
        }
        Value::Map(entries) => {
            out.push(0xdf);
            out.extend_from_slice(&(entries.len() as u32).to_be_bytes());
            for (k, x) in entries {
                widest(k, out);
                widest(x, out);
            }
        }
        Value::Ext(code, data) => {
            out.push(0xc9);
            out.extend_from_slice(&(data.len() as u32).to_be_bytes());
            out.push(*code as u8);
            out.extend_from_slice(data);
        }
        other => out.extend_from_slice(&other.to_msgpack().unwrap()),
    }
}

proptest! {
    #[test]
    fn values_round_trip_through_their_bytes(v in value()) {
        let bytes = v.to_msgpack().unwrap();
        prop_assert_eq!(Value::from_msgpack(&bytes).unwrap(), v.clone());
        let mut wide = Vec::new();
        widest(&v, &mut wide);
        prop_assert_eq!(Value::from_msgpack(&wide).unwrap(), v);
    }

    #[test]
    fn any_bytes_read_or_fail_inside_the_input(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        match Value::take_from_msgpack(&bytes) {
            Ok((v, used)) => {
                prop_assert!(used <= bytes.len());
                // What reads re-encodes to a value that reads the same.
                let again = v.to_msgpack().unwrap();
                prop_assert_eq!(Value::from_msgpack(&again).unwrap(), v);
            }
            Err(e) => prop_assert!(e.offset().is_some_and(|o| o <= bytes.len()), "{e}"),
        }
    }

    #[test]
    fn a_cut_value_is_an_error_at_or_before_the_cut(v in value(), cut in any::<prop::sample::Index>()) {
        let bytes = v.to_msgpack().unwrap();
        let n = cut.index(bytes.len());
        let err = Value::from_msgpack(&bytes[..n]).unwrap_err();
        prop_assert!(err.offset().is_some_and(|o| o <= n), "{err}");
    }
}

#[test]
fn python_blosc2_conventions_have_their_variants() {
    // complex(1.5, -2) and {7}, as msgpack_utils.py writes them.
    let mut complex = vec![0xd8, 44];
    complex.extend_from_slice(&1.5f64.to_be_bytes());
    complex.extend_from_slice(&(-2.0f64).to_be_bytes());
    assert_eq!(Value::from_msgpack(&complex).unwrap(), Value::Complex { re: 1.5, im: -2.0 });
    assert_eq!(Value::from_msgpack(&[0xd5, 45, 0x91, 7]).unwrap(), Value::Set(vec![Value::Int(7)]));
    // Nested tuples are tuples too (python's list_hook applies at every level).
    let v =
        Value::from_msgpack(&[0x92, 0xa9, b'_', b'_', b't', b'u', b'p', b'l', b'e', b'_', b'_', 0x91, 0x90])
            .unwrap();
    assert_eq!(v, Value::Tuple(vec![Value::Array(vec![Value::Array(vec![])])]));
    assert_eq!(Value::from_msgpack(&[0xc7, 1, 46, 0]).unwrap(), Value::Ext(46, vec![0]));
}

#[test]
fn crafted_bytes_are_errors_that_say_where() {
    // A list that claims 2^32-1 elements in 5 bytes.
    let e = Value::from_msgpack(&[0x91, 0xdd, 0xff, 0xff, 0xff, 0xff]).unwrap_err();
    assert_eq!(e.offset(), Some(1), "{e}");
    assert!(e.to_string().contains("[0]"), "{e}");
    // A map value that is cut, named by its key.
    let e = Value::from_msgpack(&[0x81, 0xa1, b'k', 0xcb, 0]).unwrap_err();
    assert!(e.to_string().contains("k"), "{e}");
    assert_eq!(e.offset(), Some(4), "{e}"); // the float64 needs 8 bytes from 4
    // Nesting deeper than the limit, without recursion past it.
    let deep = vec![0x91; 100_000];
    let e = Value::from_msgpack(&deep).unwrap_err();
    assert!(e.to_string().contains("deep") || e.to_string().contains("depth"), "{e}");
    // c1 never starts a value; a complex ext of 8 bytes is not python-blosc2's.
    assert_eq!(Value::from_msgpack(&[0xc1]).unwrap_err().offset(), Some(0));
    assert!(Value::from_msgpack(&[0xd7, 44, 0, 0, 0, 0, 0, 0, 0, 0]).is_err());
    // Text that is not UTF-8, and bytes after the value.
    assert!(Value::from_msgpack(&[0xa1, 0xff]).is_err());
    assert_eq!(Value::from_msgpack(&[0xc0, 0xc0]).unwrap_err().offset(), Some(1));
}

#[test]
fn values_show_as_json() {
    let v = Value::Map(vec![
        (Value::from("t"), Value::Tuple(vec![Value::Int(1), Value::from("two")])),
        (Value::from("b"), Value::Bin(vec![1, 2])),
        (Value::from("z"), Value::Complex { re: 1.0, im: 2.0 }),
    ]);
    assert_eq!(serde_json::to_string(&v).unwrap(), r#"{"t":[1,"two"],"b":[1,2],"z":[1.0,2.0]}"#);
    let too_big = Value::Int(i128::from(u64::MAX) + 1).to_msgpack().unwrap_err();
    assert!(too_big.to_string().contains("18446744073709551616"), "{too_big}");
}
