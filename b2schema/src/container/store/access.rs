//! A store as python-blosc2 shows it: `store[key]` ([`Store::get`]), its keys without the store's
//! own metadata member, its groups, and its vlmeta (`store.vlmeta`, kept by python-blosc2 in the
//! member `/__vlmeta__`).

use alloc::string::String;
use alloc::vec::Vec;

use super::Store;
use crate::container::error::{Error, Result, Segment};
use crate::container::handle::Container;
use crate::format::value::Value;

/// The key of the member in which python-blosc2 keeps a store's own vlmeta (an SChunk whose
/// vlmetalayers are the store's).
pub const VLMETA_KEY: &str = "/__vlmeta__";

impl Store {
    /// The member `key` as a [`Container`] (an array or an SChunk), as python-blosc2's
    /// `store[key]` gives it; errors name the store and the key.
    ///
    /// ```
    /// # use b2schema::writer::Array;
    /// # use b2schema::store::{Flavour, StoreWriter};
    /// # let dir = std::env::temp_dir().join(format!("b2schema-doc-get-{}", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// # let path = dir.join("climate.b2z");
    /// # let temps = Array::from_slice(&[2, 3], &[1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0])?.to_vec()?;
    /// # let mut w = StoreWriter::new(Flavour::Tree);
    /// # w.insert("/fields/temp", temps)?;
    /// # w.write_zip(&path)?;
    /// let store = b2schema::store::Store::open(&path)?;
    /// let temp = store.get("/fields/temp")?; // python: ts["/fields/temp"]
    /// assert_eq!(temp.read_as::<f32>("1")?, [4.0, 5.0, 6.0]);
    /// assert_eq!(store.keys().collect::<Vec<_>>(), ["/fields/temp"]);
    /// assert_eq!(store.groups(), ["/fields"]);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn get(&self, key: &str) -> Result<Container> {
        let at = |e: Error| self.name_member(e, key);
        Container::from_frame(self.open_member(key).map_err(at)?).map(|c| c.in_member(key)).map_err(at)
    }

    /// The keys of the members (arrays, SChunks and other frames), sorted, as
    /// [`Store::members`] lists them.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.members().iter().map(|m| m.key.as_str())
    }

    /// The groups of the keys (every `/a` and `/a/b` above a key `/a/b/c`), sorted, as a
    /// TreeStore lists them beside its arrays.
    pub fn groups(&self) -> Vec<String> {
        let mut groups: Vec<String> = Vec::new();
        for key in self.keys() {
            let mut end = 0;
            while let Some(i) = key[end + 1..].find('/') {
                end += 1 + i;
                groups.push(String::from(&key[..end]));
            }
        }
        groups.sort_unstable();
        groups.dedup();
        groups
    }

    /// The store's own vlmeta (python-blosc2's `store.vlmeta`), decoded, in the order stored;
    /// empty when the store has none.
    pub fn vlmeta(&self) -> Result<Vec<(String, Value)>> {
        match self.vlmeta_container()? {
            Some(c) => c.vlmeta(),
            None => Ok(Vec::new()),
        }
    }

    /// The store's vlmeta `name` as a `T` (`None` when there is none), as python-blosc2's
    /// `store.vlmeta[name]` reads it.
    pub fn vlmeta_as<T: serde_core::de::DeserializeOwned>(&self, name: &str) -> Result<Option<T>> {
        match self.vlmeta_container()? {
            Some(c) => c.get(name),
            None => Ok(None),
        }
    }

    fn vlmeta_container(&self) -> Result<Option<Container>> {
        if self.member(VLMETA_KEY).is_none() {
            return Ok(None);
        }
        self.get(VLMETA_KEY).map(Some)
    }

    /// `e` about member `key` of this store: the store's path as the file, the key as the first
    /// segment of the field path (once).
    fn name_member(&self, e: Error, key: &str) -> Error {
        let named = matches!(e.path().next(), Some(Segment::Key(k)) if k == key);
        let e = if named { e } else { e.in_segment(Segment::Key(key.into())) };
        if e.file().is_some() { e } else { e.in_file(self.path().display()) }
    }
}
