//! Values from a file as the viewer's JSON answers carry them: in the command's msgpack
//! convention ([`crate::table::value_json`]), each cut to [`MAX_VALUE_CHARS`] characters of JSON
//! so that no answer grows with what a file holds (a vlmeta value, a BatchArray item or a table
//! cell of a gigabyte is shown as its first characters and its length). The page shows every
//! string as text (`textContent`), never as markup.

use b2schema::Value;
use serde_json::json;

/// The most characters of JSON shown of one value.
pub const MAX_VALUE_CHARS: usize = 2000;

/// The most vlmeta entries shown of one store or table.
pub const MAX_VLMETA: usize = 200;

/// `v` as JSON, or, when its JSON is longer than `max` characters, `{"__cut__": first max
/// characters of its JSON, "chars": its length in characters}`.
pub fn value_within(v: &Value, max: usize) -> serde_json::Value {
    let j = crate::table::value_json(v);
    match &j {
        serde_json::Value::String(s) if s.chars().count() <= max => j,
        serde_json::Value::String(s) => json!({ "__cut__": s.chars().take(max).collect::<String>(),
                                                 "chars": s.chars().count() }),
        serde_json::Value::Array(a) if a.is_empty() => j,
        serde_json::Value::Object(o) if o.is_empty() => j,
        serde_json::Value::Array(_) | serde_json::Value::Object(_) => {
            let text = j.to_string();
            let n = text.chars().count();
            if n <= max {
                j
            } else {
                json!({ "__cut__": text.chars().take(max).collect::<String>(), "chars": n })
            }
        }
        _ => j,
    }
}

/// [`value_within`] at [`MAX_VALUE_CHARS`].
pub fn value(v: &Value) -> serde_json::Value {
    value_within(v, MAX_VALUE_CHARS)
}

/// Named values (a vlmeta), at most [`MAX_VLMETA`], each [`value`]: `[{name, value}]`, and
/// `{"more": n}` last when some were left out.
pub fn named(entries: &[(String, Value)]) -> serde_json::Value {
    let mut out: Vec<serde_json::Value> = entries
        .iter()
        .take(MAX_VLMETA)
        .map(|(name, v)| json!({ "name": cut(name, MAX_VALUE_CHARS), "value": value(v) }))
        .collect();
    if entries.len() > MAX_VLMETA {
        out.push(json!({ "more": entries.len() - MAX_VLMETA }));
    }
    serde_json::Value::Array(out)
}

/// The first `max` characters of `s`.
pub fn cut(s: &str, max: usize) -> String {
    s.chars().take(max).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_values_are_cut_short_ones_kept() {
        assert_eq!(value(&Value::from("abc")), json!("abc"));
        let long = Value::from("x".repeat(5000).as_str());
        let v = value_within(&long, 10);
        assert_eq!(v, json!({ "__cut__": "xxxxxxxxxx", "chars": 5000 }));
        let list = Value::Array((0..2000i64).map(Value::from).collect());
        let v = value_within(&list, 20);
        assert_eq!(v["__cut__"].as_str().unwrap().chars().count(), 20);
        assert_eq!(value_within(&Value::Array(vec![Value::Nil]), 20), json!([null]));
    }
}
