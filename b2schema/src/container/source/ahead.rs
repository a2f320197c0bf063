//! Read-ahead for a remote source whose reads go through the file in order (a whole array read):
//! one request per run of reads, its body read in the background (by a thread, or an async
//! task) as the reads consume it, within a memory budget. [`http::HttpSource`](super::http) uses
//! it with a thread per stream, `b2schema-object-store` with a task; both feed a [`Stream`] the
//! same way: [`Stream::room`] (or [`Stream::wait_room`]), [`Stream::push`], [`Stream::finish`].
//!
//! A stream keeps the bytes from about half the budget behind the furthest read it served to
//! half the budget ahead of it: its producer stops reading the body (the server waits on the
//! connection) until the reads move on. A read waits for the bytes of a stream that will bring
//! them; bytes a stream dropped, or a stream that ended early, are fetched by the read itself.

use alloc::boxed::Box;
use alloc::collections::VecDeque;
use alloc::vec::Vec;
use core::ops::Range;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use crate::container::error::{Error, Result};
use crate::container::limits::try_zeros;

/// The most streams (runs of reads: one per thread of a whole read) at once.
pub const MAX_STREAMS: usize = 4;

/// Reads in a row that follow each other, and their bytes, before the next is read ahead
/// (unless the reader announced the range): a chunk's table and one band of its blocks (what
/// one item costs), or a few neighbouring items, never are.
const RUN_BEFORE_READAHEAD: (u32, u64) = (2, 1 << 20);

/// The runs of reads that follow each other through a file, and their streams.
pub struct Ahead<B> {
    /// The bytes a reader said it will read through (`ReadAt::will_read`).
    pub plan: Option<Range<u64>>,
    runs: Vec<Run>,
    streams: Vec<Arc<Stream<B>>>,
    /// Counts the reads, to tell what was used least recently.
    clock: u64,
}

impl<B> Default for Ahead<B> {
    fn default() -> Self {
        Ahead { plan: None, runs: Vec::new(), streams: Vec::new(), clock: 0 }
    }
}

impl<B> core::fmt::Debug for Ahead<B> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Ahead").field("plan", &self.plan).field("streams", &self.streams.len()).finish()
    }
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

impl<B: AsRef<[u8]>> Ahead<B> {
    /// Notes a read of `at..end`: whether it continues a run long enough to read ahead (else it
    /// starts a new run, in place of the one used least recently).
    pub fn follow(&mut self, at: u64, end: u64, gap: u64) -> bool {
        self.clock += 1;
        let clock = self.clock;
        let found = self.runs.iter_mut().find(|r| at <= r.last_end.saturating_add(gap) && end > r.last_end);
        let r = match found {
            Some(r) => {
                let n = end.saturating_sub(at);
                (r.reads, r.read_bytes) = (r.reads.saturating_add(1), r.read_bytes.saturating_add(n));
                r
            }
            None => {
                let fresh = Run { last_end: end, reads: 0, read_bytes: end.saturating_sub(at), used: 0 };
                lru_slot(&mut self.runs, fresh, |r| r.used)
            }
        };
        (r.last_end, r.used) = (end, clock);
        r.reads >= RUN_BEFORE_READAHEAD.0 && r.read_bytes >= RUN_BEFORE_READAHEAD.1
    }

    /// The stream that holds, or will soon bring, the bytes at `at` (within `near` of where it
    /// is).
    pub fn stream_for(&mut self, at: u64, near: u64) -> Option<Arc<Stream<B>>> {
        self.clock += 1;
        let clock = self.clock;
        let s = self.streams.iter().find(|s| s.will_bring(at, near))?;
        s.lock().used = clock;
        Some(s.clone())
    }

    /// Keeps `stream` (in place of the one used least recently, which is stopped); the stream
    /// below it stops where it starts (no byte fetched twice).
    pub fn add(&mut self, stream: Arc<Stream<B>>) {
        let start = stream.start;
        for s in &self.streams {
            let mut st = s.lock();
            if st.next <= start && start < st.stop {
                st.stop = start;
                drop(st);
                s.notify_room();
                s.arrived.notify_all();
            }
        }
        stream.lock().used = self.clock;
        if self.streams.len() >= MAX_STREAMS
            && let Some(i) = (0..self.streams.len()).min_by_key(|&i| self.streams[i].lock().used)
        {
            self.streams.swap_remove(i).stop();
        }
        self.streams.push(stream);
    }

    /// Where the next stream from `from` should stop: at `end`, or where a stream above starts.
    pub fn stop_for(&self, from: u64, end: u64) -> u64 {
        self.streams.iter().map(|s| s.start).filter(|&p| p > from).fold(end, u64::min)
    }

    /// Stops every stream (the source is dropped).
    pub fn stop_all(&self) {
        for s in &self.streams {
            s.stop();
        }
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

/// Called when a stream has room for more bytes (a read moved on, or the stream stopped).
pub type OnRoom = Box<dyn Fn() + Send + Sync>;

/// Stops a stream's producer (aborts its task).
pub type Stopper = Box<dyn FnOnce() + Send>;

/// One request's body, read in the background: parts of type `B` (`Vec<u8>`, `bytes::Bytes`).
pub struct Stream<B> {
    /// Where its range starts.
    start: u64,
    state: Mutex<State<B>>,
    /// Signalled when bytes arrive, or the stream ends.
    arrived: Condvar,
    /// Signalled when a read moved on (room for more bytes) or the stream's stop moved.
    room: Condvar,
    on_room: Option<OnRoom>,
    stopper: Mutex<Option<Stopper>>,
    /// Bytes kept behind the furthest read, and fetched ahead of it.
    half: u64,
}

impl<B> core::fmt::Debug for Stream<B> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Stream").field("start", &self.start).field("half", &self.half).finish()
    }
}

struct State<B> {
    /// The bytes kept, in order and without gaps, from `lo` to `next`.
    segs: VecDeque<(u64, B)>,
    lo: u64,
    next: u64,
    /// Where the stream ends (lowered when a stream starts above it, or it is stopped).
    stop: u64,
    /// The furthest end of a read served or waited for.
    hi_read: u64,
    /// The nearest end a read waits for: the producer wakes the reads when it gets there.
    wake_at: u64,
    /// The producer's error, for the first read that waits on it; `done` once it ended.
    failed: Option<Error>,
    done: bool,
    used: u64,
    /// Parts dropped behind the reads, kept for the producer to fill again (at most
    /// `max_spares`): no memory to map and fault in for each part.
    spares: Vec<B>,
    max_spares: usize,
    /// The parts [`Stream::part`] allocated (not refilled).
    made: u64,
}

/// What a stream does for a read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Served {
    /// The bytes are in the buffer.
    Yes,
    /// The stream does not hold the bytes, and will not: the read fetches them itself.
    No,
}

/// What the producer of a stream may do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Room {
    /// Nothing more: the stream got to its stop, or was stopped.
    Ended,
    /// Wait: the stream is half the budget ahead of the furthest read.
    Full,
    /// Read on: the next byte is at `next`, the stream ends at `stop`.
    Open {
        /// Where the next byte goes.
        next: u64,
        /// Where the stream ends (it may still be lowered).
        stop: u64,
    },
}

impl<B: AsRef<[u8]>> Stream<B> {
    /// A stream of `range` keeping at most `budget` bytes (half behind the furthest read, half
    /// ahead of it); `on_room` is called (besides a wait in [`Stream::wait_room`] woken) when
    /// there is room for more.
    pub fn new(range: Range<u64>, budget: u64, on_room: Option<OnRoom>) -> Arc<Self> {
        Arc::new(Stream {
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
                spares: Vec::new(),
                max_spares: 0,
                made: 0,
            }),
            arrived: Condvar::new(),
            room: Condvar::new(),
            on_room,
            stopper: Mutex::new(None),
            half: (budget / 2).max(1),
        })
    }

    /// Where its range starts.
    pub fn start(&self) -> u64 {
        self.start
    }

    /// The bytes kept behind the furthest read, and read ahead of it: half the budget.
    pub fn half(&self) -> u64 {
        self.half
    }

    fn lock(&self) -> MutexGuard<'_, State<B>> {
        // A cache only: a panic of another reader while it held it leaves bytes of the file.
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn notify_room(&self) {
        self.room.notify_all();
        if let Some(f) = &self.on_room {
            f();
        }
    }

    /// What stops the producer (aborts its task), called by [`Stream::stop`]; at once when the
    /// stream is stopped already.
    pub fn set_stopper(&self, stopper: Stopper) {
        let done = self.lock().done;
        if done {
            stopper();
        } else {
            *self.stopper.lock().unwrap_or_else(|p| p.into_inner()) = Some(stopper);
        }
    }

    /// Whether the stream holds the byte at `at`, or will bring it within `near` bytes.
    fn will_bring(&self, at: u64, near: u64) -> bool {
        let st = self.lock();
        at >= st.lo && at < st.stop && at <= st.next.saturating_add(near) && !(st.done && at >= st.next)
    }

    /// Stops the stream: its producer ends (the body dropped, the connection closed), the reads
    /// waiting for what it would have brought fetch it themselves.
    pub fn stop(&self) {
        if let Some(f) = self.stopper.lock().unwrap_or_else(|p| p.into_inner()).take() {
            f();
        }
        let mut st = self.lock();
        st.done = true;
        st.stop = st.stop.min(st.next);
        drop(st);
        self.arrived.notify_all();
        self.notify_room();
    }

    /// Copies the bytes at `at` into `buf`, waiting for them while the stream brings them (until
    /// `patience` passes without a byte arriving: then `late()`); the producer's error if it
    /// failed before bringing them.
    pub fn serve(
        &self,
        at: u64,
        buf: &mut [u8],
        patience: Duration,
        late: impl FnOnce() -> Error,
    ) -> Result<Served> {
        let end = at.saturating_add(buf.len() as u64);
        let mut st = self.lock();
        let (mut seen, mut deadline) = (st.next, Instant::now() + patience);
        loop {
            if at < st.lo || end > st.stop {
                return Ok(Served::No);
            }
            if end <= st.next {
                copy_out(&st.segs, at, buf);
                let mut moved = end > st.hi_read;
                st.hi_read = st.hi_read.max(end);
                // Drops what lies more than half the budget behind the furthest read (served, or
                // waited for: a read that waited moved it, and dropped behind it, already).
                let keep_from = st.hi_read.saturating_sub(self.half);
                moved |= drop_behind(&mut st, keep_from);
                drop(st);
                if moved {
                    self.notify_room();
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
                // The producer reads on towards half the budget past this read: what lies half
                // the budget behind it goes now (not once it is served), so that the stream
                // never holds more than the budget and a part or two (none of this read's).
                drop_behind(&mut st, end.saturating_sub(self.half).min(at));
                self.notify_room();
            }
            st.wake_at = st.wake_at.min(end);
            let now = Instant::now();
            if st.next > seen {
                (seen, deadline) = (st.next, now + patience);
            }
            if now >= deadline {
                return Err(late());
            }
            st = self.arrived.wait_timeout(st, deadline - now).unwrap_or_else(|p| p.into_inner()).0;
        }
    }

    /// What the producer may do now.
    pub fn room(&self) -> Room {
        Self::room_in(&self.lock(), self.half)
    }

    fn room_in(st: &State<B>, half: u64) -> Room {
        if st.done || st.next >= st.stop {
            Room::Ended
        } else if st.next >= st.hi_read.saturating_add(half) {
            Room::Full
        } else {
            Room::Open { next: st.next, stop: st.stop }
        }
    }

    /// Waits while the stream is full (for a producer on a thread of its own): [`Room::Ended`]
    /// or [`Room::Open`].
    pub fn wait_room(&self) -> Room {
        let mut st = self.lock();
        loop {
            match Self::room_in(&st, self.half) {
                Room::Full => st = self.room.wait(st).unwrap_or_else(|p| p.into_inner()),
                r => return r,
            }
        }
    }

    /// Keeps up to `n` parts dropped behind the reads for [`Stream::spare`] until the producer
    /// ends. A part is either held or spare, so that the memory of both stays what the parts
    /// held at most (the budget and a part). 0 (none) unless set.
    pub fn keep_spares(&self, n: usize) {
        self.lock().max_spares = n;
    }

    /// A part dropped behind the reads, to fill again.
    pub fn spare(&self) -> Option<B> {
        self.lock().spares.pop()
    }

    /// Ends the stream at `end` at the latest (a stream started before its length was known:
    /// the answer's head says it), waking the reads that wait past it.
    pub fn end_at(&self, end: u64) {
        let mut st = self.lock();
        st.stop = st.stop.min(end.max(st.next));
        drop(st);
        self.arrived.notify_all();
    }

    /// Where the next byte goes and where the stream ends.
    pub fn position(&self) -> (u64, u64) {
        let st = self.lock();
        (st.next, st.stop)
    }

    /// Adds the next bytes of the body; those past the stream's stop are dropped (by `cut`,
    /// which keeps a part's first `n` bytes). Wakes the reads waiting for them.
    pub fn push(&self, part: B, cut: impl FnOnce(B, usize) -> B) {
        let mut st = self.lock();
        let at = st.next;
        let len = part.as_ref().len() as u64;
        let n = st.stop.saturating_sub(at).min(len);
        if n == 0 {
            return;
        }
        let part = if n < len { cut(part, n as usize) } else { part };
        st.segs.push_back((at, part));
        st.next = at + n;
        if st.next >= st.wake_at {
            st.wake_at = u64::MAX;
            drop(st);
            self.arrived.notify_all();
        }
    }

    /// The producer ended: with `failed`, the error for the first read that waits for bytes it
    /// did not bring; with `None` (its range brought, or a transient failure), the reads fetch
    /// what it did not bring themselves.
    pub fn finish(&self, failed: Option<Error>) {
        let mut st = self.lock();
        st.done = true;
        st.failed = failed;
        st.spares = Vec::new();
        drop(st);
        self.arrived.notify_all();
    }

    /// The bytes it holds now (kept behind the reads and fetched ahead of them).
    pub fn held(&self) -> u64 {
        let st = self.lock();
        st.next - st.lo
    }
}

impl Stream<Vec<u8>> {
    /// A part of `n` bytes to fill with the body's bytes at `at`: a part dropped behind the
    /// reads (its memory mapped already), sized to `n` (no byte of what it held is served: the
    /// caller writes all `n`), or a new one allocated within the limits.
    pub fn part(&self, n: usize, what: &'static str, at: u64) -> Result<Vec<u8>> {
        match self.spare() {
            Some(mut v) => {
                v.resize(n, 0);
                Ok(v)
            }
            None => {
                self.lock().made += 1;
                try_zeros(n, what, usize::try_from(at).unwrap_or(usize::MAX))
            }
        }
    }

    /// The parts [`Stream::part`] allocated so far (the others were parts dropped behind the
    /// reads, filled again).
    pub fn parts_made(&self) -> u64 {
        self.lock().made
    }
}

impl<B> Drop for Stream<B> {
    fn drop(&mut self) {
        if let Some(f) = self.stopper.get_mut().unwrap_or_else(|p| p.into_inner()).take() {
            f();
        }
    }
}

/// Drops the parts that end at or before `keep_from`, kept as spares for the producer (up to
/// its number); whether any was dropped.
fn drop_behind<B: AsRef<[u8]>>(st: &mut State<B>, keep_from: u64) -> bool {
    let mut moved = false;
    while st.segs.front().is_some_and(|(s, b)| s + b.as_ref().len() as u64 <= keep_from) {
        if let Some((s, b)) = st.segs.pop_front() {
            st.lo = s + b.as_ref().len() as u64;
            moved = true;
            if st.spares.len() < st.max_spares && !st.done {
                st.spares.push(b);
            }
        }
    }
    moved
}

/// Copies `at..` from the segments (which hold all of it) into `buf`.
fn copy_out<B: AsRef<[u8]>>(segs: &VecDeque<(u64, B)>, at: u64, buf: &mut [u8]) {
    let end = at + buf.len() as u64;
    for (s, b) in segs {
        let b = b.as_ref();
        let e = s + b.len() as u64;
        if e <= at || *s >= end {
            continue;
        }
        let (p, q) = ((*s).max(at), e.min(end));
        buf[(p - at) as usize..(q - at) as usize].copy_from_slice(&b[(p - s) as usize..(q - s) as usize]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cut(mut v: Vec<u8>, n: usize) -> Vec<u8> {
        v.truncate(n);
        v
    }

    /// A producer that pushes while there is room never holds more than the budget (and a
    /// part), however far ahead of the reads the body is.
    #[test]
    fn a_stream_holds_at_most_its_budget_and_serves_in_order() {
        let s: Arc<Stream<Vec<u8>>> = Stream::new(0..1000, 100, None);
        let mut pushed = 0u64;
        let mut buf = [0u8; 10];
        let late = || Error::invalid("bytes", "in time", "none", 0);
        for read in 0..100u64 {
            while let Room::Open { next, .. } = s.room() {
                s.push((next..next + 7).map(|b| b as u8).collect(), cut);
                pushed += 7;
                // Half the budget each side of the furthest read, give or take a part each.
                assert!(s.held() <= 100 + 2 * 7, "{} held", s.held());
            }
            assert_eq!(s.serve(read * 10, &mut buf, Duration::from_secs(5), late).unwrap(), Served::Yes);
            assert_eq!(buf[0], (read * 10) as u8);
        }
        assert_eq!(s.room(), Room::Ended);
        assert_eq!(pushed, 1001, "the last part cut at the stop");
        // Behind what is kept: fetched by the read itself.
        assert_eq!(s.serve(0, &mut buf, Duration::from_secs(5), late).unwrap(), Served::No);
    }

    /// A stream started before its length was known, ended where its answer says: a read past
    /// that end is not waited for (the read fetches it, and is refused there), one before it is
    /// served.
    #[test]
    fn a_stream_ended_at_its_length_serves_before_it_and_not_past_it() {
        let s: Arc<Stream<Vec<u8>>> = Stream::new(0..u64::MAX, 100, None);
        s.end_at(30);
        s.push((0..40).collect(), cut);
        assert_eq!(s.position(), (30, 30), "the bytes past the end dropped");
        let late = || Error::invalid("bytes", "in time", "none", 0);
        let mut buf = [0u8; 10];
        let started = std::time::Instant::now();
        assert_eq!(s.serve(25, &mut buf, Duration::from_secs(20), late).unwrap(), Served::No);
        assert!(started.elapsed() < Duration::from_secs(10));
        assert_eq!(s.serve(20, &mut buf, Duration::from_secs(20), late).unwrap(), Served::Yes);
        assert_eq!(buf[0], 20);
        assert_eq!(s.room(), Room::Ended);
    }

    /// Reads that wait for the bytes (the producer behind them) drop what lies behind them
    /// too: what is kept stays within the budget.
    #[test]
    fn reads_that_wait_for_a_stream_keep_it_within_its_budget() {
        let s: Arc<Stream<Vec<u8>>> = Stream::new(0..2000, 100, None);
        let producer = {
            let s = s.clone();
            std::thread::spawn(move || {
                while let Room::Open { next, .. } = s.wait_room() {
                    std::thread::sleep(Duration::from_micros(200));
                    s.push((next..next + 7).map(|b| b as u8).collect(), cut);
                }
            })
        };
        let mut buf = [0u8; 10];
        let late = || Error::invalid("bytes", "in time", "none", 0);
        for read in 0..200u64 {
            assert_eq!(s.serve(read * 10, &mut buf, Duration::from_secs(5), late).unwrap(), Served::Yes);
            assert_eq!(buf[0], (read * 10) as u8);
            assert!(s.held() <= 100 + 2 * 7, "{} held after the read at {}", s.held(), read * 10);
        }
        producer.join().unwrap();
    }

    /// The model's byte at `i`: where it lies shows in it (a part served at another place, or
    /// a stale tail, is wrong bytes).
    fn model(i: u64) -> u8 {
        (i.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 56) as u8
    }

    /// Parts recycled under reads from two threads that go on with jumps back and forth (as a
    /// whole read's threads do): every byte served is the model's, and the parts ever allocated
    /// (held, spare or being filled) stay within the budget and two parts.
    #[test]
    fn parts_recycled_under_reads_back_and_forth_serve_the_right_bytes_within_the_budget() {
        const LEN: u64 = 400_500;
        const BUDGET: u64 = 16_000;
        const PART: u64 = 1000;
        let s: Arc<Stream<Vec<u8>>> = Stream::new(0..LEN, BUDGET, None);
        s.keep_spares((BUDGET / PART) as usize + 1);
        let producer = {
            let s = s.clone();
            std::thread::spawn(move || {
                while let Room::Open { next, stop } = s.wait_room() {
                    let n = PART.min(stop - next);
                    let mut part = s.part(n as usize, "a part", next).unwrap();
                    for (i, b) in part.iter_mut().enumerate() {
                        *b = model(next + i as u64);
                    }
                    s.push(part, cut);
                }
                s.finish(None);
            })
        };
        let readers: Vec<_> = (0..2u64)
            .map(|t| {
                let s = s.clone();
                std::thread::spawn(move || {
                    let late = || Error::invalid("bytes", "in time", "none", 0);
                    let (mut at, mut seed, mut served) = (t * 3000, 11 + t, 0u32);
                    while at < LEN - 2000 {
                        seed = xorshift(seed);
                        let len = 1 + (seed >> 8) % 1500;
                        // Now and then back, within what is kept behind (or just past it).
                        let start =
                            if seed % 5 == 0 { at.saturating_sub(seed % (BUDGET / 2 + 2000)) } else { at };
                        let mut buf = vec![0u8; len as usize];
                        if s.serve(start, &mut buf, Duration::from_secs(20), late).unwrap() == Served::Yes {
                            let want: Vec<u8> = (start..start + len).map(model).collect();
                            assert_eq!(buf, want, "the bytes at {start}");
                            served += 1;
                        }
                        assert!(s.held() <= BUDGET + 2 * PART, "{} held", s.held());
                        at += len / 2 + 1;
                    }
                    served
                })
            })
            .collect();
        let served: u32 = readers.into_iter().map(|r| r.join().unwrap()).sum();
        assert!(served > 200, "{served} reads served by the stream");
        s.stop();
        producer.join().unwrap();
        let fresh = s.parts_made();
        assert!(fresh * PART <= BUDGET + 2 * PART, "{fresh} parts of {PART} bytes allocated");
    }

    /// A read far past the stream's bytes, waiting while the producer reads on towards half the
    /// budget past it: what lies half the budget behind it is dropped as it waits, so that the
    /// stream stays within the budget and two parts (the producer would otherwise read on while
    /// nothing behind goes).
    #[test]
    fn a_read_waiting_far_ahead_keeps_the_stream_within_its_budget() {
        let s: Arc<Stream<Vec<u8>>> = Stream::new(0..10_000, 100, None);
        let fill = |s: &Stream<Vec<u8>>| {
            while let Room::Open { next, .. } = s.room() {
                s.push((next..next + 10).map(model).collect(), cut);
            }
            s.position().0
        };
        let late = || Error::invalid("bytes", "in time", "none", 0);
        let mut buf = [0u8; 10];
        assert_eq!(fill(&s), 50);
        assert_eq!(s.serve(40, &mut buf, Duration::from_secs(5), late).unwrap(), Served::Yes);
        assert_eq!(fill(&s), 100);
        // 40 bytes past what came: it waits (in vain here, nothing pushes while it does).
        assert!(s.serve(140, &mut buf, Duration::from_millis(5), late).is_err());
        assert_eq!(fill(&s), 200, "the producer read on to half the budget past the read");
        assert!(s.held() <= 100 + 2 * 10, "{} held", s.held());
        assert_eq!(s.serve(140, &mut buf, Duration::from_secs(5), late).unwrap(), Served::Yes);
        assert_eq!(buf.to_vec(), (140..150).map(model).collect::<Vec<_>>());
    }

    fn xorshift(mut x: u64) -> u64 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^ (x << 17)
    }
}
