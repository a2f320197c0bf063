//! A file name in the JSON reports (`inspect --json`, `verify --json`), so that a script finds
//! the file again: `"path"` is the name as text, and a name that is not UTF-8 (on Unix, any
//! bytes but NUL) also gets `"path_hex"`, its exact bytes in lowercase hex, since `"path"` then
//! holds U+FFFD in place of the bytes that are not UTF-8. In a shell:
//! `jq -r '.path_hex // empty' | xxd -r -p` gives the bytes back.

use std::path::Path;

/// The bytes of `path` in hex, when they are not UTF-8.
pub fn hex_if_not_utf8(path: &Path) -> Option<String> {
    if path.to_str().is_some() {
        return None;
    }
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        Some(crate::msgpack_json::hex(path.as_os_str().as_bytes()))
    }
    #[cfg(not(unix))]
    {
        Some(crate::msgpack_json::hex(path.to_string_lossy().as_bytes()))
    }
}
