"""A whole array read over the network: `b2schema cat URL --stats > /dev/null` beside a plain
`curl` GET of the same object (issue 47 item 4: ours at >= 80 % of the plain GET's speed).

    PY=$(scripts/pyenv.sh) && "$PY" scripts/bench_remote.py --reps 5
    PY=$(scripts/pyenv.sh) && "$PY" scripts/bench_remote.py --exe target/release/b2schema \
        --before /tmp/b2schema-main --stores http,moto --codecs lz4
    PY=$(scripts/pyenv.sh) && "$PY" scripts/bench_remote.py --stores http,https --rate 100

`--rate 100` has nginx send at most 100 MB/s per connection (`limit_rate`): a link slower than
the loopback, as a real network is, where the decoding can hide behind the transfer.

Build the command first: `cargo build --release -p b2schema-cli` (its default features hold
https and the object stores). The array: a 4096 x 8192 float64 random walk written by
python-blosc2 with its default chunks, LZ4 clevel 1 (`lz4`) and python-blosc2's default codec,
zstd clevel 5 (`zstd`). Each is served, all on 127.0.0.1 and started and stopped here, by
- nginx (`/usr/sbin/nginx`, `sendfile on`) over `http://` and over `https://` (a test CA and
  a certificate for 127.0.0.1 made with `openssl`, RSA 2048; `--cacert` for both sides),
- moto in server mode (`s3://`; the plain GET is anonymous: moto checks no signature),
- Azurite in memory (`az://`, installed by scripts/azurite.sh; the container is made with
  public read access, so that the plain GET is anonymous).

Per store and codec, the runs are interleaved: curl, ours (and `--before`'s), N times. Prints
each side's median wall time and CPU time (user + system of the process), the requests and
bytes ours fetched (from `--stats`), the ratio curl's median / ours (ours as a fraction of the
plain GET's speed: the target is >= 0.80; in brackets the range over the runs' pairs), the
local file's read for reference, and the load (`/proc/loadavg`) before and after each store's
runs: other processes on the machine change the figures, say so with them. Everything it made
(the arrays, the certificates, the servers' files) is in a temporary directory under
`--dir` (default target/tmp), removed at the end.
"""
import argparse
import base64
import hashlib
import hmac
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from email.utils import formatdate

import blosc2
import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHAPE = (4096, 8192)
CODECS = {
    "lz4": blosc2.CParams(codec=blosc2.Codec.LZ4, clevel=1),
    "zstd": blosc2.CParams(codec=blosc2.Codec.ZSTD, clevel=5),
}
# Azurite's well-known account and its published key (not a secret: every Azurite has it).
AZ_ACCOUNT = "devstoreaccount1"
AZ_KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="


def load():
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port, proc, what, seconds=60):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            sys.exit(f"{what} exited ({proc.returncode}) before it listened")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    sys.exit(f"{what} did not listen on 127.0.0.1:{port} within {seconds} s")


def make_array(path, cparams):
    rng = np.random.default_rng(47)
    walk = np.cumsum(rng.standard_normal(SHAPE), axis=1)
    blosc2.asarray(walk, urlpath=path, mode="w", cparams=cparams)


def make_certs(d):
    """A test CA and a certificate for 127.0.0.1 signed by it (RSA 2048)."""
    def ssl(*args):
        subprocess.run(["openssl", *args], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    ca_key, ca, key, csr, crt = (os.path.join(d, n) for n in ("ca.key", "ca.pem", "server.key", "server.csr", "server.pem"))
    ssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", ca_key, "-out", ca, "-days", "2",
        "-subj", "/CN=bench_remote test CA")
    ssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", csr, "-subj", "/CN=127.0.0.1")
    ext = os.path.join(d, "san.ext")
    with open(ext, "w") as f:
        f.write("subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\n")
    ssl("x509", "-req", "-in", csr, "-CA", ca, "-CAkey", ca_key, "-CAcreateserial", "-out", crt,
        "-days", "2", "-extfile", ext)
    return ca, key, crt


class Servers:
    """The servers started, stopped (and waited for) at the end."""

    def __init__(self):
        self.procs = []

    def start(self, what, args, port, **kw):
        p = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, **kw)
        self.procs.append(p)
        wait_port(port, p, what)
        return p

    def stop(self):
        for p in self.procs:
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
        for p in self.procs:
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()


def start_nginx(servers, d, files_dir, key, crt, rate=None):
    http, https = free_port(), free_port()
    # `--rate`: every answer paced to RATE MB/s (nginx's `limit_rate`, per connection), a link
    # slower than the loopback, as a real network is.
    limit = f"limit_rate {int(rate * 1_000_000)};" if rate else ""
    conf = os.path.join(d, "nginx.conf")
    with open(conf, "w") as f:
        f.write(f"""
user root;
worker_processes 1;
daemon off;
pid {d}/nginx.pid;
error_log {d}/nginx.err;
events {{ worker_connections 64; }}
http {{
    access_log off;
    sendfile on;
    {limit}
    client_body_temp_path {d}/nginx-body;
    proxy_temp_path {d}/nginx-proxy;
    fastcgi_temp_path {d}/nginx-fastcgi;
    uwsgi_temp_path {d}/nginx-uwsgi;
    scgi_temp_path {d}/nginx-scgi;
    server {{ listen 127.0.0.1:{http}; root {files_dir}; }}
    server {{
        listen 127.0.0.1:{https} ssl;
        ssl_certificate {crt};
        ssl_certificate_key {key};
        root {files_dir};
    }}
}}
""")
    servers.start("nginx", ["/usr/sbin/nginx", "-p", d, "-c", conf], http)
    wait_port(https, servers.procs[-1], "nginx (https)")
    return http, https


def start_moto(servers, python):
    port = free_port()
    # moto exits when its stdin ends, as in the tests (tests/support/s3_server.rs).
    script = ("import os, sys, threading\n"
              "threading.Thread(target=lambda: (sys.stdin.read(), os._exit(0)), daemon=True).start()\n"
              "from moto.server import main\n"
              "main(sys.argv[1:])\n")
    servers.start("moto", [python, "-c", script, "-H", "127.0.0.1", "-p", str(port)], port)
    endpoint = f"http://127.0.0.1:{port}"
    urllib.request.urlopen(urllib.request.Request(f"{endpoint}/bench", method="PUT", data=b""), timeout=60)
    return endpoint


def moto_put(endpoint, name, path):
    with open(path, "rb") as f:
        body = f.read()
    # A content type of its own (urllib's default, a form, makes moto wait for more), readable by
    # anyone (moto checks the ACL of an anonymous GET, not the signature of a signed one).
    req = urllib.request.Request(f"{endpoint}/bench/{name}", method="PUT", data=body,
                                 headers={"Content-Type": "application/octet-stream", "x-amz-acl": "public-read"})
    urllib.request.urlopen(req, timeout=600)


def start_azurite(servers, d):
    out = subprocess.run(["bash", os.path.join(ROOT, "scripts/azurite.sh")], check=True, capture_output=True, text=True)
    main = os.path.join(os.path.dirname(os.path.dirname(out.stdout.strip())), "azurite/dist/src/blob/main.js")
    port = free_port()
    script = "process.stdin.on('end', () => process.exit(0)); process.stdin.resume();\nrequire(process.argv[1]);"
    servers.start("Azurite", ["node", "-e", script, "--", main, "--blobHost", "127.0.0.1", "--blobPort", str(port),
                              "--inMemoryPersistence", "--disableTelemetry", "--silent", "--skipApiVersionCheck"],
                  port, cwd=d)
    endpoint = f"http://127.0.0.1:{port}"
    az_request(endpoint, "PUT", "bench?restype=container", b"", {"x-ms-blob-public-access": "blob"})
    return endpoint


def az_request(endpoint, method, path, body, headers):
    """A request signed with the emulator's account key (Shared Key)."""
    date, version = formatdate(usegmt=True), "2021-08-06"
    headers = {**headers, "x-ms-date": date, "x-ms-version": version}
    res, _, query = path.partition("?")
    canon_headers = "".join(f"{k}:{v}\n" for k, v in sorted(headers.items()))
    canon_res = f"/{AZ_ACCOUNT}/{AZ_ACCOUNT}/{res}" + "".join(
        f"\n{k}:{v}" for k, v in sorted(p.split("=", 1) for p in query.split("&") if p))
    length = str(len(body)) if body else ""
    sign = f"{method}\n\n\n{length}\n\napplication/octet-stream\n\n\n\n\n\n\n{canon_headers}{canon_res}"
    mac = base64.b64encode(hmac.new(base64.b64decode(AZ_KEY), sign.encode(), hashlib.sha256).digest()).decode()
    req = urllib.request.Request(f"{endpoint}/{AZ_ACCOUNT}/{path}", method=method, data=body, headers={
        **headers, "Content-Type": "application/octet-stream", "Authorization": f"SharedKey {AZ_ACCOUNT}:{mac}"})
    urllib.request.urlopen(req, timeout=600)


def azurite_put(endpoint, name, path):
    with open(path, "rb") as f:
        body = f.read()
    az_request(endpoint, "PUT", f"bench/{name}", body, {"x-ms-blob-type": "BlockBlob"})


def timed(args, env=None):
    """Runs `args` with stdout to /dev/null: wall s, CPU s (user + system), stderr."""
    start = time.perf_counter()
    p = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    err = p.stderr.read()
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - start
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        sys.exit(f"{' '.join(args)} failed ({p.returncode}):\n{err.decode(errors='replace')}")
    return wall, ru.ru_utime + ru.ru_stime, err.decode(errors="replace")


def fetched(stderr):
    m = re.search(r"fetched: (\d+) requests, (\d+) bytes", stderr)
    return (int(m.group(1)), int(m.group(2))) if m else (None, None)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--exe", default=os.path.join(ROOT, "target/release/b2schema"))
    ap.add_argument("--before", help="another build of the command, timed beside --exe")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--stores", default="http,https,moto,azurite")
    ap.add_argument("--codecs", default="lz4,zstd")
    ap.add_argument("--dir", default=os.path.join(ROOT, "target/tmp"))
    ap.add_argument("--rate", type=float, help="nginx serves at most RATE MB/s per connection (http, https only)")
    args = ap.parse_args()
    if args.rate and set(args.stores.split(",")) - {"http", "https"}:
        sys.exit("--rate paces nginx only: give --stores http,https")
    stores = args.stores.split(",")
    codecs = args.codecs.split(",")
    for s in stores:
        if s not in ("http", "https", "moto", "azurite"):
            sys.exit(f"unknown store {s}")
    builds = [("ours", os.path.abspath(args.exe))]
    if args.before:
        builds.append(("before", os.path.abspath(args.before)))
    os.makedirs(args.dir, exist_ok=True)
    d = tempfile.mkdtemp(prefix="bench_remote-", dir=args.dir)
    servers = Servers()
    # A SIGTERM (a timeout) stops the servers and removes the files too.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("bench_remote.py: terminated"))
    try:
        run(args, d, servers, stores, codecs, builds)
    finally:
        servers.stop()
        shutil.rmtree(d, ignore_errors=True)


def run(args, d, servers, stores, codecs, builds):
    files = os.path.join(d, "files")
    os.makedirs(files)
    sizes = {}
    for c in codecs:
        path = os.path.join(files, f"big-{c}.b2nd")
        make_array(path, CODECS[c])
        sizes[c] = os.path.getsize(path)
    print(f"arrays: {SHAPE[0]} x {SHAPE[1]} float64 random walk, python-blosc2 {blosc2.__version__}, "
          + ", ".join(f"{c} {sizes[c]:,} bytes" for c in codecs))
    ca, key, crt = make_certs(d)
    # Each store: the plain GET's URL and ours, with the command's extra arguments and variables.
    targets = {}
    if "http" in stores or "https" in stores:
        http, https = start_nginx(servers, d, files, key, crt, args.rate)
        if "http" in stores:
            targets["http"] = lambda c: (["curl", "-sSf", "-o", "/dev/null", f"http://127.0.0.1:{http}/big-{c}.b2nd"],
                                         [f"http://127.0.0.1:{http}/big-{c}.b2nd"], {})
        if "https" in stores:
            targets["https"] = lambda c: (["curl", "-sSf", "--cacert", ca, "-o", "/dev/null",
                                           f"https://127.0.0.1:{https}/big-{c}.b2nd"],
                                          [f"https://127.0.0.1:{https}/big-{c}.b2nd", "--cacert", ca], {})
    if "moto" in stores:
        moto = start_moto(servers, sys.executable)
        for c in codecs:
            moto_put(moto, f"big-{c}.b2nd", os.path.join(files, f"big-{c}.b2nd"))
        env = {"AWS_ENDPOINT_URL": moto, "AWS_ACCESS_KEY_ID": "test", "AWS_SECRET_ACCESS_KEY": "test",
               "AWS_REGION": "us-east-1", "AWS_ALLOW_HTTP": "true"}
        targets["moto"] = lambda c, env=env: (["curl", "-sSf", "-o", "/dev/null", f"{moto}/bench/big-{c}.b2nd"],
                                     [f"s3://bench/big-{c}.b2nd"], env)
    if "azurite" in stores:
        az = start_azurite(servers, d)
        for c in codecs:
            azurite_put(az, f"big-{c}.b2nd", os.path.join(files, f"big-{c}.b2nd"))
        env = {"AZURE_STORAGE_USE_EMULATOR": "true", "AZURITE_BLOB_STORAGE_URL": az}
        targets["azurite"] = lambda c, env=env: (["curl", "-sSf", "-o", "/dev/null", f"{az}/{AZ_ACCOUNT}/bench/big-{c}.b2nd"],
                                        [f"az://bench/big-{c}.b2nd"], env)

    if args.rate:
        print(f"nginx paces every answer to {args.rate:g} MB/s per connection (limit_rate)")
    print(f"{args.reps} runs each, interleaved; wall and CPU (user + system) medians; "
          "ratio = plain GET's wall / ours (>= 0.80 is the target), [range over the runs' pairs]")
    header = "| codec | store | load | plain GET | " + " | ".join(
        f"{n}: wall, CPU, requests, bytes | {n} / plain GET" for n, _ in builds) + " |"
    print(header)
    print("|" + " --- |" * (header.count("|") - 1))
    for c in codecs:
        local = os.path.join(files, f"big-{c}.b2nd")
        for store in stores:
            curl, url_args, env_add = targets[store](c)
            env = {**os.environ, **env_add}
            before_load = load()
            plain = []
            ours = {n: [] for n, _ in builds}
            for _ in range(args.reps):
                plain.append(timed(curl))
                for n, exe in builds:
                    ours[n].append(timed([exe, "cat", *url_args, "--stats"], env))
            after_load = load()
            row = [c, store, f"{before_load:.1f}-{after_load:.1f}",
                   f"{statistics.median(w for w, _, _ in plain):.3f} s, {statistics.median(u for _, u, _ in plain):.2f} s CPU"]
            for n, _ in builds:
                walls = [w for w, _, _ in ours[n]]
                cpus = [u for _, u, _ in ours[n]]
                req, nbytes = fetched(ours[n][-1][2])
                pairs = [p[0] / o[0] for p, o in zip(plain, ours[n])]
                ratio = statistics.median(w for w, _, _ in plain) / statistics.median(walls)
                row.append(f"{statistics.median(walls):.3f} s, {statistics.median(cpus):.2f} s CPU, {req} req, {nbytes:,} B")
                row.append(f"**{ratio:.2f}** [{min(pairs):.2f}-{max(pairs):.2f}]")
            print("| " + " | ".join(row) + " |", flush=True)
        runs = [timed([exe, "cat", local]) for _ in range(args.reps) for _, exe in builds[:1]]
        print(f"| {c} | the local file | {load():.1f} | | "
              f"{statistics.median(w for w, _, _ in runs):.3f} s, {statistics.median(u for _, u, _ in runs):.2f} s CPU |",
              flush=True)


if __name__ == "__main__":
    main()
