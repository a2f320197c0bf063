#!/usr/bin/env bash
# Build the static viewer: b2schema's readers in WebAssembly under b2schema serve's page, no
# server code. Prints the directory (the only line on stdout):
#
#     VIEWER=$(scripts/viewer.sh)      # target/viewer/ (under $CARGO_TARGET_DIR when set)
#     python3 -m http.server -d "$VIEWER" 8000
#     # http://127.0.0.1:8000/  (choose or drop a file), or
#     # http://127.0.0.1:8000/index.html?url=http://HOST/x.b2nd  (read by Range requests)
#     # http://127.0.0.1:8000/index.html?url=http://HOST/s.b2z&key=/g/y  (a store's member)
#
# The directory holds index.html, viewer.js and worker.js (b2schema-wasm/viewer/), module.js
# (the module's interface, shared with the node test), app.js and style.css (serve's page,
# b2schema-cli/assets/, unchanged) and b2schema.wasm (`scripts/wasm.sh viewer`, which installs
# the toolchain when it is missing). It is replaced whole (built beside it, then renamed).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
wasm=$(bash "$root/scripts/wasm.sh" viewer)
out="$(realpath -m "${CARGO_TARGET_DIR:-$root/target}")/viewer"
mkdir -p "$(dirname "$out")"
tmp=$(mktemp -d "$out.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cp "$root"/b2schema-wasm/viewer/{index.html,viewer.js,worker.js,module.js} "$tmp/"
cp "$root"/b2schema-cli/assets/{app.js,style.css} "$tmp/"
cp "$wasm" "$tmp/b2schema.wasm"
chmod 755 "$tmp"
rm -rf "$out"
mv "$tmp" "$out"
trap - EXIT
echo "$out"
