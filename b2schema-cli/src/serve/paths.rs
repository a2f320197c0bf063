//! What the viewer may serve: the roots given on the command line, canonicalized once, and
//! paths inside them. A request names a root by its number and a relative path; the path is
//! refused when it has a `..`, `.` or empty component or is absolute, and when its canonical
//! form (symbolic links resolved) leaves the root. A root may be an `http://` URL (a frame, or
//! a sparse frame's directory, read by ranged GETs): it is one entry, with no path under it. A
//! root that is an object store's prefix (`s3://bucket/prefix/`) stands for the objects listed
//! under it (and the sparse frames kept there), as a directory for its files.

use std::path::{Component, Path, PathBuf};

use crate::walk;

/// The most entries listed, and the deepest directory entered, under one root.
pub const MAX_ENTRIES: usize = 20_000;
/// See [`MAX_ENTRIES`].
pub const MAX_DEPTH: usize = 8;

/// The most objects listed under an object store's prefix (each entry's summary is made by a
/// thread of its own, two requests or more).
pub const MAX_OBJECTS: usize = 256;

/// The URL of `root` when it is an object store's prefix (`s3://bucket/some/prefix/`): a
/// folder of objects, listed.
fn object_prefix(root: &Path) -> Option<&str> {
    root.to_str().filter(|u| crate::objects::is_object_url(u) && u.ends_with('/'))
}

/// The served roots, canonical, and the list's entries of the remote ones.
#[derive(Debug)]
pub struct Roots(Vec<PathBuf>, pub super::remote::Listings);

/// A file (or sparse-frame directory) found under a root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The root's number.
    pub root: usize,
    /// The path relative to the root, `/`-separated (empty when the root is the file).
    pub rel: String,
    /// The canonical path.
    pub path: PathBuf,
}

impl Roots {
    /// Canonicalizes every path given (which must exist); a URL is kept as given once it
    /// parses.
    pub fn new(paths: &[PathBuf]) -> Result<Self, String> {
        paths
            .iter()
            .map(|p| match p.to_str().filter(|_| crate::open::is_url(p)) {
                Some(url) if crate::objects::is_object_url(url) => Ok(p.clone()),
                Some(url) => {
                    b2schema::source::http::Url::parse(url).map(|_| p.clone()).map_err(|e| e.to_string())
                }
                None => p.canonicalize().map_err(|e| format!("{}: {e}", p.display())),
            })
            .collect::<Result<Vec<_>, _>>()
            .map(|r| Roots(r, Default::default()))
    }

    /// The canonical roots.
    pub fn all(&self) -> &[PathBuf] {
        &self.0
    }

    /// The canonical path of `rel` under root `root`, or why it is refused.
    pub fn resolve(&self, root: usize, rel: &str) -> Result<PathBuf, String> {
        let base = self.0.get(root).ok_or_else(|| format!("no root number {root}"))?;
        if let Some(url) = object_prefix(base) {
            // Only what the listing shows (a sparse frame's prefix among them).
            let listed = crate::objects::list(url, MAX_OBJECTS).map_err(|e| e.to_string())?;
            return match listed.into_iter().find(|(key, _)| key == rel) {
                Some((_, url)) => Ok(PathBuf::from(url)),
                None => Err(format!("{rel}: no such object under the root")),
            };
        }
        if crate::open::is_url(base) {
            return if rel.is_empty() { Ok(base.clone()) } else { Err("a path under a URL root".into()) };
        }
        let rel_path = Path::new(rel);
        // A backslash is a separator on Windows only; elsewhere it is a character of a name
        // (python-blosc2 writes `_indexes/c0.a\.b/` for a struct field `a.b`).
        if (cfg!(windows) && rel.contains('\\')) || rel.contains('\0') {
            return Err("a path with a backslash (Windows) or a NUL".into());
        }
        if !rel.is_empty() {
            for c in rel.split('/') {
                if c.is_empty() || c == "." || c == ".." {
                    return Err(format!("a path component {c:?} (no '..', '.', '//' or leading '/')"));
                }
            }
        }
        if rel_path.components().any(|c| !matches!(c, Component::Normal(_))) {
            return Err("an absolute path".into());
        }
        if rel.is_empty() {
            // The root itself (a file root; `join("")` would add a trailing '/').
            return Ok(base.clone());
        }
        let joined = base.join(rel_path);
        let canonical = joined.canonicalize().map_err(|e| format!("{rel}: {e}"))?;
        if !canonical.starts_with(base) {
            return Err(format!("{rel} leaves the served root (a symbolic link to outside)"));
        }
        Ok(canonical)
    }

    /// Every frame candidate under the roots: a root that is a file or a sparse frame is one
    /// entry; a directory stands for the regular files and sparse frames inside it, recursively
    /// (at most [`MAX_DEPTH`] levels and [`MAX_ENTRIES`] entries), sorted by path. Entries whose
    /// canonical path leaves their root are left out.
    pub fn list(&self) -> Vec<Entry> {
        let mut out = Vec::new();
        for (root, base) in self.0.iter().enumerate() {
            if let Some(url) = object_prefix(base) {
                match crate::objects::list(url, MAX_OBJECTS) {
                    Ok(listed) => out.extend(listed.into_iter().map(|(rel, url)| Entry {
                        root,
                        rel,
                        path: PathBuf::from(url),
                    })),
                    // The root as one entry, which says why when opened.
                    Err(_) => out.push(Entry { root, rel: String::new(), path: base.clone() }),
                }
                continue;
            }
            if crate::open::is_url(base) || !walk::is_plain_dir(base) {
                out.push(Entry { root, rel: String::new(), path: base.clone() });
                continue;
            }
            let bounds = walk::Bounds { max_depth: MAX_DEPTH - 1, max_entries: MAX_ENTRIES };
            let mut found: Vec<(String, PathBuf)> = walk::expand_within(std::slice::from_ref(base), bounds)
                .into_iter()
                .filter_map(|found| {
                    let walk::Found::Frame(p) = found else { return None };
                    // Not a link out of the root.
                    let path = p.canonicalize().ok().filter(|c| c.starts_with(base))?;
                    let rel = rel_string(p.strip_prefix(base).ok()?);
                    Some((rel, path))
                })
                .collect();
            found.sort();
            out.extend(found.into_iter().map(|(rel, path)| Entry { root, rel, path }));
        }
        out
    }
}

/// A relative path as the viewer names it: its components joined by `/` (a backslash inside a
/// name on Unix stays a character of that name).
pub fn rel_string(rel: &Path) -> String {
    let parts: Vec<_> = rel.components().map(|c| c.as_os_str().to_string_lossy()).collect();
    parts.join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_escapes() {
        let dir = std::env::temp_dir().join(format!("b2schema-serve-paths-{}", std::process::id()));
        let root = dir.join("root");
        std::fs::create_dir_all(root.join("sub")).unwrap();
        std::fs::write(dir.join("secret"), b"x").unwrap();
        std::fs::write(root.join("sub/a.b2nd"), b"x").unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink(dir.join("secret"), root.join("link")).unwrap();
        let roots = Roots::new(std::slice::from_ref(&root)).unwrap();
        assert!(roots.resolve(0, "sub/a.b2nd").is_ok());
        for bad in ["../secret", "sub/../../secret", "/etc/passwd", "sub//a.b2nd", "./sub/a.b2nd", "link"] {
            assert!(roots.resolve(0, bad).is_err(), "{bad}");
        }
        assert!(roots.resolve(1, "").is_err());
        let file_root = Roots::new(&[root.join("sub/a.b2nd")]).unwrap();
        assert_eq!(file_root.resolve(0, "").unwrap(), root.join("sub/a.b2nd").canonicalize().unwrap());
        assert!(file_root.resolve(0, "x").is_err());
        let url_root = Roots::new(&[PathBuf::from("http://127.0.0.1:1/a.b2nd")]).unwrap();
        assert_eq!(url_root.resolve(0, "").unwrap(), PathBuf::from("http://127.0.0.1:1/a.b2nd"));
        assert!(url_root.resolve(0, "x").is_err());
        assert_eq!(url_root.list().len(), 1);
        assert!(Roots::new(&[PathBuf::from("http://h/a b")]).is_err());
        let listed: Vec<String> = roots.list().into_iter().map(|e| e.rel).collect();
        assert_eq!(listed, ["sub/a.b2nd"]);
        // A backslash inside a name (python-blosc2's escaped dot): listed and served as it is.
        #[cfg(unix)]
        {
            std::fs::create_dir_all(root.join("c0.a\\.b")).unwrap();
            std::fs::write(root.join("c0.a\\.b/s.b2nd"), b"x").unwrap();
            let listed: Vec<String> = roots.list().into_iter().map(|e| e.rel).collect();
            assert_eq!(listed, ["c0.a\\.b/s.b2nd", "sub/a.b2nd"]);
            assert!(roots.resolve(0, "c0.a\\.b/s.b2nd").is_ok());
            assert!(roots.resolve(0, "c0.a\\..\\..\\secret").is_err());
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
