//! Read-ahead for reads that go through the object in order (a whole array read): one ranged GET
//! per run of reads, its body read by a task in the background as the reads consume it, within
//! a memory budget ([`ObjectOptions::readahead`](crate::ObjectOptions::readahead)). The runs and
//! the streams are b2schema's ([`b2schema::source::ahead`], shared with its HTTP source); this
//! is the task that feeds a stream.

use std::ops::Range;
use std::sync::Arc;

use b2schema::Result;
use b2schema::source::ahead::Room;
use futures_util::StreamExt;
use tokio::sync::Notify;

use crate::get::Getter;
use crate::get::chain;

/// A stream of an object's bytes.
pub(crate) type Stream = b2schema::source::ahead::Stream<bytes::Bytes>;

/// The runs of reads through an object and their streams.
pub(crate) type Ahead = b2schema::source::ahead::Ahead<bytes::Bytes>;

/// Where an open-ended stream (a range ending at `TO_THE_END`) says the object's length once its
/// answer's head came, or why none came.
pub(crate) type Told = tokio::sync::oneshot::Sender<Result<u64>>;

/// Starts a stream of `range` on `runtime`, keeping at most `budget` bytes. A range that ends
/// at `TO_THE_END` is asked to the object's end (`bytes=a-`): the stream ends where the answer
/// says the object does, and says its length to `told`.
pub(crate) fn start(
    getter: &Arc<Getter>,
    runtime: &tokio::runtime::Runtime,
    range: Range<u64>,
    budget: u64,
    told: Option<Told>,
) -> Arc<Stream> {
    let room = Arc::new(Notify::new());
    let notify = room.clone();
    let stream = Stream::new(range.clone(), budget, Some(Box::new(move || notify.notify_one())));
    let task = runtime.spawn(run(stream.clone(), room, getter.clone(), range, told));
    stream.set_stopper(Box::new(move || task.abort()));
    stream
}

/// The stream's task: the GET, then its body part after part while there is room.
async fn run(
    stream: Arc<Stream>,
    room: Arc<Notify>,
    getter: Arc<Getter>,
    range: Range<u64>,
    told: Option<Told>,
) {
    let result = body(&stream, &room, &getter, range, told).await;
    stream.finish(result.err());
}

async fn body(
    stream: &Stream,
    room: &Notify,
    getter: &Getter,
    asked: Range<u64>,
    told: Option<Told>,
) -> Result<()> {
    let (mut body, range) = match (getter.stream(asked.clone()).await, told) {
        (Ok((body, range)), told) => {
            stream.end_at(range.end);
            if let Some(t) = told {
                let _ = t.send(Ok(range.end));
            }
            (body, range)
        }
        (Err(e), Some(t)) => {
            // The opener reports it (the stream has no reads yet).
            let _ = t.send(Err(e));
            return Ok(());
        }
        (Err(e), None) => return Err(e),
    };
    let timeout = getter.options.timeout;
    loop {
        // Waits while the stream is half the budget ahead of the furthest read.
        loop {
            let notified = room.notified();
            match stream.room() {
                Room::Ended => return Ok(()),
                Room::Open { .. } => break,
                Room::Full => notified.await,
            }
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
                let (next, stop) = stream.position();
                if next < stop {
                    let r = range.start..stop;
                    let (want, got) = (stop - range.start, next - range.start);
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
        let (at, _) = stream.position();
        if at + part.len() as u64 > range.end {
            return Err(getter.err(
                &range,
                "a body of",
                format!("{} bytes", range.end - range.start),
                "more",
            ));
        }
        getter.count_bytes(&range, part.len() as u64)?;
        stream.push(part, |b, n| b.slice(..n));
    }
}
