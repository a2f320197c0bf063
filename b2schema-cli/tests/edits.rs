//! `append`, `resize` and `write` (issue 50): arrays changed in place from the shell, each
//! change crash-safe (killed by a file-size limit at every length between the old file and the
//! new one, the file still opens as the old array and the next `append` completes) and never
//! made to one of the command's own inputs.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_b2schema");

fn b2schema(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().unwrap()
}

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("b2schema-cli-edits-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A `.npy` file of `<i4` items of `shape`.
fn npy(path: &Path, shape: &[u64], items: &[i32]) {
    let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
    let shape = if dims.len() == 1 { format!("({},)", dims[0]) } else { format!("({})", dims.join(", ")) };
    let dict = format!("{{'descr': '<i4', 'fortran_order': False, 'shape': {shape}, }}");
    let total = (10 + dict.len() + 1).div_ceil(64) * 64;
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend_from_slice(&((total - 10) as u16).to_le_bytes());
    out.extend_from_slice(dict.as_bytes());
    out.resize(total - 1, b' ');
    out.push(b'\n');
    for v in items {
        out.extend_from_slice(&v.to_le_bytes());
    }
    std::fs::write(path, out).unwrap();
}

fn ok(out: &Output) {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

fn items(path: &Path) -> (Vec<u64>, Vec<i32>) {
    let c = b2schema::open(path).unwrap();
    (c.shape().to_vec(), c.read_as::<i32>("...").unwrap())
}

#[test]
fn append_resize_and_write_change_an_array_from_the_shell() {
    let d = dir("run");
    let (slab, arr) = (d.join("slab.npy"), d.join("a.b2nd"));
    let rows: Vec<i32> = (0..12).collect();
    npy(&slab, &[3, 4], &rows);
    ok(&b2schema(&["append", slab.to_str().unwrap(), arr.to_str().unwrap()]));
    ok(&b2schema(&["append", slab.to_str().unwrap(), arr.to_str().unwrap()]));
    let (shape, got) = items(&arr);
    assert_eq!(shape, [6, 4]);
    assert_eq!(got, [rows.clone(), rows.clone()].concat());
    ok(&b2schema(&["resize", arr.to_str().unwrap(), "5,5"]));
    let part = d.join("part.npy");
    npy(&part, &[2, 2], &[-1, -2, -3, -4]);
    ok(&b2schema(&["write", arr.to_str().unwrap(), "--slice", "3:5, 3:5", part.to_str().unwrap()]));
    let (shape, got) = items(&arr);
    assert_eq!(shape, [5, 5]);
    let want: Vec<i32> =
        vec![0, 1, 2, 3, 0, 4, 5, 6, 7, 0, 8, 9, 10, 11, 0, 0, 1, 2, -1, -2, 4, 5, 6, -3, -4];
    assert_eq!(got, want);
    // Wrong shapes and dtypes are refused, the array untouched.
    let before = std::fs::read(&arr).unwrap();
    npy(&part, &[2, 3], &[0; 6]);
    let out = b2schema(&["append", part.to_str().unwrap(), arr.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
    let out = b2schema(&["write", arr.to_str().unwrap(), "--slice", "0:2, 0:2", part.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let out = b2schema(&["resize", arr.to_str().unwrap(), "5"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(std::fs::read(&arr).unwrap(), before);
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn several_npy_files_append_in_order_in_one_command() {
    let d = dir("several");
    let arr = d.join("a.b2nd");
    let slabs: Vec<(PathBuf, Vec<i32>)> = (0..5)
        .map(|i| {
            let p = d.join(format!("s{i}.npy"));
            let rows: Vec<i32> = (0..8).map(|v| v + 100 * i).collect();
            npy(&p, &[2, 4], &rows);
            (p, rows)
        })
        .collect();
    let arg = |i: usize| slabs[i].0.to_str().unwrap();
    // From no file: the first creates the array, the others follow it in order.
    ok(&b2schema(&["append", arg(0), arg(1), arg(2), arr.to_str().unwrap()]));
    ok(&b2schema(&["append", arg(4), arg(3), arg(4), arr.to_str().unwrap()]));
    let (shape, got) = items(&arr);
    assert_eq!(shape, [12, 4]);
    let want: Vec<i32> = [0, 1, 2, 4, 3, 4].iter().flat_map(|&i| slabs[i].1.clone()).collect();
    assert_eq!(got, want);
    // A wrong shape anywhere in one change: nothing of that change is appended.
    let bad = d.join("bad.npy");
    npy(&bad, &[2, 3], &[0; 6]);
    let before = std::fs::read(&arr).unwrap();
    let out = b2schema(&["append", arg(0), bad.to_str().unwrap(), arr.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(std::fs::read(&arr).unwrap(), before);
    // The array among the inputs (by another name) is refused.
    let link = d.join("link.b2nd");
    std::fs::hard_link(&arr, &link).unwrap();
    let out = b2schema(&["append", arg(0), link.to_str().unwrap(), arr.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is the input"));
    assert_eq!(std::fs::read(&arr).unwrap(), before);
    // `--no-sync` (no syncs: `edits::changes_sync_each_step_unless_told_not_to_...`) makes the
    // same change, byte for byte.
    let copy = d.join("copy.b2nd");
    std::fs::copy(&arr, &copy).unwrap();
    ok(&b2schema(&["append", arg(1), arr.to_str().unwrap()]));
    ok(&b2schema(&["append", "--no-sync", arg(1), copy.to_str().unwrap()]));
    assert_eq!(std::fs::read(&copy).unwrap(), std::fs::read(&arr).unwrap());
    assert_eq!(items(&copy).0, [14, 4]);
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn changes_refuse_the_commands_own_inputs() {
    let d = dir("inputs");
    let slab = d.join("slab.npy");
    npy(&slab, &[2], &[1, 2]);
    let link = d.join("link.npy");
    std::fs::hard_link(&slab, &link).unwrap();
    let before = std::fs::read(&slab).unwrap();
    for args in [
        vec!["append", slab.to_str().unwrap(), slab.to_str().unwrap()],
        vec!["append", slab.to_str().unwrap(), link.to_str().unwrap()],
        vec!["write", link.to_str().unwrap(), "--slice", "0:2", slab.to_str().unwrap()],
    ] {
        let out = b2schema(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("is the input"), "{args:?}: {err}");
    }
    assert_eq!(std::fs::read(&slab).unwrap(), before);
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn an_append_killed_at_any_length_leaves_the_old_array() {
    let d = dir("killed");
    let (slab, arr) = (d.join("slab.npy"), d.join("a.b2nd"));
    let rows: Vec<i32> = (0..4000).map(|i| i * 7 % 1000).collect();
    npy(&slab, &[40, 100], &rows);
    ok(&b2schema(&["append", slab.to_str().unwrap(), arr.to_str().unwrap()]));
    let old = std::fs::read(&arr).unwrap();
    let grown = d.join("grown.b2nd");
    std::fs::copy(&arr, &grown).unwrap();
    ok(&b2schema(&["append", slab.to_str().unwrap(), grown.to_str().unwrap()]));
    let new_len = std::fs::metadata(&grown).unwrap().len() as usize;
    assert!(new_len > old.len());
    let step = ((new_len - old.len()) / 12).max(1);
    for (i, limit) in (old.len()..new_len).step_by(step).enumerate() {
        std::fs::write(&arr, &old).unwrap();
        let trap = if i % 2 == 0 { "trap '' XFSZ; " } else { "" };
        let out = Command::new("sh")
            .arg("-c")
            .arg(format!("{trap}exec prlimit --fsize=\"$1\" -- \"$2\" append \"$3\" \"$4\""))
            .args(["sh", &limit.to_string(), BIN, slab.to_str().unwrap(), arr.to_str().unwrap()])
            .output()
            .unwrap();
        assert!(!out.status.success(), "limit {limit}");
        assert_eq!(items(&arr), (vec![40, 100], rows.clone()), "limit {limit}");
        ok(&b2schema(&["append", slab.to_str().unwrap(), arr.to_str().unwrap()]));
        assert_eq!(items(&arr), (vec![80, 100], [rows.clone(), rows.clone()].concat()), "limit {limit}");
    }
    let _ = std::fs::remove_dir_all(&d);
}
