//! `rusty_zstd`'s skip over literal runs is one value for the whole process (its hidden
//! `set_lazy_accel_arm`, read by its lazy finders at each block). [`with_skip`] runs an encoding
//! with a given skip and keeps its frame independent of other threads: encodings that want the
//! same skip run side by side; one that wants another waits until those have finished (and
//! those that come after it wait for it), so no block is ever encoded under another call's skip.
//! When the last encoding of a phase ends, the crate's own setting is put back
//! ([`CRATE_DEFAULT`]), so that the process's other users of `rusty_zstd` see ours only while
//! b2schema encodes.

/// `set_lazy_accel_arm`'s value for "not set": `rusty_zstd` then reads its `RZSTD_LAZY_ACCEL`
/// knob, else takes 12 (its initial state in 0.4.1).
const CRATE_DEFAULT: usize = usize::MAX;

/// The skip set, the encodings running under it, and the encodings waiting for another.
#[cfg(feature = "std")]
struct Phase {
    skip: usize,
    running: usize,
    waiting: usize,
}

#[cfg(feature = "std")]
static PHASE: std::sync::Mutex<Phase> =
    std::sync::Mutex::new(Phase { skip: CRATE_DEFAULT, running: 0, waiting: 0 });
#[cfg(feature = "std")]
static CHANGED: std::sync::Condvar = std::sync::Condvar::new();

#[cfg(feature = "std")]
fn phase() -> std::sync::MutexGuard<'static, Phase> {
    PHASE.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Runs `f` with `rusty_zstd`'s skip set to `skip`, with no encoding under another skip running
/// meanwhile in this process.
#[cfg(feature = "std")]
pub(crate) fn with_skip<R>(skip: usize, f: impl FnOnce() -> R) -> R {
    /// Leaves the phase when the encoding ends, a panic included; the last one out puts the
    /// crate's own setting back.
    struct Leave;
    impl Drop for Leave {
        fn drop(&mut self) {
            let mut p = phase();
            p.running -= 1;
            if p.running == 0 {
                rusty_zstd::set_lazy_accel_arm(CRATE_DEFAULT);
                p.skip = CRATE_DEFAULT;
                CHANGED.notify_all();
            }
        }
    }
    {
        let mut p = phase();
        // Wait while another skip runs, and (once) behind those already waiting for one.
        let mut queued = false;
        while p.running > 0 && (p.skip != skip || (p.waiting > 0 && !queued)) {
            if !queued {
                p.waiting += 1;
                queued = true;
            }
            p = CHANGED.wait(p).unwrap_or_else(std::sync::PoisonError::into_inner);
        }
        if queued {
            p.waiting -= 1;
        }
        if p.skip != skip {
            rusty_zstd::set_lazy_accel_arm(skip);
            p.skip = skip;
        }
        p.running += 1;
    }
    let _leave = Leave;
    f()
}

/// Without `std` there are no threads to keep apart: the skip is set and `f` runs.
#[cfg(not(feature = "std"))]
pub(crate) fn with_skip<R>(skip: usize, f: impl FnOnce() -> R) -> R {
    rusty_zstd::set_lazy_accel_arm(skip);
    let r = f();
    rusty_zstd::set_lazy_accel_arm(CRATE_DEFAULT);
    r
}

#[cfg(all(test, feature = "std"))]
mod tests {
    use super::with_skip;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::{Arc, Barrier};

    /// Threads asking for two skips at once never run under each other's: each checks, while it
    /// runs, that no thread of the other skip is running.
    #[test]
    fn encodings_under_another_skip_never_overlap() {
        let running = Arc::new([AtomicUsize::new(0), AtomicUsize::new(0)]);
        let start = Arc::new(Barrier::new(8));
        let threads: Vec<_> = (0..8)
            .map(|t| {
                let (running, start) = (Arc::clone(&running), Arc::clone(&start));
                std::thread::spawn(move || {
                    start.wait();
                    for _ in 0..200 {
                        let mine = t % 2;
                        with_skip(8 + 4 * mine, || {
                            running[mine].fetch_add(1, Ordering::SeqCst);
                            std::thread::yield_now();
                            assert_eq!(running[1 - mine].load(Ordering::SeqCst), 0, "two skips at once");
                            running[mine].fetch_sub(1, Ordering::SeqCst);
                        });
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
    }

    /// Whenever no encoding runs, the crate's own setting is back (checked under the lock, so
    /// other tests encoding meanwhile cannot make it fail).
    #[test]
    fn the_crates_own_skip_is_back_when_no_encoding_runs() {
        for skip in [8, 12, 8] {
            assert_eq!(with_skip(skip, || super::phase().skip), skip);
            let p = super::phase();
            assert!(p.running > 0 || p.skip == super::CRATE_DEFAULT, "skip {} left set", p.skip);
        }
    }
}
