//! The examples of `examples/` (one user task each, `cargo run --example NAME`), run: each
//! example file is compiled into this binary as a module and its `run` (what `main` does without
//! arguments) is called, so that `cargo test` runs every one without a binary of its own.

use b2schema_tests::repo_root;

#[path = "../examples/open_and_slice.rs"]
#[allow(dead_code)] // `main`, the example's entry point, is not called here.
mod open_and_slice;

#[path = "../examples/write_array.rs"]
#[allow(dead_code)]
mod write_array;

#[path = "../examples/read_store.rs"]
#[allow(dead_code)]
mod read_store;

#[path = "../examples/read_ctable.rs"]
#[allow(dead_code)]
mod read_ctable;

#[path = "../examples/read_http.rs"]
#[allow(dead_code)]
mod read_http;

#[path = "../examples/derive_layout.rs"]
#[allow(dead_code)]
mod derive_layout;

#[path = "../examples/append_loop.rs"]
#[allow(dead_code)]
mod append_loop;

#[path = "../examples/own_transport.rs"]
#[allow(dead_code)]
mod own_transport;

#[test]
fn open_and_slice_reads_the_shipped_array() {
    open_and_slice::run(&repo_root().join("tests/data/fixtures/nd-meta-vlmeta.b2nd")).unwrap();
}

#[test]
fn write_array_writes_what_it_reads_back() {
    let dir = std::env::temp_dir().join(format!("b2schema-example-write-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    write_array::run(&dir.join("grid.b2nd")).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn read_store_reads_a_member_and_the_vlmeta() {
    read_store::run().unwrap();
}

#[test]
fn read_ctable_reads_the_shipped_table() {
    read_ctable::run().unwrap();
}

#[test]
fn read_http_reads_from_its_own_server() {
    read_http::run().unwrap();
}

#[test]
fn derive_layout_patches_and_reads_its_metalayer() {
    derive_layout::run().unwrap();
}

#[test]
fn own_transport_reads_through_its_client() {
    own_transport::run().unwrap();
}

#[test]
fn append_loop_grows_the_array_slab_by_slab() {
    let dir = std::env::temp_dir().join(format!("b2schema-example-append-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("acq.b2nd");
    let slab = append_loop::sine_slab(3, 5);
    for synced in [true, false] {
        assert_eq!(append_loop::run(&path, &slab, 5, 4, synced).unwrap(), [12, 5]);
        let all: Vec<f64> = b2schema::open(&path).unwrap().read_as(":").unwrap();
        assert_eq!(all, slab.repeat(4));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Every file of `examples/` is run above: a new example without a test here fails.
#[test]
fn every_example_is_run() {
    let run = [
        "open_and_slice",
        "write_array",
        "read_store",
        "read_ctable",
        "read_http",
        "derive_layout",
        "own_transport",
        "append_loop",
    ];
    let mut found: Vec<String> = std::fs::read_dir(repo_root().join("examples"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    found.sort();
    let mut run: Vec<String> = run.iter().map(|s| s.to_string()).collect();
    run.sort();
    assert_eq!(found, run);
}
