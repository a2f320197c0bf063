//! Issue 36: reading from Rust as easily as `blosc2.open`, against files the pinned python-blosc2
//! writes (`tests/python/open.py`): one [`b2schema::open`] handle with its geometry, dtype,
//! cparams and `info`; metadata decoded ([`Value`]: bytes, tuples, complex numbers, sets);
//! typed reads of every dtype family (float16, complex, datetime64/timedelta64 with their unit,
//! `<U` and `|S` strings, structured items through serde); steps and NumPy's shapes; SChunks;
//! errors that name the file and say what it is. Never skipped.

use std::collections::BTreeMap;
use std::process::Command;

use b2schema::array::{DateTime64, Selection, TimeDelta64};
use b2schema::dtype::DateTimeUnit;
use b2schema::half::f16;
use b2schema::handle::Kind;
use b2schema::num_complex::Complex;
use b2schema::{Container, Value};
use b2schema_tests::{hex, python, repo_root, sha256_hex};
use serde::Deserialize;
use serde_json::{Value as Json, json};

/// A [`Value`] tagged as `open.py` tags python values.
fn tag(v: &Value) -> Json {
    let bits = |f: f64| hex(&f.to_le_bytes());
    match v {
        Value::Nil => Json::Null,
        Value::Bool(b) => json!(b),
        Value::Int(i) => match i64::try_from(*i) {
            Ok(i) => json!(i),
            Err(_) => json!(u64::try_from(*i).unwrap()),
        },
        Value::F32(f) => json!({ "f64": bits(f64::from(*f)) }),
        Value::F64(f) => json!({ "f64": bits(*f) }),
        Value::Str(s) => json!(s),
        Value::Bin(b) => json!({ "bytes": hex(b) }),
        Value::Array(items) => Json::Array(items.iter().map(tag).collect()),
        Value::Tuple(items) => json!({ "tuple": items.iter().map(tag).collect::<Vec<_>>() }),
        Value::Set(items) => json!({ "set": items.iter().map(tag).collect::<Vec<_>>() }),
        Value::Map(entries) => {
            json!({ "map": entries.iter().map(|(k, x)| json!([tag(k), tag(x)])).collect::<Vec<_>>() })
        }
        Value::Complex { re, im } => json!({ "complex": [bits(*re), bits(*im)] }),
        Value::Ext(code, data) => json!({ "ext": [code, hex(data)] }),
    }
}

struct Run {
    dir: std::path::PathBuf,
    lines: Vec<Json>,
}

fn run() -> Run {
    let dir = std::env::temp_dir().join(format!("b2schema-open-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let out =
        Command::new(python()).arg(repo_root().join("tests/python/open.py")).arg(&dir).output().unwrap();
    assert!(out.status.success(), "python-blosc2 failed:\n{}", String::from_utf8_lossy(&out.stderr));
    let lines =
        String::from_utf8(out.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    Run { dir, lines }
}

fn find<'a>(run: &'a Run, what: &str) -> impl Iterator<Item = &'a Json> {
    run.lines.iter().filter(move |l| l["what"] == what)
}

fn u64s(j: &Json) -> Vec<u64> {
    j.as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).collect()
}

/// Gap 1 and 2: one open, metadata decoded, geometry in one integer type, cparams with names,
/// an `.info`-like summary, a vlmetalayer as a Rust type.
fn metadata(run: &Run) {
    let want = find(run, "meta").next().unwrap();
    let a = b2schema::open(run.dir.join("meta.b2nd")).unwrap();
    assert_eq!(a.kind(), Kind::NdArray);
    let vlmeta: Vec<Json> = a.vlmeta().unwrap().iter().map(|(k, v)| json!([k, tag(v)])).collect();
    assert_eq!(Json::Array(vlmeta), want["vlmeta"]);
    let meta: BTreeMap<String, Value> = a.meta().unwrap().into_iter().collect();
    for pair in want["meta"].as_array().unwrap() {
        assert_eq!(tag(&meta[pair[0].as_str().unwrap()]), pair[1], "metalayer {}", pair[0]);
    }
    assert!(meta.contains_key("b2nd"));
    assert_eq!(a.shape(), u64s(&want["shape"]));
    assert_eq!(a.chunks(), u64s(&want["chunks"]));
    assert_eq!(a.blocks(), u64s(&want["blocks"]));
    assert_eq!(a.dtype().unwrap().to_numpy_str(), want["dtype"]);
    let cp = a.cparams();
    assert_eq!(cp.codec_name(), want["codec"]);
    assert_eq!(json!(cp.clevel), want["clevel"]);
    assert_eq!(json!(cp.filter_names()), want["filters"]);
    assert_eq!(json!(cp.typesize), want["typesize"]);
    let info = a.info().unwrap();
    assert_eq!(json!(info.nbytes), want["nbytes"]);
    assert_eq!(json!(info.cbytes), want["cbytes"]);
    assert!((info.cratio() - want["cratio"].as_f64().unwrap()).abs() < 1e-9);
    let text = info.to_string();
    assert!(text.contains("type    : NDArray") && text.contains("codec=lz4"), "{text}");
    // Typed access through serde: python's tuple as a Rust tuple, a map as a struct.
    assert_eq!(a.get::<(i64, String, f64)>("t").unwrap(), Some((1, "two".into(), 3.5)));
    #[derive(Deserialize, Debug, PartialEq)]
    struct Nested {
        a: (u8, u8, (u8, u8)),
        #[serde(with = "serde_bytes")]
        b: Vec<u8>,
        n: Option<i32>,
        f: bool,
    }
    let nested: Nested = a.get("nested").unwrap().unwrap();
    assert_eq!(nested, Nested { a: (1, 2, (3, 4)), b: vec![0, 255], n: None, f: true });
    assert_eq!(a.get::<(f64, f64)>("c").unwrap(), Some((1.5, -2.0)));
    assert_eq!(a.get::<u64>("big").unwrap(), Some(u64::MAX));
    assert_eq!(a.get::<String>("missing").unwrap(), None);
    // A type that does not fit names the layer.
    let e = a.get::<u8>("title").unwrap_err().to_string();
    assert!(e.contains("vlmetalayers") && e.contains("title") && e.contains("meta.b2nd"), "{e}");
}

/// An SChunk through the same handle: its items as a 1-D array.
fn schunk(run: &Run) {
    let want = find(run, "schunk").next().unwrap();
    let s = b2schema::open(run.dir.join("schunk.b2frame")).unwrap();
    assert_eq!(s.kind(), Kind::SChunk);
    assert_eq!(s.shape(), [want["nitems"].as_u64().unwrap()]);
    assert_eq!(sha256_hex(&s.read_all().unwrap()), want["sha"]);
    assert_eq!(sha256_hex(&s.read("1234:5678").unwrap()), want["part"]);
    assert_eq!(s.get::<String>("kind").unwrap().as_deref(), Some("counts"));
    assert!(s.read_as::<i32>(":").is_err(), "an SChunk has no dtype to check a type against");
}

fn le_of<T>(values: &[T], f: impl Fn(&T) -> Vec<u8>) -> String {
    hex(&values.iter().flat_map(f).collect::<Vec<u8>>())
}

/// Gap 3: typed reads for every dtype family, equal to python-blosc2's values.
fn typed(run: &Run) {
    for want in find(run, "typed") {
        let name = want["name"].as_str().unwrap();
        let a = b2schema::open(run.dir.join(format!("{name}.b2nd"))).unwrap();
        let le = match name {
            "f2" => le_of(&a.read_as::<f16>("").unwrap(), |v| v.to_bits().to_le_bytes().to_vec()),
            "c8" => le_of(&a.read_as::<Complex<f32>>("").unwrap(), |v| {
                [v.re.to_le_bytes(), v.im.to_le_bytes()].concat()
            }),
            "c16be" => le_of(&a.read_as::<Complex<f64>>("").unwrap(), |v| {
                [v.re.to_le_bytes(), v.im.to_le_bytes()].concat()
            }),
            "m8ms" => {
                let v = a.read_as::<DateTime64>("").unwrap();
                assert!(v.iter().all(|d| d.unit == DateTimeUnit::Millisecond && d.count == 1));
                assert!(v[0].is_nat() && v[97].is_nat() && !v[1].is_nat());
                le_of(&v, |d| d.value.to_le_bytes().to_vec())
            }
            "td5s" => {
                let v = a.read_as::<TimeDelta64>("").unwrap();
                assert!(v.iter().all(|d| d.unit == DateTimeUnit::Second && d.count == 5));
                le_of(&v, |d| d.value.to_le_bytes().to_vec())
            }
            "u5" => {
                let v: Vec<String> = a.read_items("").unwrap();
                assert_eq!(json!(v), want["values"]);
                continue;
            }
            "s4" => {
                let v: Vec<serde_bytes::ByteBuf> = a.read_items("").unwrap();
                let hexes: Vec<String> = v.iter().map(|b| hex(b)).collect();
                assert_eq!(json!(hexes), want["values"]);
                continue;
            }
            "rec" => {
                records(run, &a);
                continue;
            }
            other => panic!("no check for {other}"),
        };
        assert_eq!(le, want["le"].as_str().unwrap(), "{name}");
        // A type of another kind or size is refused, naming both.
        let e = a.read_as::<i64>("0").unwrap_err().to_string();
        assert!(e.contains("i64") && e.contains(&format!("{name}.b2nd")), "{name}: {e}");
    }
}

/// Structured items as a struct (fields by name) and as a tuple (fields in order).
fn records(run: &Run, a: &Container) {
    #[derive(Deserialize, Debug)]
    struct Rec {
        a: i32,
        b: f64,
        s: String,
        v: [f32; 2],
    }
    let want = find(run, "records").next().unwrap()["items"].as_array().unwrap().clone();
    let got: Vec<Rec> = a.read_items(":50").unwrap();
    let as_tuples: Vec<(i32, f64, String, Vec<f32>)> = a.read_items(":50").unwrap();
    for ((r, t), w) in got.iter().zip(&as_tuples).zip(&want) {
        let row = json!([
            r.a,
            hex(&r.b.to_le_bytes()),
            r.s,
            [hex(&r.v[0].to_le_bytes()), hex(&r.v[1].to_le_bytes())]
        ]);
        assert_eq!(&row, w);
        assert_eq!((r.a, r.b, &r.s, r.v.to_vec()), (t.0, t.1, &t.2, t.3.clone()));
    }
    assert_eq!(got.len(), 50);
    // Fields read one at a time: just the field wanted.
    #[derive(Deserialize)]
    struct OnlyS {
        s: String,
    }
    let only: Vec<OnlyS> = a.read_items("2").unwrap();
    assert_eq!(only[0].s, "\u{e9}\u{e9}\u{e9}");
}

/// Gap 4: NumPy's shapes and steps.
fn slices(run: &Run) {
    let a = b2schema::open(run.dir.join("grid.b2nd")).unwrap();
    let mut n = 0;
    for want in find(run, "slice") {
        let text = want["text"].as_str().unwrap();
        let sel = Selection::parse(text, a.shape()).unwrap_or_else(|e| panic!("{text:?}: {e}"));
        assert_eq!(sel.numpy_shape(), u64s(&want["shape"]), "{text:?}");
        let got = a.read(text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
        assert_eq!(sha256_hex(&got), want["sha"], "{text:?}");
        let typed: Vec<f64> = a.read_as(text).unwrap();
        assert_eq!(typed.len() * 8, got.len());
        n += 1;
    }
    assert_eq!(n, 120);
}

/// Gap 5: errors name the file and lead with what it is.
fn errors(run: &Run) {
    let missing = run.dir.join("missing.b2nd");
    use b2schema::ErrorKind;
    let e = b2schema::open(&missing).unwrap_err();
    assert_eq!(e.file(), Some(missing.display().to_string().as_str()));
    assert!(matches!(e.kind(), ErrorKind::Io(io) if io.kind() == std::io::ErrorKind::NotFound), "{e:?}");
    assert_eq!(
        e.to_string(),
        format!("{}: I/O error: No such file or directory (os error 2)", missing.display())
    );
    let e = b2schema::open(&run.dir).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::NotASparseFrame { .. }), "{e:?}");
    let e = e.to_string();
    assert!(e.starts_with(&format!("{}: not a sparse frame", run.dir.display())), "{e}");
    let text = run.dir.join("notes.txt");
    std::fs::write(&text, "hello, this is not a frame at all, but a few words of text\n".repeat(3)).unwrap();
    let e = b2schema::open(&text).unwrap_err();
    assert!(e.to_string().starts_with(&format!("{}: not a Blosc2 frame", text.display())), "{e}");
    assert!(matches!(e.kind(), ErrorKind::NotAFrame { .. }), "{e:?}");
    assert!(e.cause().is_some_and(|c| c.offset().is_some()), "{e:?}");
    let whole = std::fs::read(run.dir.join("meta.b2nd")).unwrap();
    let cut = run.dir.join("cut.b2nd");
    std::fs::write(&cut, &whole[..whole.len() / 2]).unwrap();
    let e = b2schema::open(&cut).unwrap_err();
    assert!(
        matches!(e.kind(), ErrorKind::Truncated { stated, .. } if *stated == whole.len() as u64),
        "{e:?}"
    );
    let e = e.to_string();
    assert!(
        e.starts_with(&format!("{}: truncated: the header says {} bytes", cut.display(), whole.len())),
        "{e}"
    );
    // Every error of the reading API converts into b2schema::Error (`?` in one function).
    fn read_row(c: &Container) -> b2schema::Result<Vec<f64>> {
        let sel = Selection::parse("2", c.shape())?;
        c.array().unwrap().read_as(&sel, c.read_options())
    }
    let a = b2schema::open(run.dir.join("meta.b2nd")).unwrap();
    assert_eq!(read_row(&a).unwrap().len(), 7);
    let e = a.read("99").unwrap_err().to_string();
    assert!(e.contains("meta.b2nd") && e.contains("out of bounds"), "{e}");
}

#[test]
fn python_blosc2_files_read_through_one_open() {
    let run = run();
    metadata(&run);
    schunk(&run);
    typed(&run);
    slices(&run);
    errors(&run);
    std::fs::remove_dir_all(&run.dir).unwrap();
}

#[test]
fn a_container_is_owned_and_goes_to_threads() {
    fn owned<T: Send + Sync + 'static>() {}
    owned::<Container>();
    owned::<b2schema::array::ArrayReader<'static>>();
    owned::<Value>();
}
