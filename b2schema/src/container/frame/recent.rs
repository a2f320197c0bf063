//! The last few values read, kept by key (a sparse frame's chunk files, a remote frame's chunk
//! tables): at most a fixed number, the oldest dropped first, shared by the reading threads.

use core::borrow::Borrow;
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};

use alloc::vec::Vec;

/// At most `most` values by key.
#[derive(Debug)]
pub(crate) struct Recent<K, V> {
    most: usize,
    items: Mutex<Vec<(K, V)>>,
    /// The keys a thread is making a value for ([`Recent::get_or_make`]), and the signal that
    /// one is done.
    making: Mutex<Vec<K>>,
    made: Condvar,
}

impl<K: PartialEq + Clone, V: Clone> Recent<K, V> {
    /// None yet, at most `most`.
    pub(crate) fn new(most: usize) -> Self {
        Recent { most, items: Mutex::new(Vec::new()), making: Mutex::new(Vec::new()), made: Condvar::new() }
    }

    /// The value kept for `key`.
    pub(crate) fn get<Q: PartialEq + ?Sized>(&self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
    {
        let items = self.items.lock().ok()?;
        items.iter().find(|(k, _)| k.borrow() == key).map(|(_, v)| v.clone())
    }

    /// Keeps `value` for `key` (unless one is kept already), dropping the oldest past the most.
    pub(crate) fn keep(&self, key: K, value: V) {
        if let Ok(mut items) = self.items.lock()
            && !items.iter().any(|(k, _)| *k == key)
        {
            if items.len() >= self.most {
                items.remove(0);
            }
            items.push((key, value));
        }
    }

    /// The value kept for `key`, or the one `make` gives, kept. Threads asking for one key at
    /// once make it once: the others wait for it (threads asking for other keys do not wait).
    /// A `make` that fails keeps nothing, and a waiting thread then makes it in turn.
    pub(crate) fn get_or_make<E>(&self, key: K, make: impl FnOnce() -> Result<V, E>) -> Result<V, E> {
        let mut making = lock(&self.making);
        loop {
            // Looked up with `making` held: a thread that made `key` kept it before it let go.
            if let Some(v) = self.get(&key) {
                return Ok(v);
            }
            if !making.contains(&key) {
                break;
            }
            making = self.made.wait(making).unwrap_or_else(PoisonError::into_inner);
        }
        making.push(key.clone());
        drop(making);
        // Taken off `making` however `make` ends, a panic included.
        let _done = Done { recent: self, key: &key };
        let value = make()?;
        self.keep(key.clone(), value.clone());
        Ok(value)
    }
}

/// Takes its key off [`Recent::making`] and wakes the waiting threads.
struct Done<'a, K: PartialEq, V> {
    recent: &'a Recent<K, V>,
    key: &'a K,
}

impl<K: PartialEq, V> Drop for Done<'_, K, V> {
    fn drop(&mut self) {
        lock(&self.recent.making).retain(|k| k != self.key);
        self.recent.made.notify_all();
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;

    #[test]
    fn threads_asking_for_one_key_make_it_once() {
        let recent: Recent<u32, u32> = Recent::new(4);
        let made = AtomicUsize::new(0);
        std::thread::scope(|s| {
            for _ in 0..8 {
                s.spawn(|| {
                    let v = recent.get_or_make(7, || {
                        made.fetch_add(1, Ordering::SeqCst);
                        std::thread::sleep(std::time::Duration::from_millis(20));
                        Ok::<_, ()>(49)
                    });
                    assert_eq!(v, Ok(49));
                });
            }
        });
        assert_eq!(made.load(Ordering::SeqCst), 1);
    }

    #[test]
    fn a_failed_make_keeps_nothing_and_the_next_caller_makes_it() {
        let recent: Recent<u32, u32> = Recent::new(4);
        assert_eq!(recent.get_or_make(1, || Err("no")), Err("no"));
        assert_eq!(recent.get(&1), None);
        assert_eq!(recent.get_or_make(1, || Ok::<_, &str>(2)), Ok(2));
        assert_eq!(recent.get_or_make(1, || Err("not called")), Ok(2));
    }

    #[test]
    fn the_oldest_is_dropped_past_the_most() {
        let recent: Recent<u32, u32> = Recent::new(2);
        for k in 0..3 {
            recent.keep(k, k * 10);
        }
        assert_eq!((recent.get(&0), recent.get(&1), recent.get(&2)), (None, Some(10), Some(20)));
    }
}
