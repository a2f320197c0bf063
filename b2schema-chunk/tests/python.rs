//! The chunk codec against c-blosc2 on chunks python-blosc2 writes (the pinned environment of
//! `scripts/pyenv.sh`, installed on first use): one binary, `cargo test -p b2schema-chunk --test
//! python`, apart from the `chunk` binary, which needs no python.

mod zstd_python;
