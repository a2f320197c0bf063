//! How an object is read and written: timeouts, retries, parallel ranges, upload parts and the
//! client's settings.

use std::time::Duration;

/// How an object is read and written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObjectOptions {
    /// The longest wait to connect, and for a request's answer (body included, plus a second per
    /// 64 KiB of it). Default 10 s.
    pub timeout: Duration,
    /// Attempts after the first, on transient failures (object_store's retries). Default 2.
    pub retries: usize,
    /// Bytes asked for by each of the first two requests, at the start and at the end of the
    /// object (a frame's header, then its trailer and offsets index). Default 64 KiB.
    pub prefix: u64,
    /// The most requests of one read in flight at once. Default 8.
    pub concurrency: usize,
    /// Ranges of one read this close or closer are fetched by one request (the gap's bytes
    /// fetched and dropped). Default 64 KiB.
    pub gap: u64,
    /// A longer range is fetched in parts of this size, in parallel. Default 8 MiB.
    pub piece: u64,
    /// The memory of the read-ahead of reads that go through the object in order: a whole
    /// array read, which the reader announces (`ReadAt::will_read`), or reads that follow each
    /// other (each starting where the one before ended, within [`ObjectOptions::gap`]). Such a
    /// run of reads gets one ranged GET to the end of what is announced (or of the object), its
    /// body read in the background while the reads consume it: at most half this ahead of the
    /// furthest read and half behind it are kept; the task stops reading the body while it is
    /// that far ahead (the server waits). At most four such streams at once (threads of one
    /// read), each stopped (its task cancelled) when replaced or when the source is dropped: at
    /// most four times this in memory, besides a read larger than it. Bytes received count
    /// against the budget as any. A read elsewhere fetches only what it asks. 0: no read-ahead.
    /// Default 64 MiB.
    pub readahead: u64,
    /// The caller will read the whole object in order (`b2schema cat URL` without `--slice`):
    /// the open starts the read-ahead ([`ObjectOptions::readahead`]) from the object's first
    /// byte to its end (`Range: bytes=0-`), whose answer says the object's length, and fetches
    /// the last [`ObjectOptions::prefix`] bytes while that body comes; the reads of the start
    /// (a frame's header) are served by the stream. A whole read costs 2 requests, and the
    /// chunks' bytes do not wait for the two ends' round trips (3 requests, one after the other,
    /// without it). Any read may still follow (each fetches what the stream does not bring).
    /// Default false (the two ends fetched first, then a read fetches what it asks).
    pub whole: bool,
    /// The size of each part of a multipart upload; an object up to this size is uploaded by one
    /// PUT. Default 16 MiB.
    pub part_size: usize,
    /// Settings of the client over the environment's, as object_store names them (`aws_endpoint`,
    /// `aws_access_key_id`, `azure_storage_account_name`, `google_service_account`, or the
    /// variable's own name, `AWS_ENDPOINT_URL`): what a program sets without touching its
    /// environment. Default none.
    pub config: Vec<(String, String)>,
}

impl Default for ObjectOptions {
    fn default() -> Self {
        ObjectOptions {
            timeout: Duration::from_secs(10),
            retries: 2,
            prefix: 64 << 10,
            concurrency: 8,
            gap: 64 << 10,
            piece: 8 << 20,
            readahead: 64 << 20,
            whole: false,
            part_size: 16 << 20,
            config: Vec::new(),
        }
    }
}
