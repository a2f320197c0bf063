//! The objects under a prefix ([`list`]): what a viewer shows of an object store's "folder".

use b2schema::{Error, Result};
use futures_util::StreamExt;

use crate::get::chain;
use crate::options::ObjectOptions;
use crate::source::{not_in_runtime, runtime};
use crate::url::ObjectUrl;

/// An object under a prefix.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listed {
    /// Its key under the prefix, `/`-separated (`a/b.b2nd`).
    pub key: String,
    /// Its size in bytes.
    pub size: u64,
}

/// The objects under the prefix `url` (`s3://bucket/some/prefix/`, its client configured from
/// the environment), at most `max` of them (an error past that), in the store's order (by key).
pub fn list(url: &str, max: usize, options: &ObjectOptions) -> Result<Vec<Listed>> {
    list_at(&ObjectUrl::parse_prefix(url, options)?, max, options)
}

/// [`list`] under the prefix `dir` names.
pub fn list_at(dir: &ObjectUrl, max: usize, options: &ObjectOptions) -> Result<Vec<Listed>> {
    let url = dir.text.as_str();
    not_in_runtime(url)?;
    let rt = runtime(url)?;
    let prefix = (!dir.path.as_ref().is_empty()).then_some(&dir.path);
    let deadline = options.timeout.saturating_mul(options.retries as u32 + 1).saturating_mul(4);
    let listed: Result<Vec<Listed>> = rt.block_on(async {
        let mut out = Vec::new();
        let mut objects = dir.store.list(prefix);
        let walk = async {
            while let Some(meta) = objects.next().await {
                let meta =
                    meta.map_err(|e| Error::invalid("a listing", "the objects", chain(&e), 0).in_file(url))?;
                if out.len() == max {
                    return Err(Error::invalid("at most this many objects under a prefix:", max, "more", 0)
                        .in_file(url));
                }
                let parts: Vec<String> = meta
                    .location
                    .parts()
                    .skip(dir.path.parts().count())
                    .map(|p| p.as_ref().to_string())
                    .collect();
                out.push(Listed { key: parts.join("/"), size: meta.size });
            }
            Ok(())
        };
        match tokio::time::timeout(deadline, walk).await {
            Ok(r) => r.map(|()| out),
            Err(_) => {
                Err(Error::invalid("a listing within", format!("{deadline:?}"), "none in time", 0)
                    .in_file(url))
            }
        }
    });
    listed
}
