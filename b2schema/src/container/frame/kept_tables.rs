//! The chunk tables (a chunk's header and block offsets, the bytes read before its blocks) of
//! the chunks a remote frame read last, kept so that items read one by one from one chunk cost
//! one request each (the block), not two. Only over a remote source, which does not change under
//! the reader (a local file may be updated in place), and only small tables: at most
//! [`KEPT_TABLES`] of at most [`MAX_KEPT_TABLE`] bytes, 1 MiB in all.

use std::sync::Arc;

use super::index::ChunkLocation;
use super::recent::Recent;

/// Chunk tables kept per frame.
pub(crate) const KEPT_TABLES: usize = 16;

/// The longest table kept (the table of 16,000 blocks).
pub(crate) const MAX_KEPT_TABLE: usize = 64 << 10;

/// The tables kept, shared by the frame's clones and reading threads.
#[derive(Clone, Debug)]
pub(crate) struct KeptTables(Arc<Recent<ChunkLocation, Arc<[u8]>>>);

impl Default for KeptTables {
    fn default() -> Self {
        KeptTables(Arc::new(Recent::new(KEPT_TABLES)))
    }
}

impl KeptTables {
    /// The table of the chunk at `loc`, if kept.
    pub(crate) fn get(&self, loc: ChunkLocation) -> Option<Arc<[u8]>> {
        self.0.get(&loc)
    }

    /// Keeps `table` (the bytes read from the chunk's start) for the chunk at `loc`, the oldest
    /// dropped past [`KEPT_TABLES`]; a table over [`MAX_KEPT_TABLE`] bytes is not kept.
    pub(crate) fn keep(&self, loc: ChunkLocation, table: &[u8]) {
        if table.len() <= MAX_KEPT_TABLE {
            self.0.keep(loc, Arc::from(table));
        }
    }
}
