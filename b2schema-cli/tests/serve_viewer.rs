//! `b2schema serve` for every kind of file (issue 53): each member of a `.b2z`, `.b2e` or `.b2d`
//! opens on a frame's page by its key (header, layout, chunk map, data, as the same frame read by
//! the library), a BatchArray shows its batches and items, a CTable is sorted on the server by a
//! column (nulls last, paged, bounded), store and table vlmeta are values, and the header layout
//! names the metalayers. Attacks: member names, vlmeta, metalayer names and items that are HTML
//! or script reach the page as text only; a table over the sort budget is refused before it is
//! read; a BatchArray whose metadata lies, or whose batch is over the budget, is an error of
//! that batch, answered at once. In a real browser (headless Chromium, as `serve.rs`): a store
//! member's page, a BatchArray's, a sorted table's; with `B2SCHEMA_SCREENSHOTS=1` their
//! screenshots go to `docs/viewer/`.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use b2schema::Value as B2Value;
use b2schema::store::{Flavour, Store, StoreWriter};
use b2schema::table::BatchArrayWriter;
use b2schema::writer::Array;
use b2schema_tests::repo_root;
use serde_json::{Value, json};

use super::serve::{Browser, TempDir, http, start_server};

fn get(port: u16, q: &str) -> (u16, Value) {
    let (status, _, body) = http(port, "GET", q, &format!("127.0.0.1:{port}"), None);
    (status, serde_json::from_slice(&body).unwrap_or_else(|_| json!(String::from_utf8_lossy(&body))))
}

fn enc(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

#[test]
fn serve_opens_every_member_of_every_store_on_a_frame_page() {
    let stores = repo_root().join("tests/data/stores");
    let (_server, port) = start_server(&[&stores]);
    let want: Value =
        serde_json::from_str(&std::fs::read_to_string(stores.join("stores.json")).unwrap()).unwrap();
    for name in ["dict.b2z", "dict.b2d", "embed.b2e", "tree.b2z", "small.b2z", "kinds.b2z"] {
        let (status, listing) = get(port, &format!("/api/store?root=0&path={name}"));
        assert_eq!(status, 200, "{name}: {listing}");
        let store = Store::open(stores.join(name)).unwrap();
        let keys: Vec<&str> =
            listing["members"].as_array().unwrap().iter().map(|m| m["key"].as_str().unwrap()).collect();
        assert_eq!(keys, store.keys().collect::<Vec<_>>(), "{name}");
        for m in listing["members"].as_array().unwrap() {
            let key = m["key"].as_str().unwrap();
            assert!(m["codec"].is_string(), "{name} {key}: a codec name: {m}");
            let q = format!("root=0&path={name}&key={}", enc(key));
            let (status, page) = get(port, &format!("/api/file?{q}"));
            assert_eq!(status, 200, "{name} {key}: {page}");
            // The header is the member's frame's, as the library reads it.
            let frame = store.open_member(key).unwrap();
            let hex: String = frame.header_bytes().iter().map(|b| format!("{b:02x}")).collect();
            assert_eq!(page["header_hex"], json!(hex), "{name} {key}");
            assert!(
                page["header"]["codec"].is_string() && page["header"]["filter_names"].is_array(),
                "{page}"
            );
            // The layout names every metalayer and reaches the header's end.
            let fields = page["fields"].as_array().unwrap();
            let end = fields.iter().map(|f| f["start"].as_u64().unwrap() + f["len"].as_u64().unwrap()).max();
            assert_eq!(end, Some(frame.header_bytes().len() as u64), "{name} {key}");
            for layer in page["metalayers"].as_array().unwrap() {
                let n = layer["name"].as_str().unwrap();
                assert!(
                    fields.iter().any(|f| f["name"] == json!(format!("{n} ({} B)", layer["len"]))),
                    "{n}"
                );
            }
            // An NDArray member's values are the ones python-blosc2 wrote.
            if let Some(data) = want["stores"][name][key]["data"].as_array() {
                let shape: Vec<u64> =
                    serde_json::from_value(want["stores"][name][key]["shape"].clone()).unwrap();
                let last: Vec<String> = shape.iter().map(|n| (n - 1).to_string()).collect();
                let (status, v) = get(port, &format!("/api/value?{q}&at={}", last.join(",")));
                assert_eq!(status, 200, "{v}");
                assert_eq!(v["value"].as_f64(), data.last().unwrap().as_f64(), "{name} {key}");
                let image = if shape.len() == 1 { "plot" } else { "heatmap" };
                let (_, headers, body) =
                    http(port, "GET", &format!("/api/{image}.png?{q}"), &format!("127.0.0.1:{port}"), None);
                assert!(headers.contains(&("content-type".into(), "image/png".into())), "{name} {key}");
                assert!(body.starts_with(b"\x89PNG"), "{name} {key}");
            }
        }
    }
    // A key the store does not have, and a key on a path that is not a store.
    let (status, v) = get(port, "/api/file?root=0&path=dict.b2z&key=%2Fnone");
    assert_eq!(status, 422, "{v}");
    let (status, _) = get(port, "/api/file?root=0&path=stores.json&key=%2Fx");
    assert_eq!(status, 422);
}

#[test]
fn serve_shows_store_and_table_vlmeta_as_values() {
    let dir = TempDir::new("viewer-vlmeta");
    let vl = Array::from_slice(&[1], &[0u8]).unwrap().vlmeta("title", "<b>tree</b>").unwrap();
    let vl = vl.vlmeta("n", &vec![1, 2]).unwrap().to_vec().unwrap();
    let mut w = StoreWriter::new(Flavour::Tree);
    w.insert("/g/a", Array::from_slice(&[3], &[1i64, 2, 3]).unwrap().to_vec().unwrap()).unwrap();
    w.insert(b2schema::store::VLMETA_KEY, vl).unwrap();
    w.write_zip(dir.0.join("t.b2z")).unwrap();
    let (_server, port) = start_server(&[&dir.0]);
    let (status, s) = get(port, "/api/store?root=0&path=t.b2z");
    assert_eq!(status, 200, "{s}");
    assert_eq!(
        s["vlmeta"],
        json!([{ "name": "title", "value": "<b>tree</b>" }, { "name": "n", "value": [1, 2] }])
    );
    assert!(!s.to_string().contains("__vlmeta__"), "the vlmeta is not a member: {s}");
    // A CTable's vlmeta (`t.vlmeta`, in `/_vlmeta`) beside its columns' types.
    let tables = repo_root().join("tests/data/tables/table.b2d");
    let (_t, tp) = start_server(&[&tables]);
    let (status, s) = get(tp, "/api/store?root=0&path=");
    assert_eq!(status, 200, "{s}");
    let cols: Vec<(String, String, bool)> = s["table"]["columns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (c["name"].as_str().unwrap().into(), c["kind"].as_str().unwrap().into(), c["nullable"] == true)
        })
        .collect();
    assert_eq!(cols[4], ("raw".into(), "vlbytes".into(), true));
    assert_eq!(cols[6], ("n32".into(), "int32".into(), true));
    assert_eq!(s["table"]["vlmeta"], json!([]));
}

/// The rows of `tables.json`'s table, in its column order.
fn table_rows() -> (Vec<String>, Vec<Vec<Value>>) {
    let tables = repo_root().join("tests/data/tables");
    let want: Value =
        serde_json::from_str(&std::fs::read_to_string(tables.join("tables.json")).unwrap()).unwrap();
    let columns: Vec<String> = serde_json::from_value(want["table.b2d"]["columns"].clone()).unwrap();
    let rows = want["table.b2d"]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| columns.iter().map(|c| r[c].clone()).collect())
        .collect();
    (columns, rows)
}

/// `a` before `b` as the viewer sorts (nulls last whichever the direction).
fn before(a: &Value, b: &Value, desc: bool) -> std::cmp::Ordering {
    use std::cmp::Ordering;
    let key = |v: &Value| match v {
        Value::Null => None,
        Value::Bool(b) => Some((0, *b as i64 as f64, String::new())),
        Value::Number(n) => Some((1, n.as_f64().unwrap(), String::new())),
        Value::String(s) => Some((2, 0.0, s.clone())),
        Value::Object(o) => Some((3, 0.0, o["__bytes__"].as_str().unwrap().to_owned())),
        other => panic!("{other}"),
    };
    match (key(a), key(b)) {
        (None, None) => Ordering::Equal,
        (None, _) => Ordering::Greater,
        (_, None) => Ordering::Less,
        (Some(x), Some(y)) => {
            let o = x.0.cmp(&y.0).then(x.1.total_cmp(&y.1)).then(x.2.cmp(&y.2));
            if desc { o.reverse() } else { o }
        }
    }
}

#[test]
fn serve_sorts_a_table_by_each_column_on_the_server_nulls_last_and_pages_it() {
    let tables = repo_root().join("tests/data/tables");
    let (_server, port) = start_server(&[&tables]);
    let (columns, rows) = table_rows();
    for (c, name) in columns.iter().enumerate() {
        for desc in [false, true] {
            let mut want = rows.clone();
            want.sort_by(|a, b| before(&a[c], &b[c], desc));
            let q = format!("/api/table?root=0&path=table.b2d&sort={name}&desc={}", desc as u8);
            let (status, page) = get(port, &format!("{q}&offset=0&limit=50"));
            assert_eq!(status, 200, "{q}: {page}");
            let got: Vec<Value> = page["rows"].as_array().unwrap().iter().map(|r| r[c].clone()).collect();
            let sorted: Vec<Value> = want.iter().map(|r| r[c].clone()).collect();
            assert_eq!(got, sorted, "{q}");
            assert_eq!(page["n_rows"], 6);
            // A page of it: the same rows, from the offset.
            let (_, page2) = get(port, &format!("{q}&offset=2&limit=3"));
            assert_eq!(page2["rows"].as_array().unwrap(), &page["rows"].as_array().unwrap()[2..5], "{q}");
        }
    }
    let (status, v) = get(port, "/api/table?root=0&path=table.b2d&sort=nope");
    assert_eq!(status, 422, "{v}");
}

#[test]
fn serve_refuses_to_sort_a_table_over_its_budget_before_reading_it() {
    let dir = TempDir::new("viewer-big-sort");
    let script = r#"
import sys, blosc2, numpy as np
from dataclasses import dataclass
@dataclass
class Row:
    id: int = blosc2.field(blosc2.int64())
t = blosc2.CTable(Row, urlpath=sys.argv[1], mode="w")
n = (1 << 20) + 5
a = np.zeros(n, dtype=[("id", "<i8")])
a["id"] = np.arange(n)[::-1]
t.extend(a)
t.close()
"#;
    let path = dir.0.join("big.b2z");
    let out = Command::new(b2schema_tests::python()).arg("-c").arg(script).arg(&path).output().unwrap();
    assert!(out.status.success(), "python-blosc2: {}", String::from_utf8_lossy(&out.stderr));
    let (_server, port) = start_server(&[&dir.0]);
    let t = Instant::now();
    let (status, v) = get(port, "/api/table?root=0&path=big.b2z&sort=id&offset=0&limit=5");
    let took = t.elapsed();
    assert_eq!(status, 422, "{v}");
    assert!(v.as_str().unwrap().contains("over the viewer's budget of 1048576 rows"), "{v}");
    // Refused before a key is read: a deadline for a hang only.
    assert!(took < Duration::from_secs(20), "{took:?}");
    // Unsorted, the table pages as before.
    let (status, v) = get(port, "/api/table?root=0&path=big.b2z&offset=1048576&limit=5");
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["rows"][0], json!([4]));
}

/// A BatchArray of `batches`, its file's bytes.
fn batch_array(batches: &[Vec<B2Value>]) -> Vec<u8> {
    let mut w = BatchArrayWriter::new(b2schema::chunk::Params::new(1), Some(4));
    for b in batches {
        w.push(b).unwrap();
    }
    w.to_vec().unwrap()
}

#[test]
fn serve_shows_a_batch_arrays_batches_and_items_and_its_lies_as_errors_of_a_batch() {
    let dir = TempDir::new("viewer-batches");
    let tables = repo_root().join("tests/data/tables");
    std::fs::copy(tables.join("batch.b2b"), dir.0.join("batch.b2b")).unwrap();
    std::fs::copy(repo_root().join("tests/data/stores/kinds.b2z"), dir.0.join("kinds.b2z")).unwrap();
    let honest = batch_array(&[vec![1i64.into(), "two".into()], vec!["three".into()]]);
    // Lengths that lie: 10^15 items claimed in the first batch.
    std::fs::write(dir.0.join("lie.b2b"), &honest).unwrap();
    let lie = B2Value::Map(vec![(
        "batch_lengths".into(),
        B2Value::Array(vec![B2Value::from(1_000_000_000_000_000i64), B2Value::from(1i64)]),
    )]);
    b2schema::writer::set_vlmetalayer(
        dir.0.join("lie.b2b"),
        "_batch_array_metadata",
        &lie.to_msgpack().unwrap(),
    )
    .unwrap();
    // Lengths for three batches where there are two.
    std::fs::write(dir.0.join("count.b2b"), &honest).unwrap();
    let three = B2Value::Map(vec![(
        "batch_lengths".into(),
        B2Value::Array(vec![B2Value::from(2i64), B2Value::from(1i64), B2Value::from(5i64)]),
    )]);
    b2schema::writer::set_vlmetalayer(
        dir.0.join("count.b2b"),
        "_batch_array_metadata",
        &three.to_msgpack().unwrap(),
    )
    .unwrap();
    // A batch of 65 MiB (one string, compressed to little): over the viewer's batch budget.
    let big = "x".repeat(65 << 20);
    std::fs::write(dir.0.join("big.b2b"), batch_array(&[vec![big.as_str().into()], vec![2i64.into()]]))
        .unwrap();

    let (_server, port) = start_server(&[&dir.0]);
    let (_, files) = get(port, "/api/files");
    let kind =
        |p: &str| files["files"].as_array().unwrap().iter().find(|f| f["path"] == p).unwrap()["kind"].clone();
    assert_eq!(kind("batch.b2b"), json!("BatchArray"));

    let want: Value =
        serde_json::from_str(&std::fs::read_to_string(tables.join("tables.json")).unwrap()).unwrap();
    let (status, page) = get(port, "/api/file?root=0&path=batch.b2b");
    assert_eq!(status, 200);
    assert_eq!(page["draw"], "batches");
    let b = &page["batches"];
    let n = b["batches"].as_u64().unwrap();
    assert_eq!(b["items"].as_u64(), Some(want["batch.b2b"].as_array().unwrap().len() as u64), "{b}");
    let mut items = Vec::new();
    for i in 0..n {
        let (status, p) = get(port, &format!("/api/batch?root=0&path=batch.b2b&batch={i}&limit=500"));
        assert_eq!(status, 200, "{p}");
        assert_eq!(p["n_items"], b["lengths"][i as usize]);
        items.extend(p["items"].as_array().unwrap().iter().cloned());
    }
    assert_eq!(json!(items), want["batch.b2b"]);
    let (_, p) = get(port, "/api/batch?root=0&path=batch.b2b&batch=0&offset=2&limit=2");
    assert_eq!(p["items"], json!(want["batch.b2b"].as_array().unwrap()[2..4]));
    // A store's BatchArray member, by its key.
    let (status, p) = get(port, "/api/batch?root=0&path=kinds.b2z&key=%2Fbatch&batch=0");
    assert_eq!(status, 200, "{p}");
    assert_eq!(p["n_items"], 3);

    // The lies: the page opens, the claimed counts shown as claimed, the batch an error.
    let (status, page) = get(port, "/api/file?root=0&path=lie.b2b");
    assert_eq!(status, 200, "{page}");
    assert_eq!(page["batches"]["lengths"], json!([1_000_000_000_000_000u64, 1]));
    let t = Instant::now();
    let (status, p) = get(port, "/api/batch?root=0&path=lie.b2b&batch=0");
    assert_eq!(status, 422, "{p}");
    assert!(p.as_str().unwrap().contains("as many items as batch_lengths says"), "{p}");
    let (status, page) = get(port, "/api/file?root=0&path=count.b2b");
    assert_eq!(status, 200, "{page}");
    assert!(page["batches"]["error"].as_str().unwrap().contains("a batch length per chunk"), "{page}");
    let (status, p) = get(port, "/api/batch?root=0&path=big.b2b&batch=0");
    assert_eq!(status, 422, "{}", &p.to_string()[..p.to_string().len().min(300)]);
    assert!(p.as_str().unwrap().contains("budget") || p.as_str().unwrap().contains("limit"), "{p}");
    let (status, p) = get(port, "/api/batch?root=0&path=big.b2b&batch=1");
    assert_eq!((status, &p["items"]), (200, &json!([2])));
    assert!(t.elapsed() < Duration::from_secs(30), "a deadline for a hang only: {:?}", t.elapsed());
}

/// Text that would run script or make elements if it reached the page as HTML.
const HOSTILE: &str = "<img src=x onerror=window.pwned=1><svg onload=window.pwned=2>";

/// A store whose member key, vlmeta (name and value), metalayer name and BatchArray items are
/// HTML.
fn hostile_store(path: &Path) {
    let mut w = StoreWriter::new(Flavour::Dict);
    let nd = Array::from_slice(&[2, 3], &[1.0f64, 2.0, 3.0, 4.0, 5.0, 6.0])
        .unwrap()
        .meta("<b onclick=x>m</b>", &"<script>window.pwned=3</script>")
        .unwrap()
        .vlmeta("<i>v</i>", HOSTILE)
        .unwrap();
    w.insert(&format!("/{HOSTILE}"), nd.to_vec().unwrap()).unwrap();
    w.insert("/\"'><script>window.pwned=4<", batch_array(&[vec![HOSTILE.into(), "</td><b>x</b>".into()]]))
        .unwrap();
    let vl = Array::from_slice(&[1], &[0u8]).unwrap().vlmeta("<u>n</u>", HOSTILE).unwrap();
    let vl = vl.vlmeta("x", HOSTILE).unwrap().to_vec().unwrap();
    w.insert(b2schema::store::VLMETA_KEY, vl).unwrap();
    w.write_zip(path).unwrap();
}

/// Elements the page's own code never makes, and whether a script of the file ran.
const INJECTED: &str = "return [document.querySelectorAll('main img:not(#image), main svg, main script, main b, main i, main u').length, \
                        window.pwned === undefined]";

#[test]
fn serve_in_a_browser_shows_members_batches_and_sorted_tables_and_hostile_text_as_text() {
    let dir = TempDir::new("viewer-browser");
    hostile_store(&dir.0.join("hostile.b2z"));
    let stores = repo_root().join("tests/data/stores");
    let tables = repo_root().join("tests/data/tables");
    let (_server, port) = start_server(&[&stores, &tables, &dir.0]);
    let url = format!("http://127.0.0.1:{port}/");
    let browser = Browser::start();

    // A .b2z store's page links every member by its key; a member's page is a frame's page.
    browser.open(&format!("{url}#/store/0/dict.b2z"));
    let links =
        browser.js("return [...document.querySelectorAll('#members a')].map(a => a.getAttribute('href'))");
    assert!(links.as_array().unwrap().contains(&json!("#/member/0/dict.b2z/%2Fbig")), "{links}");
    browser.open(&format!("{url}#/member/0/dict.b2z/%2Fbig"));
    let shown =
        |k: &str| browser.js(&format!("return document.querySelector('td[data-key=\"{k}\"]').textContent"));
    assert_eq!(shown("typesize"), json!("8"));
    assert_eq!(shown("codec"), json!("zstd"));
    let filters = shown("filters");
    assert!(!filters.as_str().unwrap().contains('['), "filters by name: {filters}");
    let size = browser.js("const i = document.getElementById('image'); return new Promise(r => { const f = () => i.complete && i.naturalWidth ? r(i.naturalWidth + 'x' + i.naturalHeight) : setTimeout(f, 20); f(); })");
    assert_eq!(size, json!("50x12"));
    // The layout names the b2nd metalayer in its boxes, none is an ellipsis alone.
    let boxes =
        browser.js("return [...document.querySelectorAll('#diagram .field')].map(e => e.textContent)");
    let boxes: Vec<String> = serde_json::from_value(boxes).unwrap();
    assert!(boxes.iter().any(|b| b.starts_with("b2nd (")), "{boxes:?}");
    assert!(boxes.iter().all(|b| b != "…" && !b.is_empty()), "{boxes:?}");
    browser.hover("#diagram [data-field^=\"b2nd (\"]");
    let lit = browser.js("return document.querySelectorAll('#hex .hl').length");
    assert!(lit.as_u64().unwrap() > 5, "the metalayer's bytes highlighted: {lit}");
    browser.screenshot("viewer/store-member.png", "#fieldinfo");

    // A BatchArray: its batches and items.
    browser.open(&format!("{url}#/file/1/batch.b2b"));
    let summary = browser.js("return document.getElementById('batchsummary').textContent");
    assert!(summary.as_str().unwrap().starts_with("2 batches, 11 items"), "{summary}");
    let items = browser
        .js("return [...document.querySelectorAll('#items tbody tr')].map(r => r.children[1].textContent)");
    assert_eq!(items, json!(["1", "two", "0x7468726565", "[4,5]", "{\"six\":6}", "null", "true"]));
    browser.js(
        "const s = document.getElementById('batch'); s.value = '1'; s.dispatchEvent(new Event('change'))",
    );
    let deadline = Instant::now() + Duration::from_secs(20);
    while browser.js("return document.getElementById('iteminfo').textContent") != json!("items 0-4 of 4") {
        assert!(Instant::now() < deadline, "batch 1 never shown");
        std::thread::sleep(Duration::from_millis(50));
    }
    browser.screenshot("viewer/batch-array.png", "#batches");

    // A table sorted by a column on the server (click: smallest first; again: largest first).
    browser.open(&format!("{url}#/store/1/table.b2d"));
    let types =
        browser.js("return [...document.querySelectorAll('#rows th .coltype')].map(e => e.textContent)");
    assert_eq!(types[4], json!("vlbytes, nullable"));
    let column = |c: usize| {
        browser.js(&format!(
            "return [...document.querySelectorAll('#rows tbody tr')].map(r => r.children[{}].textContent)",
            c + 1
        ))
    };
    let wait_for = |c: usize, want: Value| {
        let deadline = Instant::now() + Duration::from_secs(20);
        while column(c) != want {
            assert!(Instant::now() < deadline, "column {c}: {} never {want}", column(c));
            std::thread::sleep(Duration::from_millis(50));
        }
    };
    browser.js("document.querySelector('#rows th[data-col=\"n32\"]').click()");
    wait_for(6, json!(["0", "3", "4", "5", "6", "null"]));
    browser.js("document.querySelector('#rows th[data-col=\"n32\"]').click()");
    wait_for(6, json!(["6", "5", "4", "3", "0", "null"]));
    assert_eq!(
        browser.js("return document.getElementById('sortinfo').textContent"),
        json!("sorted by n32, largest first; nulls last")
    );
    // The paging buttons and their label do not overlap.
    let overlap = browser.js("const r = id => document.getElementById(id).getBoundingClientRect(); \
         const [a, i, b] = [r('rowprev'), r('rowinfo'), r('rownext')]; \
         return a.right > i.left || i.right > b.left || a.width === 0 || i.width === 0");
    assert_eq!(overlap, json!(false));
    browser.screenshot("viewer/sorted-table.png", "#ctable");

    // Hostile text: shown as text, nothing made of it, no script of it run.
    browser.open(&format!("{url}#/store/2/hostile.b2z"));
    assert_eq!(browser.js(INJECTED), json!([0, true]), "the store page");
    let keys = browser.js("return [...document.querySelectorAll('#members a')].map(a => a.textContent)");
    assert!(keys.as_array().unwrap().contains(&json!(format!("/{HOSTILE}"))), "{keys}");
    let vlmeta = browser.js("return document.getElementById('storevlmeta').textContent");
    assert_eq!(vlmeta.as_str().unwrap().matches(HOSTILE).count(), 2, "{vlmeta}");
    browser.open(&format!("{url}#/member/2/hostile.b2z/{}", enc(&format!("/{HOSTILE}"))));
    assert_eq!(browser.js(INJECTED), json!([0, true]), "the member page");
    let page = browser.js("return document.getElementById('main').textContent");
    assert!(page.as_str().unwrap().contains("<b onclick=x>m</b>"), "the metalayer's name as text");
    assert!(page.as_str().unwrap().contains("<i>v</i>"), "the vlmetalayer's name as text");
    browser.open(&format!("{url}#/member/2/hostile.b2z/{}", enc("/\"'><script>window.pwned=4<")));
    assert_eq!(browser.js(INJECTED), json!([0, true]), "the BatchArray page");
    let items = browser
        .js("return [...document.querySelectorAll('#items tbody tr')].map(r => r.children[1].textContent)");
    assert_eq!(items, json!([HOSTILE, "</td><b>x</b>"]));
}

#[test]
fn serve_cuts_every_long_value_from_a_file_in_its_answers() {
    let dir = TempDir::new("viewer-long-values");
    let long = "y".repeat(1 << 20);
    let mut w = StoreWriter::new(Flavour::Tree);
    w.insert("/b", batch_array(&[vec![long.as_str().into(), 1i64.into()]])).unwrap();
    let vl =
        Array::from_slice(&[1], &[0u8]).unwrap().vlmeta("long", long.as_str()).unwrap().to_vec().unwrap();
    w.insert(b2schema::store::VLMETA_KEY, vl).unwrap();
    w.write_zip(dir.0.join("long.b2z")).unwrap();
    let (_server, port) = start_server(&[&dir.0]);
    for (q, at) in [
        ("/api/store?root=0&path=long.b2z", "/vlmeta/0/value"),
        ("/api/batch?root=0&path=long.b2z&key=%2Fb&batch=0", "/items/0"),
    ] {
        let (status, _, body) = http(port, "GET", q, &format!("127.0.0.1:{port}"), None);
        assert_eq!(status, 200, "{q}");
        assert!(body.len() < 16 << 10, "{q}: an answer of {} bytes", body.len());
        let v: Value = serde_json::from_slice(&body).unwrap();
        let cut = v.pointer(at).unwrap();
        assert_eq!(cut["chars"], 1 << 20, "{q}");
        assert_eq!(cut["__cut__"].as_str().unwrap().len(), 2000, "{q}");
    }
}
