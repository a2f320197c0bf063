//! The reports the commands write, as typed values: each implements `Serialize` (its `--json`
//! form, the contract in `b2schema-cli/schema/`) and `Display` (the human view), so both views
//! are rendered from the same value and neither reads the other back (as ripgrep's printer
//! does with its `jsont.rs`). One file per report: [`frame`] (`inspect FRAME`), [`store`]
//! (`inspect STORE`, one line per member), [`table`] (`inspect TABLE`'s heading), [`verify`]
//! (`verify`).

pub mod frame;
pub mod store;
pub mod table;
pub mod verify;

use std::path::{Path, PathBuf};

use serde::Serialize;

/// The version of the JSON contract (`"schema"`, the first key of every object; the JSON
/// Schemas are `b2schema-cli/schema/inspect.schema.json` and `verify.schema.json`).
pub const SCHEMA_VERSION: u32 = 2;

/// A file name in a JSON report (see [`crate::paths_json`]): `"path"`, the name as text, and
/// `"path_hex"`, its exact bytes, when they are not UTF-8. Flattened into the report that
/// names the file.
#[derive(Clone, Debug, Serialize)]
pub struct FileName {
    /// The name as text (U+FFFD for bytes that are not UTF-8).
    pub path: String,
    /// The name's bytes in lowercase hex, when they are not UTF-8.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path_hex: Option<String>,
    /// The name itself, for the human view.
    #[serde(skip)]
    name: PathBuf,
}

impl FileName {
    /// The name of `path`.
    pub fn of(path: &Path) -> Self {
        FileName {
            path: path.to_string_lossy().into_owned(),
            path_hex: crate::paths_json::hex_if_not_utf8(path),
            name: path.to_path_buf(),
        }
    }
}

impl std::fmt::Display for FileName {
    /// The name for a terminal ([`crate::text::path`]: bytes that are not UTF-8 as `\xNN`).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&crate::text::path(&self.name))
    }
}

/// The JSON line of an input that could not be read at all (in a scan, which goes on):
/// `{"path", "path_hex"?, "error"}`.
#[derive(Debug, Serialize)]
pub struct Unreadable {
    #[serde(flatten)]
    pub name: FileName,
    pub error: String,
}

/// `value` as one line of JSON text, every character a terminal would act on escaped
/// ([`crate::text::json_text`]).
pub fn json_line<T: Serialize + ?Sized>(value: &T) -> String {
    crate::text::json_text(&json(value))
}

/// `value` as compact JSON text (as written, without the terminal escapes of [`json_line`]).
pub fn json<T: Serialize + ?Sized>(value: &T) -> String {
    // Serializing these reports cannot fail: their maps all have string keys.
    serde_json::to_string(value).unwrap_or_default()
}

/// `value` as a `serde_json::Value`, for the code that consumes the JSON form (`serve`,
/// `diff`).
pub fn to_value<T: Serialize + ?Sized>(value: &T) -> serde_json::Value {
    serde_json::to_value(value).unwrap_or_default()
}

/// `items` as a compact JSON list (`[1,2,3]`), as the human views show shapes.
pub fn list<T: std::fmt::Display>(items: &[T]) -> String {
    let items: Vec<String> = items.iter().map(T::to_string).collect();
    format!("[{}]", items.join(","))
}
