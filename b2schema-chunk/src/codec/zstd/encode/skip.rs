//! `rusty_zstd`'s skip over literal runs is one value for the whole process (its hidden
//! `set_lazy_accel_arm`, read by its lazy finders at each block). [`with_skip`] runs an encoding
//! with a given skip and keeps its frame independent of other threads: encodings that want the
//! same skip run side by side; one that wants another waits until those have finished (and
//! those that come after it wait for it), so no block is ever encoded under another call's skip.

/// Runs `f` with `rusty_zstd`'s skip set to `skip`, with no encoding under another skip running
/// meanwhile in this process.
#[cfg(feature = "std")]
pub(crate) fn with_skip<R>(skip: usize, f: impl FnOnce() -> R) -> R {
    use std::sync::{Condvar, Mutex};
    /// The skip set, the encodings running under it, and the encodings waiting for another.
    struct Phase {
        skip: usize,
        running: usize,
        waiting: usize,
    }
    static PHASE: Mutex<Phase> = Mutex::new(Phase { skip: 0, running: 0, waiting: 0 });
    static CHANGED: Condvar = Condvar::new();
    /// Leaves the phase when the encoding ends, a panic included.
    struct Leave;
    impl Drop for Leave {
        fn drop(&mut self) {
            let mut p = PHASE.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            p.running -= 1;
            if p.running == 0 {
                CHANGED.notify_all();
            }
        }
    }
    {
        let mut p = PHASE.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
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
    f()
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
}
