//! Values from a file as the viewer's JSON answers carry them: in the command's msgpack
//! convention ([`crate::table::value_json`]), each cut to [`MAX_VALUE_CHARS`] characters of JSON
//! so that no answer grows with what a file holds (a vlmeta value, a BatchArray item or a table
//! cell of a gigabyte is shown as its first characters and its length). The page shows every
//! string as text (`textContent`), never as markup.

use b2schema::Value;
use serde::Serialize;

/// The most characters of JSON shown of one value.
pub const MAX_VALUE_CHARS: usize = 2000;

/// The most vlmeta entries shown of one store or table.
pub const MAX_VLMETA: usize = 200;

/// One value as an answer carries it: whole (its JSON, in the command's msgpack convention), or
/// cut (`{"__cut__": its first characters of JSON, "chars": its length in characters}`).
#[derive(Serialize, Debug, PartialEq)]
#[serde(untagged)]
pub enum Shown {
    /// The value's JSON, whole.
    Whole(serde_json::Value),
    /// The value's JSON, cut.
    Cut {
        /// Its first characters.
        #[serde(rename = "__cut__")]
        head: String,
        /// Its length in characters.
        chars: usize,
    },
}

/// `v` as JSON, or, when its JSON is longer than `max` characters, its first `max` characters
/// and its length ([`Shown::Cut`]).
pub fn value_within(v: &Value, max: usize) -> Shown {
    let j = crate::table::value_json(v);
    let cut = |text: &str, chars: usize| Shown::Cut { head: text.chars().take(max).collect(), chars };
    match &j {
        serde_json::Value::String(s) => match s.chars().count() {
            n if n <= max => Shown::Whole(j),
            n => cut(s, n),
        },
        serde_json::Value::Array(a) if a.is_empty() => Shown::Whole(j),
        serde_json::Value::Object(o) if o.is_empty() => Shown::Whole(j),
        serde_json::Value::Array(_) | serde_json::Value::Object(_) => {
            let text = j.to_string();
            match text.chars().count() {
                n if n <= max => Shown::Whole(j),
                n => cut(&text, n),
            }
        }
        _ => Shown::Whole(j),
    }
}

/// [`value_within`] at [`MAX_VALUE_CHARS`].
pub fn value(v: &Value) -> Shown {
    value_within(v, MAX_VALUE_CHARS)
}

/// One entry of [`named`]'s list.
#[derive(Serialize)]
#[serde(untagged)]
pub enum Named {
    /// A name and its value.
    Entry {
        /// The name, cut to [`MAX_VALUE_CHARS`] characters.
        name: String,
        /// The value.
        value: Shown,
    },
    /// How many were left out (last).
    More {
        /// Their count.
        more: usize,
    },
}

/// Named values (a vlmeta), at most [`MAX_VLMETA`], each [`value`]: `[{name, value}]`, and
/// `{"more": n}` last when some were left out.
pub fn named(entries: &[(String, Value)]) -> Vec<Named> {
    let mut out: Vec<Named> = entries
        .iter()
        .take(MAX_VLMETA)
        .map(|(name, v)| Named::Entry { name: cut(name, MAX_VALUE_CHARS), value: value(v) })
        .collect();
    if entries.len() > MAX_VLMETA {
        out.push(Named::More { more: entries.len() - MAX_VLMETA });
    }
    out
}

/// The first `max` characters of `s`.
pub fn cut(s: &str, max: usize) -> String {
    s.chars().take(max).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn long_values_are_cut_short_ones_kept() {
        let as_json = |s: &Shown| serde_json::to_value(s).unwrap();
        assert_eq!(as_json(&value(&Value::from("abc"))), json!("abc"));
        let long = Value::from("x".repeat(5000).as_str());
        let v = value_within(&long, 10);
        assert_eq!(as_json(&v), json!({ "__cut__": "xxxxxxxxxx", "chars": 5000 }));
        let list = Value::Array((0..2000i64).map(Value::from).collect());
        let Shown::Cut { head, chars } = value_within(&list, 20) else { panic!("not cut") };
        assert_eq!(
            (head.chars().count(), chars),
            (20, json!((0..2000).collect::<Vec<_>>()).to_string().len())
        );
        assert_eq!(as_json(&value_within(&Value::Array(vec![Value::Nil]), 20)), json!([null]));
    }
}
