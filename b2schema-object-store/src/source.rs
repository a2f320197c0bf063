//! [`ObjectSource`]: an object of an object store as a [`ReadAt`], its ranges fetched by ranged
//! GETs on a runtime the source owns.

use std::fmt;
use std::ops::Range;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
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
    /// The bytes read ahead of a run of sequential reads ([`ObjectOptions::readahead`]).
    ahead: Mutex<Ahead>,
    runtime: Runtime,
}

/// The runs of reads that follow each other through the object (one per thread of a whole
/// read, which reads its chunks in turn), and the bytes read ahead of them.
#[derive(Default)]
struct Ahead {
    /// The bytes a reader said it will read through ([`ReadAt::will_read`]).
    plan: Option<Range<u64>>,
    runs: Vec<Run>,
    windows: Vec<Window>,
    /// Counts the reads, to tell what was used least recently.
    clock: u64,
}

/// One run of reads that follow each other.
struct Run {
    /// Where its last read that was not served from bytes read ahead ended.
    last_end: u64,
    /// How many reads in a row started where the one before ended (within the gap), and their
    /// bytes.
    reads: u32,
    read_bytes: u64,
    used: u64,
}

/// Bytes read ahead, from `start`.
struct Window {
    start: u64,
    bytes: Vec<u8>,
    used: u64,
}

impl Window {
    fn end(&self) -> u64 {
        self.start + self.bytes.len() as u64
    }
}

/// The most runs followed, and windows kept, at once (threads of one read); each window holds
/// at most [`ObjectOptions::readahead`] bytes.
const MAX_RUNS: usize = 4;

/// Reads in a row that follow each other, and their bytes, before the next is read ahead: a
/// chunk's table and one band of its blocks (what one item costs), or a few neighbouring
/// items, never are.
const RUN_BEFORE_READAHEAD: (u32, u64) = (2, 1 << 20);

impl Ahead {
    /// Copies the bytes at `at` into `buf` when the windows hold all of them (across two or more).
    fn serve(&mut self, at: u64, buf: &mut [u8]) -> bool {
        self.clock += 1;
        let end = at + buf.len() as u64;
        if self.covered_until(at) < end {
            return false;
        }
        let mut p = at;
        while p < end {
            let Some(w) = self.windows.iter_mut().find(|w| w.start <= p && p < w.end()) else { return false };
            let q = w.end().min(end);
            let (from, to) = ((p - w.start) as usize, (q - w.start) as usize);
            buf[(p - at) as usize..(q - at) as usize].copy_from_slice(&w.bytes[from..to]);
            w.used = self.clock;
            p = q;
        }
        true
    }

    /// Where the bytes the windows hold without a gap from `p` end (`p` when none holds `p`).
    fn covered_until(&self, mut p: u64) -> u64 {
        while let Some(w) = self.windows.iter().find(|w| w.start <= p && p < w.end()) {
            p = w.end();
        }
        p
    }

    /// Notes a read of `at..end` (not served from bytes read ahead): whether it continues a run
    /// long enough to read ahead (else it starts a new run, in place of the one used least
    /// recently).
    fn follow(&mut self, at: u64, end: u64, gap: u64) -> bool {
        self.clock += 1;
        let clock = self.clock;
        let found = self.runs.iter_mut().find(|r| at <= r.last_end.saturating_add(gap) && end > r.last_end);
        let r = match found {
            Some(r) => {
                (r.reads, r.read_bytes) = (r.reads.saturating_add(1), r.read_bytes.saturating_add(end - at));
                r
            }
            None => {
                let fresh = Run { last_end: end, reads: 0, read_bytes: end - at, used: 0 };
                lru_slot(&mut self.runs, fresh, |r| r.used)
            }
        };
        (r.last_end, r.used) = (end, clock);
        r.reads >= RUN_BEFORE_READAHEAD.0 && r.read_bytes >= RUN_BEFORE_READAHEAD.1
    }

    /// Keeps `bytes` read ahead from `start` (in place of the window used least recently).
    fn keep(&mut self, start: u64, bytes: Vec<u8>) {
        let used = self.clock;
        lru_slot(&mut self.windows, Window { start, bytes, used }, |w| w.used);
    }
}

/// Puts `item` in `v`: pushed while `v` holds fewer than [`MAX_RUNS`], else in place of the item
/// used least recently; the item's place.
fn lru_slot<T>(v: &mut Vec<T>, item: T, used: impl Fn(&T) -> u64) -> &mut T {
    let i = match (0..v.len()).min_by_key(|&i| used(&v[i])) {
        Some(i) if v.len() >= MAX_RUNS => {
            v[i] = item;
            i
        }
        _ => {
            v.push(item);
            v.len() - 1
        }
    };
    &mut v[i]
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
        let mut src = ObjectSource {
            url,
            len: u64::MAX,
            limits,
            options: options.clone(),
            kept: Vec::new(),
            ahead: Mutex::new(Ahead::default()),
            runtime,
        };
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

    /// The bytes at `offset` into `buf`: a long range in parts fetched in parallel (as S3's own
    /// clients do), each into its place of `buf`.
    fn fetch_into(&self, offset: u64, buf: &mut [u8]) -> Result<()> {
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
        // A cache only: a panic of another reader while it held it leaves bytes of the object.
        let mut ahead = self.ahead.lock().unwrap_or_else(|p| p.into_inner());
        if ahead.serve(offset, buf) {
            return Ok(());
        }
        let end = offset + buf.len() as u64;
        let planned = ahead.plan.clone().filter(|p| p.contains(&offset));
        let long = ahead.follow(offset, end, self.options.gap);
        if self.options.readahead > buf.len() as u64 && (planned.is_some() || long) {
            // Reads that follow each other through the object (a whole read): the next
            // `readahead` bytes at once, in parallel pieces, kept for the reads to come; from
            // where the bytes read ahead already end, up to where other bytes read ahead start
            // (none read ahead twice; the few reads that started another run may be).
            let from = ahead.covered_until(offset);
            let stop = ahead.windows.iter().map(|w| w.start).filter(|&p| p > from).fold(
                planned
                    .map_or(self.len, |p| p.end.max(end))
                    .min(offset.saturating_add(self.options.readahead)),
                u64::min,
            );
            if stop > from {
                let n = usize::try_from(stop - from).unwrap_or(usize::MAX);
                let mut bytes = Vec::new();
                bytes
                    .try_reserve_exact(n)
                    .map_err(|_| self.err(&(from..stop), "memory for", n, "none left"))?;
                bytes.resize(n, 0);
                self.fetch_into(from, &mut bytes)?;
                ahead.keep(from, bytes);
                if ahead.serve(offset, buf) {
                    return Ok(());
                }
            }
        }
        drop(ahead);
        self.fetch_into(offset, buf)
    }

    /// Ranges at most [`ObjectOptions::gap`] apart are joined into one request, and the requests
    /// run in parallel, at most [`ObjectOptions::concurrency`] at once.
    fn read_ranges(&self, ranges: &mut [(u64, &mut [u8])]) -> Result<()> {
        let mut wanted: Vec<(u64, &mut [u8])> = Vec::new();
        let mut ahead = self.ahead.lock().unwrap_or_else(|p| p.into_inner());
        for (at, buf) in ranges.iter_mut() {
            if buf.is_empty() || self.served_from_kept(*at, buf) || ahead.serve(*at, buf) {
                continue;
            }
            self.check_range(*at, buf.len())?;
            wanted.push((*at, &mut **buf));
        }
        drop(ahead);
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

    /// Reads from `range` are read ahead from their first (see [`ObjectOptions::readahead`]).
    fn will_read(&self, range: Range<u64>) {
        let mut ahead = self.ahead.lock().unwrap_or_else(|p| p.into_inner());
        ahead.plan = Some(range.start..range.end.min(self.len));
    }

    fn fetched(&self) -> Option<Fetched> {
        Some(Fetched {
            requests: self.url.counts.requests(),
            bytes: self.url.counts.bytes.load(Ordering::Relaxed),
        })
    }
}
