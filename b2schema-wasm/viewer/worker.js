// The static viewer's worker: b2schema's readers in WebAssembly (module.js, b2schema.wasm) over
// the file the page opened, answering the page's `/api/...` requests as `b2schema serve` does.
//
// The readers are synchronous and ask for byte ranges as they go (the metadata, then the blocks
// a page draws); a worker may read synchronously, so each range is read when asked: a `File` by
// `FileReaderSync`, a URL by a synchronous `XMLHttpRequest` with `Range` (allowed in workers).
// Only the ranges asked are fetched; nothing else of a remote file is.
//
// Messages: {id, op: "open", file} | {id, op: "open", url} -> {id, ok, name, len, store, error}
//           {id, op: "get", url: "/api/..."} -> {id, status, type, headers, body, fetched}
"use strict";
importScripts("module.js");

const wasm = fetch("b2schema.wasm").then((r) => {
  if (!r.ok) throw new Error("b2schema.wasm: HTTP " + r.status);
  return r.arrayBuffer();
});
const readers = []; // the host's sources, by id: (offset, len) => Uint8Array
const fetched = { requests: 0, bytes: 0 };
let mod = null; // the module; null after a trap, made again when next needed
let current = null; // {id, name, len, remote, store}
let source = 0; // current's source in the module (0: not yet)

async function module() {
  if (mod === null) {
    mod = await globalThis.B2schemaViewer.load(await wasm, (id, offset, len) => readers[id](offset, len));
    source = 0;
  }
  if (current !== null && source === 0) source = mod.hostSource(current.id, current.len, current.remote);
  return mod;
}

// A synchronous ranged GET of `url`: the XHR, its status checked.
function rangeGet(url, first, last) {
  const x = new XMLHttpRequest();
  x.open("GET", url, false);
  x.responseType = "arraybuffer";
  x.setRequestHeader("Range", "bytes=" + first + "-" + last);
  x.send();
  fetched.requests += 1;
  const body = new Uint8Array(x.response || new ArrayBuffer(0));
  fetched.bytes += body.length;
  return { status: x.status, body, range: x.getResponseHeader("Content-Range") };
}

// The host's source of a URL: its length from a first ranged GET (a server that ignores Range
// sends the whole file: it is kept, and read from memory).
function urlSource(url) {
  const first = rangeGet(url, 0, 0);
  if (first.status === 200) {
    const whole = first.body;
    return { len: whole.length, read: (offset, len) => whole.subarray(offset, offset + len) };
  }
  const total = first.status === 206 && /\/(\d+)$/.exec(first.range || "");
  if (!total) throw new Error(url + ": HTTP " + first.status + " to a ranged GET, with no length");
  const read = (offset, len) => {
    const r = rangeGet(url, offset, offset + len - 1);
    if (r.status !== 206 || r.body.length !== len) throw new Error("HTTP " + r.status);
    return r.body;
  };
  return { len: +total[1], read };
}

async function open(m) {
  let name, s;
  if (m.file) {
    const reader = new FileReaderSync();
    name = m.file.name;
    s = { len: m.file.size, read: (offset, len) => new Uint8Array(reader.readAsArrayBuffer(m.file.slice(offset, offset + len))) };
  } else {
    const path = new URL(m.url, location.href).pathname;
    name = decodeURIComponent(path.slice(path.lastIndexOf("/") + 1)) || "file";
    s = urlSource(m.url);
  }
  readers.push(s.read);
  if (mod !== null && source !== 0) mod.free(source);
  current = { id: readers.length - 1, name, len: s.len, remote: !m.file };
  source = 0;
  const list = JSON.parse(new TextDecoder().decode((await module()).answer(source, name, "/api/files").body));
  const entry = list.files[0] || {};
  current.store = entry.kind === "store" || entry.kind === "CTable";
  return { ok: true, name, len: s.len, store: current.store, error: entry.error };
}

async function get(url) {
  if (current === null) return { status: 404, type: "text/plain", headers: {}, body: new TextEncoder().encode("no file opened") };
  const r = (await module()).answer(source, current.name, url);
  return { status: r.status, type: r.type, headers: r.headers, body: r.body.slice() };
}

onmessage = async (ev) => {
  const m = ev.data;
  let answer;
  try {
    answer = m.op === "open" ? await open(m) : await get(m.url);
  } catch (e) {
    // A failed open, or a trap of the module (a panic is an `unreachable`): made anew next time.
    if (e instanceof WebAssembly.RuntimeError) mod = null;
    answer = { ok: false, status: 500, type: "text/plain", headers: {}, error: String(e), body: new TextEncoder().encode(String(e)) };
  }
  answer.id = m.id;
  answer.fetched = { ...fetched };
  postMessage(answer, answer.body ? [answer.body.buffer] : []);
};
