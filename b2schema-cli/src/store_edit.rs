//! `b2schema store add|rm|vlmeta`: a python-blosc2 store (`.b2d`, `.b2z`, `.b2e`) changed in
//! place through the library's [`b2schema::store::StoreMut`] (a `.b2z` or `.b2e` rewritten beside
//! itself and renamed onto its name, a `.b2d`'s member files switched by renames; under its
//! writer lock). As `append` and `write`, nothing is printed on success; a failure is said on
//! stderr (exit code 2) and leaves the store as it was. The frame added is read whole first, and
//! the store is never the frame added (by whatever name), nor a directory that holds it.

use std::path::Path;
use std::process::ExitCode;

use b2schema::Limits;
use b2schema::store::{Store, StoreMut, VLMETA_KEY};

use crate::{Failure, msgpack_json, text};

fn open(store: &Path, limits: Limits) -> Result<StoreMut, Failure> {
    StoreMut::open_with_limits(store, limits).map_err(|e| Failure::at(store, e))
}

/// The frame file `file`, read whole (at most `max` bytes).
fn read_frame(file: &Path, max: u64) -> Result<Vec<u8>, Failure> {
    if file.is_dir() {
        return Err(Failure::at(
            file,
            "a directory: store add takes a contiguous frame file (.b2nd, .b2f, .b2b)",
        ));
    }
    crate::edit::read_whole(file, max)
}

/// Refuses to change `store` when it is `file` (or any file read in this run), or a directory
/// store that holds `file`.
fn refuse_own(store: &Path, file: &Path) -> Result<(), Failure> {
    crate::output::refuse_input(store, &[file])?;
    if let (Ok(s), Ok(f)) = (std::fs::canonicalize(store), std::fs::canonicalize(file))
        && s.is_dir()
        && f.starts_with(&s)
    {
        return Err(Failure::at(
            store,
            format!("holds the input {}: refusing to change the store it is read from", file.display()),
        ));
    }
    Ok(())
}

/// `b2schema store add STORE KEY FILE [--replace]`: the frame FILE as the member KEY.
pub fn add(store: &Path, key: &str, file: &Path, replace: bool, limits: Limits) -> Result<ExitCode, Failure> {
    refuse_own(store, file)?;
    let frame = read_frame(file, limits.max_decompressed_total())?;
    refuse_own(store, file)?;
    let mut s = open(store, limits)?;
    let done = if replace { s.set(key, frame) } else { s.insert(key, frame) };
    done.map_err(|e| match e.kind() {
        b2schema::ErrorKind::KeyExists { .. } => Failure::at(store, format!("{e} (--replace replaces it)")),
        _ => Failure::at(store, e),
    })?;
    Ok(ExitCode::SUCCESS)
}

/// `b2schema store rm STORE KEY`.
pub fn rm(store: &Path, key: &str, limits: Limits) -> Result<ExitCode, Failure> {
    open(store, limits)?.remove(key).map_err(|e| Failure::at(store, e))?;
    Ok(ExitCode::SUCCESS)
}

/// `b2schema store vlmeta get STORE KEY`: the store's vlmeta KEY as one line of JSON.
pub fn vlmeta_get(store: &Path, key: &str, limits: Limits) -> Result<ExitCode, Failure> {
    let s = Store::open_with_limits(store, limits).map_err(|e| Failure::at(store, e))?;
    let names = || {
        let names: Vec<String> = s
            .vlmeta()
            .map(|v| v.into_iter().map(|(k, _)| text::escape(&k).into_owned()).collect())
            .unwrap_or_default();
        if names.is_empty() { "none".to_string() } else { names.join(", ") }
    };
    let data = match s.member(VLMETA_KEY) {
        Some(_) => {
            s.open_member(VLMETA_KEY).and_then(|f| f.vlmeta_data(key)).map_err(|e| Failure::at(store, e))?
        }
        None => None,
    };
    let Some(data) = data else {
        return Err(Failure::at(store, format!("no store vlmeta named {key:?} (it has: {})", names())));
    };
    match msgpack_json::decode(&data) {
        Some(value) => crate::print(format!("{value}\n").as_bytes()),
        None => {
            Err(Failure::at(store, format!("store vlmeta {key:?} is not msgpack ({} bytes)", data.len())))
        }
    }
}

/// `b2schema store vlmeta set STORE KEY VALUE`: VALUE (JSON) stored as msgpack.
pub fn vlmeta_set(store: &Path, key: &str, value: &str, limits: Limits) -> Result<ExitCode, Failure> {
    let bytes = crate::vlmeta::json_msgpack(value, "")?;
    open(store, limits)?.set_vlmeta_msgpack(key, &bytes).map_err(|e| Failure::at(store, e))?;
    Ok(ExitCode::SUCCESS)
}

/// `b2schema store vlmeta del STORE KEY`.
pub fn vlmeta_del(store: &Path, key: &str, limits: Limits) -> Result<ExitCode, Failure> {
    open(store, limits)?.delete_vlmeta(key).map_err(|e| Failure::at(store, e))?;
    Ok(ExitCode::SUCCESS)
}
