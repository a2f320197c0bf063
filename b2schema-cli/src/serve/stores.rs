//! The viewer's stores: a python-blosc2 store (`.b2z`, or a `.b2d` directory) listed as a
//! folder of its members, and a CTable in one shown as a table, a page of live rows at a time.

use std::path::Path;

use b2schema::Limits;
use b2schema::store::{CTable, Place, Store};
use serde_json::{Value, json};

/// The most rows one page of a table holds.
pub const MAX_PAGE: usize = 200;

/// Whether `path` is a store the viewer shows as a folder.
pub fn is_store(path: &Path) -> bool {
    crate::kind::is_store(path, Limits::default())
}

/// The store at `path` (a path, or a URL given as a root).
fn open(path: &Path) -> b2schema::Result<Store> {
    crate::kind::open_store(path, Limits::default())
}

/// The length of the store file at `path` (a URL root), 0 when it does not open.
pub fn file_len(path: &Path) -> u64 {
    open(path).ok().and_then(|s| s.file_len()).unwrap_or(0)
}

/// What the file list says of a store: its kind (`store`, or `CTable` when it holds one) and
/// member count.
pub fn summary(path: &Path) -> serde_json::Map<String, Value> {
    let mut m = serde_json::Map::new();
    match open(path) {
        Ok(s) => {
            let table = crate::table::is_table(&s);
            m.insert("kind".into(), json!(if table { "CTable" } else { "store" }));
            m.insert("members".into(), json!(s.members().len()));
        }
        Err(e) => {
            m.insert("error".into(), json!(e.to_string()));
        }
    }
    m
}

/// `/api/store`: the store's form and members (key, kind, shape, dtype, and for a member file
/// of a `.b2d` its path under the store, which the file page opens), and a CTable's schema.
pub fn store_json(path: &Path) -> Result<Value, String> {
    let store = open(path).map_err(|e| e.to_string())?;
    let members: Vec<Value> = store
        .members()
        .iter()
        .map(|m| {
            let mut v = json!({ "key": m.key });
            if let Place::File(p) = &m.place
                && let Ok(rel) = p.strip_prefix(store.path())
            {
                v["file"] = json!(rel.to_string_lossy().replace('\\', "/"));
            }
            match store.describe(&m.key) {
                Ok(d) => {
                    v["kind"] = json!(d.kind.name());
                    v["shape"] = json!(d.shape);
                    v["dtype"] = json!(d.dtype);
                }
                Err(e) => v["error"] = json!(e.to_string()),
            }
            v
        })
        .collect();
    // A member that leaves the roots refuses the whole answer (403), as `/api/file` does.
    if let Some(e) =
        members.iter().filter_map(|m| m["error"].as_str()).find(|e| e.contains(b2schema::frame::OUTSIDE))
    {
        return Err(e.to_string());
    }
    let mut out = json!({ "form": store.form().name(), "members": members });
    if crate::table::is_table(&store) {
        out["table"] = match CTable::new(store) {
            Ok(t) => json!({
                "columns": t.columns().iter().map(|c| json!({ "name": c.name, "kind": c.kind, "nullable": c.nullable })).collect::<Vec<_>>(),
                "n_rows": t.n_rows().ok(),
            }),
            Err(e) => json!({ "error": e.to_string() }),
        };
    }
    Ok(out)
}

/// `/api/table`: live rows `offset..offset + limit` (at most [`MAX_PAGE`]) of the CTable at
/// `path`, values as `cat` writes them. Only the rows of the page are read of each column
/// ([`CTable::live_rows`]): memory follows the page, never the table.
pub fn table_page(path: &Path, offset: usize, limit: usize) -> Result<Value, String> {
    let t = open(path).and_then(CTable::new).map_err(|e| e.to_string())?;
    let start = offset as u64;
    let stop = start.saturating_add(limit.min(MAX_PAGE) as u64);
    let (rows, n_rows) = t.live_rows(None, start, stop).map_err(|e| e.to_string())?;
    let page: Vec<Value> = rows.iter().map(|r| r.iter().map(crate::table::value_json).collect()).collect();
    let columns: Vec<&str> = t.columns().iter().map(|c| c.name.as_str()).collect();
    Ok(json!({ "columns": columns, "n_rows": n_rows, "offset": offset, "rows": page }))
}
