//! The file list's entries of remote roots (`http://` URLs), made off the request path: each by
//! a thread of its own, which `/api/files` waits for at most [`WAIT`] (all roots at once); a
//! root that has not answered by then is listed as pending, so a server that never answers
//! delays the list by [`WAIT`] at most and never blocks it. An entry is kept [`FRESH`], then
//! made again in the background while the one before is shown.

use std::collections::HashMap;
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;

/// The longest `/api/files` waits for the remote roots' entries.
pub const WAIT: Duration = Duration::from_secs(3);
/// How long an entry is shown before it is made again.
pub const FRESH: Duration = Duration::from_secs(30);

/// What makes one root's entry (and may block).
pub type Make = Box<dyn FnOnce() -> Value + Send>;

/// A remote entry: its root's number and its path under the root (empty for a root that is a
/// URL of one file; an object store's prefix has many).
pub type Key = (usize, String);

#[derive(Default)]
struct Slot {
    value: Option<Value>,
    made: Option<Instant>,
    running: bool,
}

/// The remote roots' entries, by root number.
#[derive(Default)]
pub struct Listings(Arc<(Mutex<HashMap<Key, Slot>>, Condvar)>);

impl std::fmt::Debug for Listings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Listings")
    }
}

impl Listings {
    /// The entries of `roots` (key, and how to make its entry, which may block): each made
    /// by its own thread when missing or stale, waited for until [`WAIT`] from now, then the
    /// latest made, or `pending(key)` for one that has none yet.
    pub fn entries(&self, roots: Vec<(Key, Make)>, pending: impl Fn(&Key) -> Value) -> Vec<Value> {
        let (lock, ready) = &*self.0;
        let numbers: Vec<Key> = roots.iter().map(|(n, _)| n.clone()).collect();
        {
            let mut slots = lock.lock().unwrap_or_else(|p| p.into_inner());
            for (n, make) in roots {
                let slot = slots.entry(n.clone()).or_default();
                let stale = slot.made.is_none_or(|t| t.elapsed() >= FRESH);
                if slot.running || !stale {
                    continue;
                }
                slot.running = true;
                let shared = Arc::clone(&self.0);
                let spawned =
                    std::thread::Builder::new().name(format!("remote-root-{}", n.0)).spawn(move || {
                        let v = make();
                        let (lock, ready) = &*shared;
                        let mut slots = lock.lock().unwrap_or_else(|p| p.into_inner());
                        let slot = slots.entry(n).or_default();
                        (slot.value, slot.made, slot.running) = (Some(v), Some(Instant::now()), false);
                        ready.notify_all();
                    });
                if spawned.is_err() {
                    slot.running = false;
                }
            }
        }
        let deadline = Instant::now() + WAIT;
        let mut slots = lock.lock().unwrap_or_else(|p| p.into_inner());
        loop {
            let all = numbers.iter().all(|n| slots.get(n).is_some_and(|s| s.value.is_some()));
            let left = deadline.saturating_duration_since(Instant::now());
            if all || left.is_zero() {
                break;
            }
            slots = ready.wait_timeout(slots, left).unwrap_or_else(|p| p.into_inner()).0;
        }
        numbers
            .iter()
            .map(|n| slots.get(n).and_then(|s| s.value.clone()).unwrap_or_else(|| pending(n)))
            .collect()
    }
}
