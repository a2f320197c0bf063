//! The viewer's pages and its JSON and PNG endpoints. Every endpoint that names a file takes
//! `root` (the root's number) and `path` (relative to it), resolved by [`Roots::resolve`].

use super::no_answer::NoAnswer;
use std::path::Path;

use b2schema::array::{ArrayReader, ReadOptions, Selection};
use b2schema::frame::FrameFile;
use b2schema::store::Store;
use serde::Serialize;

use super::http::{Request, Response, query_param};
use super::paths::Roots;
use super::render::{self, Numeric, Scale, Slice2};
use super::{batches, files, layout, stores};

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
        "/api/files" => json_response(&files::list(roots)),
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
                None => files::open_frame(&path, limits).map_err(|e| e.without_file().into()),
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
        stores::store_json(store).map(|a| json_response(&a))
    } else {
        let order = q("sort")
            .filter(|c| !c.is_empty())
            .map(|column| stores::Order { column, descending: q("desc").is_some_and(|d| d == "1") });
        stores::table_page(store, number("offset", 0), number("limit", 50), order.as_ref())
            .map(|p| json_response(&p))
    };
    answer.unwrap_or_else(refusal)
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
            let body = NotAFrame { error: format!("not a Blosc2 frame: {}", e.why), path: rel, key };
            return Response { status: 422, ..json_response(&body) };
        }
    };
    let number = |k: &str, d: usize| q(k).and_then(|v| v.parse::<usize>().ok()).unwrap_or(d);
    let answer = match req_path {
        "/api/file" => file_json(rel, &file).map(|a| json_response(&a)),
        "/api/value" => value(&file, &q("at").unwrap_or_default()).map(|a| json_response(&a)),
        "/api/batch" => batches::page(file, number("batch", 0), number("offset", 0), number("limit", 50))
            .map(|a| json_response(&a)),
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

/// `v`'s JSON, answered 200.
fn json_response(v: &impl Serialize) -> Response {
    Response::ok("application/json", crate::report::json(v))
}

/// The answer for a file (or member) that does not open as a frame (422).
#[derive(Serialize)]
struct NotAFrame<'a> {
    /// Why, after `not a Blosc2 frame: `.
    error: String,
    /// The file, by its path under the root.
    path: &'a str,
    /// The store member asked for.
    key: Option<&'a str>,
}

/// `/api/file`'s answer: `inspect --json`'s report, the header's fields with their byte ranges
/// and the header's bytes, a BatchArray's batches, what the frame is, and what can be drawn.
#[derive(Serialize)]
struct FileAnswer {
    #[serde(flatten)]
    report: crate::report::frame::Frame,
    /// The header's first [`MAX_HEX_BYTES`] bytes, in hex.
    header_hex: String,
    /// The header's bytes.
    header_bytes: usize,
    /// The header's fields, for the layout diagram.
    fields: Vec<layout::Field>,
    /// A BatchArray's batches.
    #[serde(skip_serializing_if = "Option::is_none")]
    batches: Option<batches::Summary>,
    /// What the frame is.
    #[serde(skip_serializing_if = "Option::is_none")]
    summary: Option<files::FrameSummary>,
    /// How the page draws it.
    draw: Draw,
}

/// How the file page draws a frame: `"plot"`, `"heatmap"`, `"batches"`, or `{"none": why}`.
#[derive(Serialize)]
#[serde(untagged)]
enum Draw {
    How(&'static str),
    None { none: String },
}

/// `/api/value`'s answer: one item, a number, or its text when not finite (`"NaN"`, `"inf"`).
#[derive(Serialize)]
struct ValueAnswer {
    at: Vec<u64>,
    value: Number,
}

/// A number as JSON carries it: finite, or as text.
#[derive(Serialize)]
#[serde(untagged)]
enum Number {
    Finite(f64),
    Text(String),
}

/// The file page's data: `inspect --json`'s report, the header's fields with their byte ranges
/// and the header's bytes, and what can be drawn.
fn file_json(rel: &str, file: &FrameFile) -> Result<FileAnswer, NoAnswer> {
    // The chunk map shows up to MAX_CHUNKS_LISTED chunks (the report summarises the rest).
    let opts = crate::inspect::Options {
        limits: b2schema::Limits::default().with_max_items(MAX_CHUNKS_LISTED),
        all_chunks: false,
        recursive: false,
    };
    let report = crate::inspect::report(Path::new(rel), file, &opts)?.frame;
    let bytes = file.header_bytes();
    let shown = &bytes[..bytes.len().min(MAX_HEX_BYTES)];
    let fields = match file.view() {
        Ok(v) => layout::fields(
            bytes.len(),
            &v.header.metalayers.iter().map(|(n, _, c)| (n, c)).collect::<Vec<_>>(),
        ),
        Err(_) => layout::fields(bytes.len(), &[]),
    };
    let batches = batches::is_batch_array(file).then(|| batches::summary(file.clone()));
    let none = |why: &str| Draw::None { none: why.to_owned() };
    let draw = match ArrayReader::new(file) {
        _ if batches.is_some() => Draw::How("batches"),
        Ok(a) => match a.meta().parsed_dtype() {
            Some(Ok(d)) => match Numeric::of(&d) {
                Ok(_) if a.shape().len() == 1 => Draw::How("plot"),
                Ok(_) if a.shape().len() >= 2 => Draw::How("heatmap"),
                Ok(_) => none("a 0-dimensional array (one value)"),
                Err(why) => none(&why),
            },
            _ => none("no NumPy dtype"),
        },
        Err(e) => none(&e.to_string()),
    };
    Ok(FileAnswer {
        report,
        header_hex: crate::msgpack_json::hex(shown),
        header_bytes: bytes.len(),
        fields,
        batches,
        summary: files::FrameSummary::of(file).ok(),
        draw,
    })
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
fn value(file: &FrameFile, at: &str) -> Result<ValueAnswer, NoAnswer> {
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
    Ok(ValueAnswer { at, value: if v.is_finite() { Number::Finite(v) } else { Number::Text(v.to_string()) } })
}
