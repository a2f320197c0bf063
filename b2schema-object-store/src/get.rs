//! [`Getter`]: the ranged GETs of one object, each checked, counted against the budget and
//! within its deadline; shared by the reads of a source and its read-ahead streams.

use std::fmt;
use std::ops::Range;
use std::sync::atomic::Ordering;
use std::time::Duration;

use b2schema::{Error, Limit, Limits, Result};
use futures_util::StreamExt;
use futures_util::stream::BoxStream;
use object_store::{GetOptions, GetRange};

use crate::options::ObjectOptions;
use crate::url::ObjectUrl;

/// What a request of an object needs: its URL and client, the budget, the options.
#[derive(Debug)]
pub(crate) struct Getter {
    pub url: ObjectUrl,
    pub limits: Limits,
    pub options: ObjectOptions,
}

/// The body of a ranged GET, its range checked, its parts as they come.
pub(crate) type Body = BoxStream<'static, object_store::Result<bytes::Bytes>>;

/// The end of a range asked to the object's end (`bytes=a-`), its length not yet known.
pub(crate) const TO_THE_END: u64 = u64::MAX;

impl Getter {
    /// The URL and the range asked (`bytes=a-` to the end, for a range that ends at
    /// `TO_THE_END`: the object's length was not known).
    pub fn range_text(&self, r: &Range<u64>) -> String {
        if r.end == TO_THE_END {
            return format!("{} (Range: bytes={}-)", self.url.text, r.start);
        }
        format!("{} (Range: bytes={}-{})", self.url.text, r.start, r.end.saturating_sub(1).max(r.start))
    }

    pub fn err(
        &self,
        r: &Range<u64>,
        what: &'static str,
        expected: impl fmt::Display,
        found: impl fmt::Display,
    ) -> Error {
        Error::invalid(what, expected, found, r.start as usize).in_file(self.range_text(r))
    }

    /// The longest wait for an answer of `len` bytes: the timeout plus a second per 64 KiB, for
    /// each attempt.
    pub fn deadline(&self, len: u64) -> Duration {
        let attempts = self.options.retries as u32 + 1;
        self.options.timeout.saturating_add(Duration::from_secs(len >> 16)).saturating_mul(attempts)
    }

    /// Counts one request against the budget (object_store's own are counted by the connector).
    fn count_request(&self, r: &Range<u64>) -> Result<()> {
        let counts = &self.url.counts;
        let sent = counts.requests().saturating_add(1);
        Limits::check(
            "object-store requests",
            sent,
            Limit::Requests,
            self.limits.max_requests(),
            r.start as usize,
        )
        .map_err(|e| e.in_file(self.range_text(r)))?;
        if !self.url.counted_by_connector {
            counts.requests.fetch_add(1, Ordering::Relaxed);
        }
        Ok(())
    }

    /// Counts `n` bytes received at `at` against the budget.
    pub fn count_bytes(&self, r: &Range<u64>, n: u64) -> Result<()> {
        let spent = self.url.counts.bytes.fetch_add(n, Ordering::Relaxed).saturating_add(n);
        Limits::check(
            "bytes fetched from the object store",
            spent,
            Limit::Fetched,
            self.limits.max_fetched(),
            r.start as usize,
        )
        .map_err(|e| e.in_file(self.range_text(r)))
    }

    /// The bytes of `r` (when `first`, of `r` cut at the object's end, which the answer says),
    /// and the object's length; counted against the budget, within the deadline.
    pub async fn fetch(&self, r: Range<u64>, first: bool) -> Result<(Vec<u8>, u64)> {
        self.count_request(&r)?;
        let deadline = self.deadline(r.end - r.start);
        match tokio::time::timeout(deadline, self.fetch_unbounded(r.clone(), first)).await {
            Ok(got) => got,
            Err(_) => Err(self.err(&r, "an answer within", format!("{deadline:?}"), "none in time")),
        }
    }

    async fn fetch_unbounded(&self, r: Range<u64>, first: bool) -> Result<(Vec<u8>, u64)> {
        let (mut body, expected, total) = self.answer(r.clone(), first).await?;
        let len = (expected.end - expected.start) as usize;
        self.count_bytes(&r, len as u64)?;
        let mut buf = Vec::new();
        buf.try_reserve_exact(len).map_err(|_| self.err(&r, "memory for", len, "none left"))?;
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

    /// Sends a ranged GET of `r` and checks the range answered: the body, the range it holds
    /// and the object's length.
    /// `r` ending at `TO_THE_END` asks for the bytes from its start to the object's end (`bytes=a-`).
    async fn answer(&self, r: Range<u64>, first: bool) -> Result<(Body, Range<u64>, u64)> {
        let range =
            if r.end == TO_THE_END { GetRange::Offset(r.start) } else { GetRange::Bounded(r.clone()) };
        let options = GetOptions { range: Some(range), ..GetOptions::default() };
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
        Ok((got.into_stream(), expected, total))
    }

    /// A ranged GET of `r` whose body is read as it comes (a read-ahead stream): counted as a
    /// request, its answer's head within the timeout (per attempt); the body's parts are the
    /// caller's to count and to time.
    /// `r` ending at `TO_THE_END` asks for the bytes to the object's end, whatever its length:
    /// the range answered and the length are the answer's (checked to start at `r.start`).
    pub async fn stream(&self, r: Range<u64>) -> Result<(Body, Range<u64>)> {
        self.count_request(&r)?;
        let deadline = self.deadline(0);
        let open_ended = r.end == TO_THE_END;
        match tokio::time::timeout(deadline, self.answer(r.clone(), open_ended)).await {
            Ok(got) => got.map(|(body, range, _)| (body, range)),
            Err(_) => Err(self.err(&r, "an answer within", format!("{deadline:?}"), "none in time")),
        }
    }
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
