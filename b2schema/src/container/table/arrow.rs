//! A CTable's live rows as Arrow `RecordBatch`es (feature `arrow`): [`ArrowReader`].

use alloc::boxed::Box;
use alloc::string::{String, ToString};
use alloc::sync::Arc;
use alloc::vec::Vec;
use std::collections::HashMap;

use arrow_array::builder::StringDictionaryBuilder;
use arrow_array::types::{
    Float32Type, Float64Type, Int8Type, Int16Type, Int32Type, Int64Type, TimestampMicrosecondType,
    TimestampMillisecondType, TimestampNanosecondType, TimestampSecondType, UInt8Type, UInt16Type,
    UInt32Type, UInt64Type,
};
use arrow_array::{
    ArrayRef, ArrowPrimitiveType, BooleanArray, LargeBinaryArray, LargeStringArray, PrimitiveArray,
    RecordBatch, RecordBatchOptions, RecordBatchReader, StringArray,
};
use arrow_buffer::{BooleanBuffer, NullBuffer};
use arrow_schema::{ArrowError, DataType, Field, Fields, Schema, SchemaRef, TimeUnit};

use super::CTable;
use super::arrow_fixed::{Fixed, FixedBuf};
use super::ctable::{CTABLE_META_KEY, ColumnSpec, join_path, split_path};
use super::rows::Bands;
use crate::container::array::ReadOptions;
use crate::container::error::{Error, Result, Segment};
use crate::format::value::Cursor;
use crate::format::value::Value;

/// The key of the Arrow schema's metadata that holds the CTable's schema JSON.
pub const ARROW_SCHEMA_KEY: &str = "b2schema.ctable.schema";

/// A CTable's live rows as Arrow `RecordBatch`es (feature `arrow`): [`CTable::arrow_reader`]
/// gives an [`ArrowReader`], arrow's `RecordBatchReader`, over the chosen columns (only their
/// members are read), in batches of as many rows as the caller asks (the last one shorter),
/// the deleted rows left out and the nulls (masks and sentinels) made Arrow nulls. The columns
/// are read a band of rows at a time (as [`CTable::for_each_row`] reads them), so memory follows
/// the band and the batch, not the table.
///
/// The Arrow types are python-blosc2's own (`CTable.to_arrow()`, 4.14):
///
/// | column kind | Arrow type |
/// | --- | --- |
/// | `int8` .. `int64`, `uint8` .. `uint64`, `float32`, `float64`, `bool` | the primitive of that name |
/// | `string` (`<U`), `vlstring` | `Utf8` |
/// | `utf8` (offsets and bytes) | `LargeUtf8` |
/// | `bytes` (`\|S`), `vlbytes` | `LargeBinary` |
/// | `timestamp` | `Timestamp` with the schema's `unit` (and `timezone`) |
/// | `dictionary` | `Dictionary<Int32, Utf8>` |
/// | `ndarray` | `FixedSizeList` of its dtype, the row's items flattened, the field's metadata `blosc2:ndarray_shape` its `item_shape` (`[2, 3]`) |
/// | `list` | `List` of its item's type (items nullable), a null row a null list |
/// | `struct` | `Struct` of its fields' types, in the schema's order (each nullable), a null row a null struct |
/// | a struct written as its leaves (`trip.lon`, `trip.lat`, ... and the schema's `struct_parents`, as python-blosc2's `from_arrow` writes an Arrow struct) | one `Struct` column (`trip`) where its first leaf is, each field the type its spec gives it, null where every leaf is |
///
/// Fixed-width columns (the numbers, `bool`, `timestamp`, `ndarray`) are decoded straight into
/// the batch's Arrow buffer on [`ArrowReader::threads`] threads, the deleted rows squeezed out
/// in place; the other kinds are read cell by cell.
///
/// The other kinds (`complex64`, `complex128`, `object`) are
/// refused by [`CTable::arrow_reader`] with an error that names the column and its kind. The
/// Arrow schema's metadata holds the CTable's schema JSON at [`ARROW_SCHEMA_KEY`]. An error of
/// ours met while reading is `ArrowError::ExternalError` holding the [`crate::Error`].
///
/// ```
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// # let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/tables/table.b2d");
/// use arrow_array::{Array, Float64Array, RecordBatchReader};
/// use b2schema::table::CTable;
///
/// let table = CTable::open(&path)?;
/// let reader = table.arrow_reader(Some(&["id", "x"]), 4)?;   // 2 columns, 4 rows a batch
/// assert_eq!(reader.schema().fields().len(), 2);
/// let batches = reader.collect::<Result<Vec<_>, _>>()?;
/// assert_eq!(batches.iter().map(|b| b.num_rows()).collect::<Vec<_>>(), [4, 2]);
/// let x = batches[0].column(1).as_any().downcast_ref::<Float64Array>().unwrap();
/// assert_eq!(x.value(1), 1.0);                                // row 1 was deleted
/// # Ok(())
/// # }
/// ```
pub struct ArrowReader {
    bands: Bands,
    /// The table's columns read (a struct's leaves among them), and the Arrow type each is read as.
    specs: Vec<ColumnSpec>,
    types: Vec<DataType>,
    /// The batches' columns, made of those.
    outs: Vec<Out>,
    /// Each column's fast way (fixed-width columns), or `None`: its cells one by one.
    fixed: Vec<Option<Fixed>>,
    schema: SchemaRef,
    batch_rows: usize,
    nthreads: usize,
    /// The band of physical rows being read: its first row, its `/_valid_rows`, how far.
    band_start: u64,
    bits: Vec<u8>,
    pos: usize,
    /// Live rows not yet passed.
    live_left: u64,
    /// Live rows still to skip before the first one given, and how many to give at most.
    skip: u64,
    left: u64,
    done: bool,
}

/// A column of the batches: a column of the table (the index of its spec), or a struct
/// python-blosc2's `from_arrow` wrote as its leaves (its fields, and each one's column or struct).
enum Out {
    Leaf(usize),
    Struct(Fields, Vec<Out>),
}

/// One column of a batch being filled.
enum Part {
    Fixed(FixedBuf),
    Cells(Vec<Value>),
}

impl core::fmt::Debug for ArrowReader {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ArrowReader")
            .field("schema", &self.schema)
            .field("batch_rows", &self.batch_rows)
            .finish()
    }
}

impl CTable {
    /// An Arrow `RecordBatchReader` over the live rows of the columns `names` (all of them when
    /// `None`), in the order given, `batch_rows` rows a batch (at least 1): see the
    /// [`ArrowReader`]. A column of a kind without an Arrow type
    /// here is an error that names it; so is a schema whose `n_rows` lies.
    pub fn arrow_reader(&self, names: Option<&[&str]>, batch_rows: usize) -> Result<ArrowReader> {
        self.arrow_reader_of(names, batch_rows, None)
    }

    /// [`CTable::arrow_reader`] over the live rows among the physical rows `a..b` only (rows
    /// of `/_valid_rows`, deleted ones included; cut at the table's end): the reader of one
    /// part of a scan split by physical rows, as `b2schema-datafusion` splits it at the chunks
    /// of `/_valid_rows`. Only that part of `/_valid_rows` is read (so the schema's `n_rows`
    /// is not checked: [`CTable::arrow_reader`] checks it); [`ArrowReader::rows`] then numbers
    /// the live rows from `a`.
    ///
    /// ```
    /// # fn main() -> Result<(), b2schema::Error> {
    /// # let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/tables/table.b2d");
    /// use b2schema::table::CTable;
    ///
    /// let table = CTable::open(&path)?;                  // 7 rows written, row 1 deleted
    /// let rows = |r: b2schema::table::ArrowReader| r.map(|b| b.unwrap().num_rows()).sum::<usize>();
    /// assert_eq!(rows(table.arrow_reader_within(None, 100, 0, 3)?), 2); // rows 0 and 2
    /// assert_eq!(rows(table.arrow_reader_within(None, 100, 3, 100)?), 4);
    /// # Ok(())
    /// # }
    /// ```
    pub fn arrow_reader_within(
        &self,
        names: Option<&[&str]>,
        batch_rows: usize,
        a: u64,
        b: u64,
    ) -> Result<ArrowReader> {
        self.arrow_reader_of(names, batch_rows, Some((a, b)))
    }

    fn arrow_reader_of(
        &self,
        names: Option<&[&str]>,
        batch_rows: usize,
        within: Option<(u64, u64)>,
    ) -> Result<ArrowReader> {
        if batch_rows == 0 {
            return Err(Error::invalid("a batch of at least one row", ">= 1", 0, 0).in_field("batch_rows"));
        }
        let names: Vec<&str> = match names {
            Some(n) => n.to_vec(),
            None => self.output_names(),
        };
        let (mut specs, mut types, mut outs) = (Vec::new(), Vec::new(), Vec::new());
        let mut fields = Vec::with_capacity(names.len());
        for name in names {
            let (field, out) = self.out_of(name, &mut specs, &mut types)?;
            fields.push(field);
            outs.push(out);
        }
        let meta = self.store().open_member(CTABLE_META_KEY)?;
        let text = match meta.vlmeta_data("schema")? {
            Some(b) => Cursor::new(&b).str()?.to_string(),
            None => String::new(),
        };
        let schema =
            Arc::new(Schema::new_with_metadata(fields, HashMap::from([(ARROW_SCHEMA_KEY.into(), text)])));
        let bands = Bands::open(self, &specs, within)?;
        let fixed = (0..specs.len())
            .map(|i| bands.array(i).and_then(|(r, _, _)| Fixed::new(specs[i], &types[i], r)))
            .collect();
        let live_left = bands.live();
        Ok(ArrowReader {
            bands,
            specs: specs.into_iter().cloned().collect(),
            types,
            outs,
            fixed,
            schema,
            batch_rows,
            nthreads: ReadOptions::default().nthreads,
            band_start: 0,
            bits: Vec::new(),
            pos: 0,
            live_left,
            skip: 0,
            left: u64::MAX,
            done: false,
        })
    }
}

impl CTable {
    /// The columns [`CTable::arrow_reader`] gives (of all of them), in order, as
    /// python-blosc2's `to_arrow()` names them: the table's, the leaves of each struct of
    /// [`CTable::struct_parents`] replaced by the struct, where its first leaf is. A column of a
    /// kind without an Arrow type is among them: [`CTable::arrow_field`] says why.
    pub fn arrow_columns(&self) -> Vec<&str> {
        self.output_names()
    }

    /// The Arrow field column `name` (one of [`CTable::arrow_columns`]) is read as, or the
    /// error [`CTable::arrow_reader`] gives for it (a kind without an Arrow type, named).
    pub fn arrow_field(&self, name: &str) -> Result<Field> {
        Ok(self.out_of(name, &mut Vec::new(), &mut Vec::new())?.0)
    }

    /// Column `name`'s field and how it is made: its leaves' specs and types pushed.
    fn out_of<'a>(
        &'a self,
        name: &str,
        specs: &mut Vec<&'a ColumnSpec>,
        types: &mut Vec<DataType>,
    ) -> Result<(Field, Out)> {
        let out = match self.struct_parents().iter().find(|(p, _)| p == name) {
            Some((_, spec)) if self.column_spec(name).is_err() => {
                self.parent_out(name, spec, specs, types, 0)?
            }
            _ => {
                let s = self.column_spec(name)?;
                specs.push(s);
                types.push(arrow_type(s)?);
                Out::Leaf(specs.len() - 1)
            }
        };
        let mut field = Field::new(name, out_type(&out, types), true);
        if let Out::Leaf(i) = out
            && specs[i].kind == "ndarray"
        {
            // python-blosc2's field metadata: the shape of a row, as `json.dumps` writes it.
            let shape = super::cells::item_shape(specs[i]).iter().map(u64::to_string).collect::<Vec<_>>();
            field = field.with_metadata(HashMap::from([(
                String::from("blosc2:ndarray_shape"),
                alloc::format!("[{}]", shape.join(", ")),
            )]));
        }
        Ok((field, out))
    }

    fn output_names(&self) -> Vec<&str> {
        let mut names: Vec<&str> = self.columns().iter().map(|c| c.name.as_str()).collect();
        let mut parents: Vec<&str> = self
            .struct_parents()
            .iter()
            .map(|(p, _)| p.as_str())
            .filter(|p| self.column_spec(p).is_err())
            .collect();
        parents.sort_by_key(|p| core::cmp::Reverse(p.len()));
        for p in parents {
            let pp = split_path(p);
            let under = |n: &str| {
                let np = split_path(n);
                np.len() > pp.len() && np[..pp.len()] == pp[..]
            };
            let Some(first) = names.iter().position(|n| under(n)) else { continue };
            names.retain(|n| !under(n));
            names.insert(first, p);
        }
        names
    }

    /// The struct `name` of spec `spec` written as its leaves: its leaves' specs and types pushed
    /// (each read as the type of its field in `spec`), `depth` structs deep.
    fn parent_out<'a>(
        &'a self,
        name: &str,
        spec: &Value,
        specs: &mut Vec<&'a ColumnSpec>,
        types: &mut Vec<DataType>,
        depth: usize,
    ) -> Result<Out> {
        let at = |e: Error| e.in_segment(Segment::Key(name.into())).in_field("struct_parents");
        if depth >= MAX_NESTING {
            return Err(at(Error::invalid("structs nested at most", MAX_NESTING, "deeper", 0)));
        }
        let DataType::Struct(fields) = type_of("struct", spec, depth).map_err(at)? else {
            return Err(at(Error::invalid("a struct's spec", "struct", "other", 0)));
        };
        let raw = spec.get("fields").and_then(Value::as_slice).unwrap_or_default();
        let mut outs = Vec::with_capacity(fields.len());
        for (f, raw) in fields.iter().zip(raw) {
            let mut parts = split_path(name);
            parts.push(f.name().clone());
            let leaf = join_path(&parts);
            outs.push(match (f.data_type(), self.column_spec(&leaf)) {
                (DataType::Struct(_), Err(_)) => self.parent_out(&leaf, raw, specs, types, depth + 1)?,
                (dt, s) => {
                    specs.push(s.map_err(at)?);
                    types.push(dt.clone());
                    Out::Leaf(specs.len() - 1)
                }
            });
        }
        Ok(Out::Struct(fields, outs))
    }
}

/// The Arrow type of `out`.
fn out_type(out: &Out, types: &[DataType]) -> DataType {
    match out {
        Out::Leaf(i) => types[*i].clone(),
        Out::Struct(fields, _) => DataType::Struct(fields.clone()),
    }
}

/// The array of `out` from the arrays of the columns read (`specs` theirs), as python-blosc2's
/// `to_arrow()` gives a struct it wrote as its leaves: null in the rows where every leaf is
/// (`top`, the column's struct; a `list` leaf never counts as null there, as python-blosc2's
/// null channel of a list says), a struct inside it never null.
fn assemble(out: &Out, arrays: &[ArrayRef], specs: &[ColumnSpec], top: bool) -> Result<ArrayRef> {
    match out {
        Out::Leaf(i) => Ok(arrays[*i].clone()),
        Out::Struct(fields, outs) => {
            let children =
                outs.iter().map(|o| assemble(o, arrays, specs, false)).collect::<Result<Vec<_>>>()?;
            let nulls = if top { any_leaf(out, arrays, specs) } else { None };
            let s = arrow_array::StructArray::try_new(fields.clone(), children, nulls)
                .map_err(|e| Error::invalid("a struct array of its leaves", "", e.to_string(), 0))?;
            Ok(Arc::new(s))
        }
    }
}

/// The rows where some leaf of `out` holds a value (`None`: every row).
fn any_leaf(out: &Out, arrays: &[ArrayRef], specs: &[ColumnSpec]) -> Option<NullBuffer> {
    match out {
        Out::Leaf(i) if specs[*i].kind == "list" => None,
        Out::Leaf(i) => arrays[*i].logical_nulls(),
        Out::Struct(_, outs) => {
            let mut acc: Option<BooleanBuffer> = None;
            for o in outs {
                let n = any_leaf(o, arrays, specs)?;
                acc = Some(match acc {
                    Some(a) => &a | n.inner(),
                    None => n.inner().clone(),
                });
            }
            acc.map(NullBuffer::new).filter(|n| n.null_count() > 0)
        }
    }
}

impl ArrowReader {
    /// Only the live rows `start..stop` (fewer at the table's end); the rows before `start`
    /// are still read, a band at a time, to be counted.
    pub fn rows(mut self, start: u64, stop: u64) -> Self {
        self.skip = start;
        self.left = stop.saturating_sub(start);
        self
    }

    /// Decodes the fixed-width columns on `n` threads (at least 1; default: the available
    /// cores).
    pub fn threads(mut self, n: usize) -> Self {
        self.nthreads = n.max(1);
        self
    }

    /// The next batch, or `None` at the end: the physical rows that hold its live rows are
    /// read, a run at a time, of each column (a fixed-width column straight into the batch's
    /// buffer).
    fn next_batch(&mut self) -> Result<Option<RecordBatch>> {
        let want =
            (self.batch_rows as u64).min(self.left).min(self.live_left.saturating_sub(self.skip)) as usize;
        if self.done || want == 0 {
            self.done = true;
            return Ok(None);
        }
        let limits = *self.bands.limits();
        let opts =
            ReadOptions { nthreads: self.nthreads, ..ReadOptions::one_thread(limits.max_decompressed()) };
        let mut parts = Vec::with_capacity(self.specs.len());
        for (f, s) in self.fixed.iter().zip(&self.specs) {
            parts.push(match f {
                Some(f) => Part::Fixed(f.start(want, s.nullable, &limits).map_err(|e| at(s, e))?),
                None => Part::Cells(Vec::new()),
            });
        }
        let mut got = 0usize;
        while got < want {
            if self.pos == self.bits.len() {
                match self.bands.next_valid()? {
                    Some((a, bits)) => (self.band_start, self.bits, self.pos) = (a, bits, 0),
                    None => break,
                }
                continue;
            }
            let bits = &self.bits;
            let mut pos = self.pos;
            while pos < bits.len() && bits[pos] == 0 {
                pos += 1;
            }
            if self.skip > 0 {
                while pos < bits.len() && self.skip > 0 {
                    if bits[pos] != 0 {
                        self.skip -= 1;
                        self.live_left -= 1;
                    }
                    pos += 1;
                }
                self.pos = pos;
                continue;
            }
            // The rest of the band when it holds no more live rows than wanted (counted a
            // word at a time), else up to the last live row wanted.
            let (mut q, mut live) = (bits.len(), bits[pos..].iter().filter(|&&b| b != 0).count());
            if live > want - got {
                (q, live) = (pos, 0);
                while q < bits.len() && live < want - got {
                    live += usize::from(bits[q] != 0);
                    q += 1;
                }
            }
            self.pos = q;
            if live == 0 {
                continue;
            }
            let (a, b) = (self.band_start + pos as u64, self.band_start + q as u64);
            let run = &self.bits[pos..q];
            for (i, part) in parts.iter_mut().enumerate() {
                match part {
                    Part::Fixed(buf) => {
                        let spec = &self.specs[i];
                        let missing = || {
                            at(spec, Error::invalid("a fixed-width column's array", "an NDArray", "none", 0))
                        };
                        let f = self.fixed[i].as_ref().ok_or_else(missing)?;
                        let (r, mask, key) = self.bands.array(i).ok_or_else(missing)?;
                        f.append(buf, r, mask, a, b, run, &opts, key)?;
                    }
                    Part::Cells(v) => {
                        let cells = self.bands.cells(i, a, b)?;
                        v.extend(cells.into_iter().zip(run).filter(|(_, bit)| **bit != 0).map(|(c, _)| c));
                    }
                }
            }
            got += live;
            self.live_left -= live as u64;
        }
        if got == 0 {
            self.done = true;
            return Ok(None);
        }
        let mut arrays: Vec<ArrayRef> = Vec::with_capacity(self.specs.len());
        for (i, part) in parts.into_iter().enumerate() {
            let (spec, dt) = (&self.specs[i], &self.types[i]);
            arrays.push(match (part, &self.fixed[i]) {
                (Part::Fixed(buf), Some(f)) => f.finish(buf, dt).map_err(|e| at(spec, e))?,
                (Part::Cells(cells), _) => build(spec, dt, cells)?,
                (Part::Fixed(_), None) => {
                    return Err(at(spec, Error::invalid("a fixed-width column", "one", "none", 0)));
                }
            });
        }
        let arrays =
            self.outs.iter().map(|o| assemble(o, &arrays, &self.specs, true)).collect::<Result<Vec<_>>>()?;
        self.left -= got as u64;
        let opts = RecordBatchOptions::new().with_row_count(Some(got));
        RecordBatch::try_new_with_options(self.schema.clone(), arrays, &opts).map(Some).map_err(|e| {
            Error::invalid("a record batch of the table's columns", "equal lengths", e.to_string(), 0)
        })
    }
}

impl Iterator for ArrowReader {
    type Item = core::result::Result<RecordBatch, ArrowError>;

    fn next(&mut self) -> Option<Self::Item> {
        match self.next_batch() {
            Ok(b) => b.map(Ok),
            Err(e) => {
                // One error, then the end.
                self.done = true;
                self.left = 0;
                Some(Err(ArrowError::ExternalError(Box::new(e))))
            }
        }
    }
}

impl RecordBatchReader for ArrowReader {
    fn schema(&self) -> SchemaRef {
        self.schema.clone()
    }
}

/// The Arrow type of column `spec`, or an error naming it and its kind.
fn arrow_type(spec: &ColumnSpec) -> Result<DataType> {
    type_of(&spec.kind, &spec.spec, 0).map_err(|e| at(spec, e))
}

/// How deep lists and structs may nest in a column's spec.
const MAX_NESTING: usize = 16;

/// The Arrow type of a column of kind `kind` and spec `s` (the schema's object for the column,
/// a list's `item` or a struct's field), or an error naming the field; `depth` lists and
/// structs deep.
fn type_of(kind: &str, s: &Value, depth: usize) -> Result<DataType> {
    Ok(match kind {
        "int8" => DataType::Int8,
        "int16" => DataType::Int16,
        "int32" => DataType::Int32,
        "int64" => DataType::Int64,
        "uint8" => DataType::UInt8,
        "uint16" => DataType::UInt16,
        "uint32" => DataType::UInt32,
        "uint64" => DataType::UInt64,
        "float32" => DataType::Float32,
        "float64" => DataType::Float64,
        "bool" => DataType::Boolean,
        "string" | "vlstring" => DataType::Utf8,
        "utf8" => DataType::LargeUtf8,
        "bytes" | "vlbytes" => DataType::LargeBinary,
        "dictionary" => DataType::Dictionary(Box::new(DataType::Int32), Box::new(DataType::Utf8)),
        "timestamp" => {
            let unit = match s.get("unit").and_then(Value::as_str).unwrap_or("ns") {
                "s" => TimeUnit::Second,
                "ms" => TimeUnit::Millisecond,
                "us" => TimeUnit::Microsecond,
                "ns" => TimeUnit::Nanosecond,
                other => {
                    return Err(Error::invalid(
                        "a timestamp unit",
                        "s, ms, us or ns",
                        other.escape_debug(),
                        0,
                    )
                    .in_field("unit"));
                }
            };
            let tz = s.get("timezone").and_then(Value::as_str).map(Arc::from);
            DataType::Timestamp(unit, tz)
        }
        "ndarray" => {
            let dtype = s.get("dtype_str").and_then(Value::as_str).unwrap_or("");
            let item = match dtype {
                "|i1" | "<i1" => DataType::Int8,
                "<i2" => DataType::Int16,
                "<i4" => DataType::Int32,
                "<i8" => DataType::Int64,
                "|u1" | "<u1" => DataType::UInt8,
                "<u2" => DataType::UInt16,
                "<u4" => DataType::UInt32,
                "<u8" => DataType::UInt64,
                "<f4" => DataType::Float32,
                "<f8" => DataType::Float64,
                "|b1" => DataType::Boolean,
                other => {
                    return Err(Error::invalid(
                        "an ndarray column of little-endian numbers or bools",
                        "<i8, <f8, |b1 ...",
                        other.escape_debug(),
                        0,
                    )
                    .in_field("dtype_str"));
                }
            };
            let shape: Vec<u64> = s
                .get("item_shape")
                .and_then(Value::as_slice)
                .map(|v| v.iter().filter_map(Value::as_u64).collect())
                .unwrap_or_default();
            let size =
                shape.iter().try_fold(1u64, |a, &d| a.checked_mul(d)).and_then(|n| i32::try_from(n).ok());
            let Some(size) = size.filter(|&n| n > 0) else {
                return Err(Error::invalid(
                    "an ndarray row of 1 to 2^31 - 1 items",
                    "item_shape",
                    alloc::format!("{shape:?}"),
                    0,
                )
                .in_field("item_shape"));
            };
            DataType::FixedSizeList(Arc::new(Field::new("item", item, true)), size)
        }
        "list" | "struct" if depth >= MAX_NESTING => {
            return Err(Error::invalid("lists and structs nested at most", MAX_NESTING, "deeper", 0));
        }
        "list" => {
            let item =
                s.get("item").ok_or_else(|| Error::invalid("a list's item spec", "item", "none", 0))?;
            let t = type_of(kind_of(item).map_err(|e| e.in_field("item"))?, item, depth + 1)
                .map_err(|e| e.in_field("item"))?;
            DataType::List(Arc::new(Field::new("item", t, true)))
        }
        "struct" => {
            let fields = s
                .get("fields")
                .and_then(Value::as_slice)
                .ok_or_else(|| Error::invalid("a struct's fields", "a list", "none", 0).in_field("fields"))?;
            let mut out = Vec::with_capacity(fields.len());
            for (i, f) in fields.iter().enumerate() {
                let at_field = |e: Error| e.in_segment(Segment::Index(i)).in_field("fields");
                let name = f
                    .get("name")
                    .and_then(Value::as_str)
                    .ok_or_else(|| at_field(Error::invalid("a field's name", "text", "none", 0)))?;
                let t = type_of(kind_of(f).map_err(at_field)?, f, depth + 1).map_err(at_field)?;
                out.push(Field::new(name, t, true));
            }
            DataType::Struct(Fields::from(out))
        }
        other => {
            return Err(Error::invalid(
                "a column kind with an Arrow type here (numbers, bool, strings, bytes, timestamp, dictionary, ndarray, list, struct)",
                "not complex or object",
                other.escape_debug(),
                0,
            )
            .in_field("kind"));
        }
    })
}

/// The `kind` of a nested spec.
fn kind_of(s: &Value) -> Result<&str> {
    s.get("kind").and_then(Value::as_str).ok_or_else(|| Error::invalid("a spec's kind", "text", "none", 0))
}

fn at(spec: &ColumnSpec, e: Error) -> Error {
    e.in_segment(Segment::Key(super::column_key(&spec.name)))
}

/// The Arrow array of `cells` (one column's, nulls as [`Value::Nil`]) of type `dt`.
fn build(spec: &ColumnSpec, dt: &DataType, cells: Vec<Value>) -> Result<ArrayRef> {
    build_as(&spec.kind, dt, cells).map_err(|e| at(spec, e))
}

/// [`build`] of cells of kind `kind` (for the error), the column not yet named.
fn build_as(kind: &str, dt: &DataType, cells: Vec<Value>) -> Result<ArrayRef> {
    let bad = |i: usize, v: &Value| {
        Error::invalid("a cell of the column's kind", kind.escape_debug(), alloc::format!("{v:?}"), 0)
            .in_segment(Segment::Index(i))
    };
    fn ints<T: ArrowPrimitiveType>(
        cells: &[Value],
        bad: impl Fn(usize, &Value) -> Error,
    ) -> Result<PrimitiveArray<T>>
    where
        T::Native: TryFrom<i128>,
    {
        let mut out = Vec::with_capacity(cells.len());
        for (i, v) in cells.iter().enumerate() {
            out.push(match v {
                Value::Nil => None,
                Value::Int(n) => Some(T::Native::try_from(*n).map_err(|_| bad(i, v))?),
                _ => return Err(bad(i, v)),
            });
        }
        Ok(PrimitiveArray::from_iter(out))
    }
    let strs = |cells: &[Value]| -> Result<Vec<Option<String>>> {
        cells
            .iter()
            .enumerate()
            .map(|(i, v)| match v {
                Value::Nil => Ok(None),
                Value::Str(s) => Ok(Some(s.clone())),
                _ => Err(bad(i, v)),
            })
            .collect()
    };
    Ok(match dt {
        DataType::Int8 => Arc::new(ints::<Int8Type>(&cells, bad)?),
        DataType::Int16 => Arc::new(ints::<Int16Type>(&cells, bad)?),
        DataType::Int32 => Arc::new(ints::<Int32Type>(&cells, bad)?),
        DataType::Int64 => Arc::new(ints::<Int64Type>(&cells, bad)?),
        DataType::UInt8 => Arc::new(ints::<UInt8Type>(&cells, bad)?),
        DataType::UInt16 => Arc::new(ints::<UInt16Type>(&cells, bad)?),
        DataType::UInt32 => Arc::new(ints::<UInt32Type>(&cells, bad)?),
        DataType::UInt64 => Arc::new(ints::<UInt64Type>(&cells, bad)?),
        DataType::Timestamp(unit, tz) => {
            let tz = tz.clone();
            match unit {
                TimeUnit::Second => Arc::new(ints::<TimestampSecondType>(&cells, bad)?.with_timezone_opt(tz)),
                TimeUnit::Millisecond => {
                    Arc::new(ints::<TimestampMillisecondType>(&cells, bad)?.with_timezone_opt(tz))
                }
                TimeUnit::Microsecond => {
                    Arc::new(ints::<TimestampMicrosecondType>(&cells, bad)?.with_timezone_opt(tz))
                }
                TimeUnit::Nanosecond => {
                    Arc::new(ints::<TimestampNanosecondType>(&cells, bad)?.with_timezone_opt(tz))
                }
            }
        }
        DataType::Float32 => {
            let mut out = Vec::with_capacity(cells.len());
            for (i, v) in cells.iter().enumerate() {
                out.push(match v {
                    Value::Nil => None,
                    Value::F32(x) => Some(*x),
                    // python-blosc2 stores a list's float32 items as Python floats.
                    Value::F64(x) => Some(*x as f32),
                    _ => return Err(bad(i, v)),
                });
            }
            Arc::new(PrimitiveArray::<Float32Type>::from_iter(out))
        }
        DataType::Float64 => {
            let mut out = Vec::with_capacity(cells.len());
            for (i, v) in cells.iter().enumerate() {
                out.push(match v {
                    Value::Nil => None,
                    Value::F64(x) => Some(*x),
                    Value::F32(x) => Some(f64::from(*x)),
                    _ => return Err(bad(i, v)),
                });
            }
            Arc::new(PrimitiveArray::<Float64Type>::from_iter(out))
        }
        DataType::Boolean => {
            let mut out = Vec::with_capacity(cells.len());
            for (i, v) in cells.iter().enumerate() {
                out.push(match v {
                    Value::Nil => None,
                    Value::Bool(b) => Some(*b),
                    _ => return Err(bad(i, v)),
                });
            }
            Arc::new(BooleanArray::from(out))
        }
        DataType::Utf8 => Arc::new(StringArray::from(strs(&cells)?)),
        DataType::LargeUtf8 => Arc::new(LargeStringArray::from(strs(&cells)?)),
        DataType::Dictionary(..) => {
            let mut b = StringDictionaryBuilder::<Int32Type>::new();
            for s in strs(&cells)? {
                match s {
                    Some(s) => {
                        b.append(&s).map_err(|e| {
                            Error::invalid("a dictionary of at most 2^31 values", "fewer", e.to_string(), 0)
                        })?;
                    }
                    None => b.append_null(),
                }
            }
            Arc::new(b.finish())
        }
        DataType::LargeBinary => {
            let mut out: Vec<Option<&[u8]>> = Vec::with_capacity(cells.len());
            for (i, v) in cells.iter().enumerate() {
                out.push(match v {
                    Value::Nil => None,
                    Value::Bin(b) => Some(b),
                    _ => return Err(bad(i, v)),
                });
            }
            Arc::new(LargeBinaryArray::from_opt_vec(out))
        }
        DataType::List(_) | DataType::Struct(_) => {
            let refs: Vec<&Value> = cells.iter().collect();
            super::arrow_nested::nested(dt, &refs, &|t, v| build_as("of the nested type", t, v))?
        }
        other => {
            return Err(Error::invalid("an Arrow type b2schema builds", "a primitive or a string", other, 0));
        }
    })
}
