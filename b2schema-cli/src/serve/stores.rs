//! The viewer's stores: a python-blosc2 store (`.b2z`, `.b2e`, or a `.b2d` directory) listed as a
//! folder of its members, each of which opens on a frame's page ([`open_member`]); its vlmeta
//! shown as values; and a CTable in one shown as a table, a page of live rows at a time, in the
//! stored order or sorted by a column ([`super::sort`]).

use super::no_answer::NoAnswer;
use std::path::Path;

use b2schema::Limits;
use b2schema::frame::FrameFile;
use b2schema::store::{Place, Store};
use b2schema::table::CTable;
use serde::Serialize;

use super::shown::{self, Shown};

/// The most rows one page of a table holds.
pub const MAX_PAGE: usize = 200;
/// The most cells one page of a table holds (fewer rows for a table of many columns).
pub const MAX_PAGE_CELLS: usize = 20_000;
/// The member in which python-blosc2 keeps a CTable's own vlmeta (`t.vlmeta`, `t.attrs`).
pub const TABLE_VLMETA_KEY: &str = "/_vlmeta";

/// Whether `path` is a store the viewer shows as a folder.
pub fn is_store(path: &Path) -> bool {
    crate::kind::is_store(path, Limits::default())
}

/// The store at `path` (a path, or a URL given as a root).
pub fn open(path: &Path) -> b2schema::Result<Store> {
    crate::kind::open_store(path, Limits::default())
}

/// The frame of member `key` of the store at `path`, read in place (a ZIP member's window, a
/// `.b2d`'s file, or the embed store's bytes of it), within `limits`.
pub fn open_member(path: &Path, key: &str, limits: Limits) -> b2schema::Result<FrameFile> {
    crate::kind::open_store(path, limits)?.open_member(key)
}

/// The length of the store file at `path` (a URL root), 0 when it does not open.
pub fn file_len(path: &Path) -> u64 {
    open(path).ok().and_then(|s| s.file_len()).unwrap_or(0)
}

/// What the file list says of a store.
#[derive(Serialize)]
#[serde(untagged)]
pub enum Summary {
    /// It opened: its kind (`store`, or `CTable` when it holds one) and member count.
    Opened {
        /// `store` or `CTable`.
        kind: &'static str,
        /// How many members it has.
        members: usize,
    },
    /// Why it did not.
    Failed {
        /// The library's error.
        error: String,
    },
}

/// What the file list says of the store at `path`.
pub fn summary(path: &Path) -> Summary {
    match open(path) {
        Ok(s) => Summary::Opened {
            kind: if crate::input::is_table(&s) { "CTable" } else { "store" },
            members: s.members().len(),
        },
        Err(e) => Summary::Failed { error: e.to_string() },
    }
}

/// `/api/store`: the store's form and members (key, kind, shape, dtype, codec, and for a member
/// file of a `.b2d` its path under the store), its vlmeta as values, and a CTable's schema
/// (each column's name, kind, nullability and whole spec) and vlmeta.
pub fn store_json(store: Store) -> Result<StoreAnswer, NoAnswer> {
    let mut members = Vec::new();
    for m in store.members() {
        let file = match &m.place {
            Place::File(p) => p.strip_prefix(store.path()).ok().map(super::paths::rel_string),
            _ => None,
        };
        let described = match store.describe(&m.key) {
            Ok(d) => Described::Frame {
                kind: d.kind.name(),
                shape: d.shape,
                dtype: d.dtype,
                codec: d.codec.to_string(),
                nbytes: d.nbytes,
            },
            // A member that leaves the roots refuses the whole answer (403), as `/api/file` does.
            Err(e) if matches!(e.kind(), b2schema::ErrorKind::Confined { .. }) => return Err(e.into()),
            Err(e) => Described::Failed { error: e.to_string() },
        };
        members.push(MemberLine { key: m.key.clone(), file, described });
    }
    let (form, vlmeta) = (store.form().name(), vlmeta_json(store.vlmeta()));
    let table = crate::input::is_table(&store).then(|| {
        let vlmeta = match store.member(TABLE_VLMETA_KEY) {
            Some(_) => vlmeta_json(store.get(TABLE_VLMETA_KEY).and_then(|c| c.vlmeta())),
            None => Vlmeta::Shown(Vec::new()),
        };
        match CTable::new(store) {
            Ok(t) => Table::Opened {
                columns: t
                    .columns()
                    .iter()
                    .map(|c| Column {
                        name: c.name.clone(),
                        kind: c.kind.clone(),
                        nullable: c.nullable,
                        spec: shown::value(&c.spec),
                    })
                    .collect(),
                n_rows: t.n_rows().ok(),
                vlmeta,
            },
            Err(e) => Table::Failed { error: e.to_string() },
        }
    });
    Ok(StoreAnswer { form, members, vlmeta, table })
}

/// `/api/store`'s answer.
#[derive(Serialize)]
pub struct StoreAnswer {
    /// `.b2z`, `.b2d` or `.b2e`, in words.
    form: &'static str,
    /// Each member.
    members: Vec<MemberLine>,
    /// The store's vlmeta.
    vlmeta: Vlmeta,
    /// The CTable it holds (a `/_meta` member).
    #[serde(skip_serializing_if = "Option::is_none")]
    table: Option<Table>,
}

/// A CTable's schema and vlmeta in `/api/store`'s answer, or why it does not open.
#[derive(Serialize)]
#[serde(untagged)]
enum Table {
    Opened { columns: Vec<Column>, n_rows: Option<u64>, vlmeta: Vlmeta },
    Failed { error: String },
}

/// One column of a CTable's schema: its name, kind, nullability and whole spec.
#[derive(Serialize)]
struct Column {
    name: String,
    kind: String,
    nullable: bool,
    spec: Shown,
}

/// A vlmeta as `[{name, value}]` (values cut, see [`shown`]), or `{"error": why}`.
#[derive(Serialize)]
#[serde(untagged)]
enum Vlmeta {
    Shown(Vec<shown::Named>),
    Failed { error: String },
}

/// One member in `/api/store`'s answer: its key, its file under a `.b2d`, and what it is.
#[derive(Serialize)]
struct MemberLine {
    key: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    file: Option<String>,
    #[serde(flatten)]
    described: Described,
}

/// What a member is, or why it cannot be told.
#[derive(Serialize)]
#[serde(untagged)]
enum Described {
    Frame { kind: &'static str, shape: Option<Vec<i64>>, dtype: Option<String>, codec: String, nbytes: i64 },
    Failed { error: String },
}

/// A vlmeta as `/api/store` shows it.
fn vlmeta_json(v: b2schema::Result<Vec<(String, b2schema::Value)>>) -> Vlmeta {
    match v {
        Ok(entries) => Vlmeta::Shown(shown::named(&entries)),
        Err(e) => Vlmeta::Failed { error: e.to_string() },
    }
}

/// How a table page is ordered: by the stored order, or by a column.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Order {
    /// The column sorted by.
    pub column: String,
    /// Largest first.
    pub descending: bool,
}

/// `/api/table`: live rows `offset..offset + limit` (at most [`MAX_PAGE`], and at most
/// [`MAX_PAGE_CELLS`] cells) of the CTable in `store`, in the stored order or in `order`'s, values
/// as `cat` writes them, each cut to [`shown::MAX_VALUE_CHARS`]. Unsorted, only the rows of the
/// page are read of each column ([`CTable::live_rows`]): memory follows the page, never the
/// table; sorted, see [`super::sort`].
pub fn table_page(
    store: Store,
    offset: usize,
    limit: usize,
    order: Option<&Order>,
) -> Result<TablePage, NoAnswer> {
    let t = CTable::new(store)?;
    let ncols = t.columns().len().max(1);
    let limit = limit.min(MAX_PAGE).min((MAX_PAGE_CELLS / ncols).max(1));
    let start = offset as u64;
    let stop = start.saturating_add(limit as u64);
    let (rows, n_rows) = match order {
        None => t.live_rows(None, start, stop)?,
        Some(o) => super::sort::sorted_rows(
            &t,
            &o.column,
            o.descending,
            start,
            limit as u64,
            super::sort::MAX_SORT_ROWS,
            super::sort::MAX_KEY_BYTES,
        )?,
    };
    let rows = rows.iter().map(|r| r.iter().map(shown::value).collect()).collect();
    let columns = t.columns().iter().map(|c| c.name.clone()).collect();
    Ok(TablePage { columns, n_rows, offset, limit, rows, sort: order.cloned() })
}

/// `/api/table`'s answer: a page of live rows.
#[derive(Serialize)]
pub struct TablePage {
    /// The columns' names, in the schema's order.
    columns: Vec<String>,
    /// The live rows in all.
    n_rows: u64,
    /// The first row shown.
    offset: usize,
    /// The most rows of the page.
    limit: usize,
    /// The rows shown, each a value per column.
    rows: Vec<Vec<Shown>>,
    /// The order, when sorted.
    #[serde(skip_serializing_if = "Option::is_none")]
    sort: Option<Order>,
}
