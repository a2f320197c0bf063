//! A CTable's live rows streamed band by band: every column (and its null mask, and
//! `/_valid_rows`) is read a band of rows at a time, so that what is held in memory depends on
//! the band (the largest chunk of the table's arrays along their rows, at most
//! [`MAX_BAND_ROWS`]) and a BatchArray column's current batch, never on the number of rows.
//! The schema's `n_rows` is checked against `/_valid_rows` first, band by band, before any row
//! is given.

use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;
use std::sync::Arc;

use super::batch::BatchArray;
use super::cells;
use super::ctable::{
    CTable, ColumnSpec, DICT_SUFFIX, NOTNULL_SUFFIX, UTF8_DATA_SUFFIX, VALID_ROWS_KEY, column_key,
};
use crate::container::array::{ArrayReader, ReadOptions, Selection};
use crate::container::error::{Error, Result, Segment};
use crate::container::frame::{ChunkInfo, FrameFile};
use crate::container::limits::{Limits, try_reserve};
use crate::container::store::Kind;
use crate::format::value::Value;

/// The most rows read at once.
pub const MAX_BAND_ROWS: u64 = 1 << 20;
/// The fewest rows read at once (unless the table has fewer).
const MIN_BAND_ROWS: u64 = 1024;

/// Where a column's cells come from.
enum Source {
    /// A fixed-width or `ndarray` column.
    Array(ArrayReader<'static>),
    /// A `utf8` column: its offsets and its bytes.
    Utf8 { offsets: ArrayReader<'static>, data: Box<ArrayReader<'static>> },
    /// A `dictionary` column: its codes, and its values (read whole: one per category).
    Dictionary { codes: ArrayReader<'static>, values: Vec<Value> },
    /// A BatchArray column: the batch being read, how far, and the row `pending[pos]` is.
    Batches { batches: BatchArray, next: usize, pending: Vec<Vec<u8>>, pos: usize, row: u64 },
    /// An ObjectArray column (one chunk a row).
    Objects { frame: FrameFile, chunks: Vec<ChunkInfo> },
}

/// One column being read in bands.
struct Column {
    spec: ColumnSpec,
    key: String,
    source: Source,
    mask: Option<ArrayReader<'static>>,
}

fn shared(store: &crate::container::store::Store, key: &str) -> Result<ArrayReader<'static>> {
    let f = store.open_member(key)?;
    ArrayReader::from_shared(Arc::new(f)).map_err(|e| e.in_segment(Segment::Key(key.into())))
}

/// Rows `a..b` of the array `r` (every other dimension whole), within `limits`; a shorter
/// array is an error that says how long it had to be.
fn read_rows(r: &ArrayReader<'_>, a: u64, b: u64, limits: &Limits) -> Result<Vec<u8>> {
    let shape = r.shape();
    let len = shape.first().copied().unwrap_or(0);
    if b > len {
        return Err(Error::invalid("a column as long as /_valid_rows, at least", b, len, 0));
    }
    let mut ranges = alloc::vec![a..b];
    ranges.extend(shape[1..].iter().map(|&d| 0..d));
    let sel = Selection::new(ranges, shape)?;
    let opts = ReadOptions::one_thread(limits.max_decompressed());
    Ok(r.read(&sel, &opts)?.0)
}

fn dtype_of(r: &ArrayReader<'_>) -> String {
    r.dtype().unwrap_or("").into()
}

impl Column {
    fn open(t: &CTable, spec: &ColumnSpec) -> Result<Self> {
        let store = t.store();
        let key = column_key(&spec.name);
        let source = match spec.kind.as_str() {
            "utf8" => Source::Utf8 {
                offsets: shared(store, &key)?,
                data: Box::new(shared(store, &alloc::format!("{key}{UTF8_DATA_SUFFIX}"))?),
            },
            "dictionary" => Source::Dictionary {
                codes: shared(store, &key)?,
                values: t.vl_cells(&alloc::format!("{key}{DICT_SUFFIX}"), "vlstring")?,
            },
            _ => match store.describe(&key)?.kind {
                Kind::NdArray => Source::Array(shared(store, &key)?),
                Kind::BatchArray | Kind::ObjectArray => {
                    let frame = store.open_member(&key)?;
                    let at = |e: Error| e.in_segment(Segment::Key(key.clone()));
                    // A ListArray stored "vl" has the listarray and vlarray metalayers.
                    let batches = frame.view().map_err(at)?.metalayer(super::batch::METALAYER).is_some();
                    if batches {
                        let batches = BatchArray::new(frame).map_err(at)?;
                        Source::Batches { batches, next: 0, pending: Vec::new(), pos: 0, row: 0 }
                    } else {
                        let chunks = frame.chunks().map_err(at)?;
                        Source::Objects { frame, chunks }
                    }
                }
                other => {
                    return Err(Error::invalid(
                        "a column b2schema reads: an NDArray, a BatchArray or an ObjectArray, not",
                        "ndarray, batcharray or objectarray",
                        alloc::format!("{} (column kind {})", other.name(), spec.kind),
                        0,
                    )
                    .in_segment(Segment::Key(key)));
                }
            },
        };
        let mask_key = alloc::format!("{key}{NOTNULL_SUFFIX}");
        let mask = if store.member(&mask_key).is_some() { Some(shared(store, &mask_key)?) } else { None };
        Ok(Column { spec: spec.clone(), key, source, mask })
    }

    /// The largest chunk of its arrays along the rows.
    fn chunk_rows(&self) -> u64 {
        let first = |r: &ArrayReader<'_>| r.chunks().first().copied().unwrap_or(0);
        let own = match &self.source {
            Source::Array(r) | Source::Utf8 { offsets: r, .. } | Source::Dictionary { codes: r, .. } => {
                first(r)
            }
            _ => 0,
        };
        own.max(self.mask.as_ref().map_or(0, first))
    }

    /// Its cells of rows `a..b` (bands asked for in order), nulls made [`Value::Nil`].
    fn cells(&mut self, a: u64, b: u64, limits: &Limits) -> Result<Vec<Value>> {
        let at = |e: Error| e.in_segment(Segment::Key(self.key.clone()));
        let spec = &self.spec;
        let mut out = match &mut self.source {
            Source::Array(r) => {
                let bytes = read_rows(r, a, b, limits).map_err(at)?;
                let dtype = dtype_of(r);
                if spec.kind == "ndarray" {
                    let mut shape = r.shape().to_vec();
                    shape[0] = b - a;
                    cells::nd_cells(spec, &dtype, &shape, &bytes)
                } else if r.shape().len() != 1 {
                    Err(Error::invalid("a column of one dimension", 1, r.shape().len(), 0).in_field("shape"))
                } else {
                    cells::fixed_cells(spec, &dtype, &bytes)
                }
                .map_err(|e| at(e.in_segment(Segment::Index(a as usize))))?
            }
            Source::Utf8 { offsets, data } => {
                if dtype_of(offsets) != "<i8" || dtype_of(data) != "|u1" {
                    return Err(at(Error::invalid(
                        "utf8 offsets <i8 and bytes |u1",
                        "<i8, |u1",
                        alloc::format!("{}, {}", dtype_of(offsets), dtype_of(data)),
                        0,
                    )
                    .in_field("dtype")));
                }
                let raw = read_rows(offsets, a, b + 1, limits).map_err(at)?;
                let offs: Vec<i64> =
                    raw.chunks_exact(8).map(|c| i64::from_le_bytes(c.try_into().expect("8 bytes"))).collect();
                let (first, last) = (offs[0], offs[offs.len() - 1]);
                let data_len = data.shape().first().copied().unwrap_or(0);
                let bad = (a == 0 && first != 0) || first < 0 || last < first || last as u64 > data_len;
                if bad {
                    return Err(at(Error::invalid(
                        "utf8 offsets that start at 0, never decrease and stay within its bytes",
                        alloc::format!("0..={data_len}"),
                        alloc::format!("{first}..{last}"),
                        0,
                    )
                    .in_segment(Segment::Index(a as usize))
                    .in_field("offsets")));
                }
                let text = read_rows(data, first as u64, last as u64, limits).map_err(at)?;
                let rebased: Vec<u8> = offs.iter().flat_map(|o| (o - first).to_le_bytes()).collect();
                cells::utf8_cells(spec, &rebased, &text).map_err(at)?
            }
            Source::Dictionary { codes, values } => {
                let bytes = read_rows(codes, a, b, limits).map_err(at)?;
                cells::dictionary_cells(spec, &bytes, values).map_err(at)?
            }
            Source::Batches { batches, next, pending, pos, row } => {
                if *row > a {
                    // Behind what was read: from the first batch again.
                    (*next, *pos, *row) = (0, 0, 0);
                    pending.clear();
                }
                let mut out = Vec::new();
                while *row < a || (out.len() as u64) < b - a {
                    if *pos == pending.len() {
                        if *next == batches.len() {
                            return Err(at(Error::invalid(
                                "a column as long as /_valid_rows, at least",
                                b,
                                a + out.len() as u64,
                                0,
                            )));
                        }
                        *pending = batches.raw_batch(*next).map_err(at)?;
                        *next += 1;
                        *pos = 0;
                        continue;
                    }
                    if *row < a {
                        // Rows before the band are skipped (decoded, never trusting
                        // `batch_lengths`), a batch at a time.
                        let skip =
                            (pending.len() - *pos).min(usize::try_from(a - *row).unwrap_or(usize::MAX));
                        *pos += skip;
                        *row += skip as u64;
                        continue;
                    }
                    let cell = cells::vl_cell(&spec.kind, &pending[*pos]);
                    out.push(cell.map_err(|e| at(e.in_segment(Segment::Index(*row as usize))))?);
                    *pos += 1;
                    *row += 1;
                }
                out
            }
            Source::Objects { frame, chunks } => {
                let mut out = Vec::new();
                for i in a..b {
                    let info = chunks.get(i as usize).ok_or_else(|| {
                        at(Error::invalid("a column as long as /_valid_rows, at least", b, chunks.len(), 0))
                    })?;
                    let max = usize::try_from(limits.max_decompressed()).unwrap_or(usize::MAX);
                    let bytes = frame.chunk_data(info, max).map_err(at)?;
                    let cell = cells::vl_cell(&spec.kind, &bytes);
                    out.push(cell.map_err(|e| at(e.in_segment(Segment::Index(i as usize))))?);
                }
                out
            }
        };
        if let Some(m) = &self.mask {
            let key = alloc::format!("{}{NOTNULL_SUFFIX}", self.key);
            let len = m.shape().first().copied().unwrap_or(0);
            if len < b {
                return Err(Error::invalid("a null mask as long as its column, at least", b, len, 0)
                    .in_segment(Segment::Key(key)));
            }
            let bits = read_rows(m, a, b, limits).map_err(|e| e.in_segment(Segment::Key(key)))?;
            for (c, &bit) in out.iter_mut().zip(&bits) {
                if bit == 0 {
                    *c = Value::Nil;
                }
            }
        }
        Ok(out)
    }
}

/// The most physical rows of a column read at once for [`CTable::live_rows`].
const PAGE_SPAN: u64 = 4096;

/// The specs of the columns `names` (all when `None`), the store's budget, and the reader of
/// `/_valid_rows`, checked to be a one-dimensional bool mask.
fn columns_and_valid_rows<'t>(
    table: &'t CTable,
    names: Option<&[&str]>,
) -> Result<(Vec<&'t ColumnSpec>, Limits, ArrayReader<'static>)> {
    let specs: Vec<&ColumnSpec> = match names {
        Some(n) => n.iter().map(|n| table.column_spec(n)).collect::<Result<_>>()?,
        None => table.columns().iter().collect(),
    };
    let limits = *table.store().limits();
    let valid = shared(table.store(), VALID_ROWS_KEY)?;
    if dtype_of(&valid) != "|b1" || valid.shape().len() != 1 {
        return Err(Error::invalid("a bool mask of live rows", "|b1", dtype_of(&valid), 0)
            .in_segment(Segment::Key(VALID_ROWS_KEY.into())));
    }
    Ok((specs, limits, valid))
}

impl CTable {
    /// The live rows `start..stop` (fewer at the table's end), one cell per column of `names`
    /// (all the columns when `None`), and the number of live rows in all: `/_valid_rows` is
    /// read a band at a time to find where those rows are, then only the rows that hold them
    /// are read of each column (the chunks and blocks that hold them, at most 4096 rows at
    /// once), so that memory follows the page, not the table. The
    /// schema's `n_rows` is checked as [`CTable::for_each_row`] checks it.
    pub fn live_rows(&self, names: Option<&[&str]>, start: u64, stop: u64) -> Result<(Vec<Vec<Value>>, u64)> {
        self.live_rows_where(names, |live| (start..stop).contains(&live))
    }

    /// The live rows numbered `at` (in any order, repeats allowed), in the order of `at`, one
    /// cell per column of `names` (all the columns when `None`), and the number of live rows in
    /// all: read as [`CTable::live_rows`] reads a page (`/_valid_rows` a band at a time, then
    /// only the rows that hold them), so that memory follows `at`, not the table. A number past
    /// the last live row is an error.
    pub fn live_rows_at(&self, names: Option<&[&str]>, at: &[u64]) -> Result<(Vec<Vec<Value>>, u64)> {
        let mut wanted: Vec<u64> = Vec::new();
        try_reserve(&mut wanted, at.len(), "the row numbers asked for", 0)?;
        wanted.extend_from_slice(at);
        wanted.sort_unstable();
        wanted.dedup();
        let (rows, live) = self.live_rows_where(names, |n| wanted.binary_search(&n).is_ok())?;
        if rows.len() != wanted.len() {
            let past = wanted.last().copied().unwrap_or(0);
            return Err(Error::invalid("live row numbers below", live, past, 0).in_field("rows"));
        }
        let rows = at.iter().filter_map(|n| wanted.binary_search(n).ok().and_then(|i| rows.get(i).cloned()));
        Ok((rows.collect(), live))
    }

    /// The live rows whose numbers `keep` says, in order, and the number of live rows in all.
    fn live_rows_where(
        &self,
        names: Option<&[&str]>,
        keep: impl Fn(u64) -> bool,
    ) -> Result<(Vec<Vec<Value>>, u64)> {
        let (specs, limits, valid) = columns_and_valid_rows(self, names)?;
        let total = valid.shape()[0];
        let band = valid.chunks().first().copied().unwrap_or(0).clamp(MIN_BAND_ROWS, MAX_BAND_ROWS);
        let at_valid = |e: Error| e.in_segment(Segment::Key(VALID_ROWS_KEY.into()));
        // Where the live rows start..stop are (at most stop - start physical rows kept).
        let mut wanted: Vec<u64> = Vec::new();
        let mut live = 0u64;
        for a in (0..total).step_by(band as usize) {
            let bits = read_rows(&valid, a, (a + band).min(total), &limits).map_err(at_valid)?;
            for (i, &bit) in bits.iter().enumerate() {
                if bit != 0 {
                    if keep(live) {
                        wanted.push(a + i as u64);
                    }
                    live += 1;
                }
            }
        }
        self.check_rows(live)?;
        let mut columns = specs.iter().map(|s| Column::open(self, s)).collect::<Result<Vec<_>>>()?;
        let mut rows: Vec<Vec<Value>> = Vec::new();
        let mut i = 0;
        while let Some(&a) = wanted.get(i) {
            // To the last wanted row within the span (rows apart are read apart, never the
            // rows between them).
            let j = wanted.partition_point(|&p| p < a.saturating_add(PAGE_SPAN));
            let b = wanted[j.max(i + 1) - 1] + 1;
            let mut span = Vec::new();
            for c in &mut columns {
                span.push(c.cells(a, b, &limits)?);
            }
            while let Some(&p) = wanted.get(i).filter(|&&p| p < b) {
                let at = (p - a) as usize;
                rows.push(span.iter().map(|cells| cells.get(at).cloned().unwrap_or(Value::Nil)).collect());
                i += 1;
            }
        }
        Ok((rows, live))
    }

    /// Calls `f` with each live row, in order (one cell per column of `names`, all the columns
    /// when `names` is `None`), reading every column a band of rows at a time (see the module
    /// documentation); returns the number of rows given. An error of `f` stops the walk.
    pub fn for_each_row(
        &self,
        names: Option<&[&str]>,
        mut f: impl FnMut(&[Value]) -> Result<()>,
    ) -> Result<u64> {
        let (specs, limits, valid) = columns_and_valid_rows(self, names)?;
        let mut columns = specs.iter().map(|s| Column::open(self, s)).collect::<Result<Vec<_>>>()?;
        let total = valid.shape()[0];
        let widest = columns.iter().map(Column::chunk_rows).fold(valid.chunks()[0], u64::max);
        let band = widest.clamp(MIN_BAND_ROWS, MAX_BAND_ROWS);
        let at_valid = |e: Error| e.in_segment(Segment::Key(VALID_ROWS_KEY.into()));
        // The live rows counted first, so that a schema that lies is an error before any row.
        let mut live = 0u64;
        for a in (0..total).step_by(band as usize) {
            let bits = read_rows(&valid, a, (a + band).min(total), &limits).map_err(at_valid)?;
            live += bits.iter().filter(|&&v| v != 0).count() as u64;
        }
        self.check_rows(live)?;
        let mut given = 0u64;
        for a in (0..total).step_by(band as usize) {
            let b = (a + band).min(total);
            let bits = read_rows(&valid, a, b, &limits).map_err(at_valid)?;
            if bits.iter().all(|&bit| bit == 0) {
                // No live row: the columns' cells there are never read (a dictionary column's
                // codes past its last row name no value while its dictionary is empty).
                continue;
            }
            let mut band_cells = Vec::new();
            for c in &mut columns {
                band_cells.push(c.cells(a, b, &limits)?.into_iter());
            }
            let mut row = Vec::new();
            for &bit in &bits {
                row.clear();
                for cells in &mut band_cells {
                    row.push(cells.next().unwrap_or(Value::Nil));
                }
                if bit != 0 {
                    f(&row)?;
                    given += 1;
                }
            }
        }
        Ok(given)
    }
}

/// The live cells of a CTable's columns, a band of physical rows at a time, pulled by the
/// caller ([`CTable::for_each_row`] pushes them): what [`super::ArrowReader`] reads.
#[cfg_attr(not(feature = "arrow"), allow(dead_code))]
pub(super) struct Bands {
    columns: Vec<Column>,
    valid: ArrayReader<'static>,
    limits: Limits,
    /// Where the bands end (the table's rows, or the end of the rows asked for).
    total: u64,
    band: u64,
    next: u64,
    live: u64,
}

#[cfg_attr(not(feature = "arrow"), allow(dead_code))]
impl Bands {
    /// The bands of the columns `specs` of `t` over the physical rows `within` (`None`: all,
    /// and the schema's `n_rows` checked against `/_valid_rows` first, as
    /// [`CTable::for_each_row`] checks it; `Some((a, b))`: rows `a..b`, cut at the table's end,
    /// and only their part of `/_valid_rows` read and counted).
    pub(super) fn open(t: &CTable, specs: &[&ColumnSpec], within: Option<(u64, u64)>) -> Result<Self> {
        let limits = *t.store().limits();
        let valid = shared(t.store(), VALID_ROWS_KEY)?;
        if dtype_of(&valid) != "|b1" || valid.shape().len() != 1 {
            return Err(Error::invalid("a bool mask of live rows", "|b1", dtype_of(&valid), 0)
                .in_segment(Segment::Key(VALID_ROWS_KEY.into())));
        }
        let columns = specs.iter().map(|s| Column::open(t, s)).collect::<Result<Vec<_>>>()?;
        let rows = valid.shape()[0];
        let (first, total) = match within {
            None => (0, rows),
            Some((a, b)) => (a.min(rows), b.min(rows).max(a.min(rows))),
        };
        let widest = columns.iter().map(Column::chunk_rows).fold(valid.chunks()[0], u64::max);
        let band = widest.clamp(MIN_BAND_ROWS, MAX_BAND_ROWS);
        let mut live = 0u64;
        for a in (first..total).step_by(band as usize) {
            let bits = read_rows(&valid, a, (a + band).min(total), &limits)
                .map_err(|e| e.in_segment(Segment::Key(VALID_ROWS_KEY.into())))?;
            live += bits.iter().filter(|&&v| v != 0).count() as u64;
        }
        if within.is_none() {
            t.check_rows(live)?;
        }
        Ok(Bands { columns, valid, limits, total, band, next: first, live })
    }

    /// The next band of physical rows: where it starts and `/_valid_rows` over it (one byte a
    /// row, 0 for a deleted row), or `None` at the end.
    pub(super) fn next_valid(&mut self) -> Result<Option<(u64, Vec<u8>)>> {
        if self.next >= self.total {
            return Ok(None);
        }
        let (a, b) = (self.next, (self.next + self.band).min(self.total));
        self.next = b;
        let bits = read_rows(&self.valid, a, b, &self.limits)
            .map_err(|e| e.in_segment(Segment::Key(VALID_ROWS_KEY.into())))?;
        Ok(Some((a, bits)))
    }

    /// The cells of the physical rows `a..b` of column `i` (rows asked for in order), nulls
    /// made [`Value::Nil`]; a column shorter than `b` is an error that names it.
    pub(super) fn cells(&mut self, i: usize, a: u64, b: u64) -> Result<Vec<Value>> {
        let c = &mut self.columns[i];
        let cells = c.cells(a, b, &self.limits)?;
        if (cells.len() as u64) < b - a {
            return Err(Error::invalid(
                "a column as long as /_valid_rows, at least",
                b,
                a + cells.len() as u64,
                0,
            )
            .in_segment(Segment::Key(c.key.clone())));
        }
        Ok(cells)
    }

    /// Column `i`'s array and its null mask, when it is an NDArray (a fixed-width or `ndarray`
    /// column), with its store key.
    pub(super) fn array(
        &self,
        i: usize,
    ) -> Option<(&ArrayReader<'static>, Option<&ArrayReader<'static>>, &str)> {
        let c = &self.columns[i];
        match &c.source {
            Source::Array(r) => Some((r, c.mask.as_ref(), c.key.as_str())),
            _ => None,
        }
    }

    /// The store's budget.
    pub(super) fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The number of live rows.
    pub(super) fn live(&self) -> u64 {
        self.live
    }
}
