//! What one path given to a command is, decided once, before the command reads it, into one
//! [`Input`] that carries what was opened: one of python-blosc2's stores (a CTable when it has
//! `/_meta`; one member of it with `--key`), a BatchArray (`cat --json`), a frame's URL, or a
//! frame on this machine, which the frame commands open themselves (validated, or only located
//! for `verify` and `dump`; `-` is read once, by that open). The commands match on it and open
//! nothing again. Above `kind` (which tells a store from a frame) and below the commands.

use std::path::Path;

use b2schema::Limits;
use b2schema::store::Store;
use b2schema::table::BatchArray;

use crate::Failure;

/// Whether `store` holds a CTable (a `/_meta` member).
pub fn is_table(store: &Store) -> bool {
    store.member(b2schema::table::CTABLE_META_KEY).is_some()
}

/// A path as a command sees it.
pub enum Input {
    /// A frame on this machine (a file, a sparse frame's directory, `-`), opened (and refused)
    /// by the frame commands.
    Frame,
    /// The URL of a frame (`http://`, `https://`, `s3://`, ...), read by ranged GETs: opened by
    /// the frame commands.
    Remote,
    /// One of python-blosc2's stores (`.b2z`, `.b2d`, `.b2e`) holding no CTable, opened.
    Store(Box<Store>),
    /// A store holding a CTable (a `/_meta` member), opened; `column`: the column `--key NAME`
    /// names (no leading `/`).
    Table {
        /// The store.
        store: Box<Store>,
        /// The column asked for.
        column: Option<String>,
    },
    /// The member `--key KEY` of a store, the store opened.
    Member {
        /// The store.
        store: Box<Store>,
        /// The member's key.
        key: String,
    },
    /// A BatchArray frame, opened (`cat --json` asks for its items).
    Batch(Box<BatchArray>),
}

/// What the command asks of the path, as far as telling what it is goes.
#[derive(Clone, Copy, Debug, Default)]
pub struct Asked<'a> {
    /// `--key`: a member of a store (or a CTable's column).
    pub key: Option<&'a str>,
    /// `cat --json`: a frame is a BatchArray, its items asked for.
    pub batches: bool,
}

impl Input {
    /// What `path` (with the frame at `offset`) is for a command that asks `asked`: a store
    /// when it starts at offset 0 and [`crate::kind::is_store`] says so (opened within
    /// `limits`, an error naming `path` if that fails), or one of its members (`--key`); a
    /// BatchArray when asked (opened); a frame's URL, or a frame, otherwise.
    pub fn resolve(path: &Path, offset: u64, asked: Asked<'_>, limits: Limits) -> Result<Input, Failure> {
        let open_store = || crate::kind::open_store(path, limits).map_err(|e| Failure::at(path, e));
        if offset == 0 && crate::kind::is_store(path, limits) {
            let store = Box::new(open_store()?);
            return Ok(match asked.key {
                Some(key) if key.starts_with('/') || !is_table(&store) => {
                    Input::Member { store, key: key.to_owned() }
                }
                column if is_table(&store) => Input::Table { store, column: column.map(str::to_owned) },
                _ => Input::Store(store),
            });
        }
        match asked.key {
            Some(_) if offset != 0 => {
                Err(Failure::at(path, "--key reads a store, which starts at offset 0: leave out --offset"))
            }
            // Not told a store: opened as one all the same, its error saying what `path` is.
            Some(key) => Ok(Input::Member { store: Box::new(open_store()?), key: key.to_owned() }),
            None if asked.batches && offset != 0 => {
                Err(Failure::at(path, "--json reads a BatchArray frame at offset 0"))
            }
            None if asked.batches => {
                crate::table::open_batches(path, limits).map(|b| Input::Batch(Box::new(b)))
            }
            None if crate::open::is_url(path) => Ok(Input::Remote),
            None => Ok(Input::Frame),
        }
    }

    /// [`Input::resolve`] for the commands that read every frame of a scan (`inspect`, `ls`,
    /// `du`, `verify`, `diff`): nothing asked.
    pub fn of(path: &Path, offset: u64, limits: Limits) -> Result<Input, Failure> {
        Input::resolve(path, offset, Asked::default(), limits)
    }

    /// The store this is, or holds the member of (`None` for a frame or a BatchArray).
    pub fn store(&self) -> Option<&Store> {
        match self {
            Input::Store(s) | Input::Table { store: s, .. } | Input::Member { store: s, .. } => Some(s),
            Input::Frame | Input::Remote | Input::Batch(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file of the repository's test data (the tests run in the crate's directory).
    fn data(rel: &str) -> std::path::PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data").join(rel)
    }

    fn what(path: &Path, offset: u64, key: Option<&str>, batches: bool) -> &'static str {
        match Input::resolve(path, offset, Asked { key, batches }, Limits::default()) {
            Ok(Input::Frame) => "frame",
            Ok(Input::Remote) => "remote",
            Ok(Input::Store(_)) => "store",
            Ok(Input::Table { column: None, .. }) => "table",
            Ok(Input::Table { column: Some(_), .. }) => "column",
            Ok(Input::Member { .. }) => "member",
            Ok(Input::Batch(_)) => "batch",
            Err(_) => "refused",
        }
    }

    #[test]
    fn a_path_is_told_once_into_what_it_is() {
        let (store, table) = (data("stores/dict.b2z"), data("tables/table.b2d"));
        let (frame, batch) = (data("fixtures/chunks-2.b2nd"), data("tables/batch.b2b"));
        assert_eq!(what(&store, 0, None, false), "store");
        assert_eq!(what(&store, 0, Some("/big"), false), "member");
        // Only at offset 0: a store never starts inside a file.
        assert_eq!(what(&store, 4, None, false), "frame");
        assert_eq!(what(&store, 4, Some("/big"), false), "refused");
        assert_eq!(what(&table, 0, None, false), "table");
        assert_eq!(what(&table, 0, Some("id"), false), "column");
        assert_eq!(what(&table, 0, Some("/_meta"), false), "member");
        assert_eq!(what(&frame, 0, None, false), "frame");
        // A frame given a key is opened as a store, which says what it is instead.
        assert_eq!(what(&frame, 0, Some("/x"), false), "refused");
        assert_eq!(what(&batch, 0, None, true), "batch");
        assert_eq!(what(&batch, 8, None, true), "refused");
        assert_eq!(what(&frame, 0, None, true), "refused");
        assert_eq!(what(Path::new("http://127.0.0.1:9/a.b2nd"), 0, None, false), "remote");
    }
}
