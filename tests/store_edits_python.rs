//! Stores changed in turn by b2schema (`store::StoreMut`) and python-blosc2 4.14.1 (issue 50):
//! python-blosc2 writes random stores (DictStore and TreeStore as `.b2d` and `.b2z`, EmbedStores),
//! b2schema applies random adds, replacements, removals and store-vlmeta sets and deletes to them,
//! python-blosc2 opens every result and reads every member and the vlmeta equal to the model,
//! then changes them itself (mode "a"), and b2schema reads python-blosc2's result equal and
//! changes it again. Never skipped: without python-blosc2 (`scripts/pyenv.sh`) it fails.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use b2schema::array::{ArrayReader, ReadOptions, Selection};
use b2schema::store::{Place, Store, StoreMut};
use b2schema::writer::{Fill, NdArray};
use b2schema_tests::XorShift as Rng;
use b2schema_tests::{python_checks, value_json};
use serde_json::{Value, json};

const FORMS: [&str; 5] = ["dict.b2z", "tree.b2z", "dict.b2d", "tree.b2d", "embed.b2e"];
const KEYS: [&str; 5] = ["/a", "/b", "/g/c", "/g/d", "/h/i/e"];
const DTYPES: [(&str, usize); 5] = [("|u1", 1), ("<i2", 2), ("<i4", 4), ("<f8", 8), ("<u8", 8)];

/// A member: its dtype, shape and items (C order).
#[derive(Clone, PartialEq, Debug)]
struct Member {
    dtype: &'static str,
    shape: Vec<i64>,
    raw: Vec<u8>,
}

struct Case {
    path: PathBuf,
    form: &'static str,
    members: BTreeMap<String, Member>,
    vlmeta: BTreeMap<String, Value>,
}

fn random_member(rng: &mut Rng) -> Member {
    let (dtype, size) = DTYPES[rng.below(DTYPES.len() as u64) as usize];
    let ndim = 1 + rng.below(2) as usize;
    let shape: Vec<i64> = (0..ndim).map(|_| 1 + rng.below(30) as i64).collect();
    let n = shape.iter().product::<i64>() as usize * size;
    let raw = (0..n).map(|_| if dtype == "<f8" { 0 } else { rng.next() as u8 }).collect();
    Member { dtype, shape, raw }
}

fn frame(m: &Member) -> Vec<u8> {
    let size = DTYPES.iter().find(|d| d.0 == m.dtype).unwrap().1;
    let chunks: Vec<i32> = m.shape.iter().map(|&s| 1 + s as i32 / 2).collect();
    let blocks: Vec<i32> = chunks.iter().map(|&c| 1 + c / 2).collect();
    NdArray::new(&m.shape, &chunks, &blocks, m.dtype, size, Fill::Data(&m.raw))
        .to_frame()
        .unwrap()
        .to_vec()
        .unwrap()
}

fn random_vlmeta(rng: &mut Rng) -> (String, Value) {
    let name = ["title", "n", "grid"][rng.below(3) as usize];
    let value = match rng.below(3) {
        0 => json!(rng.below(1000)),
        1 => json!(format!("run {}", rng.below(100))),
        _ => json!({ "dx": rng.below(9), "units": "m" }),
    };
    (name.into(), value)
}

/// The manifest entry that checks `case` after python-blosc2 applies `ops` to it.
fn entry(dir: &Path, case: &Case, ops: Vec<Value>, create: bool, name: String) -> Value {
    // Small members embedded in embed.b2e now and then (DictStore(threshold=n)), else files.
    let threshold = if create && name.ends_with(['1', '2', '3']) { 400 } else { 0 };
    let members: serde_json::Map<String, Value> = case
        .members
        .iter()
        .map(|(k, m)| (k.clone(), json!({ "raw": raw_file(dir, m), "dtype": m.dtype, "shape": m.shape })))
        .collect();
    json!({
        "name": name, "path": case.path, "form": case.form, "create": create, "ops": ops, "threshold": threshold,
        "members": members, "vlmeta": case.vlmeta,
    })
}

/// The items of `m` in a file of their own (named by their hash).
fn raw_file(dir: &Path, m: &Member) -> PathBuf {
    let p = dir.join(format!("{}.raw", &b2schema_tests::sha256_hex(&m.raw)[..16]));
    std::fs::write(&p, &m.raw).unwrap();
    p
}

/// b2schema reads `case`'s store as the model says.
fn check_read(case: &Case) {
    let store = Store::open(&case.path).unwrap();
    let keys: Vec<&str> = store.keys().collect();
    assert_eq!(keys, case.members.keys().collect::<Vec<_>>(), "{}", case.path.display());
    for (k, m) in &case.members {
        let f = store.open_member(k).unwrap();
        let r = ArrayReader::new(&f).unwrap();
        let (bytes, _) = r.read(&Selection::all(r.shape()), &ReadOptions::default()).unwrap();
        assert_eq!(bytes, m.raw, "{} {k}", case.path.display());
        assert_eq!(r.shape().iter().map(|&s| s as i64).collect::<Vec<_>>(), m.shape);
    }
    let vlmeta: BTreeMap<String, Value> =
        store.vlmeta().unwrap().into_iter().map(|(k, v)| (k, value_json(&v))).collect();
    assert_eq!(vlmeta, case.vlmeta, "{}", case.path.display());
}

/// Random changes by b2schema, the model following; counts each kind of change made (insert,
/// set, remove, vlmeta set, vlmeta delete) in `done`, and the replacements of embedded members.
fn b2schema_changes(case: &mut Case, rng: &mut Rng, steps: usize, done: &mut [usize; 6]) {
    let mut s = StoreMut::open(&case.path).unwrap();
    for _ in 0..steps {
        let key = KEYS[rng.below(KEYS.len() as u64) as usize];
        match rng.below(5) {
            0 if !case.members.contains_key(key) => {
                let m = random_member(rng);
                s.insert(key, frame(&m)).unwrap();
                case.members.insert(key.into(), m);
                done[0] += 1;
            }
            0 | 1 => {
                let m = random_member(rng);
                let embedded = s.store().member(key).is_some_and(|m| matches!(m.place, Place::Embedded(_)));
                done[5] += (embedded && case.form != "embed.b2e") as usize;
                s.set(key, frame(&m)).unwrap();
                case.members.insert(key.into(), m);
                done[1] += 1;
            }
            2 if case.members.remove(key).is_some() => {
                s.remove(key).unwrap();
                done[2] += 1;
            }
            3 => {
                let (name, value) = random_vlmeta(rng);
                s.set_vlmeta(&name, &value).unwrap();
                case.vlmeta.insert(name, value);
                done[3] += 1;
            }
            4 if !case.vlmeta.is_empty() => {
                let name =
                    case.vlmeta.keys().nth(rng.below(case.vlmeta.len() as u64) as usize).unwrap().clone();
                s.delete_vlmeta(&name).unwrap();
                case.vlmeta.remove(&name);
                done[4] += 1;
            }
            _ => {}
        }
    }
}

/// Random changes for python-blosc2 to make, the model following.
fn python_changes(case: &mut Case, rng: &mut Rng, dir: &Path, steps: usize) -> Vec<Value> {
    let mut ops = Vec::new();
    let tree = case.form.starts_with("tree");
    for _ in 0..steps {
        let key = KEYS[rng.below(KEYS.len() as u64) as usize];
        match rng.below(4) {
            0 | 1 => {
                let m = random_member(rng);
                ops.push(json!({ "op": "set", "key": key, "raw": raw_file(dir, &m), "dtype": m.dtype, "shape": m.shape }));
                case.members.insert(key.into(), m);
            }
            2 if case.members.remove(key).is_some() => ops.push(json!({ "op": "del", "key": key })),
            3 if tree => {
                let (name, value) = random_vlmeta(rng);
                ops.push(json!({ "op": "vset", "name": name, "value": value }));
                case.vlmeta.insert(name, value);
            }
            _ => {}
        }
    }
    ops
}

#[test]
fn b2schema_and_python_blosc2_change_each_others_stores() {
    let dir = std::env::temp_dir().join(format!("b2schema-store-edits-py-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut rng = Rng(0x5707_ed17_5eed);
    let mut done = [0; 6];
    let mut cases = Vec::new();
    let mut created = Vec::new();
    for i in 0..10 {
        let form = FORMS[i % FORMS.len()];
        let ext = &form[form.len() - 3..];
        let mut case = Case {
            path: dir.join(format!("s{i}.{ext}")),
            form,
            members: BTreeMap::new(),
            vlmeta: BTreeMap::new(),
        };
        let ops = python_changes(&mut case, &mut rng, &dir, 4);
        created.push(entry(&dir, &case, ops, true, format!("created {i}")));
        cases.push(case);
    }
    python_checks("edit_stores.py", &dir, &created);
    // b2schema changes python-blosc2's stores; python-blosc2 reads them as the model says.
    let mut read = Vec::new();
    for (i, case) in cases.iter_mut().enumerate() {
        check_read(case);
        b2schema_changes(case, &mut rng, 12, &mut done);
        check_read(case);
        read.push(entry(&dir, case, Vec::new(), false, format!("b2schema's {i}")));
    }
    python_checks("edit_stores.py", &dir, &read);
    // python-blosc2 changes b2schema's results; b2schema reads them, then changes them again.
    let mut changed = Vec::new();
    for (i, case) in cases.iter_mut().enumerate() {
        let ops = python_changes(case, &mut rng, &dir, 6);
        changed.push(entry(&dir, case, ops, false, format!("python's {i}")));
    }
    python_checks("edit_stores.py", &dir, &changed);
    let mut again = Vec::new();
    for (i, case) in cases.iter_mut().enumerate() {
        check_read(case);
        b2schema_changes(case, &mut rng, 8, &mut done);
        check_read(case);
        again.push(entry(&dir, case, Vec::new(), false, format!("again {i}")));
    }
    python_checks("edit_stores.py", &dir, &again);
    assert!(
        done.iter().all(|&n| n >= 2),
        "each kind of change made (insert, set, remove, vlmeta set, delete, embedded replaced): {done:?}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
