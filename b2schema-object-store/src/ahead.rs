//! Read-ahead for reads that go through the object in order (a whole array read): one ranged GET
//! per run of reads, its body read in the background as the reads consume it, within a memory
//! budget ([`ObjectOptions::readahead`](crate::ObjectOptions::readahead)).
//!
//! A stream keeps the bytes from about half the budget behind the furthest read it served to
//! half the budget ahead of it: its task stops reading the body (the server waits on the
//! connection) until the reads move on. A read waits for the bytes of a stream that will bring
//! them; bytes a stream dropped, or a stream that failed, are fetched by the read itself.

use std::collections::VecDeque;
use std::ops::Range;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use b2schema::{Error, Result};
use futures_util::StreamExt;
use tokio::sync::Notify;
use tokio::task::JoinHandle;

use crate::get::Getter;
use crate::get::chain;

/// The most streams (runs of reads: one per thread of a whole read) at once.
pub(crate) const MAX_STREAMS: usize = 4;

/// Reads in a row that follow each other, and their bytes, before the next is read ahead
/// (unless the reader announced the range): a chunk's table and one band of its blocks (what
/// one item costs), or a few neighbouring items, never are.
const RUN_BEFORE_READAHEAD: (u32, u64) = (2, 1 << 20);

/// The runs of reads that follow each other through the object and their streams.
#[derive(Default)]
pub(crate) struct Ahead {
    /// The bytes a reader said it will read through (`ReadAt::will_read`).
    pub plan: Option<Range<u64>>,
    runs: Vec<Run>,
    pub streams: Vec<Arc<Stream>>,
    /// Counts the reads, to tell what was used least recently.
    clock: u64,
}

/// One run of reads that follow each other.
struct Run {
    /// Where its last read ended.
    last_end: u64,
    /// How many reads in a row started where the one before ended (within the gap), and their
    /// bytes.
    reads: u32,
    read_bytes: u64,
    used: u64,
}

impl Ahead {
    /// Notes a read of `at..end`: whether it continues a run long enough to read ahead (else it
    /// starts a new run, in place of the one used least recently).
    pub fn follow(&mut self, at: u64, end: u64, gap: u64) -> bool {
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

    /// The stream that holds, or will soon bring, the bytes at `at` (within `near` of where it
    /// is).
    pub fn stream_for(&mut self, at: u64, near: u64) -> Option<Arc<Stream>> {
        self.clock += 1;
        let clock = self.clock;
        let s = self.streams.iter().find(|s| s.will_bring(at, near))?;
        s.lock().used = clock;
        Some(s.clone())
    }

    /// Keeps `stream` (in place of the one used least recently, whose task is stopped); the
    /// stream below it stops where it starts (no byte fetched twice).
    pub fn add(&mut self, stream: Arc<Stream>) {
        let start = stream.start;
        for s in &self.streams {
            let mut st = s.lock();
            if st.next <= start && start < st.stop {
                st.stop = start;
                s.room.notify_one();
                s.arrived.notify_all();
            }
        }
        stream.lock().used = self.clock;
        if self.streams.len() >= MAX_STREAMS
            && let Some(i) = (0..self.streams.len()).min_by_key(|&i| self.streams[i].lock().used)
        {
            self.streams.swap_remove(i).stop_task();
        }
        self.streams.push(stream);
    }

    /// Where the next stream from `from` should stop: at `end`, or where a stream above starts.
    pub fn stop_for(&self, from: u64, end: u64) -> u64 {
        self.streams.iter().map(|s| s.start).filter(|&p| p > from).fold(end, u64::min)
    }
}

/// Puts `item` in `v`: pushed while `v` holds fewer than [`MAX_STREAMS`], else in place of the
/// item used least recently; the item's place.
fn lru_slot<T>(v: &mut Vec<T>, item: T, used: impl Fn(&T) -> u64) -> &mut T {
    let i = match (0..v.len()).min_by_key(|&i| used(&v[i])) {
        Some(i) if v.len() >= MAX_STREAMS => {
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

/// One ranged GET read in the background.
pub(crate) struct Stream {
    /// Where its range starts.
    pub start: u64,
    state: Mutex<State>,
    /// Signalled when bytes arrive, or the stream ends.
    arrived: Condvar,
    /// Signalled when a read moved on (room for more bytes) or the stream's stop moved.
    room: Notify,
    task: Mutex<Option<JoinHandle<()>>>,
    /// Bytes kept behind the furthest read, and fetched ahead of it.
    half: u64,
}

struct State {
    /// The bytes kept, in order and without gaps, from `lo` to `next`.
    segs: VecDeque<(u64, bytes::Bytes)>,
    lo: u64,
    next: u64,
    /// Where the stream ends (lowered when a stream starts above it).
    stop: u64,
    /// The furthest end of a read served or waited for.
    hi_read: u64,
    /// The nearest end a read waits for: the task wakes the reads when it gets there.
    wake_at: u64,
    /// The task's error, for the first read that waits on it; `done` once the task ended.
    failed: Option<Error>,
    done: bool,
    used: u64,
}

/// What a stream does for a read.
pub(crate) enum Served {
    Yes,
    /// The stream does not hold the bytes, and will not: the read fetches them itself.
    No,
}

impl Stream {
    fn lock(&self) -> MutexGuard<'_, State> {
        // A cache only: a panic of another reader while it held it leaves bytes of the object.
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Starts a stream of `range` on `runtime`, keeping at most `budget` bytes.
    pub fn start(
        getter: &Arc<Getter>,
        runtime: &tokio::runtime::Runtime,
        range: Range<u64>,
        budget: u64,
    ) -> Arc<Stream> {
        let stream = Arc::new(Stream {
            start: range.start,
            state: Mutex::new(State {
                segs: VecDeque::new(),
                lo: range.start,
                next: range.start,
                stop: range.end,
                hi_read: range.start,
                wake_at: u64::MAX,
                failed: None,
                done: false,
                used: 0,
            }),
            arrived: Condvar::new(),
            room: Notify::new(),
            task: Mutex::new(None),
            half: (budget / 2).max(1),
        });
        let task = runtime.spawn(run(stream.clone(), getter.clone(), range));
        *stream.task.lock().unwrap_or_else(|p| p.into_inner()) = Some(task);
        stream
    }

    /// Whether the stream holds the byte at `at`, or will bring it within `near` bytes.
    fn will_bring(&self, at: u64, near: u64) -> bool {
        let st = self.lock();
        at >= st.lo && at < st.stop && at <= st.next.saturating_add(near) && !(st.done && at >= st.next)
    }

    /// Stops the stream's task (the body dropped, the connection closed).
    pub fn stop_task(&self) {
        if let Some(t) = self.task.lock().unwrap_or_else(|p| p.into_inner()).take() {
            t.abort();
        }
        let mut st = self.lock();
        st.done = true;
        st.stop = st.stop.min(st.next);
        self.arrived.notify_all();
    }

    /// Copies the bytes at `at` into `buf`, waiting for them while the stream brings them (until
    /// `patience` passes without a byte arriving); the stream's error if it failed before
    /// bringing them.
    pub fn serve(&self, getter: &Getter, at: u64, buf: &mut [u8], patience: Duration) -> Result<Served> {
        let end = at + buf.len() as u64;
        let mut st = self.lock();
        let (mut seen, mut deadline) = (st.next, Instant::now() + patience);
        loop {
            if at < st.lo || end > st.stop {
                return Ok(Served::No);
            }
            if end <= st.next {
                copy_out(&st.segs, at, buf);
                if end > st.hi_read {
                    st.hi_read = end;
                    // Drops what lies more than half the budget behind the furthest read.
                    let keep_from = end.saturating_sub(self.half);
                    while st.segs.front().is_some_and(|(s, b)| s + b.len() as u64 <= keep_from) {
                        if let Some((s, b)) = st.segs.pop_front() {
                            st.lo = s + b.len() as u64;
                        }
                    }
                    self.room.notify_one();
                }
                return Ok(Served::Yes);
            }
            if let Some(e) = st.failed.take() {
                return Err(e);
            }
            if st.done {
                return Ok(Served::No);
            }
            if end > st.hi_read {
                st.hi_read = end;
                self.room.notify_one();
            }
            st.wake_at = st.wake_at.min(end);
            let now = Instant::now();
            if st.next > seen {
                (seen, deadline) = (st.next, now + patience);
            }
            if now >= deadline {
                return Err(getter.err(
                    &(at..end),
                    "read-ahead bytes within",
                    "the deadline",
                    "none in time",
                ));
            }
            st = self.arrived.wait_timeout(st, deadline - now).unwrap_or_else(|p| p.into_inner()).0;
        }
    }
}

impl Drop for Stream {
    fn drop(&mut self) {
        if let Some(t) = self.task.get_mut().unwrap_or_else(|p| p.into_inner()).take() {
            t.abort();
        }
    }
}

/// Copies `at..` from the segments (which hold all of it) into `buf`.
fn copy_out(segs: &VecDeque<(u64, bytes::Bytes)>, at: u64, buf: &mut [u8]) {
    let end = at + buf.len() as u64;
    for (s, b) in segs {
        let e = s + b.len() as u64;
        if e <= at || *s >= end {
            continue;
        }
        let (p, q) = ((*s).max(at), e.min(end));
        buf[(p - at) as usize..(q - at) as usize].copy_from_slice(&b[(p - s) as usize..(q - s) as usize]);
    }
}

/// The stream's task: the GET, then its body part after part while there is room.
async fn run(stream: Arc<Stream>, getter: Arc<Getter>, range: Range<u64>) {
    let result = body(&stream, &getter, range).await;
    let mut st = stream.lock();
    st.done = true;
    if let Err(e) = result {
        st.failed = Some(e);
    }
    stream.arrived.notify_all();
}

async fn body(stream: &Stream, getter: &Getter, range: Range<u64>) -> Result<()> {
    let mut body = getter.stream(range.clone()).await?;
    let timeout = getter.options.timeout;
    loop {
        // Waits while the stream is half the budget ahead of the furthest read.
        loop {
            let notified = stream.room.notified();
            {
                let st = stream.lock();
                if st.next >= st.stop {
                    return Ok(());
                }
                if st.next < st.hi_read.saturating_add(stream.half) {
                    break;
                }
            }
            notified.await;
        }
        let part = match tokio::time::timeout(timeout, body.next()).await {
            Err(_) => {
                return Err(getter.err(
                    &range,
                    "the answer's body within",
                    format!("{timeout:?} a part"),
                    "none in time",
                ));
            }
            Ok(None) => {
                let st = stream.lock();
                if st.next < st.stop {
                    let r = range.start..st.stop;
                    let (want, got) = (st.stop - range.start, st.next - range.start);
                    return Err(getter.err(&r, "a body of", format!("{want} bytes"), format!("{got} bytes")));
                }
                return Ok(());
            }
            Ok(Some(Err(e))) => {
                return Err(getter.err(
                    &range,
                    "the answer's body",
                    format!("{} bytes", range.end - range.start),
                    chain(&e),
                ));
            }
            Ok(Some(Ok(part))) => part,
        };
        let mut st = stream.lock();
        let at = st.next;
        if at + part.len() as u64 > range.end {
            return Err(getter.err(
                &range,
                "a body of",
                format!("{} bytes", range.end - range.start),
                "more",
            ));
        }
        getter.count_bytes(&range, part.len() as u64)?;
        let n = (st.stop - at).min(part.len() as u64) as usize;
        st.segs.push_back((at, part.slice(..n)));
        st.next = at + n as u64;
        if st.next >= st.wake_at {
            st.wake_at = u64::MAX;
            stream.arrived.notify_all();
        }
    }
}
