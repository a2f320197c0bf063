// The static viewer's page side: b2schema serve's page (app.js, unchanged) over a Web Worker
// (worker.js) that runs b2schema's readers in WebAssembly. app.js asks `/api/...` as it asks
// serve; here `fetch` of those paths is answered by the worker, each within DEADLINE_MS (a
// worker that does not answer in time is ended and made anew: the page says so, the tab never
// hangs). The file: chosen or dropped by the user, or `?url=URL` (read by Range requests) with
// `&key=/g/y` for a member of a `.b2z` or `.b2e` store; `&timeout=SECONDS` sets DEADLINE_MS
// (30 s unless given).
"use strict";
(() => {
  const params = new URLSearchParams(location.search);
  const DEADLINE_MS = Math.min(600, Math.max(1, +params.get("timeout") || 30)) * 1000;
  const realFetch = window.fetch.bind(window);
  const pending = new Map();
  let worker = null;
  let next = 1;
  let opening = null; // the last open message, sent again to a new worker
  let opened = null; // the worker's answer to it
  window.b2viewer = { fetched: { requests: 0, bytes: 0 } };

  function startWorker() {
    worker = new Worker("worker.js");
    worker.onmessage = (ev) => {
      const p = pending.get(ev.data.id);
      if (!p) return;
      pending.delete(ev.data.id);
      clearTimeout(p.timer);
      window.b2viewer.fetched = ev.data.fetched;
      p.resolve(ev.data);
    };
    worker.onerror = (ev) => failAll("the viewer's worker failed: " + (ev.message || "an error"));
  }

  function failAll(why) {
    for (const [id, p] of pending) {
      clearTimeout(p.timer);
      p.resolve({ id, ok: false, status: 500, error: why });
    }
    pending.clear();
  }

  function ask(msg) {
    if (worker === null) {
      startWorker();
      if (opening && msg.op !== "open") worker.postMessage({ ...opening, id: 0 });
    }
    return new Promise((resolve) => {
      const id = next++;
      const timer = setTimeout(() => {
        worker.terminate();
        worker = null;
        failAll("no answer within " + DEADLINE_MS / 1000 + " s: the viewer's worker was stopped");
        resolve({ id, ok: false, status: 504, error: "no answer within " + DEADLINE_MS / 1000 + " s: the viewer's worker was stopped" });
      }, DEADLINE_MS);
      pending.set(id, { resolve, timer });
      worker.postMessage({ ...msg, id });
    });
  }

  let ready = Promise.resolve();
  const text = (status, body) => new Response(body, { status, headers: { "content-type": "text/plain" } });

  window.fetch = async (input, init) => {
    const url = typeof input === "string" ? input : input.url;
    if (!url.startsWith("/api/")) return realFetch(input, init);
    await ready;
    if (opened === null) {
      if (url.startsWith("/api/files")) {
        return new Response(JSON.stringify({ roots: ["no file yet: choose or drop one, or give index.html?url=URL"], files: [] }),
          { headers: { "content-type": "application/json" } });
      }
      return text(404, "no file opened");
    }
    if (!opened.ok) return text(422, JSON.stringify({ error: opened.error }));
    const r = await ask({ op: "get", url });
    if (r.error) return text(r.status || 500, JSON.stringify({ error: r.error }));
    return new Response(r.body, { status: r.status, headers: { "content-type": r.type, ...r.headers } });
  };

  const enc = encodeURIComponent;
  function hashOf(name, store, key) {
    if (key) return "#/member/0/" + enc(name) + "/" + enc(key);
    return (store ? "#/store/0/" : "#/file/0/") + enc(name);
  }

  async function open(msg, key) {
    document.body.removeAttribute("data-ready");
    opening = msg;
    ready = ask(msg).then((r) => { opened = r; return r; });
    const r = await ready;
    const hash = hashOf(r.name || "file", r.store, key);
    if (location.hash === hash) window.dispatchEvent(new HashChangeEvent("hashchange"));
    else location.hash = hash;
  }

  // `?url=`: the page to show is known before the file is read (a store by its name), so that
  // app.js's first page is the file's, drawn once the worker has opened it.
  const url = params.get("url");
  if (url) {
    const key = params.get("key");
    const path = new URL(url, location.href).pathname;
    const name = decodeURIComponent(path.slice(path.lastIndexOf("/") + 1)) || "file";
    history.replaceState(null, "", hashOf(name, /\.b2[ze]$/.test(name), key));
    opening = { op: "open", url };
    ready = ask(opening).then((r) => { opened = r; return r; });
  }

  window.addEventListener("DOMContentLoaded", () => {
    const pick = document.getElementById("pick");
    pick.addEventListener("change", () => { if (pick.files[0]) open({ op: "open", file: pick.files[0] }); });
    document.addEventListener("dragover", (ev) => ev.preventDefault());
    document.addEventListener("drop", (ev) => {
      ev.preventDefault();
      const f = ev.dataTransfer && ev.dataTransfer.files[0];
      if (f) open({ op: "open", file: f });
    });
  });
})();
