//! The blocks of a chunk encoded on several threads, as c-blosc2's `parallel_blosc`:
//! [`Plan::write_threaded`] and the output its threads append to in block order.

use alloc::vec::Vec;

use super::Plan;
use crate::chunk::buffers::{Scratch, alloc_error, with_pooled_scratch, with_scratch};
use crate::error::Error;

impl Plan<'_> {
    /// [`Plan::write_serial`] with the blocks encoded on `workers` threads (the calling one and
    /// `workers - 1` scoped ones), as c-blosc2's `parallel_blosc` does: each thread takes the
    /// next block, encodes it into a buffer it keeps (as if the output had room for the whole
    /// block) and appends it to `out` in its turn (parked until then, while the thread takes
    /// the next block: [`Plan::encode_in_turn`]), so every block is copied once, in block
    /// order. A block that might meet the output limit (less room left than its raw
    /// size) stops every thread, and it and those after it are written by the serial loop:
    /// then the bytes are the serial loop's at any thread count (a stream under a limit it
    /// does not meet is the same bytes).
    #[cfg(feature = "std")]
    pub(super) fn write_threaded(
        &self,
        workers: usize,
        out: &mut Vec<u8>,
        zeros: &mut bool,
    ) -> Result<bool, Error> {
        use core::sync::atomic::AtomicUsize;
        use std::sync::{Condvar, Mutex, PoisonError};
        let most_parked = workers.saturating_mul(PARKED_PER_THREAD);
        let (parked, spares) = (Vec::with_capacity(most_parked), Vec::new());
        let turn = Mutex::new(Turn {
            next: 0,
            out,
            zeros: true,
            stop: None,
            parked,
            most_parked,
            spares,
            waiting: 0,
        });
        let (turned, claim) = (Condvar::new(), AtomicUsize::new(0));
        let worker = || -> Result<(), Error> {
            with_pooled_scratch(|scratch| {
                let mut mine = core::mem::take(&mut scratch.encoded);
                // A panic is this thread's error: the others must not wait for its block.
                let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    self.encode_in_turn(&claim, &turn, &turned, scratch, &mut mine)
                }))
                .unwrap_or_else(|_| Err(alloc_error(0)));
                scratch.encoded = mine;
                if r.is_err() {
                    // The others stop at their turn (and none waits for this thread's block).
                    let mut t = turn.lock().unwrap_or_else(PoisonError::into_inner);
                    t.stop.get_or_insert(self.nblocks);
                    turned.notify_all();
                    // A thread waiting for a piece must get it (the blocks stop advancing).
                    self.src.read_on();
                }
                r
            })
        };
        let results: Vec<Result<(), Error>> = std::thread::scope(|scope| {
            let worker = &worker;
            let handles: Vec<_> = (1..workers).map(|_| scope.spawn(worker)).collect();
            let mine = worker();
            let theirs = handles.into_iter().map(|h| h.join().unwrap_or_else(|_| Err(alloc_error(0))));
            core::iter::once(mine).chain(theirs).collect()
        });
        for r in results {
            r?;
        }
        let Turn { out, zeros: z, stop, .. } = turn.into_inner().unwrap_or_else(PoisonError::into_inner);
        *zeros &= z;
        match stop {
            None => Ok(true),
            Some(j) => with_scratch(|scratch| self.write_serial(j, scratch, out, zeros)),
        }
    }

    /// One thread of [`Plan::write_threaded`]: takes block after block (`claim`), encodes each
    /// into `mine` and appends it to the output when the blocks before it are there. A block
    /// done before its turn is parked (up to [`PARKED_PER_THREAD`] a thread), and the thread
    /// takes the next one: whoever appends the block before it appends it too. So a thread
    /// waits only when the blocks parked are that many (a slow block holding up the rest), not
    /// at every block a faster thread finishes first (as when each waited for its turn: at 2
    /// threads, each pair of blocks then took the longer one's time).
    #[cfg(feature = "std")]
    fn encode_in_turn(
        &self,
        claim: &core::sync::atomic::AtomicUsize,
        turn: &std::sync::Mutex<Turn<'_>>,
        turned: &std::sync::Condvar,
        scratch: &mut Scratch,
        mine: &mut Vec<u8>,
    ) -> Result<(), Error> {
        use std::sync::PoisonError;
        loop {
            let j = claim.fetch_add(1, core::sync::atomic::Ordering::Relaxed);
            if j >= self.nblocks {
                return Ok(());
            }
            let (bsize, nstreams) = self.block_geometry(j);
            let most = bsize + 4 * nstreams;
            mine.clear();
            // Room for a stream appended by its codec (`encode_onto`) in its largest form.
            let room = most + self.encoder.slack(bsize / nstreams);
            mine.try_reserve_exact(room).map_err(|_| alloc_error(room))?;
            let mut z = true;
            let encoded = self.write_block(j, scratch, mine, most, &mut z).map(|_| ());
            let mut t = turn.lock().unwrap_or_else(PoisonError::into_inner);
            if t.stop.is_some() {
                return Ok(());
            }
            if t.next != j {
                if t.parked.len() < t.most_parked {
                    let spare = t.spares.pop().unwrap_or_default();
                    let bytes = core::mem::replace(mine, spare);
                    t.parked.push(Parked { j, bytes, zeros: z, encoded });
                    continue;
                }
                t.waiting += 1;
                while t.next != j && t.stop.is_none() {
                    t = turned.wait(t).unwrap_or_else(PoisonError::into_inner);
                }
                t.waiting -= 1;
                if t.stop.is_some() {
                    return Ok(());
                }
            }
            let appended = self.append_in_turn(&mut t, j, mine, z, encoded);
            // The blocks parked after it, while they follow on.
            while appended.is_ok()
                && t.stop.is_none()
                && let Some(i) = t.parked.iter().position(|p| p.j == t.next)
            {
                let p = t.parked.swap_remove(i);
                let r = self.append_in_turn(&mut t, p.j, &p.bytes, p.zeros, p.encoded);
                t.spares.push(p.bytes);
                r?;
            }
            if t.waiting > 0 {
                turned.notify_all();
            }
            appended?;
        }
    }

    /// Appends block `j` (its bytes `mine`, whether all its streams are runs of zeros, its
    /// encoding's result), whose turn it is, to the output; or stops the threads there when it
    /// might meet the output limit (the serial loop writes it and the rest).
    #[cfg(feature = "std")]
    fn append_in_turn(
        &self,
        t: &mut Turn<'_>,
        j: usize,
        mine: &[u8],
        z: bool,
        encoded: Result<(), Error>,
    ) -> Result<(), Error> {
        // An error in turn, as the serial loop meets it (not one of a block it never writes).
        encoded?;
        let (bsize, nstreams) = self.block_geometry(j);
        let most = bsize + 4 * nstreams;
        if t.out.len() + self.taken() + most > self.destsize {
            // This block might meet the limit: the serial loop writes it and the rest, once
            // every thread is back (a thread waiting for a piece must get it).
            t.stop = Some(j);
            self.src.read_on();
        } else {
            self.set_bstart(t.out, j);
            t.out.extend_from_slice(mine);
            t.zeros &= z;
            t.next += 1;
            let zeros = t.zeros;
            self.tell(j, t.out, zeros);
            self.let_go(j, t.out.len());
        }
        Ok(())
    }
}

/// The most blocks a thread of [`Plan::write_threaded`] may leave parked, done before their
/// turn, before it waits for the turn of the block it holds: each parked block holds up to a
/// block's bytes (and its pieces, until appended).
#[cfg(feature = "std")]
const PARKED_PER_THREAD: usize = 2;

/// A block encoded before its turn, waiting in [`Turn::parked`].
#[cfg(feature = "std")]
struct Parked {
    j: usize,
    bytes: Vec<u8>,
    /// Whether all its streams are runs of zeros.
    zeros: bool,
    /// Its encoding's result, met in its turn.
    encoded: Result<(), Error>,
}

/// The output of [`Plan::write_threaded`] as its threads share it.
#[cfg(feature = "std")]
struct Turn<'o> {
    /// The block appended next.
    next: usize,
    out: &'o mut Vec<u8>,
    /// Whether every stream appended so far is a run of zeros.
    zeros: bool,
    /// The block the serial loop takes on from (none: every block is appended by the threads;
    /// `nblocks` after an error).
    stop: Option<usize>,
    /// Blocks done before their turn (at most `most_parked`), in no order.
    parked: Vec<Parked>,
    most_parked: usize,
    /// Buffers of parked blocks since appended, for the next ones parked.
    spares: Vec<Vec<u8>>,
    /// Threads waiting for their block's turn.
    waiting: usize,
}
