//! b2schema's readers (frames, b2nd arrays, `.b2z` and `.b2e` stores, CTables) and `serve`'s
//! answers, compiled to `wasm32-unknown-unknown`: the module of the static viewer
//! (`scripts/viewer.sh`), which runs in a Web Worker and reads the file the page names by
//! asking its host for byte ranges.
//!
//! The bytes come from a [`ReadAt`](b2schema::source::ReadAt) source: bytes in the module's
//! memory ([`b2schema::source::Memory`]), or the host's (`host::HostSource`, on WebAssembly):
//! the module imports one function, `b2schema.read(source, offset, len, ptr)`, which the host
//! answers synchronously (in a Web Worker: `FileReaderSync` over a `File`, or a synchronous
//! `XMLHttpRequest` with `Range` for a URL; under node: `fs.readSync`). The readers stay
//! synchronous and read only what they need (the metadata, then the blocks a page draws), with
//! the library's budgets ([`b2schema::Limits`]).
//!
//! What a page asks ([`answer`]) is what `b2schema serve` answers, by the same code
//! (`b2schema_cli::serve::__viewer`): the viewer's page is serve's `assets/app.js`, its requests
//! to `/api/...` answered by this module instead of a server.
//!
//! The module exports one function (`exports::viewer`); `tests/wasm/tests/readers.rs` runs
//! [`decode`] over every file of `tests/data` natively and in the module under node.
// Safe Rust only, but for the `no_mangle` attribute of the module's one export and the
// declaration of its one import, each allowed where it stands.
#![deny(unsafe_code)]

mod exports;
#[cfg(target_family = "wasm")]
pub mod host;
mod slots;

use b2schema::Limits;
use b2schema::frame::FrameFile;
use b2schema::handle::Container;
use b2schema::source::Source;
use b2schema::store::Store;
use b2schema::table::CTable;
use b2schema_cli::serve::__viewer::{NoAnswer, Response, frame_answer, query_param, store_answer};

/// The most bytes [`decode`] reads of one array or member (more is an error it reports).
pub const MAX_DECODE_BYTES: u64 = 64 << 20;

/// Whether the source `name` is a python-blosc2 store: a ZIP (`.b2z`), or a `.b2e` whose frame
/// is an EmbedStore's. A `.b2d` is a directory, which a browser cannot open: its member files
/// open one by one.
pub fn is_store(src: &Source, name: &str) -> bool {
    let mut head = [0u8; 4];
    if src.len() >= 4 && src.read_at(0, &mut head).is_ok() && head[..2] == *b"PK" {
        return matches!(head[2..], [3, 4] | [5, 6]);
    }
    name.ends_with(".b2e")
        && FrameFile::from_source(src.clone(), name, Limits::default())
            .is_ok_and(|f| f.view().is_ok_and(|v| v.metalayer("b2embed").is_some()))
}

/// Frames already opened, by their query: a page asks for a frame several times (the page, then
/// each image and value), and over the network each opening costs round trips.
#[derive(Default)]
pub struct Opened {
    frames: Vec<(String, FrameFile)>,
}

/// Frames kept by [`Opened`].
const KEPT_FRAMES: usize = 16;

/// The answer `b2schema serve` gives to `url` (`/api/...?query`) for the file `name` whose bytes
/// are `src`; `root` and `path` of the query are ignored (the source is the one file), `key`
/// names a store's member. `/api/files` lists the one file.
pub fn answer(src: &Source, name: &str, url: &str, opened: &mut Opened) -> Response {
    let (path, query) = url.split_once('?').unwrap_or((url, ""));
    let q = |k: &str| query_param(query, k);
    match path {
        "/api/files" => files(src, name),
        "/api/store" | "/api/table" => match Store::from_source(src.clone(), name, Limits::default()) {
            Ok(store) => store_answer(path, store, &q),
            Err(e) => Response::error(422, e.without_file().to_string()),
        },
        "/api/file" | "/api/heatmap.png" | "/api/plot.png" | "/api/value" | "/api/batch" => {
            let key = q("key").filter(|k| !k.is_empty());
            let batch = path == "/api/batch";
            let limits =
                if batch { b2schema_cli::serve::__viewer::batch_limits() } else { Limits::default() };
            let id = format!("{batch} {}", key.as_deref().unwrap_or(""));
            let found = opened.frames.iter().find(|(k, _)| *k == id).map(|(_, f)| f.clone());
            let kept = found.is_some();
            let frame = match (found, &key) {
                (Some(f), _) => Ok(f),
                (None, Some(key)) if !is_store(src, name) => {
                    Err(NoAnswer::from(format!("{name} is not a store with a member {key:?}")))
                }
                (None, Some(key)) => Store::from_source(src.clone(), name, limits)
                    .and_then(|s| s.open_member(key))
                    .map_err(|e| e.without_file().into()),
                (None, None) => {
                    FrameFile::from_source(src.clone(), name, limits).map_err(|e| e.without_file().into())
                }
            };
            if let (Ok(f), false) = (&frame, kept) {
                if opened.frames.len() >= KEPT_FRAMES {
                    opened.frames.remove(0);
                }
                opened.frames.push((id, f.clone()));
            }
            frame_answer(path, name, key.as_deref(), frame, &q)
        }
        _ => Response::error(404, "no such page"),
    }
}

/// `/api/files`: the one file, as serve lists a file (its kind, shape and dtype, or why it is not
/// Blosc2).
fn files(src: &Source, name: &str) -> Response {
    let mut entry = serde_json::json!({ "root": 0, "path": name, "name": name, "size": src.len() });
    let describe = || -> b2schema::Result<serde_json::Value> {
        if is_store(src, name) {
            let store = Store::from_source(src.clone(), name, Limits::default())?;
            let table = b2schema_cli::input::is_table(&store);
            return Ok(
                serde_json::json!({ "kind": if table { "CTable" } else { "store" }, "members": store.members().len() }),
            );
        }
        let c = b2schema::open_source(src.clone(), name, Limits::default())?;
        Ok(
            serde_json::json!({ "kind": format!("{:?}", c.kind()), "shape": c.shape(), "nchunks": c.frame().view()?.nchunks()?,
            "dtype": c.dtype().map(|d| d.to_string()), "typesize": c.typesize() }),
        )
    };
    match describe() {
        Ok(serde_json::Value::Object(m)) => {
            entry.as_object_mut().into_iter().for_each(|o| o.extend(m.clone()))
        }
        Ok(_) => {}
        Err(e) => entry["error"] = serde_json::json!(e.without_file().to_string()),
    }
    let body = serde_json::json!({ "roots": [name], "files": [entry] });
    Response::ok("application/json", body.to_string())
}

/// What the library reads of the file `name` in `src`, as text: for an array or SChunk its kind,
/// shape, dtype and a hash of all its bytes (or the error); for a store each member so, its
/// vlmeta and, for a CTable, its live rows; and the JSON and image the viewer's page asks first.
/// Native and WebAssembly builds must give the same text for the same bytes.
pub fn decode(src: &Source, name: &str) -> String {
    let mut out = String::new();
    let mut opened = Opened::default();
    if is_store(src, name) {
        match Store::from_source(src.clone(), name, Limits::default()) {
            Ok(store) => {
                out += &format!("store {:?}, {} members\n", store.form(), store.members().len());
                out += &format!("vlmeta {}\n", outcome(store.vlmeta().map(|v| format!("{v:?}"))));
                let keys: Vec<String> = store.keys().map(String::from).collect();
                for key in &keys {
                    let c = store.open_member(key).and_then(Container::from_frame);
                    out += &format!("{key}: {}\n", outcome(c.and_then(array)));
                    out += &page(src, name, &format!("key={key}"), &mut opened);
                }
                if b2schema_cli::input::is_table(&store) {
                    let rows = CTable::new(store).and_then(|t| {
                        let n = t.n_rows()?;
                        Ok(format!("{n} rows, {:?}", t.live_rows(None, 0, n.min(1000))?))
                    });
                    out += &format!("table {}\n", outcome(rows.map(|r| hash_text(r.as_bytes()))));
                }
                out += &line("/api/store", &answer(src, name, "/api/store", &mut opened));
            }
            Err(e) => out += &format!("store error: {e}\n"),
        }
        return out;
    }
    let c = b2schema::open_source(src.clone(), name, Limits::default());
    out += &format!("{}\n", outcome(c.and_then(array)));
    out + &page(src, name, "", &mut opened)
}

/// The answers to what the viewer's page asks first for a frame: its page, and its image.
fn page(src: &Source, name: &str, query: &str, opened: &mut Opened) -> String {
    let file = answer(src, name, &format!("/api/file?{query}"), opened);
    let mut out = line("/api/file", &file);
    let draw = serde_json::from_slice::<serde_json::Value>(&file.body).ok().map(|v| v["draw"].clone());
    if let Some(image @ ("plot" | "heatmap")) = draw.as_ref().and_then(|d| d.as_str()) {
        let url = format!("/api/{image}.png?{query}");
        out += &line(&url, &answer(src, name, &url, opened));
    }
    out
}

/// An answer's status, type and body hash, on one line.
fn line(url: &str, r: &Response) -> String {
    let headers: Vec<String> = r.headers.iter().map(|(k, v)| format!("{k}={v}")).collect();
    let body = match r.status {
        200 => hash_text(&r.body),
        _ => String::from_utf8_lossy(&r.body).into_owned(),
    };
    format!("{url}: {} {} {} {body}\n", r.status, r.content_type, headers.join(" "))
}

/// An array's or SChunk's kind, shape, dtype and bytes.
fn array(mut c: Container) -> b2schema::Result<String> {
    c.set_read_options(b2schema::array::ReadOptions::one_thread(MAX_DECODE_BYTES));
    let bytes = c.read_all()?;
    Ok(format!(
        "{:?} shape {:?} dtype {:?} typesize {}: {}",
        c.kind(),
        c.shape(),
        c.dtype().map(|d| d.to_string()),
        c.typesize(),
        hash_text(&bytes)
    ))
}

fn outcome(r: b2schema::Result<String>) -> String {
    r.unwrap_or_else(|e| format!("error: {e}"))
}

/// The length and FNV-1a hash of `bytes`, as text.
fn hash_text(bytes: &[u8]) -> String {
    let h =
        bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3));
    format!("{} bytes, fnv {h:016x}", bytes.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use b2schema::source::Memory;
    use std::sync::Arc;

    #[test]
    fn a_page_and_its_image_are_answered_from_bytes_in_memory() {
        let items: Vec<u8> = (0..64i32).flat_map(i32::to_le_bytes).collect();
        let bytes = b2schema::writer::NdArray::new(
            &[8, 8],
            &[4, 4],
            &[2, 2],
            "<i4",
            4,
            b2schema::writer::Fill::Data(&items),
        )
        .to_frame()
        .unwrap()
        .to_vec()
        .unwrap();
        let src: Source = Arc::new(Memory::new(bytes));
        let mut opened = Opened::default();
        let page = answer(&src, "a.b2nd", "/api/file?root=0&path=a.b2nd", &mut opened);
        assert_eq!(page.status, 200, "{}", String::from_utf8_lossy(&page.body));
        let v: serde_json::Value = serde_json::from_slice(&page.body).unwrap();
        assert_eq!(v["draw"], "heatmap");
        let png = answer(&src, "a.b2nd", "/api/heatmap.png?y=0&x=1", &mut opened);
        assert!(png.body.starts_with(b"\x89PNG"));
        let value = answer(&src, "a.b2nd", "/api/value?at=7,7", &mut opened);
        assert_eq!(serde_json::from_slice::<serde_json::Value>(&value.body).unwrap()["value"], 63.0);
        assert_eq!(opened.frames.len(), 1, "opened once");
        let list = answer(&src, "a.b2nd", "/api/files", &mut opened);
        assert!(String::from_utf8_lossy(&list.body).contains("\"shape\":[8,8]"));
        assert!(decode(&src, "a.b2nd").contains("shape [8, 8]"));
        // Bytes that are no frame: an answer that says so, never a panic.
        let bad: Source = Arc::new(Memory::new(vec![7u8; 100]));
        assert_eq!(answer(&bad, "x.b2nd", "/api/file", &mut Opened::default()).status, 422);
        assert!(decode(&bad, "x.b2nd").starts_with("error: "));
        assert_eq!(answer(&bad, "x.b2nd", "/api/file?key=/a", &mut Opened::default()).status, 422);
    }
}
