//! The command line's integration tests, one binary (`cargo test -p b2schema-cli --test command`)
//! whose modules are the files beside it: every subcommand run as a process, the JSON contract,
//! crafted files, and the viewer over HTTP on loopback. `pack` against NumPy and python-blosc2 is
//! in the `python` binary (`cargo test -p b2schema-cli --test python`).

mod cli;
mod contract;
mod edits;
mod hostile_files;
mod listing;
mod many_files;
mod objects;
mod objects_azure;
mod objects_serve;
mod outputs;
mod pack_torn;
mod remote;
mod remote_tls;
mod serve;
mod serve_confined;
mod serve_load;
mod serve_viewer;
mod shell_help;
mod static_viewer;
mod store_edits;
mod stores;
mod surfaces;
mod table_arrow;
mod terminal;
mod walkthrough;
