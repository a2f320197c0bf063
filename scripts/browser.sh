#!/usr/bin/env bash
# Make sure headless Chromium and its WebDriver are installed, then print the path of the
# chromium binary (the only line this script writes to stdout):
#
#     CHROMIUM=$(scripts/browser.sh)
#
# They come from the Debian packages `chromium` and `chromium-driver` (apt-get, run as root,
# `apt-get update` first). Concurrent runs (parallel tests) are serialised with flock. Anything
# apt prints goes to stderr. Exits non-zero when the browser cannot be installed: the browser
# tests fail then, they never skip.
set -euo pipefail

find_browser() {
    local b
    for b in chromium chromium-browser; do
        if command -v "$b" >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1; then
            command -v "$b"
            return 0
        fi
    done
    return 1
}

if find_browser; then
    exit 0
fi

lock="${TMPDIR:-/tmp}/b2schema-browser.lock"
exec 9>"$lock"
flock 9
if find_browser; then
    exit 0
fi

if [[ $(id -u) -ne 0 ]]; then
    echo "scripts/browser.sh: chromium and chromedriver are missing and this is not root: install the Debian packages chromium and chromium-driver" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update >&2
apt-get install -y --no-install-recommends chromium chromium-driver >&2
find_browser || {
    echo "scripts/browser.sh: chromium or chromedriver still missing after apt-get install" >&2
    exit 1
}
