//! `inspect` and `cat --key` of python-blosc2's stores (`.b2z`, `.b2d`, `.b2e`): the members
//! listed (one JSON line per member with `--json`), one member's data written.

use std::io::{self, BufWriter, Write};
use std::path::Path;
use std::process::ExitCode;

use b2schema::store::Store;

use crate::Failure;
use crate::report::store::Member;
use crate::report::{FileName, Unreadable};
use crate::text;

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

/// Each member of `store` (found at `path`; its key and its frame, or why it cannot be opened),
/// for the frame commands that meet a store (`ls`, `du`, `verify`): `each` is called with the
/// member's path (`STORE/KEY`, as `cat --key` names it) and its frame.
pub fn each_member<E>(
    path: &Path,
    store: &Store,
    mut each: impl FnMut(&Path, Result<b2schema::frame::FrameFile, String>) -> Result<(), E>,
) -> Result<(), E> {
    for m in store.members() {
        let at = path.join(m.key.trim_start_matches('/'));
        each(&at, store.open_member(&m.key).map_err(|e| crate::budget::said(&e)))?;
    }
    Ok(())
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
                let line = Unreadable { name: FileName::of(path), error: crate::budget::said(&e) };
                writeln!(out, "{}", crate::report::json_line(&line))?;
                failed = true;
            }
            Err(e) => {
                writeln!(
                    out,
                    "{}: not a readable CTable: {}",
                    text::path(path),
                    text::escape(&crate::budget::said(&e))
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
