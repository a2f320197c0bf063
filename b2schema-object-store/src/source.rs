//! [`ObjectSource`]: an object of an object store as a [`ReadAt`], its ranges fetched by ranged
//! GETs on a runtime the source owns.

use std::fmt;
use std::ops::Range;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};

use b2schema::source::{Fetched, ReadAt};
use b2schema::{Error, Limits, Result};
use futures_util::{StreamExt, TryStreamExt};
use tokio::runtime::Runtime;

use b2schema::source::ahead::Served;

use crate::ahead::{Ahead, Stream};
use crate::get::Getter;
use crate::options::ObjectOptions;
use crate::url::ObjectUrl;

/// An object in an object store, read by ranged GETs (see the crate's documentation).
pub struct ObjectSource {
    get: Arc<Getter>,
    len: u64,
    /// The ranges fetched when opening (the start and the end of the object), served from
    /// memory afterwards.
    kept: Vec<(u64, Vec<u8>)>,
    /// The runs of reads through the object and their read-ahead streams
    /// ([`ObjectOptions::readahead`]).
    ahead: Mutex<Ahead>,
    runtime: Runtime,
}

impl Drop for ObjectSource {
    /// Stops the read-ahead streams' tasks (the runtime, dropped next, ends the rest).
    fn drop(&mut self) {
        self.lock_ahead().stop_all();
    }
}

impl fmt::Debug for ObjectSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ObjectSource").field("url", &self.get.url.text).field("len", &self.len).finish()
    }
}

/// The runtime a source's calls run on.
pub(crate) fn runtime(url: &str) -> Result<Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("b2schema-object-store")
        .enable_all()
        .build()
        .map_err(|e| Error::from(e).in_file(url))
}

/// Refuses to block inside a tokio runtime (where `block_on` would panic).
pub(crate) fn not_in_runtime(url: &str) -> Result<()> {
    match tokio::runtime::Handle::try_current() {
        Ok(_) => Err(Error::invalid(
            "a call from",
            "a thread outside any tokio runtime",
            "a task of a tokio runtime (use spawn_blocking)",
            0,
        )
        .in_file(url)),
        Err(_) => Ok(()),
    }
}

impl ObjectSource {
    /// Opens the object at `url` (`s3://`, `gs://`, `az://`, `abfs://`), its client configured
    /// from the environment: two requests, for its first and its last [`ObjectOptions::prefix`]
    /// bytes (one when the object is shorter).
    pub fn open_url(url: &str, limits: Limits, options: &ObjectOptions) -> Result<Arc<ObjectSource>> {
        Self::open(ObjectUrl::parse(url, options)?, limits, options)
    }

    /// Opens the object `url` names, with its client.
    pub fn open(url: ObjectUrl, limits: Limits, options: &ObjectOptions) -> Result<Arc<ObjectSource>> {
        not_in_runtime(&url.text)?;
        let runtime = runtime(&url.text)?;
        let get = Arc::new(Getter { url, limits, options: options.clone() });
        let mut src = ObjectSource {
            get,
            len: u64::MAX,
            kept: Vec::new(),
            ahead: Mutex::new(Ahead::default()),
            runtime,
        };
        let want = options.prefix.max(1);
        if options.whole && options.readahead > 0 {
            src.open_whole(want)?;
            return Ok(Arc::new(src));
        }
        let (head, len) = src.runtime.block_on(src.get.fetch(0..want, true))?;
        src.len = len;
        let got = head.len() as u64;
        src.kept.push((0, head));
        let from = len.saturating_sub(want).max(got);
        if from < len {
            let (tail, _) = src.runtime.block_on(src.get.fetch(from..len, false))?;
            src.kept.push((from, tail));
        }
        Ok(Arc::new(src))
    }

    /// Opens for a whole read ([`ObjectOptions::whole`]): the read-ahead stream from byte 0 to
    /// the end (`bytes=0-`), whose answer says the object's length, then the last `want` bytes
    /// while the stream's body comes. The start's reads are served by the stream.
    fn open_whole(&mut self, want: u64) -> Result<()> {
        let (told, length) = tokio::sync::oneshot::channel();
        let s = crate::ahead::start(
            &self.get,
            &self.runtime,
            0..crate::get::TO_THE_END,
            self.get.options.readahead,
            Some(told),
        );
        let stopped = || {
            self.get.err(
                &(0..crate::get::TO_THE_END),
                "an answer to a ranged GET",
                "the bytes",
                "none (stopped)",
            )
        };
        let len = match self.runtime.block_on(length) {
            Ok(told) => told?,
            Err(_) => return Err(stopped()),
        };
        self.len = len;
        let from = len.saturating_sub(want);
        if from > 0 {
            let (tail, _) = self.runtime.block_on(self.get.fetch(from..len, false))?;
            self.kept.push((from, tail));
        }
        self.lock_ahead().add(s);
        Ok(())
    }

    /// The URL.
    pub fn url(&self) -> &str {
        &self.get.url.text
    }

    /// The bytes at `at` served from the kept ends, if they hold them.
    fn served_from_kept(&self, at: u64, buf: &mut [u8]) -> bool {
        for (start, bytes) in &self.kept {
            let from = at.checked_sub(*start).map(|f| f as usize);
            if let Some(part) = from.and_then(|f| bytes.get(f..f.checked_add(buf.len())?)) {
                buf.copy_from_slice(part);
                return true;
            }
        }
        false
    }

    /// The bytes at `offset` into `buf`: a long range in parts fetched in parallel (as S3's own
    /// clients do), each into its place of `buf`.
    fn fetch_into(&self, offset: u64, buf: &mut [u8]) -> Result<()> {
        let piece = usize::try_from(self.get.options.piece.max(1)).unwrap_or(usize::MAX);
        self.runtime.block_on(
            futures_util::stream::iter(buf.chunks_mut(piece).enumerate().map(|(i, part)| async move {
                let at = offset + (i * piece) as u64;
                let (bytes, _) = self.get.fetch(at..at + part.len() as u64, false).await?;
                part.copy_from_slice(&bytes);
                Ok::<(), Error>(())
            }))
            .buffer_unordered(self.get.options.concurrency.max(1))
            .try_collect::<()>(),
        )
    }

    fn lock_ahead(&self) -> std::sync::MutexGuard<'_, Ahead> {
        // A cache only: a panic of another reader while it held it leaves bytes of the object.
        self.ahead.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The bytes at `at` from stream `s`, waiting for them while it brings them (within the
    /// deadline of a request of their length).
    fn served(&self, s: &Stream, at: u64, buf: &mut [u8]) -> Result<Served> {
        let r = at..at + buf.len() as u64;
        let late = || self.get.err(&r, "read-ahead bytes within", "the deadline", "none in time");
        s.serve(at, buf, self.get.deadline(buf.len() as u64), late)
    }

    fn check_range(&self, at: u64, len: usize) -> Result<Range<u64>> {
        let r = at..at.saturating_add(len as u64);
        if at.checked_add(len as u64).is_none_or(|end| end > self.len) {
            return Err(self.get.err(
                &r,
                "a range inside the object of",
                format!("{} bytes", self.len),
                format!("{len} bytes at {at}"),
            ));
        }
        Ok(r)
    }
}

impl ReadAt for ObjectSource {
    fn len(&self) -> u64 {
        self.len
    }

    fn read_at(&self, offset: u64, buf: &mut [u8]) -> Result<()> {
        if buf.is_empty() || self.served_from_kept(offset, buf) {
            return Ok(());
        }
        self.check_range(offset, buf.len())?;
        not_in_runtime(&self.get.url.text)?;
        let readahead = self.get.options.readahead;
        let mut ahead = self.lock_ahead();
        let end = offset + buf.len() as u64;
        let mut stream = ahead.stream_for(offset, readahead / 2);
        if stream.is_none() {
            let planned = ahead.plan.clone().filter(|p| p.contains(&offset));
            let long = ahead.follow(offset, end, self.get.options.gap);
            if readahead > buf.len() as u64 && (planned.is_some() || long) {
                // Reads that go through the object in order (a whole read): one GET from here to
                // the end of what is planned (or of the object), or to where the stream above
                // starts, its body read as the reads move on.
                let stop = ahead.stop_for(offset, planned.map_or(self.len, |p| p.end.max(end)).min(self.len));
                if stop >= end {
                    let s = crate::ahead::start(&self.get, &self.runtime, offset..stop, readahead, None);
                    ahead.add(s.clone());
                    stream = Some(s);
                }
            }
        }
        drop(ahead);
        if let Some(s) = stream
            && let Served::Yes = self.served(&s, offset, buf)?
        {
            return Ok(());
        }
        self.fetch_into(offset, buf)
    }

    /// Ranges at most [`ObjectOptions::gap`] apart are joined into one request, and the requests
    /// run in parallel, at most [`ObjectOptions::concurrency`] at once.
    fn read_ranges(&self, ranges: &mut [(u64, &mut [u8])]) -> Result<()> {
        let mut wanted: Vec<(u64, &mut [u8])> = Vec::new();
        let near = self.get.options.readahead / 2;
        for (at, buf) in ranges.iter_mut() {
            if buf.is_empty() || self.served_from_kept(*at, buf) {
                continue;
            }
            self.check_range(*at, buf.len())?;
            let stream = self.lock_ahead().stream_for(*at, near);
            if let Some(s) = stream
                && let Served::Yes = self.served(&s, *at, buf)?
            {
                continue;
            }
            wanted.push((*at, &mut **buf));
        }
        if wanted.is_empty() {
            return Ok(());
        }
        wanted.sort_by_key(|(at, _)| *at);
        let mut groups: Vec<Range<u64>> = Vec::new();
        for (at, buf) in &wanted {
            let end = at + buf.len() as u64;
            match groups.last_mut() {
                Some(g) if *at <= g.end.saturating_add(self.get.options.gap) => g.end = g.end.max(end),
                _ => groups.push(*at..end),
            }
        }
        not_in_runtime(&self.get.url.text)?;
        let fetched: Vec<(u64, Vec<u8>)> = self.runtime.block_on(
            futures_util::stream::iter(groups.into_iter().map(|g| async move {
                let start = g.start;
                self.get.fetch(g, false).await.map(|(bytes, _)| (start, bytes))
            }))
            .buffer_unordered(self.get.options.concurrency.max(1))
            .try_collect(),
        )?;
        for (at, buf) in wanted {
            let (start, bytes) = fetched
                .iter()
                .filter(|(start, _)| *start <= at)
                .max_by_key(|(start, _)| *start)
                .ok_or_else(|| self.get.err(&(at..at), "a joined range holding", at, "none"))?;
            let from = (at - start) as usize;
            let part = bytes
                .get(from..from + buf.len())
                .ok_or_else(|| self.get.err(&(at..at), "a joined range holding", at, "none"))?;
            buf.copy_from_slice(part);
        }
        Ok(())
    }

    /// A chunk's header and block table in one request (4 KiB hold the table of 1000 blocks).
    fn min_read(&self) -> u64 {
        4 << 10
    }

    fn ahead(&self) -> u64 {
        self.get.options.prefix
    }

    /// Reads from `range` are read ahead from its start, by a stream started here (see
    /// [`ObjectOptions::readahead`]).
    fn will_read(&self, range: Range<u64>) {
        let plan = range.start..range.end.min(self.len);
        let readahead = self.get.options.readahead;
        let mut ahead = self.lock_ahead();
        ahead.plan = Some(plan.clone());
        // The stream starts now, before the reader's threads do: each finds it, those far
        // ahead of it start their own.
        if readahead > 0 && plan.start < plan.end && ahead.stream_for(plan.start, readahead / 2).is_none() {
            let stop = ahead.stop_for(plan.start, plan.end);
            let s = crate::ahead::start(&self.get, &self.runtime, plan.start..stop, readahead, None);
            ahead.add(s);
        }
    }

    fn fetched(&self) -> Option<Fetched> {
        Some(Fetched {
            requests: self.get.url.counts.requests(),
            bytes: self.get.url.counts.bytes.load(Ordering::Relaxed),
        })
    }
}
