// The viewer's module (b2schema-wasm, built by `scripts/wasm.sh viewer`) instantiated, its one
// export `viewer(op, a, b, c)` given by operation (the numbers of `exports::Op` in
// b2schema-wasm/src/exports.rs). Shared by the static viewer's worker (worker.js, by
// importScripts) and the node test (tests/wasm/readers.mjs, by import): a classic script, which
// any server may send without a JavaScript content type, that sets `globalThis.B2schemaViewer`.
//
// `read(id, offset, len)` is the host's side of the module's one import: the `len` bytes at
// `offset` of the host's source `id` (a Uint8Array), synchronously; anything else (or a throw)
// is a failed read, an I/O error of the reader.

"use strict";
(() => {
const OP = {
  bufNew: 1, bufPtr: 2, bufLen: 3, bufOk: 4, bufFree: 5,
  sourceMemory: 6, sourceHost: 7, sourceRemote: 8, sourceFree: 9, answer: 10, decode: 11,
};

const utf8 = new TextEncoder();

/** The module in `wasmBytes`, reading the host's sources through `read`. */
async function load(wasmBytes, read) {
  let memory = null;
  const imports = { b2schema: { read: (id, offset, len, ptr) => {
    try {
      const bytes = read(id, offset, len);
      if (!(bytes instanceof Uint8Array) || bytes.length !== len) return 1;
      new Uint8Array(memory.buffer, ptr, len).set(bytes);
      return 0;
    } catch (e) {
      return 1;
    }
  } } };
  const { instance } = await WebAssembly.instantiate(wasmBytes, imports);
  memory = instance.exports.memory;
  const viewer = instance.exports.viewer;
  if (typeof viewer !== "function") throw new Error("the module exports no function viewer");
  const call = (op, a = 0, b = 0, c = 0) => viewer(op, a, b, c);

  // A new module buffer holding `bytes`; its handle.
  function put(bytes) {
    const h = call(OP.bufNew, bytes.length);
    if (h === 0) throw new Error(`the module could not allocate ${bytes.length} bytes`);
    new Uint8Array(memory.buffer, call(OP.bufPtr, h), bytes.length).set(bytes);
    return h;
  }
  // The buffer's bytes (a copy) and whether it is a result; frees it.
  function take(h) {
    if (h === 0) throw new Error("the module returned no buffer");
    const bytes = new Uint8Array(memory.buffer, call(OP.bufPtr, h), call(OP.bufLen, h)).slice();
    const ok = call(OP.bufOk, h) === 1;
    call(OP.bufFree, h);
    return { ok, bytes };
  }
  // `op` on a source and texts, the texts' buffers freed after.
  function withTexts(op, source, ...texts) {
    const hs = texts.map((t) => put(utf8.encode(t)));
    try {
      return take(call(op, source, ...hs));
    } finally {
      for (const h of hs) call(OP.bufFree, h);
    }
  }

  return {
    memory: () => memory,
    /** A source of `bytes`, kept in the module. */
    memorySource: (bytes) => call(OP.sourceMemory, put(bytes)),
    /** A source of the host's `id`, `len` bytes long; `remote`: each read is a request. */
    hostSource: (id, len, remote) =>
      call(remote ? OP.sourceRemote : OP.sourceHost, id, len % 2 ** 32, Math.floor(len / 2 ** 32)),
    free: (source) => call(OP.sourceFree, source),
    /** serve's answer to `url` (`/api/...`) for the file `name`: {status, type, headers, body}. */
    answer(source, name, url) {
      const { ok, bytes } = withTexts(OP.answer, source, name, url);
      if (!ok) return { status: 500, type: "text/plain", headers: {}, body: bytes };
      const n = new DataView(bytes.buffer).getUint32(0, true);
      const head = JSON.parse(new TextDecoder().decode(bytes.subarray(4, 4 + n)));
      return { status: head.status, type: head.type, headers: head.headers, body: bytes.subarray(4 + n) };
    },
    /** What the readers make of the file (b2schema_wasm::decode): {ok, text}. */
    decode(source, name) {
      const { ok, bytes } = withTexts(OP.decode, source, name);
      return { ok, text: new TextDecoder().decode(bytes) };
    },
  };
}

globalThis.B2schemaViewer = { load };
})();
