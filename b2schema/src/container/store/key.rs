//! Store keys: `/`-separated paths (`/g/x`). A key comes from a member's name (`g/x.b2nd`) or
//! from an EmbedStore's map; either is input, so it is checked before it names anything.

use alloc::string::String;

use crate::container::error::{Error, Result};

/// The suffixes of the members python-blosc2 writes outside the embed store, with their kinds
/// as it names them: `.b2nd` NDArray, `.b2f` SChunk, `.b2b` BatchArray.
pub const MEMBER_SUFFIXES: [&str; 3] = [".b2nd", ".b2f", ".b2b"];

/// The embed store's name at the root of a `.b2z` or `.b2d` store.
pub const EMBED_NAME: &str = "embed.b2e";

/// Checks `key`: it starts with `/`, holds no control character nor `:`, and its parts are
/// neither empty nor `.` or `..`. A `\` may stand inside a part (python-blosc2 escapes a dot
/// of a struct field's name with it: `/_indexes/c0.a\.b/summary.block`), but, read as the
/// separator it is on Windows, it must make no `.` or `..` part either, nor start a part.
pub fn check(key: &str) -> Result<()> {
    let bad = |why: &str| {
        Error::invalid(
            "a store key (/a/b: no empty, . or .. part, no control character or :, no \\ starting a part)",
            key.escape_debug(),
            why,
            0,
        )
    };
    let Some(rest) = key.strip_prefix('/') else {
        return Err(bad("no leading /"));
    };
    if let Some(c) = key.chars().find(|c| c.is_control() || *c == ':') {
        return Err(bad(&alloc::format!("the character {}", c.escape_debug())));
    }
    for part in rest.split('/') {
        if part.is_empty() {
            return Err(bad("an empty part"));
        }
        if part.starts_with('\\') {
            return Err(bad("a part starting with \\"));
        }
        if part.split('\\').any(|p| p == "." || p == "..") {
            return Err(bad("a . or .. part"));
        }
    }
    Ok(())
}

/// The key of a member named `name` (`g/x.b2nd` gives `/g/x`), or `None` when the name has no
/// member suffix (a directory entry, or a file python-blosc2 would not list either without
/// opening it). The key is checked ([`check`]).
pub fn of_member(name: &str) -> Result<Option<String>> {
    let Some(stem) = MEMBER_SUFFIXES.iter().find_map(|s| name.strip_suffix(s)) else {
        return Ok(None);
    };
    let mut key = String::new();
    key.try_reserve_exact(stem.len() + 1).map_err(|_| Error::no_memory("a key", stem.len() as u64 + 1, 0))?;
    key.push('/');
    key.push_str(stem);
    check(&key)?;
    Ok(Some(key))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_checked() {
        assert_eq!(of_member("g/x.b2nd").unwrap().as_deref(), Some("/g/x"));
        assert_eq!(of_member("x.b2f").unwrap().as_deref(), Some("/x"));
        assert_eq!(of_member("readme.txt").unwrap(), None);
        for bad in [
            "../x.b2nd",
            "g/../../x.b2nd",
            "/abs.b2nd",
            "a//b.b2nd",
            "a\u{1b}[31m.b2nd",
            "c:\\x.b2nd",
            "./x.b2nd",
            "a\\..\\..\\x.b2nd",
            "..\\x.b2nd",
            "\\x.b2nd",
            "a/\\x.b2nd",
            "a/.\\x.b2nd",
        ] {
            let e = of_member(bad).unwrap_err().to_string();
            assert!(e.contains("store key"), "{bad}: {e}");
        }
        assert!(check("/").is_err());
        assert!(check("x").is_err());
        assert!(check("/a/b").is_ok());
        // python-blosc2's escaped dot in a struct field's index key.
        assert_eq!(
            of_member("_indexes/c0.a\\.b/summary.b2nd").unwrap().as_deref(),
            Some("/_indexes/c0.a\\.b/summary")
        );
    }
}
