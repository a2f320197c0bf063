//! `b2schema vlmeta get|set|del FILE KEY`: a frame's vlmetalayers from the shell.
//!
//! `set` and `del` change a contiguous frame file through the library's writer
//! ([`b2schema::writer::set_vlmetalayer_to`], [`b2schema::writer::delete_vlmetalayer_from`]): the
//! new offsets index and trailer are written after the frame's current end, then the header is
//! patched in one write, each step synced; an interruption before the patch leaves the old frame
//! whole and readable, with a torn tail after it that the next `set` or `del` reclaims (the rule:
//! [`b2schema::writer::FrameIo`]). The file is opened without blocking and
//! refused unless it is a regular file; a sparse frame, a file that does not start with its
//! frame, or other data after the frame (no torn tail) is refused.

use std::fs::File;
use std::path::Path;
use std::process::ExitCode;

use b2schema::Limits;

use crate::{Failure, msgpack_json, open, text};

/// Writes the value of vlmetalayer `key` of the frame at `path`: its msgpack as one line of JSON
/// (as `inspect --json` gives it), or with `raw` its bytes, decompressed.
pub fn get(path: &Path, key: &str, raw: bool, limits: Limits) -> Result<ExitCode, Failure> {
    let file = open::open(path, 0, limits, open::Mode::Validated)?;
    let v = file.view().map_err(|e| open::failure(path, 0, e))?;
    let Some(content) = v.vlmetalayer(key) else {
        let names: Vec<String> =
            v.trailer.vlmetalayers.iter().map(|(n, _, _)| text::escape(n).into_owned()).collect();
        let has = if names.is_empty() { "none".to_string() } else { names.join(", ") };
        return Err(Failure::at(path, format!("no vlmetalayer named {key:?} (it has: {has})")));
    };
    let max = usize::try_from(limits.max_decompressed()).unwrap_or(usize::MAX);
    let data = b2schema::chunk::decompress_with_limit(content, max)
        .map_err(|e| Failure::at(path, format!("vlmetalayer {key:?} does not decompress: {e}")))?;
    if raw {
        return crate::print(&data);
    }
    match msgpack_json::decode(&data) {
        Some(value) => crate::print(format!("{value}\n").as_bytes()),
        None => Err(Failure::at(
            path,
            format!("vlmetalayer {key:?} is not msgpack ({} bytes; --raw writes them)", data.len()),
        )),
    }
}

/// Sets vlmetalayer `key` of the frame file at `path` to `value`: JSON text, stored as msgpack
/// (as python-blosc2's `vlmeta[key] = value` stores it), or with `raw` its bytes as they are.
pub fn set(path: &Path, key: &str, value: &str, raw: bool) -> Result<ExitCode, Failure> {
    let bytes = if raw {
        value.as_bytes().to_vec()
    } else {
        json_msgpack(value, "; --raw stores the text as it is")?
    };
    let mut f = writable(path)?;
    b2schema::writer::set_vlmetalayer_to(&mut f, key, &bytes).map_err(|e| Failure::at(path, e))?;
    f.sync_all().map_err(|e| Failure::at(path, e))?;
    Ok(ExitCode::SUCCESS)
}

/// The JSON text `value` as msgpack, as python-blosc2 stores a vlmeta value (also the store's
/// vlmeta, `store vlmeta set`); `hint` ends the message of text that is not JSON.
pub fn json_msgpack(value: &str, hint: &str) -> Result<Vec<u8>, Failure> {
    let json: serde_json::Value = serde_json::from_str(value)
        .map_err(|e| Failure::Message(format!("the value is not JSON ({e}){hint}")))?;
    b2schema::to_vec_with(&json, b2schema::Config::minimal())
        .map_err(|e| Failure::Message(format!("the value as msgpack: {e}")))
}

/// Deletes vlmetalayer `key` of the frame file at `path`.
pub fn del(path: &Path, key: &str) -> Result<ExitCode, Failure> {
    let mut f = writable(path)?;
    b2schema::writer::delete_vlmetalayer_from(&mut f, key).map_err(|e| Failure::at(path, e))?;
    f.sync_all().map_err(|e| Failure::at(path, e))?;
    Ok(ExitCode::SUCCESS)
}

/// `path` opened for reading and writing, without blocking (a FIFO opens at once), then refused
/// unless the handle is a regular file.
fn writable(path: &Path) -> Result<File, Failure> {
    if path.is_dir() {
        return Err(Failure::at(path, "a directory: vlmeta set and del change contiguous frame files only"));
    }
    let mut options = std::fs::OpenOptions::new();
    options.read(true).write(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NONBLOCK);
    let f = options.open(path).map_err(|e| Failure::at(path, e))?;
    let meta = f.metadata().map_err(|e| Failure::at(path, e))?;
    if !meta.is_file() {
        return Err(Failure::at(path, "not a regular file: refusing to write to it"));
    }
    Ok(f)
}
