//! A member of a python-blosc2 store (`inspect STORE`, one per member): its `--json` line (the
//! `store_member` of `b2schema-cli/schema/inspect.schema.json`) and its human line.

use std::fmt::{self, Display, Formatter};
use std::path::Path;

use b2schema::store::{Embedded, Place, Store};
use serde::Serialize;

use super::FileName;
use crate::text;

/// One member: where it is in the store, and what its frame holds (or why it cannot be read).
#[derive(Debug, Serialize)]
pub struct Member {
    pub schema: u32,
    /// The store's file name.
    #[serde(flatten)]
    pub name: FileName,
    /// Always `"store-member"`.
    pub kind: &'static str,
    /// The store's form (`"b2z"`, `"b2d"`, `"b2e"`).
    pub store: &'static str,
    pub key: String,
    /// `zip-member`, `compressed-member`, `file`, `embedded` or `remote` ([`place_name`]).
    pub place: &'static str,
    #[serde(flatten)]
    pub at: Where,
    #[serde(flatten)]
    pub what: What,
}

/// Where a member's bytes are, by its place.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum Where {
    /// The ZIP member or file.
    Named { name: String },
    /// Where an embedded member's frame lies in the embed store's data.
    Embedded { embed_offset: u64, embed_length: u64 },
    /// A remote reference.
    Remote { urlbase: String, remote_path: String },
}

/// What a member's frame holds, or why it cannot be read.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum What {
    Described {
        member_kind: &'static str,
        #[serde(skip_serializing_if = "Option::is_none")]
        shape: Option<Vec<i64>>,
        #[serde(skip_serializing_if = "Option::is_none")]
        dtype: Option<String>,
        codec: String,
        typesize: i32,
        nbytes: i64,
        frame_len: u64,
    },
    Unreadable {
        error: String,
    },
}

impl Member {
    /// The member `key` at `place` of `store` (found at `path`).
    pub fn of(path: &Path, store: &Store, key: &str, place: &Place) -> Self {
        let at = match place {
            Place::Zip { name, .. } | Place::Compressed { name, .. } => Where::Named { name: name.clone() },
            Place::File(p) => Where::Named { name: p.display().to_string() },
            Place::Embedded(Embedded::Frame { offset, length }) => {
                Where::Embedded { embed_offset: *offset, embed_length: *length }
            }
            Place::Embedded(Embedded::Remote { urlbase, path }) => {
                Where::Remote { urlbase: urlbase.clone(), remote_path: path.clone() }
            }
        };
        let what = match store.describe(key) {
            Ok(d) => What::Described {
                member_kind: d.kind.name(),
                shape: d.shape,
                dtype: d.dtype,
                codec: d.codec.to_string(),
                typesize: d.typesize,
                nbytes: d.nbytes,
                frame_len: d.frame_len,
            },
            Err(e) => What::Unreadable { error: crate::budget::said(&e) },
        };
        Member {
            schema: super::SCHEMA_VERSION,
            name: FileName::of(path),
            kind: "store-member",
            store: store.form().name(),
            key: key.to_owned(),
            place: place_name(place),
            at,
            what,
        }
    }

    /// Whether the member's frame could not be described.
    pub fn failed(&self) -> bool {
        matches!(self.what, What::Unreadable { .. })
    }
}

/// Where a member is, in words: `zip-member`, `compressed-member`, `file`, `embedded` or
/// `remote`.
fn place_name(p: &Place) -> &'static str {
    match p {
        Place::Zip { .. } => "zip-member",
        Place::Compressed { .. } => "compressed-member",
        Place::File(_) => "file",
        Place::Embedded(Embedded::Frame { .. }) => "embedded",
        Place::Embedded(Embedded::Remote { .. }) => "remote",
    }
}

impl Display for Member {
    /// The human line: key, kind, shape, dtype, codec, size, where (escaped for a terminal).
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let key = text::escape(&self.key);
        match &self.what {
            What::Unreadable { error } => write!(f, "{key}  {}  error: {}", self.place, text::escape(error)),
            What::Described { member_kind, shape, dtype, codec, nbytes, .. } => {
                let shape = shape.as_deref().map(|dims| match dims {
                    [d] => format!("({d},)"),
                    _ => format!("({})", dims.iter().map(i64::to_string).collect::<Vec<_>>().join(", ")),
                });
                let dtype = dtype.as_deref().map(|d| format!(" {}", text::escape(d))).unwrap_or_default();
                write!(
                    f,
                    "{key}  {member_kind}  {}{dtype}  {}  {nbytes} bytes  [{}]",
                    shape.unwrap_or_default(),
                    text::escape(codec),
                    self.place
                )
            }
        }
    }
}
