//! The viewer's pages and its JSON and PNG endpoints. Every endpoint that names a file takes
//! `root` (the root's number) and `path` (relative to it), resolved by [`Roots::resolve`].

use super::no_answer::NoAnswer;
use std::path::Path;

use b2schema::array::{ArrayReader, ReadOptions, Selection};
use b2schema::b2nd;
use b2schema::frame::FrameFile;
use b2schema::store::Store;
use serde_json::{Value, json};

use super::http::{Request, Response, query_param};
use super::paths::Roots;
use super::render::{self, Numeric, Scale, Slice2};
use super::{batches, layout, stores};

const INDEX_HTML: &str = include_str!("../../assets/index.html");
const APP_JS: &str = include_str!("../../assets/app.js");
const STYLE_CSS: &str = include_str!("../../assets/style.css");

/// The most header bytes shown in the annotated hex (the fixed part and the metalayers).
pub const MAX_HEX_BYTES: usize = 64 * 1024;

/// The most chunks a file page lists for its chunk map.
pub const MAX_CHUNKS_LISTED: u64 = 100_000;

/// Threads decoding one image.
const NTHREADS: usize = 2;

/// The file a request names by its `root` and `path` parameters, and its path as given; the
/// answer to give when they are missing (400) or lead out of the roots (403).
fn resolved(
    roots: &Roots,
    q: &dyn Fn(&str) -> Option<String>,
) -> Result<(std::path::PathBuf, String), Response> {
    let root = q("root").and_then(|r| r.parse::<usize>().ok());
    let (Some(root), Some(rel)) = (root, q("path")) else {
        return Err(Response::error(400, "root and path expected"));
    };
    let path = roots.resolve(root, &rel).map_err(|why| Response::error(403, why))?;
    Ok((path, rel))
}

/// Answers one request (already checked for its method and `Host`).
pub fn route(roots: &Roots, req: &Request) -> Response {
    let q = |k: &str| query_param(&req.query, k);
    match req.path.as_str() {
        "/" | "/index.html" => Response::ok("text/html; charset=utf-8", INDEX_HTML),
        "/app.js" => Response::ok("text/javascript; charset=utf-8", APP_JS),
        "/style.css" => Response::ok("text/css; charset=utf-8", STYLE_CSS),
        "/api/files" => json_response(files(roots)),
        "/api/store" | "/api/table" => {
            let (path, _) = match resolved(roots, &q) {
                Ok(found) => found,
                Err(answer) => return answer,
            };
            if !stores::is_store(&path) {
                return Response::error(422, "not a python-blosc2 store");
            }
            match stores::open(&path) {
                Ok(store) => store_answer(&req.path, store, &q),
                Err(e) => refusal(e.into()),
            }
        }
        "/api/file" | "/api/heatmap.png" | "/api/plot.png" | "/api/value" | "/api/batch" => {
            let (path, rel) = match resolved(roots, &q) {
                Ok(found) => found,
                Err(answer) => return answer,
            };
            let key = q("key").filter(|k| !k.is_empty());
            let limits = match req.path.as_str() {
                "/api/batch" => batches::limits(),
                _ => b2schema::Limits::default(),
            };
            let opened = match &key {
                Some(key) if !stores::is_store(&path) => {
                    Err(NoAnswer::from(format!("{rel} is not a store with a member {key:?}")))
                }
                // The answer names the file by its path under the root (`path`), never by where it
                // lies on this machine or the URL it was read from.
                Some(key) => stores::open_member(&path, key, limits).map_err(|e| e.without_file().into()),
                None => open_frame(&path, limits).map_err(|e| e.without_file().into()),
            };
            frame_answer(&req.path, &rel, key.as_deref(), opened, &q)
        }
        _ => Response::error(404, "no such page"),
    }
}

/// `/api/store` (the store's members, vlmeta and table schema) or `/api/table` (a page of rows,
/// by the parameters `offset`, `limit`, `sort` and `desc` of `q`) for `store`, however opened
/// (the static viewer's module opens it from the browser's bytes).
pub fn store_answer(req_path: &str, store: Store, q: &dyn Fn(&str) -> Option<String>) -> Response {
    let number = |k: &str, d: usize| q(k).and_then(|v| v.parse::<usize>().ok()).unwrap_or(d);
    let answer = if req_path == "/api/store" {
        stores::store_json(store)
    } else {
        let order = q("sort")
            .filter(|c| !c.is_empty())
            .map(|column| stores::Order { column, descending: q("desc").is_some_and(|d| d == "1") });
        stores::table_page(store, number("offset", 0), number("limit", 50), order.as_ref())
    };
    answer.map(json_response).unwrap_or_else(refusal)
}

/// `/api/file`, `/api/value`, `/api/batch`, `/api/plot.png` or (any other path)
/// `/api/heatmap.png` for the frame `opened` (the file `rel`, or its store's member `key`), or
/// the answer saying why it did not open; however it was opened (the static viewer's module
/// opens it from the browser's bytes).
pub fn frame_answer(
    req_path: &str,
    rel: &str,
    key: Option<&str>,
    opened: Result<FrameFile, NoAnswer>,
    q: &dyn Fn(&str) -> Option<String>,
) -> Response {
    let file = match opened {
        Ok(f) => f,
        Err(e) if e.is_outside() => return refusal(e),
        Err(e) => {
            let body = json!({ "error": format!("not a Blosc2 frame: {}", e.why), "path": rel, "key": key });
            return Response { status: 422, ..json_response(body) };
        }
    };
    let number = |k: &str, d: usize| q(k).and_then(|v| v.parse::<usize>().ok()).unwrap_or(d);
    let answer = match req_path {
        "/api/file" => file_json(rel, &file).map(json_response),
        "/api/value" => value(&file, &q("at").unwrap_or_default()).map(json_response),
        "/api/batch" => batches::page(file, number("batch", 0), number("offset", 0), number("limit", 50))
            .map(json_response),
        "/api/plot.png" => plot(&file),
        _ => heatmap(&file, &q),
    };
    answer.unwrap_or_else(refusal)
}

/// The answer to a request that failed: 403 when a file it met leaves the roots (a member,
/// column or chunk file that is a link to outside), else 422 ([`NoAnswer`]).
fn refusal(no: NoAnswer) -> Response {
    no.response()
}

fn json_response(v: Value) -> Response {
    Response::ok("application/json", v.to_string())
}

/// The list: every entry with its size, kind, shape and dtype (or the reason it is not a frame).
/// A remote root's entry is made off the request path ([`super::remote::Listings`]): one that
/// does not answer is listed as pending, never blocking the list.
fn files(roots: &Roots) -> Value {
    let entries = with_store_dirs(roots.list());
    let remote: Vec<(super::remote::Key, super::remote::Make)> = entries
        .iter()
        .filter(|e| crate::open::is_url(&e.path))
        .map(|e| {
            let e = e.clone();
            ((e.root, e.rel.clone()), Box::new(move || entry_json(&e)) as super::remote::Make)
        })
        .collect();
    let mut remote_json = roots
        .1
        .entries(remote, |(root, rel)| {
            let name = match rel.is_empty() {
                true => roots.all().get(*root).map(|p| p.display().to_string()).unwrap_or_default(),
                false => rel.clone(),
            };
            json!({ "root": root, "path": rel, "name": name, "size": 0,
                    "error": "pending: the server has not answered yet (asked in the background)" })
        })
        .into_iter();
    let files: Vec<Value> = entries
        .iter()
        .map(|e| match crate::open::is_url(&e.path) {
            true => remote_json.next().unwrap_or(Value::Null),
            false => entry_json(e),
        })
        .collect();
    let roots: Vec<String> = roots.all().iter().map(|r| r.display().to_string()).collect();
    json!({ "roots": roots, "files": files })
}

/// One entry of the list.
fn entry_json(e: &super::paths::Entry) -> Value {
    let name = if e.rel.is_empty() {
        e.path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
    } else {
        e.rel.clone()
    };
    if stores::is_store(&e.path) {
        let size = match crate::open::is_url(&e.path) {
            true => stores::file_len(&e.path),
            false => size_of(&e.path),
        };
        let mut m = json!({ "root": e.root, "path": e.rel, "name": name, "size": size });
        if let Some(o) = m.as_object_mut() {
            o.extend(stores::summary(&e.path));
        }
        return m;
    }
    let opened = open_frame(&e.path, b2schema::Limits::default());
    let size = match &opened {
        Ok(f) if crate::open::is_url(&e.path) => f.frame_len(),
        _ => size_of(&e.path),
    };
    let mut m = json!({ "root": e.root, "path": e.rel, "name": name, "size": size });
    match opened.and_then(|f| summary(&f)) {
        Ok(s) => {
            if let Some(o) = m.as_object_mut() {
                o.extend(s);
            }
        }
        Err(err) => m["error"] = json!(err.to_string()),
    }
    m
}

/// The entries, with every `.b2d` store directory that holds some of them listed too (before
/// its first member), so that the list shows the store as well as its files.
fn with_store_dirs(entries: Vec<super::paths::Entry>) -> Vec<super::paths::Entry> {
    let mut out: Vec<super::paths::Entry> = Vec::new();
    for e in entries {
        let parts: Vec<&str> = e.rel.split('/').collect();
        for n in 1..parts.len() {
            let rel = parts[..n].join("/");
            if !rel.ends_with(".b2d") || out.iter().any(|o| o.root == e.root && o.rel == rel) {
                continue;
            }
            let Some(path) = e.path.ancestors().nth(parts.len() - n) else { continue };
            if stores::is_store(path) {
                out.push(super::paths::Entry { root: e.root, rel, path: path.to_path_buf() });
            }
        }
        out.push(e);
    }
    out
}

/// The frame at `path`: a file, a sparse frame's directory, or a URL (a root given as one).
fn open_frame(path: &Path, limits: b2schema::Limits) -> b2schema::Result<FrameFile> {
    match crate::open::is_url(path) {
        true => crate::open::open_url(path, 0, limits),
        false => FrameFile::open_with_limits(path, limits),
    }
}

/// Bytes of a file, or of the files directly inside a sparse frame's directory.
fn size_of(p: &Path) -> u64 {
    if p.is_dir() {
        std::fs::read_dir(p)
            .map(|rd| {
                rd.flatten().filter_map(|e| e.metadata().ok()).filter(|m| m.is_file()).map(|m| m.len()).sum()
            })
            .unwrap_or(0)
    } else {
        p.metadata().map(|m| m.len()).unwrap_or(0)
    }
}

fn summary(file: &FrameFile) -> b2schema::Result<serde_json::Map<String, Value>> {
    let v = file.view()?;
    let mut m = serde_json::Map::new();
    m.insert("frame".into(), json!(if v.is_sparse() { "sparse" } else { "contiguous" }));
    m.insert("nchunks".into(), json!(v.nchunks()?));
    let nd = v.metalayer("b2nd").or_else(|| v.metalayer("caterva"));
    match nd.and_then(|raw| b2nd::read_any(raw).ok()) {
        Some(nd) => {
            m.insert("kind".into(), json!("NDArray"));
            m.insert("shape".into(), json!(nd.shape));
            m.insert("dtype".into(), json!(nd.dtype));
        }
        None if v.metalayer("batcharray").is_some() => {
            m.insert("kind".into(), json!("BatchArray"));
        }
        None if v.metalayer("vlarray").is_some() => {
            m.insert("kind".into(), json!("ObjectArray"));
        }
        None => {
            m.insert("kind".into(), json!("SChunk"));
            m.insert("typesize".into(), json!(v.header.typesize));
        }
    }
    Ok(m)
}

/// The file page's data: `inspect --json`'s report, the header's fields with their byte ranges
/// and the header's bytes, and what can be drawn.
fn file_json(rel: &str, file: &FrameFile) -> Result<Value, NoAnswer> {
    // The chunk map shows up to MAX_CHUNKS_LISTED chunks (the report summarises the rest).
    let opts = crate::inspect::Options {
        limits: b2schema::Limits::default().with_max_items(MAX_CHUNKS_LISTED),
        all_chunks: false,
        recursive: false,
    };
    let mut r = crate::inspect::report(Path::new(rel), file, &opts)?.value();
    let bytes = file.header_bytes();
    let shown = &bytes[..bytes.len().min(MAX_HEX_BYTES)];
    r["header_hex"] = json!(crate::msgpack_json::hex(shown));
    r["header_bytes"] = json!(bytes.len());
    r["fields"] = match file.view() {
        Ok(v) => json!(layout::fields(
            bytes.len(),
            &v.header.metalayers.iter().map(|(n, _, c)| (n, c)).collect::<Vec<_>>()
        )),
        Err(_) => json!(layout::fields(bytes.len(), &[])),
    };
    if batches::is_batch_array(file) {
        r["batches"] = batches::summary(file.clone());
    }
    if let Ok(s) = summary(file) {
        r["summary"] = Value::Object(s);
    }
    let is_batches = r.get("batches").is_some();
    r["draw"] = match ArrayReader::new(file) {
        _ if is_batches => json!("batches"),
        Ok(a) => match a.meta().parsed_dtype() {
            Some(Ok(d)) => match Numeric::of(&d) {
                Ok(_) if a.shape().len() == 1 => json!("plot"),
                Ok(_) if a.shape().len() >= 2 => json!("heatmap"),
                Ok(_) => json!({ "none": "a 0-dimensional array (one value)" }),
                Err(why) => json!({ "none": why }),
            },
            _ => json!({ "none": "no NumPy dtype" }),
        },
        Err(e) => json!({ "none": e.to_string() }),
    };
    Ok(r)
}

fn reader_and_numeric(file: &FrameFile) -> Result<(ArrayReader<'_>, Numeric), NoAnswer> {
    let reader = ArrayReader::new(file)?;
    let num = match reader.meta().parsed_dtype() {
        Some(Ok(d)) => Numeric::of(&d)?,
        Some(Err(e)) => return Err(format!("dtype: {e}").into()),
        None => return Err("an array without a NumPy dtype".into()),
    };
    if num.size() != reader.typesize() {
        return Err(format!("dtype of {} bytes, typesize {}", num.size(), reader.typesize()).into());
    }
    Ok((reader, num))
}

fn png_response(img: &render::Image) -> Result<Response, NoAnswer> {
    let mut resp = Response::ok("image/png", super::png::encode(img)?);
    resp.headers = vec![
        ("X-Scale-Lo", format!("{}", img.lo)),
        ("X-Scale-Hi", format!("{}", img.hi)),
        ("X-Step", img.step.to_string()),
    ];
    Ok(resp)
}

fn numbers(s: &str) -> Result<Vec<u64>, NoAnswer> {
    if s.is_empty() {
        return Ok(Vec::new());
    }
    s.split(',')
        .map(|x| x.trim().parse::<u64>().map_err(|_| format!("an index expected, found {x:?}").into()))
        .collect()
}

fn heatmap(file: &FrameFile, q: &dyn Fn(&str) -> Option<String>) -> Result<Response, NoAnswer> {
    let (reader, num) = reader_and_numeric(file)?;
    let nd = reader.shape().len();
    let axis = |k: &str, d: usize| {
        q(k).map_or(Ok(d), |v| v.parse::<usize>().map_err(|_| format!("{k}: an axis expected")))
    };
    let y = axis("y", nd.saturating_sub(2))?;
    let x = axis("x", nd.saturating_sub(1))?;
    let index = match q("index") {
        Some(s) => numbers(&s)?,
        None => vec![0; nd],
    };
    let scale = match q("scale").as_deref() {
        None | Some("minmax") => Scale::MinMax,
        Some("percentile") => Scale::Percentile,
        Some(o) => return Err(format!("scale: minmax or percentile expected, found {o:?}").into()),
    };
    let img = render::heatmap(&reader, num, &Slice2 { y, x, index }, scale, NTHREADS)?;
    png_response(&img)
}

fn plot(file: &FrameFile) -> Result<Response, NoAnswer> {
    let (reader, num) = reader_and_numeric(file)?;
    png_response(&render::line_plot(&reader, num, NTHREADS)?)
}

/// One item's value (decoding only the block that holds it).
fn value(file: &FrameFile, at: &str) -> Result<Value, NoAnswer> {
    let (reader, num) = reader_and_numeric(file)?;
    let at = numbers(at)?;
    let shape = reader.shape();
    if at.len() != shape.len() || at.iter().zip(shape).any(|(&i, &n)| i >= n) {
        return Err(format!("an index inside the shape {shape:?} expected, found {at:?}").into());
    }
    let sel = Selection::new(at.iter().map(|&i| i..i + 1).collect(), shape)
        .map_err(|e| NoAnswer::from(e.to_string()))?;
    let (bytes, _) = reader.read(&sel, &ReadOptions::one_thread(64))?;
    let v = num.value(&bytes);
    Ok(json!({ "at": at, "value": if v.is_finite() { json!(v) } else { json!(v.to_string()) } }))
}
