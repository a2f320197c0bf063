//! Writing an object whole: one PUT, or a multipart upload completed last, so that a reader
//! never sees part of it (an object store makes an object visible only when its PUT or its
//! multipart completion succeeds; a failed multipart upload is aborted).

use std::io::Read;

use b2schema::{Error, Result};
use object_store::{ObjectStoreExt, PutPayload, WriteMultipart};

use crate::get::chain;
use crate::options::ObjectOptions;
use crate::source::{not_in_runtime, runtime};
use crate::url::ObjectUrl;

/// What an upload cost.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Upload {
    /// Requests sent (object_store's retries included).
    pub requests: u64,
    /// Bytes uploaded.
    pub bytes: u64,
    /// Parts of the multipart upload (0: one PUT).
    pub parts: u64,
}

/// Uploads the `len` bytes `from` gives to the object at `url` (`s3://`, `gs://`, `az://`,
/// `abfs://`; its client configured from the environment): one PUT up to
/// [`ObjectOptions::part_size`] bytes, else a multipart upload of parts of that size, at most
/// [`ObjectOptions::concurrency`] in flight, completed once every part is stored. Fewer or more
/// bytes from `from` than `len` is an error, and nothing is written.
pub fn upload(url: &str, from: &mut dyn Read, len: u64, options: &ObjectOptions) -> Result<Upload> {
    upload_to(&ObjectUrl::parse(url, options)?, from, len, options)
}

/// [`upload`] to the object `object` names (a client of this crate's, or a store of yours:
/// [`ObjectUrl::from_store`]).
pub fn upload_to(
    object: &ObjectUrl,
    from: &mut dyn Read,
    len: u64,
    options: &ObjectOptions,
) -> Result<Upload> {
    let url = object.text.as_str();
    not_in_runtime(url)?;
    let rt = runtime(url)?;
    let at = |e: object_store::Error| Error::invalid("an upload", "stored", chain(&e), 0).in_file(url);
    let short = |got: u64| Error::invalid("bytes to upload", len, got, got as usize).in_file(url);
    let part = options.part_size.max(5 << 20);
    let mut parts = 0;
    if len <= part as u64 {
        let mut bytes = Vec::new();
        from.take(len + 1).read_to_end(&mut bytes).map_err(|e| Error::from(e).in_file(url))?;
        if bytes.len() as u64 != len {
            return Err(short(bytes.len() as u64));
        }
        rt.block_on(object.store.put(&object.path, PutPayload::from(bytes))).map_err(at)?;
    } else {
        let multipart = rt.block_on(object.store.put_multipart(&object.path)).map_err(at)?;
        let mut writer = WriteMultipart::new_with_chunk_size(multipart, part);
        let mut buf = vec![0u8; part];
        let mut sent = 0u64;
        let result: Result<()> = rt.block_on(async {
            loop {
                let n = read_full(from, &mut buf).map_err(|e| Error::from(e).in_file(url))?;
                if n == 0 {
                    break;
                }
                sent += n as u64;
                if sent > len {
                    return Err(short(sent));
                }
                writer.wait_for_capacity(options.concurrency.max(1)).await.map_err(at)?;
                writer.write(&buf[..n]);
            }
            if sent != len {
                return Err(short(sent));
            }
            Ok(())
        });
        parts = len.div_ceil(part as u64);
        match result {
            Ok(()) => {
                rt.block_on(writer.finish()).map_err(at)?;
            }
            Err(e) => {
                // Best effort: the upload's parts are dropped by the store; the error is ours.
                let _ = rt.block_on(writer.abort());
                return Err(e);
            }
        }
    }
    Ok(Upload { requests: object.counts.requests(), bytes: len, parts })
}

/// Reads until `buf` is full or `from` ends; the bytes read.
fn read_full(from: &mut dyn Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match from.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}
