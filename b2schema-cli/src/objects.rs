//! Object-store URLs (`s3://bucket/key`, `gs://...`, `az://container/key`, `abfs://...`): read
//! wherever a path is read, and written as the destination of `pack`, `unpack` and `cat -o`
//! (feature `object-store`; without it such a URL is refused, saying why). The client of each
//! is configured from the environment (`AWS_ENDPOINT_URL`, `AWS_ACCESS_KEY_ID`,
//! `AWS_SECRET_ACCESS_KEY`, `AWS_REGION`, `AWS_ALLOW_HTTP`, `AZURE_STORAGE_*`, `GOOGLE_*`), as
//! object_store reads it.

use std::path::Path;

use b2schema::Limits;
use b2schema::frame::FrameFile;
use b2schema::store::Store;

/// The schemes of object stores.
const SCHEMES: [&str; 8] = ["s3", "s3a", "gs", "az", "azure", "abfs", "abfss", "adl"];

/// Whether `text` is an object-store URL.
pub fn is_object_url(text: &str) -> bool {
    text.split_once("://").is_some_and(|(scheme, _)| SCHEMES.contains(&scheme.to_ascii_lowercase().as_str()))
}

/// Whether `path` is an object-store URL.
pub fn is_object_path(path: &Path) -> bool {
    path.to_str().is_some_and(is_object_url)
}

#[cfg(not(feature = "object-store"))]
fn not_built(url: &str) -> b2schema::Error {
    b2schema::Error::invalid(
        "a build of b2schema with",
        "the feature object-store",
        "one without it (cargo install b2schema-cli --features object-store)",
        0,
    )
    .in_file(url)
}

/// The frame at `url`: a contiguous frame's object, or the prefix of a sparse frame's (a URL
/// ending in `/` or `/chunks.b2frame`); `whole`: the caller reads it all, in order
/// (`ObjectOptions::whole`).
pub fn open_frame(url: &str, limits: Limits, whole: bool) -> b2schema::Result<FrameFile> {
    #[cfg(feature = "object-store")]
    {
        let options = b2schema_object_store::ObjectOptions { whole, ..Default::default() };
        b2schema_object_store::open_frame(url, limits, &options)
    }
    #[cfg(not(feature = "object-store"))]
    {
        let _ = (limits, whole);
        Err(not_built(url))
    }
}

/// The store (`.b2z` or `.b2e`) at `url`.
pub fn open_store(url: &str, limits: Limits) -> b2schema::Result<Store> {
    #[cfg(feature = "object-store")]
    return b2schema_object_store::open_store(url, limits, &Default::default());
    #[cfg(not(feature = "object-store"))]
    {
        let _ = limits;
        Err(not_built(url))
    }
}

/// Uploads the `len` bytes of the local file `from` to the object at `url`, whole (one PUT, or
/// a multipart upload completed last): nothing is visible there until everything is.
pub fn upload(url: &str, from: &Path, len: u64) -> b2schema::Result<()> {
    #[cfg(feature = "object-store")]
    {
        let mut f = std::fs::File::open(from).map_err(|e| b2schema::Error::from(e).in_file(url))?;
        let options = b2schema_object_store::ObjectOptions::default();
        b2schema_object_store::upload(url, &mut f, len, &options)?;
        Ok(())
    }
    #[cfg(not(feature = "object-store"))]
    {
        let _ = (from, len);
        Err(not_built(url))
    }
}

/// What `serve` lists under the prefix `url` (ending in `/`): each object's key under it, and
/// each sparse frame's prefix (`x.b2nd`, for the objects `x.b2nd/chunks.b2frame` and its chunk
/// objects) as one entry, whose URL ends in `/`; at most `max` objects, within a few seconds.
pub fn list(url: &str, max: usize) -> b2schema::Result<Vec<(String, String)>> {
    #[cfg(feature = "object-store")]
    {
        let options = b2schema_object_store::ObjectOptions {
            timeout: std::time::Duration::from_secs(3),
            retries: 0,
            ..Default::default()
        };
        let listed = b2schema_object_store::list(url, max, &options)?;
        if listed.iter().any(|o| o.key == b2schema::frame::SPARSE_INDEX) {
            // The prefix is a sparse frame's.
            return Ok(vec![(String::new(), url.to_string())]);
        }
        let sparse: Vec<&str> = listed
            .iter()
            .filter_map(|o| o.key.strip_suffix(b2schema::frame::SPARSE_INDEX)?.strip_suffix('/'))
            .collect();
        let mut out: Vec<(String, String)> =
            sparse.iter().map(|s| (s.to_string(), format!("{url}{s}/"))).collect();
        for o in &listed {
            if !sparse.iter().any(|s| o.key.strip_prefix(s).is_some_and(|r| r.starts_with('/'))) {
                out.push((o.key.clone(), format!("{url}{}", o.key)));
            }
        }
        out.sort();
        Ok(out)
    }
    #[cfg(not(feature = "object-store"))]
    {
        let _ = max;
        Err(not_built(url))
    }
}
