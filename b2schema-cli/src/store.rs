//! `inspect` and `cat --key` of python-blosc2's stores (`.b2z`, `.b2d`, `.b2e`): the members
//! listed (one JSON line per member with `--json`), one member's data written.

use std::io::{self, BufWriter, Write};
use std::path::Path;
use std::process::ExitCode;

use b2schema::Limits;
use b2schema::store::Store;

use crate::Failure;
use crate::cat::CatOptions;
use crate::report::store::Member;
use crate::report::{FileName, Unreadable};
use crate::text;

fn open(path: &Path, limits: Limits) -> Result<Store, Failure> {
    crate::kind::open_store(path, limits).map_err(|e| Failure::at(path, e))
}

/// `inspect STORE [--json]`: the store's form and members; a member that cannot be described
/// is listed with its error, and makes the exit code 2.
pub fn inspect(path: &Path, store: &Store, as_json: bool) -> Result<ExitCode, Failure> {
    let mut out = BufWriter::new(io::stdout().lock());
    let failed = match write_listing(&mut out, path, store, as_json).and_then(|f| out.flush().map(|()| f)) {
        Ok(failed) => failed,
        Err(e) => return Err(Failure::writing("writing the output", &e)),
    };
    Ok(if failed { ExitCode::from(2) } else { ExitCode::SUCCESS })
}

/// The store at `path`, opened within `limits`, or why not (for a scan, which goes on).
pub fn open_for_scan(path: &Path, limits: Limits) -> Result<Store, String> {
    crate::kind::open_store(path, limits).map_err(|e| e.to_string())
}

/// Each member of the store at `path` (its key and its frame, or why it cannot be opened), for
/// the frame commands that meet a store (`ls`, `du`, `verify`): `each` is called with the
/// member's path (`STORE/KEY`, as `cat --key` names it) and its frame. `Err` when the store
/// itself cannot be opened.
pub fn each_member<E>(
    path: &Path,
    limits: Limits,
    mut each: impl FnMut(&Path, Result<b2schema::frame::FrameFile, String>) -> Result<(), E>,
) -> Result<Result<(), E>, String> {
    let store = open_for_scan(path, limits)?;
    for m in store.members() {
        let at = path.join(m.key.trim_start_matches('/'));
        let frame =
            store.open_member(&m.key).map_err(|e| crate::budget::cli_text(&e.to_string()).into_owned());
        if let Err(e) = each(&at, frame) {
            return Ok(Err(e));
        }
    }
    Ok(Ok(()))
}

/// Writes the listing of `store` (found at `path`) to `out`: a heading and a line per member,
/// or a JSON line per member. `true` when a member could not be described (listed with its
/// error).
pub fn write_listing(out: &mut impl Write, path: &Path, store: &Store, as_json: bool) -> io::Result<bool> {
    let mut failed = false;
    if crate::input::is_table(store) {
        match b2schema::table::CTable::new(store.clone()) {
            Ok(t) => failed |= crate::table::write_heading(out, path, &t, as_json)?,
            Err(e) if as_json => {
                let line = Unreadable { name: FileName::of(path), error: e.to_string() };
                writeln!(out, "{}", crate::report::json_line(&line))?;
                failed = true;
            }
            Err(e) => {
                writeln!(
                    out,
                    "{}: not a readable CTable: {}",
                    text::path(path),
                    text::escape(&e.to_string())
                )?;
                failed = true;
            }
        }
    }
    if !as_json {
        writeln!(
            out,
            "{}: {} store, {} members",
            text::path(path),
            store.form().name(),
            store.members().len()
        )?;
    }
    for m in store.members() {
        let member = Member::of(path, store, &m.key, &m.place);
        failed |= member.failed();
        if as_json {
            writeln!(out, "{}", crate::report::json_line(&member))?;
        } else {
            writeln!(out, "  {member}")?;
        }
    }
    Ok(failed)
}

/// `cat STORE --key KEY [--slice ...] [--npy] [-o FILE]`: the member's data, as `cat` writes a
/// frame's (an NDArray through the array reader, reading only its touched blocks), from `store`
/// (the store at `path`, opened once by [`crate::input`]) or, when the path was not told a
/// store, from the store opened here (its error says what `path` is instead).
pub fn cat(
    path: &Path,
    store: Option<Store>,
    key: &str,
    output: Option<&Path>,
    limits: Limits,
    o: &CatOptions<'_>,
) -> Result<ExitCode, Failure> {
    let started = std::time::Instant::now();
    let store = match store {
        Some(store) => store,
        None => open(path, limits)?,
    };
    let file = store.open_member(key).map_err(|e| Failure::at(path, e))?;
    let result = cat_member(path, key, &file, output, limits, o);
    if o.stats {
        crate::cat::say_stats(&file, started);
    }
    result
}

/// [`cat`] of the member `key`'s frame `file`.
fn cat_member(
    path: &Path,
    key: &str,
    file: &b2schema::frame::FrameFile,
    output: Option<&Path>,
    limits: Limits,
    o: &CatOptions<'_>,
) -> Result<ExitCode, Failure> {
    let at = path.join(key.trim_start_matches('/'));
    let is_array = file.ndarray_meta().map_err(|e| Failure::at(&at, e))?.is_some();
    if !is_array {
        o.refuse_raw(&at)?;
    }
    if o.slice.is_some() || o.npy || is_array {
        if !is_array {
            let flag = if o.npy { "--npy" } else { "--slice" };
            return Err(Failure::at(
                &at,
                format!("{flag} needs an NDArray (a b2nd metalayer); this is an SChunk"),
            ));
        }
        let how = crate::slice::Output { path: output, npy: o.npy, text: o.array_as_text(&at)? };
        return crate::slice::cat_array(&at, file, o.slice, o.threads, how, limits.max_output());
    }
    let mut w: Box<dyn Write> = match output {
        Some(out) => {
            let mut w = crate::output::AtomicFile::create(out, &[path])?;
            file.write_schunk(&mut w).map_err(|e| Failure::at(&at, e))?;
            return w.commit().map(|()| ExitCode::SUCCESS);
        }
        None => Box::new(BufWriter::with_capacity(1 << 20, io::stdout().lock())),
    };
    match file.write_schunk(&mut w).and_then(|_| w.flush().map_err(b2schema::Error::from)) {
        Ok(()) => Ok(ExitCode::SUCCESS),
        Err(e) => Err(Failure::of(&at, e)),
    }
}
