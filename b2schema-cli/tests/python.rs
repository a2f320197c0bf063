//! The command line against NumPy and python-blosc2 (the pinned environment of
//! `scripts/pyenv.sh`): `pack` and `unpack` of `.npy` files, `cat --npy` slices, interrupted `vlmeta set`s, interrupted table appends. One binary:
//! `cargo test -p b2schema-cli --test python`.

mod pack;
#[cfg(unix)]
mod table_append;
#[cfg(unix)]
mod torn_writes;
