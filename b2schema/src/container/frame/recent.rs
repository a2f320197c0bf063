//! The last few values read, kept by key (a sparse frame's chunk files, a remote frame's chunk
//! tables): at most a fixed number, the oldest dropped first, shared by the reading threads.

use core::borrow::Borrow;
use std::sync::Mutex;

use alloc::vec::Vec;

/// At most `most` values by key.
#[derive(Debug)]
pub(crate) struct Recent<K, V> {
    most: usize,
    items: Mutex<Vec<(K, V)>>,
}

impl<K: PartialEq, V: Clone> Recent<K, V> {
    /// None yet, at most `most`.
    pub(crate) fn new(most: usize) -> Self {
        Recent { most, items: Mutex::new(Vec::new()) }
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
}
