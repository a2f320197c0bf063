"""Builds a bench tool (a `[[bench]]` target with `harness = false`, in `benches/` of its crate) in
cargo's release-based bench profile and returns its executable, which cargo names with a hash
(`target/release/deps/NAME-HASH`): the bench_*.py scripts run it directly with their arguments.
By hand, `cargo bench -p PACKAGE --bench NAME -- ARGS` does both (the tools ignore the `--bench`
cargo adds)."""
import json
import os
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def bench_exe(package, name, features=()):
    cmd = ["cargo", "bench", "--no-run", "-q", "-p", package, "--bench", name, "--message-format=json"]
    if features:
        cmd += ["--features", ",".join(features)]
    out = subprocess.run(cmd, cwd=ROOT, check=True, stdout=subprocess.PIPE, text=True).stdout
    for line in out.splitlines():
        m = json.loads(line)
        if m.get("reason") == "compiler-artifact" and m["target"]["name"] == name and m.get("executable"):
            return m["executable"]
    raise SystemExit(f"cargo built no executable for the bench {name} of {package}")
