//! What a path holds, told before a command reads it: one of python-blosc2's stores, or a frame
//! for the frame commands; and the store opened, from a path or a URL. Below both `store` and
//! `table`, which ask it.

use std::io;
use std::path::Path;

use b2schema::Limits;
use b2schema::frame::FrameFile;
use b2schema::store::Store;

/// Whether `path` is a store rather than a frame: a ZIP file, a directory with an `embed.b2e`
/// (and no `chunks.b2frame`, which would make it a sparse frame), or a `.b2e` file whose frame's
/// metalayers say it is an EmbedStore (`b2embed`; read within `limits`). Any other path is left
/// to the frame commands, unread here.
pub fn is_store(path: &Path, limits: Limits) -> bool {
    if let Some(url) = path.to_str().filter(|_| crate::open::is_url(path)) {
        return is_store_url(url, limits);
    }
    if path.is_dir() {
        return path.join(b2schema::store::EMBED_NAME).exists()
            && !path.join(b2schema::frame::SPARSE_INDEX).exists();
    }
    let Ok((mut f, len)) = b2schema::frame::open_regular(path) else { return false };
    let mut head = [0u8; 4];
    if len >= 4 && io::Read::read_exact(&mut f, &mut head).is_ok() && head[..2] == *b"PK" {
        return matches!(head[2..], [3, 4] | [5, 6]);
    }
    path.extension().is_some_and(|e| e == "b2e")
        && FrameFile::open_with_limits(path, limits)
            .is_ok_and(|f| f.view().is_ok_and(|v| v.metalayer("b2embed").is_some()))
}

/// Whether the URL `url` names a store: a `.b2z`, a `.b2d` (which opening refuses, saying why),
/// or a `.b2e` whose frame's metalayers say it is an EmbedStore (fetched within `limits`).
fn is_store_url(url: &str, limits: Limits) -> bool {
    let path = url.split(['?', '#']).next().unwrap_or(url);
    let path = path.strip_suffix('/').unwrap_or(path);
    if path.ends_with(".b2z") || path.ends_with(".b2d") {
        return true;
    }
    path.ends_with(".b2e")
        && crate::open::open_url(Path::new(url), 0, limits)
            .is_ok_and(|f| f.view().is_ok_and(|v| v.metalayer("b2embed").is_some()))
}

/// The store at `path` (a `.b2z`, `.b2e` or `.b2d` path, or the URL of a `.b2z` or `.b2e`)
/// opened within `limits`.
pub fn open_store(path: &Path, limits: Limits) -> b2schema::Result<Store> {
    match path.to_str().filter(|_| crate::open::is_url(path)) {
        Some(url) if crate::objects::is_object_url(url) => crate::objects::open_store(url, limits),
        Some(url) => Store::open_url_with(url, limits, crate::net::http_options()),
        None => Store::open_with_limits(path, limits),
    }
}
