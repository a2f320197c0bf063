//! Arrays changed in place by b2schema (`writer::ArrayMut`) and by python-blosc2: random
//! sequences of resizes, slice writes and appends applied to copies of the same array (4
//! dtypes, 1-4 dimensions, three codec and filter pairs, contiguous and sparse frames) give
//! arrays equal item by item; python-blosc2 then edits b2schema's result and b2schema edits
//! python-blosc2's. The kill test: a change stopped at each of its writes, syncs and renames
//! leaves a file that b2schema and python-blosc2 open as the old or the new array.

use b2schema::chunk::{Codec, Filter, Params};
use b2schema::writer::{ArrayMut, CParams, Fill, NdArray};
use b2schema_tests::{Rng, python_checks};
use serde_json::{Value, json};

const DTYPES: [(&str, usize); 4] = [("<i4", 4), ("<f8", 8), ("|u1", 1), ("<i2", 2)];

/// `n` items of `dtype`, small whole numbers (the same bytes whichever side copies them).
pub fn values(dtype: &str, n: usize, rng: &mut Rng) -> Vec<u8> {
    let mut out = Vec::new();
    for _ in 0..n {
        let v = rng.below(200) as i64 - 50;
        match dtype {
            "<i4" => out.extend_from_slice(&(v as i32).to_le_bytes()),
            "<f8" => out.extend_from_slice(&(v as f64 * 0.5).to_le_bytes()),
            "|u1" => out.push(v as u8),
            _ => out.extend_from_slice(&(v as i16).to_le_bytes()),
        }
    }
    out
}

#[derive(Clone, Debug)]
pub enum Op {
    Resize(Vec<u64>),
    Write(Vec<(u64, u64)>, Vec<u8>),
    Append(Vec<u8>),
}

/// A random change of an array of `shape` (updated to the shape after it).
pub fn random_op(rng: &mut Rng, shape: &mut [u64], dtype: &str) -> Op {
    match rng.below(3) {
        0 => {
            for s in shape.iter_mut() {
                if rng.below(2) == 0 {
                    *s = 1 + rng.below((*s as usize * 2).max(2)) as u64;
                }
            }
            Op::Resize(shape.to_vec())
        }
        1 => {
            let sel: Vec<(u64, u64)> = shape
                .iter()
                .map(|&s| {
                    let a = rng.below(s as usize) as u64;
                    (a, a + 1 + rng.below((s - a) as usize) as u64)
                })
                .collect();
            let n = sel.iter().map(|(a, b)| (b - a) as usize).product();
            Op::Write(sel, values(dtype, n, rng))
        }
        _ => {
            let rows = 1 + rng.below(5) as u64;
            let n = rows as usize * shape[1..].iter().product::<u64>() as usize;
            shape[0] += rows;
            Op::Append(values(dtype, n, rng))
        }
    }
}

pub fn apply<F: b2schema::writer::FrameIo>(a: &mut ArrayMut<F>, op: &Op) -> b2schema::Result<()> {
    match op {
        Op::Resize(s) => a.resize(s),
        Op::Write(sel, bytes) => {
            let sel: Vec<_> = sel.iter().map(|&(x, y)| x..y).collect();
            a.write_bytes(&sel, bytes)
        }
        Op::Append(bytes) => a.append_bytes(bytes),
    }
}

fn op_json(op: &Op, data: &std::path::Path) -> Value {
    match op {
        Op::Resize(s) => json!({"op": "resize", "shape": s}),
        Op::Write(sel, bytes) => {
            std::fs::write(data, bytes).unwrap();
            json!({"op": "write", "sel": sel, "data": data})
        }
        Op::Append(bytes) => {
            std::fs::write(data, bytes).unwrap();
            json!({"op": "append", "data": data})
        }
    }
}

pub fn cparams(rng: &mut Rng) -> CParams {
    let mut bit = [Filter::NoFilter; 6];
    bit[5] = Filter::BitShuffle;
    let (codec, filters) =
        [(Codec::Zstd, Params::SHUFFLE_LAST), (Codec::Lz4, bit), (Codec::BloscLz, [Filter::NoFilter; 6])]
            [rng.below(3)];
    CParams { codec, filters, clevel: 1 + rng.below(9) as u8, ..CParams::default() }
}

/// A random starting array written at `path` (a file, or a sparse directory), returned with its
/// dtype, itemsize and shape.
pub fn start(rng: &mut Rng, path: &std::path::Path, sparse: bool) -> (&'static str, usize, Vec<u64>) {
    let (dtype, ts) = DTYPES[rng.below(DTYPES.len())];
    let ndim = 1 + rng.below(4);
    let shape: Vec<u64> = (0..ndim).map(|_| 1 + rng.below(if ndim == 1 { 60 } else { 9 }) as u64).collect();
    let chunks: Vec<i32> = shape.iter().map(|&s| 1 + rng.below(s as usize) as i32).collect();
    let blocks: Vec<i32> = chunks.iter().map(|&c| 1 + rng.below(c as usize) as i32).collect();
    let n = shape.iter().product::<u64>() as usize;
    let data = values(dtype, n, rng);
    let s64: Vec<i64> = shape.iter().map(|&s| s as i64).collect();
    let mut a = NdArray::new(&s64, &chunks, &blocks, dtype, ts, Fill::Data(&data));
    a.cparams = cparams(rng);
    let frame = a.to_frame().unwrap();
    if sparse {
        frame.write_sparse(path).unwrap()
    } else {
        frame.write_file(path).unwrap()
    }
    (dtype, ts, shape)
}

pub fn copy(from: &std::path::Path, to: &std::path::Path) {
    if from.is_dir() {
        std::fs::create_dir_all(to).unwrap();
        for e in std::fs::read_dir(from).unwrap() {
            let e = e.unwrap();
            std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    } else {
        std::fs::copy(from, to).unwrap();
    }
}

fn read(path: &std::path::Path) -> (Vec<u64>, Vec<u8>) {
    let c = b2schema::open(path).unwrap();
    (c.shape().to_vec(), c.read_all().unwrap())
}

#[test]
fn b2schema_and_python_blosc2_edit_copies_of_an_array_alike() {
    let dir = std::env::temp_dir().join(format!("b2schema-edits-py-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut rng = Rng(0xed17_5eed);
    let mut entries = Vec::new();
    let mut cases = Vec::new();
    for case in 0..24 {
        let sparse = case % 3 == 2;
        let ext = if sparse { "b2frame" } else { "b2nd" };
        let ours = dir.join(format!("ours{case}.{ext}"));
        let theirs = dir.join(format!("theirs{case}.{ext}"));
        let (dtype, _, mut shape) = start(&mut rng, &ours, sparse);
        copy(&ours, &theirs);
        let mut a = ArrayMut::open(&ours).unwrap();
        let mut ops = Vec::new();
        for k in 0..1 + rng.below(6) {
            let op = random_op(&mut rng, &mut shape, dtype);
            apply(&mut a, &op).unwrap_or_else(|e| panic!("case {case} op {op:?}: {e}"));
            ops.push(op_json(&op, &dir.join(format!("data{case}_{k}.bin"))));
        }
        drop(a);
        assert_eq!(read(&ours).0, shape, "case {case}");
        let fin = random_op(&mut rng, &mut shape, dtype);
        let after = random_op(&mut rng, &mut shape, dtype);
        entries.push(json!({
            "name": format!("case{case}"), "dtype": dtype, "ours": ours, "theirs": theirs,
            "ops": ops, "final": op_json(&fin, &dir.join(format!("final{case}.bin"))),
        }));
        cases.push((ours, theirs, after));
    }
    python_checks("edits.py", &dir, &entries);
    // b2schema edits python-blosc2's result (and its own, as python-blosc2 left it).
    for (i, (ours, theirs, after)) in cases.iter().enumerate() {
        for p in [ours, theirs] {
            apply(&mut ArrayMut::open(p).unwrap(), after)
                .unwrap_or_else(|e| panic!("case {i} {after:?}: {e}"));
        }
        assert_eq!(read(ours), read(theirs), "case {i} after b2schema's last edit");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A change stopped at operation `n` (a write of half its bytes, a sync, a rename, a removal)
/// for every `n` until it completes: each file left opens in b2schema and python-blosc2 as the
/// old array or the new one, and the next change made to it completes.
#[test]
fn a_change_stopped_at_any_step_leaves_the_old_or_the_new_array() {
    let dir = std::env::temp_dir().join(format!("b2schema-edits-kill-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut rng = Rng(0x4111_0f57);
    let mut entries = Vec::new();
    let mut retries = Vec::new();
    for case in 0..12 {
        let sparse = case % 2 == 1;
        let ext = if sparse { "b2frame" } else { "b2nd" };
        let base = dir.join(format!("base{case}.{ext}"));
        let (dtype, _, mut shape) = start(&mut rng, &base, sparse);
        let old_shape = shape.clone();
        let op = loop {
            let mut s = old_shape.clone();
            let op = random_op(&mut rng, &mut s, dtype);
            // Each kind in turn: a slice write, a resize, an append.
            if std::mem::discriminant(&op)
                == std::mem::discriminant(
                    &[Op::Write(vec![], vec![]), Op::Resize(vec![]), Op::Append(vec![])][case % 3],
                )
            {
                shape = s;
                break op;
            }
        };
        // A tail left by an earlier change cut short: reclaimed first (contiguous frames).
        if !sparse && case % 4 == 0 {
            use std::io::Write;
            let mut f = std::fs::OpenOptions::new().append(true).open(&base).unwrap();
            f.write_all(&[0x94, 0x01]).unwrap();
        }
        let (_, old) = read(&base);
        let newp = dir.join(format!("new{case}.{ext}"));
        copy(&base, &newp);
        apply(&mut ArrayMut::open(&newp).unwrap(), &op).unwrap();
        let (got_shape, new) = read(&newp);
        assert_eq!(got_shape, shape);
        let mut states = Vec::new();
        let mut steps = 0;
        for n in 0..64u32 {
            let state = dir.join(format!("state{case}_{n}.{ext}"));
            copy(&base, &state);
            let mut a = ArrayMut::open(&state).unwrap();
            a.frame().fail_at(Some(n));
            let r = apply(&mut a, &op);
            drop(a);
            let got = read(&state);
            assert!(
                got == (old_shape.clone(), old.clone()) || got == (shape.clone(), new.clone()),
                "case {case} step {n}"
            );
            if r.is_ok() {
                steps = n;
                break;
            }
            states.push(state);
        }
        assert!(steps >= 4, "case {case}: the change completed after {steps} operations");
        let (old_p, new_p) = (dir.join(format!("old{case}.bin")), dir.join(format!("new{case}.bin")));
        std::fs::write(&old_p, &old).unwrap();
        std::fs::write(&new_p, &new).unwrap();
        entries.push(json!({
            "name": format!("kill{case}"), "dtype": dtype, "states": states,
            "old": old_p, "old_shape": old_shape, "new": new_p, "new_shape": shape,
        }));
        retries.push((states, op, shape.clone(), new));
    }
    python_checks("edits.py", &dir, &entries);
    for (states, op, shape, new) in retries {
        for s in states {
            let mut a = ArrayMut::open(&s).unwrap();
            let now = a.shape().unwrap();
            // A state that is still the old array takes the change again; a new one is kept.
            if now != shape || read(&s).1 != new {
                apply(&mut a, &op).unwrap();
            }
            drop(a);
            assert_eq!(read(&s), (shape.clone(), new.clone()), "{}", s.display());
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Chunks updated, inserted, deleted and appended by b2schema (`writer::FrameMut`) and by
/// python-blosc2's `SChunk` on copies of the same frame (contiguous and sparse): the same
/// chunks, `nchunks` and `nbytes`.
#[test]
fn b2schema_and_python_blosc2_change_the_chunks_of_a_schunk_alike() {
    use b2schema::writer::{Chunk, FrameMut, chunk, schunk};
    let dir = std::env::temp_dir().join(format!("b2schema-edits-schunk-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut rng = Rng(0x5c4e_0001);
    let mut entries = Vec::new();
    for case in 0..8 {
        let sparse = case % 2 == 1;
        let cp = cparams(&mut rng);
        let cs = 400usize;
        let data = values("<i4", cs / 4 * (2 + rng.below(5)), &mut rng);
        let frame = schunk(&data, 4, cs, cp).unwrap();
        let ext = if sparse { "b2frame" } else { "b2frame.bin" };
        let (ours, theirs) = (dir.join(format!("s{case}o.{ext}")), dir.join(format!("s{case}t.{ext}")));
        if sparse {
            frame.write_sparse(&ours).unwrap()
        } else {
            frame.write_file(&ours).unwrap()
        }
        copy(&ours, &theirs);
        let mut f = FrameMut::open(&ours).unwrap();
        let mut ops = Vec::new();
        for k in 0..6 {
            let n = f.nchunks().unwrap();
            let bytes = if rng.below(4) == 0 { vec![0u8; cs] } else { values("<i4", cs / 4, &mut rng) };
            let c = chunk::compressed(&bytes, 4, 0, &cp).unwrap();
            let path = dir.join(format!("c{case}_{k}.chunk"));
            std::fs::write(&path, &c).unwrap();
            let c = Chunk::from_compressed(c).unwrap();
            let op = match rng.below(4) {
                0 if n > 0 => {
                    let i = rng.below(n);
                    f.update_chunk(i, &c).unwrap();
                    json!({"op": "update", "n": i, "chunk": path})
                }
                1 => {
                    let i = rng.below(n + 1);
                    f.insert_chunk(i, &c).unwrap();
                    json!({"op": "insert", "n": i, "chunk": path})
                }
                2 if n > 1 => {
                    let i = rng.below(n);
                    f.delete_chunk(i).unwrap();
                    json!({"op": "delete", "n": i})
                }
                _ => {
                    f.append_chunk(&c).unwrap();
                    json!({"op": "append", "chunk": path})
                }
            };
            ops.push(op);
        }
        entries.push(json!({"name": format!("schunk{case}"), "schunk": true, "ours": ours, "theirs": theirs, "ops": ops}));
    }
    python_checks("edits.py", &dir, &entries);
    std::fs::remove_dir_all(&dir).unwrap();
}
