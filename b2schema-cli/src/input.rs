//! What one path given to a command is, decided once, before the command reads it: one of
//! python-blosc2's stores (opened here, once, and handed on: a CTable is a store with `/_meta`,
//! told by [`Resolved::is_table`]), or a frame, which the frame commands open themselves (a file,
//! a sparse frame's directory, `-`, a URL; a BatchArray is a frame whose rows `cat --json` writes).
//! Above `kind` (which tells) and below the commands.

use std::path::Path;

use b2schema::Limits;
use b2schema::store::Store;

use crate::Failure;

/// Whether `store` holds a CTable (a `/_meta` member).
pub fn is_table(store: &Store) -> bool {
    store.member(b2schema::table::CTABLE_META_KEY).is_some()
}

/// A path as a command sees it.
pub enum Resolved {
    /// One of python-blosc2's stores (`.b2z`, `.b2d`, `.b2e`), opened.
    Store(Box<Store>),
    /// Anything else: a frame for the frame commands, opened (and refused) by them.
    Frame,
}

impl Resolved {
    /// Whether this is a store holding a CTable (a `/_meta` member).
    pub fn is_table(&self) -> bool {
        matches!(self, Resolved::Store(s) if is_table(s))
    }

    /// What `path` is: a store when it starts at offset 0 and [`crate::kind::is_store`] says so
    /// (then opened within `limits`, an error naming `path` if that fails), a frame otherwise.
    pub fn resolve(path: &Path, offset: u64, limits: Limits) -> Result<Resolved, Failure> {
        if offset != 0 || !crate::kind::is_store(path, limits) {
            return Ok(Resolved::Frame);
        }
        crate::kind::open_store(path, limits)
            .map(|s| Resolved::Store(Box::new(s)))
            .map_err(|e| Failure::at(path, e))
    }
}
