//! [`ObjectSource`]: an object of an object store as a [`ReadAt`], its ranges fetched by ranged
//! GETs on a runtime the source owns.

use std::fmt;
use std::ops::Range;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use b2schema::source::{Fetched, ReadAt};
use b2schema::{Error, Limit, Limits, Result};
use futures_util::{StreamExt, TryStreamExt};
use object_store::{GetOptions, GetRange, ObjectStore};
use tokio::runtime::Runtime;

use crate::options::ObjectOptions;
use crate::url::ObjectUrl;

/// An object in an object store, read by ranged GETs (see the crate's documentation).
pub struct ObjectSource {
    url: ObjectUrl,
    len: u64,
    limits: Limits,
    options: ObjectOptions,
    /// The ranges fetched when opening (the start and the end of the object), served from
    /// memory afterwards.
    kept: Vec<(u64, Vec<u8>)>,
    runtime: Runtime,
}

impl fmt::Debug for ObjectSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ObjectSource").field("url", &self.url.text).field("len", &self.len).finish()
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

/// `e` and its sources, each said once (object_store's messages often end with their source's).
pub(crate) fn chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut next = e.source();
    for _ in 0..8 {
        let Some(s) = next else { break };
        let more = s.to_string();
        if !text.contains(&more) {
            text = format!("{text}: {more}");
        }
        next = s.source();
    }
    text
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
        let mut src =
            ObjectSource { url, len: u64::MAX, limits, options: options.clone(), kept: Vec::new(), runtime };
        let want = options.prefix.max(1);
        let (head, len) = src.runtime.block_on(src.fetch(0..want, true))?;
        src.len = len;
        let got = head.len() as u64;
        src.kept.push((0, head));
        let from = len.saturating_sub(want).max(got);
        if from < len {
            let (tail, _) = src.runtime.block_on(src.fetch(from..len, false))?;
            src.kept.push((from, tail));
        }
        Ok(Arc::new(src))
    }

    /// The URL.
    pub fn url(&self) -> &str {
        &self.url.text
    }

    fn range_text(&self, r: &Range<u64>) -> String {
        format!("{} (Range: bytes={}-{})", self.url.text, r.start, r.end.saturating_sub(1).max(r.start))
    }

    fn err(
        &self,
        r: &Range<u64>,
        what: &'static str,
        expected: impl fmt::Display,
        found: impl fmt::Display,
    ) -> Error {
        Error::invalid(what, expected, found, r.start as usize).in_file(self.range_text(r))
    }

    /// The bytes of `r` (when `first`, of `r` cut at the object's end, which the answer says),
    /// and the object's length; counted against the budget, within the deadline.
    async fn fetch(&self, r: Range<u64>, first: bool) -> Result<(Vec<u8>, u64)> {
        let counts = &self.url.counts;
        let sent = counts.requests().saturating_add(1);
        Limits::check(
            "object-store requests",
            sent,
            Limit::Requests,
            self.limits.max_requests(),
            r.start as usize,
        )
        .map_err(|e| e.in_file(self.range_text(&r)))?;
        if !self.url.counted_by_connector {
            counts.requests.fetch_add(1, Ordering::Relaxed);
        }
        let want = r.end - r.start;
        // The body within the timeout plus a second per 64 KiB, for each attempt.
        let attempts = self.options.retries as u32 + 1;
        let deadline =
            self.options.timeout.saturating_add(Duration::from_secs(want >> 16)).saturating_mul(attempts);
        match tokio::time::timeout(deadline, self.fetch_unbounded(r.clone(), first)).await {
            Ok(got) => got,
            Err(_) => Err(self.err(&r, "an answer within", format!("{deadline:?}"), "none in time")),
        }
    }

    async fn fetch_unbounded(&self, r: Range<u64>, first: bool) -> Result<(Vec<u8>, u64)> {
        let options = GetOptions { range: Some(GetRange::Bounded(r.clone())), ..GetOptions::default() };
        let got = self
            .url
            .store
            .get_opts(&self.url.path, options)
            .await
            .map_err(|e| self.err(&r, "an answer to a ranged GET", "the bytes", chain(&e)))?;
        let total = got.meta.size;
        let expected = if first { r.start..r.end.min(total) } else { r.clone() };
        if got.range != expected || (!first && r.end > total) {
            return Err(self.err(
                &r,
                "the range answered",
                format!("bytes {}-{} of the object", expected.start, expected.end.saturating_sub(1)),
                format!("bytes {}-{} of {total}", got.range.start, got.range.end.saturating_sub(1)),
            ));
        }
        let len = (expected.end - expected.start) as usize;
        let spent = self.url.counts.bytes.fetch_add(len as u64, Ordering::Relaxed).saturating_add(len as u64);
        Limits::check(
            "bytes fetched from the object store",
            spent,
            Limit::Fetched,
            self.limits.max_fetched(),
            r.start as usize,
        )
        .map_err(|e| e.in_file(self.range_text(&r)))?;
        let mut buf = Vec::new();
        buf.try_reserve_exact(len).map_err(|_| self.err(&r, "memory for", len, "none left"))?;
        let mut body = got.into_stream();
        while let Some(part) = body.next().await {
            let part =
                part.map_err(|e| self.err(&r, "the answer's body", format!("{len} bytes"), chain(&e)))?;
            if buf.len() + part.len() > len {
                return Err(self.err(&r, "a body of", format!("{len} bytes"), "more"));
            }
            buf.extend_from_slice(&part);
        }
        if buf.len() != len {
            return Err(self.err(&r, "a body of", format!("{len} bytes"), format!("{} bytes", buf.len())));
        }
        Ok((buf, total))
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

    fn check_range(&self, at: u64, len: usize) -> Result<Range<u64>> {
        let r = at..at.saturating_add(len as u64);
        if at.checked_add(len as u64).is_none_or(|end| end > self.len) {
            return Err(self.err(
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
        not_in_runtime(&self.url.text)?;
        // A long range in parts fetched in parallel (as S3's own clients do), each into its
        // place of `buf`.
        let piece = usize::try_from(self.options.piece.max(1)).unwrap_or(usize::MAX);
        self.runtime.block_on(
            futures_util::stream::iter(buf.chunks_mut(piece).enumerate().map(|(i, part)| async move {
                let at = offset + (i * piece) as u64;
                let (bytes, _) = self.fetch(at..at + part.len() as u64, false).await?;
                part.copy_from_slice(&bytes);
                Ok::<(), Error>(())
            }))
            .buffer_unordered(self.options.concurrency.max(1))
            .try_collect::<()>(),
        )
    }

    /// Ranges at most [`ObjectOptions::gap`] apart are joined into one request, and the requests
    /// run in parallel, at most [`ObjectOptions::concurrency`] at once.
    fn read_ranges(&self, ranges: &mut [(u64, &mut [u8])]) -> Result<()> {
        let mut wanted: Vec<(u64, &mut [u8])> = Vec::new();
        for (at, buf) in ranges.iter_mut() {
            if buf.is_empty() || self.served_from_kept(*at, buf) {
                continue;
            }
            self.check_range(*at, buf.len())?;
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
                Some(g) if *at <= g.end.saturating_add(self.options.gap) => g.end = g.end.max(end),
                _ => groups.push(*at..end),
            }
        }
        not_in_runtime(&self.url.text)?;
        let fetched: Vec<(u64, Vec<u8>)> = self.runtime.block_on(
            futures_util::stream::iter(groups.into_iter().map(|g| async move {
                let start = g.start;
                self.fetch(g, false).await.map(|(bytes, _)| (start, bytes))
            }))
            .buffer_unordered(self.options.concurrency.max(1))
            .try_collect(),
        )?;
        for (at, buf) in wanted {
            let (start, bytes) = fetched
                .iter()
                .filter(|(start, _)| *start <= at)
                .max_by_key(|(start, _)| *start)
                .ok_or_else(|| self.err(&(at..at), "a joined range holding", at, "none"))?;
            let from = (at - start) as usize;
            let part = bytes
                .get(from..from + buf.len())
                .ok_or_else(|| self.err(&(at..at), "a joined range holding", at, "none"))?;
            buf.copy_from_slice(part);
        }
        Ok(())
    }

    /// A chunk's header and block table in one request (4 KiB hold the table of 1000 blocks).
    fn min_read(&self) -> u64 {
        4 << 10
    }

    fn ahead(&self) -> u64 {
        self.options.prefix
    }

    fn fetched(&self) -> Option<Fetched> {
        Some(Fetched {
            requests: self.url.counts.requests(),
            bytes: self.url.counts.bytes.load(Ordering::Relaxed),
        })
    }
}
