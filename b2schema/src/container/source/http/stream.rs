//! The read-ahead of an [`HttpSource`] ([`HttpOptions::readahead`]): a whole read's bytes by one
//! ranged GET on a connection of its own (the reads of metadata and the other requests are not
//! queued behind it), its body read by a thread into a [`Stream`] within the budget; the runs
//! of reads and the streams are [`crate::source::ahead`]'s, shared with `b2schema-object-store`.

use core::ops::Range;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use alloc::vec::Vec;

use super::readahead::{Ahead, MAX_SHORT};
use super::{Answer, Failure, HttpOptions, HttpSource};
use crate::container::error::Result;
use crate::container::source::ahead::{self, Room, Served};

type Stream = ahead::Stream<Vec<u8>>;

/// Reads this close after the one before continue its run (a block table's padding, a skipped
/// special chunk).
const GAP: u64 = 64 << 10;

/// The largest part of a body read at once (and kept as one piece).
const PART: u64 = 1 << 20;

impl Ahead {
    /// Whether streams may still be started.
    fn streaming(&self, options: &HttpOptions) -> bool {
        options.readahead > 0 && self.health.shorts.load(Ordering::Relaxed) < MAX_SHORT
    }

    /// Fills `buf` with the bytes at `offset` from a stream that holds or brings them, started
    /// here if the read continues a planned range or a long run of reads; `false` if none will
    /// (the read fetches them itself).
    pub(super) fn serve(&self, src: &HttpSource, offset: u64, buf: &mut [u8]) -> Result<bool> {
        let budget = src.options.readahead;
        if budget == 0 {
            return Ok(false);
        }
        self.health.take_fatal()?;
        let end = offset + buf.len() as u64;
        let mut runs = self.lock();
        let mut stream = runs.stream_for(offset, budget / 2);
        if stream.is_none() && self.streaming(&src.options) {
            let planned = runs.plan.clone().filter(|p| p.contains(&offset));
            let long = runs.follow(offset, end, GAP);
            if budget > buf.len() as u64 && (planned.is_some() || long) {
                // Reads that go through the file in order (a whole read): one GET from here to
                // the end of what is planned (or of the file), or to where the stream above
                // starts, its body read as the reads move on.
                let stop = runs.stop_for(offset, planned.map_or(src.len, |p| p.end.max(end)).min(src.len));
                if stop >= end {
                    stream = self.start(src, &mut runs, offset..stop);
                }
            }
        }
        drop(runs);
        let Some(s) = stream else { return Ok(false) };
        let want = buf.len() as u64;
        let late = || src.err(offset, want, "read-ahead bytes within", "the deadline", "none in time");
        let served = s.serve(offset, buf, patience(&src.options, want), late)?;
        // A stream that failed for good fails the read that waited for it.
        self.health.take_fatal()?;
        Ok(served == Served::Yes)
    }

    /// Notes that the reads go through `plan`, and starts its stream.
    pub(super) fn plan(&self, src: &HttpSource, plan: Range<u64>) {
        let mut runs = self.lock();
        runs.plan = Some(plan.clone());
        // The stream starts now, before the reader's threads do: each finds it, those far
        // ahead of it start their own.
        if self.streaming(&src.options)
            && plan.start < plan.end
            && runs.stream_for(plan.start, src.options.readahead / 2).is_none()
        {
            let stop = runs.stop_for(plan.start, plan.end);
            self.start(src, &mut runs, plan.start..stop);
        }
    }

    /// Starts a stream of `range` (a thread that reads it); `None` if no thread can be started.
    fn start(
        &self,
        src: &HttpSource,
        runs: &mut ahead::Ahead<Vec<u8>>,
        range: Range<u64>,
    ) -> Option<Arc<Stream>> {
        let stream = Stream::new(range.clone(), src.options.readahead, None);
        let parts = usize::try_from(src.options.readahead / part_len(&stream)).unwrap_or(usize::MAX);
        stream.keep_spares(parts.saturating_add(1));
        let (client, s, health) = (src.client(), stream.clone(), self.health.clone());
        let producer = move || {
            match client.stream_into(&s, range) {
                Ok(()) => {}
                // The reads fetch what it did not bring, with their own retries.
                Err(Failure::Transient(_)) => {
                    health.shorts.fetch_add(1, Ordering::Relaxed);
                }
                Err(Failure::Fatal(e)) => {
                    health.shorts.store(MAX_SHORT, Ordering::Relaxed);
                    *health.fatal.lock().unwrap_or_else(|p| p.into_inner()) = Some(e);
                }
            }
            s.finish(None);
        };
        std::thread::Builder::new().name("b2schema-http-ahead".into()).spawn(producer).ok()?;
        runs.add(stream.clone());
        Some(stream)
    }
}

/// The length of the parts of `stream`'s body: half its budget, at least 16 KiB, at most
/// [`PART`].
fn part_len(stream: &Stream) -> u64 {
    stream.half().clamp(16 << 10, PART)
}

/// How long a read waits for a stream without a byte arriving: as long as a request of its
/// length may take, all attempts.
fn patience(options: &HttpOptions, len: u64) -> Duration {
    let one = options.timeout.saturating_add(Duration::from_secs(len >> 16));
    one.saturating_add(options.backoff.saturating_mul(1 << options.retries.min(16)))
        .saturating_mul(options.retries.saturating_add(1))
}

impl HttpSource {
    /// A source of the same file and session for a stream's thread (nothing kept, no streams).
    fn client(&self) -> HttpSource {
        HttpSource {
            url: self.url.clone(),
            len: self.len,
            options: self.options.clone(),
            limits: self.limits,
            proxy: self.proxy.clone(),
            kept: Vec::new(),
            session: self.session.clone(),
            ahead: Ahead::default(),
        }
    }

    /// Reads `range` into `stream`: one GET (retried as any while its answer's head fails),
    /// its `206` checked against the range, then its body part after part while the stream has
    /// room, each part within the timeout plus a second per 64 KiB and counted against the
    /// budget. The connection is kept for reuse if the whole body was read.
    fn stream_into(&self, stream: &Stream, range: Range<u64>) -> core::result::Result<(), Failure> {
        let (at, want) = (range.start, range.end - range.start);
        let (mut conn, key, head) = self
            .retried(at, want, |last| {
                let (conn, key, head) = self.request(at, last)?;
                match self.answer(&head, at, last, false)? {
                    Answer::Part(len, _) if len == want => Ok((conn, key, head)),
                    _ => Err(Failure::Fatal(self.not_partial(at, want, "another answer"))),
                }
            })
            .map_err(Failure::Fatal)?;
        let part_max = part_len(stream);
        let mut got = at;
        while let Room::Open { next, stop } = stream.wait_room() {
            let n = stop.min(range.end).saturating_sub(next).min(part_max);
            if n == 0 {
                break;
            }
            self.count_bytes(next, n)?;
            let mut part = stream.part(n as usize, "a part of an HTTP body", next).map_err(Failure::Fatal)?;
            self.fill(&mut conn, at, &mut part, next - at, want)?;
            got = next + n;
            stream.push(part, |mut v, n| {
                v.truncate(n);
                v
            });
        }
        if got == range.end {
            self.keep(key, conn, &head);
        }
        Ok(())
    }
}
