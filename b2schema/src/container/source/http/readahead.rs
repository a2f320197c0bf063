//! The state of an [`HttpSource`](super::HttpSource)'s read-ahead: the runs of reads through
//! the file and their streams, and how the streams fared. The streams themselves (one ranged GET
//! each, read by a thread) are `stream.rs`'s; this file names nothing of the HTTP client, so the
//! source can hold its read-ahead without the two files naming each other.

use std::sync::atomic::AtomicU32;
use std::sync::{Arc, Mutex, MutexGuard};

use alloc::vec::Vec;

use crate::container::error::{Error, Result};
use crate::container::source::ahead;

/// Streams that ended short (a cut body, a part late) before no more are started.
pub(super) const MAX_SHORT: u32 = 2;

/// The runs of reads through a file and their streams.
#[derive(Debug, Default)]
pub(super) struct Ahead {
    pub(super) runs: Mutex<ahead::Ahead<Vec<u8>>>,
    pub(super) health: Arc<Health>,
}

/// How the streams of a source fared.
#[derive(Debug, Default)]
pub(super) struct Health {
    /// Streams that ended short (none started after [`MAX_SHORT`]).
    pub(super) shorts: AtomicU32,
    /// The final error of a stream (an answer that breaks the protocol, the budget spent), for
    /// the next read: the file's reads fail as its own would have.
    pub(super) fatal: Mutex<Option<Error>>,
}

impl Health {
    pub(super) fn take_fatal(&self) -> Result<()> {
        match self.fatal.lock().unwrap_or_else(|p| p.into_inner()).take() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}

impl Ahead {
    pub(super) fn lock(&self) -> MutexGuard<'_, ahead::Ahead<Vec<u8>>> {
        // A cache only: a panic of another reader while it held it leaves bytes of the file.
        self.runs.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Stops every stream (their threads end after the part they read, if any).
    pub(super) fn stop_all(&self) {
        self.lock().stop_all();
    }
}
