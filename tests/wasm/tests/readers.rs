//! The readers compiled to wasm32-unknown-unknown (the static viewer's module, `b2schema-wasm`)
//! give, under node, exactly the native results: this test builds the module (`scripts/wasm.sh
//! viewer`), decodes every container file of `tests/data` natively with
//! `b2schema_wasm::decode` (frames, b2nd arrays, SChunks, BatchArrays, `.b2z` and `.b2e` stores
//! and their CTables, the member files of `.b2d` stores; each array's bytes, each member, the
//! page and image the viewer asks first), adds cut and mutated copies of some of them, and runs
//! `readers.mjs`, which decodes each file in the module twice: through the module's import (the
//! host's reads, as the browser's `File` or `Range` requests give them) and from bytes in the
//! module's memory. The texts must be equal, errors included.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use b2schema::source::{Memory, Source};
use b2schema_tests::{XorShift, data_root, files_with_ext, read_file};
use b2schema_wasm_test::host;
use serde_json::{Value, json};

/// The container files of the test data.
fn files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for ext in ["b2nd", "b2frame", "b2f", "cframe", "b2b", "b2z", "b2e"] {
        files.extend(files_with_ext(&data_root(), ext));
    }
    files.sort();
    files
}

/// `tests/data/...` relative to the data root: the name given to the readers.
fn rel(path: &Path) -> String {
    path.strip_prefix(data_root()).unwrap_or(path).display().to_string()
}

#[test]
fn wasm_readers_under_node_give_the_native_results() {
    let module = host::viewer_module();
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("wasm-readers");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut cases = Vec::new();
    let mut case = |name: String, path: PathBuf, bytes: Vec<u8>| {
        let src: Source = Arc::new(Memory::new(bytes));
        let expect = b2schema_wasm::decode(&src, &name);
        cases.push(json!({ "name": name, "path": path, "expect": expect }));
        expect
    };
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    let (mut ok, mut errors) = (0, 0);
    for (i, path) in files().into_iter().enumerate() {
        let bytes = read_file(&path);
        let text = case(rel(&path), path.clone(), bytes.clone());
        if text.contains("error") {
            errors += 1
        } else {
            ok += 1
        }
        // Every eighth file also cut short and with bytes changed: the same errors (or data).
        if i % 8 == 0 && bytes.len() > 16 {
            let cut = dir.join(format!("{i}-cut"));
            std::fs::write(&cut, &bytes[..bytes.len() * 2 / 3]).unwrap();
            case(format!("{} cut", rel(&path)), cut.clone(), read_file(&cut));
            let mut m = bytes.clone();
            for _ in 0..4 {
                let at = rng.below(m.len() as u64) as usize;
                m[at] ^= 1 << rng.below(8);
            }
            let mutant = dir.join(format!("{i}-mutant"));
            std::fs::write(&mutant, &m).unwrap();
            case(format!("{} mutant", rel(&path)), mutant, m);
        }
    }
    assert!(ok >= 150, "only {ok} files decode natively ({errors} with an error)");
    std::fs::write(dir.join("cases.json"), serde_json::to_vec(&json!({ "cases": cases })).unwrap()).unwrap();

    let run = host::node("readers.mjs", &module, &dir);
    let stdout = String::from_utf8_lossy(&run.stdout);
    println!("{stdout}");
    assert!(
        run.status.success(),
        "the module differs from native:\n{stdout}\n{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let _: Value = Value::Null;
}
