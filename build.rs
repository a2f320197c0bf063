//! Writes the structs of the derive's test matrix (`tests/derive_matrix.rs`) into `OUT_DIR`.

#[path = "tests/matrix/gen.rs"]
mod matrix_gen;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=tests/matrix/gen.rs");
    let (source, _) = matrix_gen::generate();
    let out = std::path::PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    std::fs::write(out.join("derive_matrix.rs"), source).expect("OUT_DIR is writable");
}
