//! A CTable's live rows sorted by one column, a page at a time, on the server: the column alone
//! is read first (every live row's cell, as a [`Key`]), the row numbers sorted by it (stable,
//! nulls last whichever the direction), then only the rows of the page are read
//! ([`CTable::live_rows_at`]). Bounded: a table of more than [`MAX_SORT_ROWS`] physical rows is
//! refused before anything is read, and the keys may hold at most [`MAX_KEY_BYTES`] (a column of
//! long strings is refused, saying so, when its keys outgrow it). The last [`CACHED`] orders
//! made (row numbers, 8 bytes a row) are kept for the next pages, each for the file as it was
//! (its length and modification time, and those of a `.b2d`'s files); a table whose live rows
//! changed in between is sorted again.

use super::no_answer::NoAnswer;
use std::cmp::Ordering;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use b2schema::Value;
use b2schema::table::{CTable, VALID_ROWS_KEY};

/// The most physical rows (`/_valid_rows`) of a table the viewer sorts.
pub const MAX_SORT_ROWS: u64 = 1 << 20;
/// The most bytes the sort keys of one request may hold.
pub const MAX_KEY_BYTES: u64 = 64 << 20;

/// What a cell sorts by: numbers by value (integers and floats together), then strings, bytes,
/// anything else by its JSON; nulls (and NaN) last.
#[derive(Debug, Clone, PartialEq)]
pub enum Key {
    /// `false` before `true`.
    Bool(bool),
    /// An integer.
    Int(i128),
    /// A float (NaN sorts as a null).
    Float(f64),
    /// A string.
    Str(String),
    /// Bytes.
    Bin(Vec<u8>),
    /// Anything else, by its JSON text.
    Other(String),
    /// A null.
    Null,
}

impl Key {
    /// The key of cell `v`.
    pub fn of(v: &Value) -> Key {
        match v {
            Value::Nil => Key::Null,
            Value::Bool(b) => Key::Bool(*b),
            Value::Int(i) => Key::Int(*i),
            Value::F32(f) if f.is_nan() => Key::Null,
            Value::F64(f) if f.is_nan() => Key::Null,
            Value::F32(f) => Key::Float(f64::from(*f)),
            Value::F64(f) => Key::Float(*f),
            Value::Str(s) => Key::Str(s.clone()),
            Value::Bin(b) => Key::Bin(b.clone()),
            other => Key::Other(crate::table::value_json(other).to_string()),
        }
    }

    /// Bytes it holds beyond its own size.
    fn heap(&self) -> u64 {
        match self {
            Key::Str(s) | Key::Other(s) => s.len() as u64,
            Key::Bin(b) => b.len() as u64,
            _ => 0,
        }
    }

    fn rank(&self) -> u8 {
        match self {
            Key::Bool(_) => 0,
            Key::Int(_) | Key::Float(_) => 1,
            Key::Str(_) => 2,
            Key::Bin(_) => 3,
            Key::Other(_) => 4,
            Key::Null => 5,
        }
    }

    /// The order of two non-null keys (ascending).
    fn cmp_values(&self, other: &Key) -> Ordering {
        match (self, other) {
            (Key::Bool(a), Key::Bool(b)) => a.cmp(b),
            (Key::Int(a), Key::Int(b)) => a.cmp(b),
            (Key::Float(a), Key::Float(b)) => a.total_cmp(b),
            (Key::Int(a), Key::Float(b)) => (*a as f64).total_cmp(b),
            (Key::Float(a), Key::Int(b)) => a.total_cmp(&(*b as f64)),
            (Key::Str(a), Key::Str(b)) | (Key::Other(a), Key::Other(b)) => a.cmp(b),
            (Key::Bin(a), Key::Bin(b)) => a.cmp(b),
            _ => self.rank().cmp(&other.rank()),
        }
    }
}

/// The live row numbers `0..n` ordered by `keys` (stable; `descending` reverses the values, nulls
/// stay last).
pub fn order(keys: &[Key], descending: bool) -> Vec<u64> {
    let mut idx: Vec<u64> = (0..keys.len() as u64).collect();
    idx.sort_by(|&a, &b| {
        let (ka, kb) = (&keys[a as usize], &keys[b as usize]);
        match (ka == &Key::Null, kb == &Key::Null) {
            (true, true) => Ordering::Equal,
            (true, false) => Ordering::Greater,
            (false, true) => Ordering::Less,
            _ if descending => kb.cmp_values(ka),
            _ => ka.cmp_values(kb),
        }
    });
    idx
}

/// Live rows `offset..offset + limit` of `t` in the order of column `column` (`descending`
/// reversed), one cell per column, and the number of live rows; within `max_rows` physical rows
/// and `max_key_bytes` of keys.
pub fn sorted_rows(
    t: &CTable,
    column: &str,
    descending: bool,
    offset: u64,
    limit: u64,
    max_rows: u64,
    max_key_bytes: u64,
) -> Result<(Vec<Vec<Value>>, u64), NoAnswer> {
    let spec = t.column_spec(column)?;
    let physical = t.store().describe(VALID_ROWS_KEY)?.shape.and_then(|s| s.first().copied()).unwrap_or(0);
    if physical < 0 || physical as u64 > max_rows {
        return Err(format!(
            "sorting a table of {physical} rows, over the viewer's budget of {max_rows} rows (page it unsorted)"
        ).into());
    }
    let name = spec.name.clone();
    let stamp = stamp(t.store().path());
    let wanted = |o: &Cached| {
        stamp.is_some()
            && o.stamp == stamp
            && o.path == t.store().path()
            && o.column == name
            && o.descending == descending
    };
    let cached = cache().iter().find(|o| wanted(o)).map(|o| Arc::clone(&o.order));
    let sorted = match cached {
        Some(o) => o,
        None => {
            let o = Arc::new(order(&keys(t, &name, max_rows, max_key_bytes)?, descending));
            let mut c = cache();
            c.retain(|o| !wanted(o));
            if c.len() >= CACHED {
                c.remove(0);
            }
            let path = t.store().path().to_path_buf();
            c.push(Cached { path, column: name.clone(), descending, stamp, order: Arc::clone(&o) });
            o
        }
    };
    let n = sorted.len() as u64;
    let start = offset.min(n) as usize;
    let stop = offset.saturating_add(limit).min(n) as usize;
    let (rows, live) = t.live_rows_at(None, &sorted[start..stop])?;
    if live != n {
        cache().retain(|o| !wanted(o));
        return Err(
            format!("the table changed while it was sorted ({n} rows, then {live}): ask again").into()
        );
    }
    Ok((rows, n))
}

/// Every live row's key of column `name`, within the budget.
fn keys(t: &CTable, name: &str, max_rows: u64, max_key_bytes: u64) -> Result<Vec<Key>, NoAnswer> {
    let mut keys: Vec<Key> = Vec::new();
    let mut bytes = 0u64;
    let over =
        |what: String| b2schema::Error::invalid("a sort within the viewer's budget", what.clone(), what, 0);
    t.for_each_row(Some(&[name]), |row| {
        let k = Key::of(row.first().unwrap_or(&Value::Nil));
        bytes = bytes.saturating_add(k.heap() + std::mem::size_of::<Key>() as u64);
        if bytes > max_key_bytes {
            return Err(over(format!("sort keys of {max_key_bytes} bytes at most")));
        }
        if keys.len() as u64 >= max_rows {
            return Err(over(format!("{max_rows} rows at most")));
        }
        keys.push(k);
        Ok(())
    })?;
    Ok(keys)
}

/// Orders kept.
pub const CACHED: usize = 4;

/// An order made, and for what.
struct Cached {
    path: PathBuf,
    column: String,
    descending: bool,
    stamp: Option<u64>,
    order: Arc<Vec<u64>>,
}

fn cache() -> std::sync::MutexGuard<'static, Vec<Cached>> {
    static CACHE: Mutex<Vec<Cached>> = Mutex::new(Vec::new());
    CACHE.lock().unwrap_or_else(|p| p.into_inner())
}

/// What the store's files are now (lengths and modification times, of a file, or of the files
/// of a `.b2d` and of its `_cols`, at most 100,000 entries); `None` for a URL or what cannot be
/// read (then nothing is kept).
fn stamp(path: &Path) -> Option<u64> {
    use std::hash::{Hash, Hasher};
    if crate::open::is_url(path) {
        return None;
    }
    let mut h = std::collections::hash_map::DefaultHasher::new();
    let mut one = |p: &Path| -> Option<()> {
        let m = std::fs::metadata(p).ok()?;
        (p, m.len(), m.modified().ok()?).hash(&mut h);
        Some(())
    };
    one(path)?;
    if path.is_dir() {
        let mut files = Vec::new();
        for dir in [path.to_path_buf(), path.join("_cols")] {
            let Ok(rd) = std::fs::read_dir(&dir) else { continue };
            for e in rd.take(100_000) {
                files.push(e.ok()?.path());
            }
        }
        files.sort();
        for f in &files {
            one(f)?;
        }
    }
    Some(h.finish())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nulls_last_both_ways_and_numbers_together() {
        let keys = vec![
            Key::of(&Value::from(3i64)),
            Key::Null,
            Key::of(&Value::from(1.5f64)),
            Key::of(&Value::F64(f64::NAN)),
            Key::of(&Value::from(-2i64)),
            Key::of(&Value::from(3i64)),
        ];
        assert_eq!(order(&keys, false), [4, 2, 0, 5, 1, 3]);
        assert_eq!(order(&keys, true), [0, 5, 2, 4, 1, 3]);
        let s: Vec<Key> = ["b", "a", "c"].iter().map(|s| Key::of(&Value::from(*s))).collect();
        assert_eq!(order(&s, false), [1, 0, 2]);
    }

    #[test]
    fn a_sort_over_its_budget_is_refused_saying_which() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/tables/table.b2d");
        let t = CTable::open(&path).unwrap();
        let (rows, n) = sorted_rows(&t, "x", true, 0, 2, 100, 1 << 20).unwrap();
        assert_eq!((rows.len(), n), (2, 6));
        assert_eq!(rows[0][1], Value::F64(3.0));
        // /_valid_rows has 7 rows: over a budget of 6.
        let e = sorted_rows(&t, "x", false, 0, 2, 6, 1 << 20).unwrap_err();
        assert_eq!(e.status, 422, "{e}");
        assert!(e.why.contains("over the viewer's budget of 6 rows"), "{e}");
        // Keys of more bytes than allowed (each key counts its size and its string).
        let e = sorted_rows(&t, "name", false, 0, 2, 100, 100).unwrap_err();
        assert!(e.why.contains("sort keys of 100 bytes at most"), "{e}");
    }
}
