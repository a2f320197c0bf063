// b2schema serve: the viewer's page. Plain JavaScript, no build step, no outside resource.
"use strict";

const main = document.getElementById("main");
const crumb = document.getElementById("crumb");

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    // Through the CSSOM: the page's Content-Security-Policy refuses inline style attributes.
    else if (k === "style") e.style.cssText = v;
    else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c);
  return e;
}

// The query naming a file (and, for a store's member, its key).
function q(root, path, key) {
  return "root=" + encodeURIComponent(root) + "&path=" + encodeURIComponent(path) +
    (key ? "&key=" + encodeURIComponent(key) : "");
}

// The page of a frame: a file's, or a store member's.
function framePage(root, path, key) {
  return key ? "#/member/" + root + "/" + encodeURIComponent(path) + "/" + encodeURIComponent(key)
    : "#/file/" + root + "/" + encodeURIComponent(path);
}

// A value from a file (the server's JSON: bytes as {"__bytes__": hex}, a long value cut as
// {"__cut__": its first characters, "chars": its length}) as text. Always shown as text
// (textContent), never as markup.
function show(v) {
  if (v !== null && typeof v === "object" && !Array.isArray(v)) {
    if ("__bytes__" in v) return "0x" + v.__bytes__;
    if ("__cut__" in v) return v.__cut__ + "… (" + v.chars + " characters in all)";
  }
  return typeof v === "string" ? v : JSON.stringify(v);
}

// A vlmeta ([{name, value}], {"more": n} last when cut, or {"error"}) as a table.
function vlmetaTable(id, entries) {
  if (!Array.isArray(entries)) return el("p", { class: "error", id, text: entries.error || "?" });
  if (!entries.length) return el("p", { id, text: "none" });
  return el("table", { id, class: "vlmeta" }, el("tbody", {}, ...entries.map(e => e.more !== undefined
    ? el("tr", {}, el("td", { text: "…" }), el("td", { text: e.more + " more not shown" }))
    : el("tr", {}, el("th", { text: e.name }), el("td", { class: "value", text: show(e.value) })))));
}

function fmtSize(n) {
  if (n < 1024) return n + " B";
  const u = ["KiB", "MiB", "GiB", "TiB"];
  let i = -1;
  do { n /= 1024; i++; } while (n >= 1024 && i < u.length - 1);
  return n.toFixed(1) + " " + u[i];
}

async function showList() {
  crumb.textContent = "";
  const r = await fetch("/api/files");
  const data = await r.json();
  const tbody = el("tbody");
  for (const f of data.files) {
    const store = f.kind === "store" || f.kind === "CTable";
    const link = el("a", { href: store ? "#/store/" + f.root + "/" + encodeURIComponent(f.path)
      : framePage(f.root, f.path), text: f.name });
    const tr = el("tr", { class: "file", "data-path": f.path, "data-root": String(f.root) },
      el("td", {}, link),
      el("td", { class: "num", text: fmtSize(f.size) }),
      el("td", { text: f.error ? "not Blosc2" : f.kind + (f.frame === "sparse" ? " (sparse)" : "")
        + (f.members !== undefined ? " (" + f.members + " members)" : "") }),
      el("td", { text: f.shape ? "(" + f.shape.join(", ") + ")" : "" }),
      el("td", { text: f.dtype || (f.typesize ? "typesize " + f.typesize : "") }),
      el("td", { class: "num", text: f.nchunks === undefined ? "" : String(f.nchunks) }));
    if (f.error) tr.title = f.error;
    tbody.append(tr);
  }
  const table = el("table", { id: "files" },
    el("thead", {}, el("tr", {}, ...["file", "size", "kind", "shape", "dtype", "chunks"].map(h => el("th", { text: h })))),
    tbody);
  main.replaceChildren(el("p", { text: data.files.length + " files under " + data.roots.join(", ") }), table);
}

async function showFile(root, path, key) {
  crumb.replaceChildren("/ ", key ? el("a", { href: "#/store/" + root + "/" + encodeURIComponent(path), text: path }) : path,
    key ? " : " + key : "");
  const r = await fetch("/api/file?" + q(root, path, key));
  if (!r.ok) {
    let msg = await r.text();
    try { msg = JSON.parse(msg).error; } catch (e) { /* plain text */ }
    main.replaceChildren(el("div", { class: "notframe", id: "notframe" },
      el("h2", { text: (key ? path + " : " + key : path) + " is not a Blosc2 file the viewer can read" }),
      el("p", { text: msg })));
    return;
  }
  const f = await r.json();
  main.replaceChildren(
    headerSection(f), metaSection(f), layoutSection(f), chunkSection(f), await dataSection(root, path, key, f));
}

// The filters of the pipeline by name, each with its meta when not 0 ("none" for an empty one).
function filterNames(h) {
  const names = h.filter_names || (h.filters || []).map(id => "filter " + id);
  const shown = names.map((n, i) => [n, (h.filters_meta || [])[i]]).filter(([n]) => n !== "none")
    .map(([n, m]) => m ? n + " (meta " + m + ")" : n);
  return shown.length ? shown.join(", ") : "none";
}

function headerSection(f) {
  const h = f.header;
  const rows = [
    ["kind", f.kind === "sframe" ? "sparse frame" : "contiguous frame"],
    ["frame_len", h.frame_len], ["header_len", h.header_len], ["format_version", h.format_version],
    ["codec", (h.codec || "codec " + h.codec_id) + (h.codec_meta ? " (meta " + h.codec_meta + ")" : "")],
    ["clevel", h.clevel], ["splitmode", h.splitmode],
    ["use_dict", h.use_dict], ["variable_chunks", h.variable_chunks], ["vl_blocks", h.vl_blocks],
    ["typesize", h.typesize], ["blocksize", h.blocksize], ["chunksize", h.chunksize],
    ["nbytes", h.nbytes], ["cbytes", h.cbytes], ["nchunks", f.nchunks],
    ["cratio", h.cbytes > 0 ? (h.nbytes / h.cbytes).toFixed(3) : "-"],
    ["filters", filterNames(h)],
    ["nthreads_comp", h.nthreads_comp], ["nthreads_decomp", h.nthreads_decomp],
    ["has_vlmetalayers", h.has_vlmetalayers],
  ];
  const table = el("table", { id: "header" }, el("tbody", {}, ...rows.map(([k, v]) =>
    el("tr", {}, el("th", { text: k }), el("td", { "data-key": k, text: String(v) })))));
  return el("section", {}, el("h2", { text: "Header (flags decoded)" }), table);
}

function metaSection(f) {
  const rows = [];
  for (const m of f.metalayers) {
    const shown = m.b2nd ? JSON.stringify(m.b2nd) : m.value !== undefined ? JSON.stringify(m.value) : m.hex;
    rows.push(el("tr", {}, el("td", { text: "metalayer" }), el("td", { text: m.name }),
      el("td", { class: "num", text: m.len + " B at " + m.offset }), el("td", { class: "value", text: shown })));
  }
  for (const m of f.vlmetalayers) {
    const shown = m.value !== undefined ? JSON.stringify(m.value) : (m.hex || "");
    rows.push(el("tr", {}, el("td", { text: "vlmetalayer" }), el("td", { text: m.name }),
      el("td", { class: "num", text: "at " + m.offset }), el("td", { class: "value", text: shown })));
  }
  const table = el("table", { id: "metas" },
    el("thead", {}, el("tr", {}, ...["", "name", "where", "decoded"].map(t => el("th", { text: t })))),
    el("tbody", {}, ...rows));
  return el("section", {}, el("h2", { text: "Metalayers and vlmetalayers" }), rows.length ? table : el("p", { text: "none" }));
}

// The header's diagram (one box per field, placed on a 16-byte ruler: a field over several rows
// is a box for its first row, one for its whole rows and one for its last, each with its name)
// next to its annotated hex; hovering or clicking either highlights the field's bytes in both.
function layoutSection(f) {
  const hex = f.header_hex;
  const nbytes = hex.length / 2;
  const diagram = el("div", { id: "diagram" });
  const owner = new Array(nbytes).fill(-1);
  f.fields.forEach((fd, i) => {
    const end = Math.min(fd.start + fd.len, nbytes);
    if (fd.start >= end) return;
    for (let b = fd.start; b < end; b++) owner[b] = i;
    const title = fd.name + ": bytes " + fd.start + ".." + (fd.start + fd.len) + " (" + fd.len + ") " + fd.doc;
    const box = (row, col, rows, cols, text) => {
      const e = el("div", { class: "field", "data-field": fd.name, "data-i": String(i), "data-start": String(fd.start),
        "data-len": String(fd.len), title, text });
      e.style.gridColumn = (col + 1) + " / span " + cols;
      e.style.gridRow = (row + 1) + " / span " + rows;
      e.addEventListener("mouseenter", () => highlight(i));
      e.addEventListener("click", () => highlight(i));
      diagram.append(e);
    };
    const first = Math.floor(fd.start / 16), last = Math.floor((end - 1) / 16);
    const c0 = fd.start % 16, c1 = (end - 1) % 16;
    if (first === last) { box(first, c0, 1, c1 - c0 + 1, fd.name); return; }
    let top = first;
    if (c0 > 0) { box(first, c0, 1, 16 - c0, fd.name); top = first + 1; }
    let bottom = last;
    if (c1 < 15) bottom = last - 1;
    if (bottom >= top) box(top, 0, bottom - top + 1, 16, top === first ? fd.name : fd.name + " (cont.)");
    if (c1 < 15) box(last, 0, 1, c1 + 1, fd.name + " (end)");
  });
  const hexBox = el("div", { id: "hex" });
  for (let row = 0; row < nbytes; row += 16) {
    hexBox.append(row.toString(16).padStart(6, "0") + "  ");
    for (let b = row; b < Math.min(row + 16, nbytes); b++) {
      const s = el("span", { class: "byte", "data-offset": String(b), text: hex.substr(2 * b, 2) });
      if (owner[b] >= 0) {
        s.addEventListener("mouseenter", () => highlight(owner[b]));
        s.addEventListener("click", () => highlight(owner[b]));
      }
      hexBox.append(s, " ");
    }
    hexBox.append("\n");
  }
  const bytes = [...hexBox.querySelectorAll(".byte")];
  const info = el("div", { id: "fieldinfo" });
  function highlight(i) {
    const fd = f.fields[i];
    for (const e of document.querySelectorAll(".hl")) e.classList.remove("hl");
    for (const e of diagram.children) if (e.dataset.i === String(i)) e.classList.add("hl");
    for (let b = fd.start; b < Math.min(fd.start + fd.len, nbytes); b++) bytes[b].classList.add("hl");
    info.textContent = fd.name + ": bytes " + fd.start + " to " + (fd.start + fd.len - 1) + " (" + fd.len + ") " + fd.doc;
  }
  const note = nbytes < f.header_bytes ? " (first " + nbytes + " of " + f.header_bytes + " bytes)" : "";
  return el("section", {}, el("h2", { text: "Header layout and bytes" + note }), info,
    el("div", { class: "layout" }, el("div", { id: "diagrambox" }, diagram), hexBox));
}

const SPECIAL_COLOURS = { zeros: "#bbbbbb", nan: "#e377c2", uninit: "#ffffff", value: "#17becf" };

// One cell per chunk, coloured by compression ratio (log scale, dark = incompressible), special
// chunks in their own colours; cells shrink to fit thousands of chunks.
function chunkSection(f) {
  const chunks = f.chunks || [];
  const n = chunks.length;
  const width = 800;
  const cell = Math.max(2, Math.min(24, Math.floor(Math.sqrt(width * 240 / Math.max(1, n)))));
  const cols = Math.max(1, Math.floor(width / cell));
  const rows = Math.max(1, Math.ceil(n / cols));
  const canvas = el("canvas", { id: "chunkmap", width: String(cols * cell), height: String(rows * cell) });
  const ctx = canvas.getContext("2d");
  const ratios = chunks.map(c => (c.cbytes > 0 ? c.nbytes / c.cbytes : 0));
  const maxLog = Math.max(1, ...ratios.map(r => Math.log2(Math.max(1, r))));
  chunks.forEach((c, i) => {
    const x = (i % cols) * cell, y = Math.floor(i / cols) * cell;
    if (c.special) ctx.fillStyle = SPECIAL_COLOURS[c.special] || "#000";
    else {
      const t = Math.log2(Math.max(1, ratios[i])) / maxLog;
      ctx.fillStyle = "hsl(" + (260 - 200 * t) + ",60%," + (25 + 45 * t) + "%)";
    }
    ctx.fillRect(x, y, cell - (cell > 3 ? 1 : 0), cell - (cell > 3 ? 1 : 0));
  });
  const info = el("div", { id: "chunkinfo", text: n + " chunks; hover for one" });
  canvas.addEventListener("mousemove", ev => {
    const rect = canvas.getBoundingClientRect();
    const i = Math.floor((ev.clientY - rect.top) / cell) * cols + Math.floor((ev.clientX - rect.left) / cell);
    const c = chunks[i];
    if (!c) return;
    info.textContent = "chunk " + c.index + ": " + c.nbytes + " -> " + c.cbytes + " bytes" +
      (c.cbytes > 0 ? ", ratio " + (c.nbytes / c.cbytes).toFixed(2) : "") + (c.special ? ", special: " + c.special : "");
  });
  const legend = el("div", { class: "legend" }, "ratio: ", el("span", { style: "background:hsl(260,60%,25%);color:#fff", text: "1" }),
    el("span", { style: "background:hsl(60,60%,70%)", text: "2^" + maxLog.toFixed(1) }),
    ...Object.entries(SPECIAL_COLOURS).map(([k, v]) => el("span", { style: "background:" + v, text: k })));
  return el("section", {}, el("h2", { text: "Chunk map" }), legend, canvas, info);
}

async function dataSection(root, path, key, f) {
  const sec = el("section", { id: "data" }, el("h2", { text: "Data" }));
  if (f.draw === "batches") return batchSection(root, path, key, f.batches);
  if (f.draw && f.draw.none) { sec.append(el("p", { text: "Not drawn: " + f.draw.none })); return sec; }
  const shape = f.summary.shape;
  const img = el("img", { id: "image", alt: "the data" });
  const status = el("div", { id: "status" });
  const cursor = el("div", { id: "cursor" });
  sec.append(status);
  if (f.draw === "plot") {
    const r = await fetch("/api/plot.png?" + q(root, path, key));
    if (!r.ok) { status.textContent = await r.text(); return sec; }
    status.textContent = "min " + r.headers.get("X-Scale-Lo") + ", max " + r.headers.get("X-Scale-Hi") +
      ", one pixel column per " + r.headers.get("X-Step") + " items (min to max)";
    img.src = URL.createObjectURL(await r.blob());
    sec.append(img);
    return sec;
  }
  const nd = shape.length;
  const axisSelect = (id, def) => {
    const s = el("select", { id });
    for (let a = 0; a < nd; a++) s.append(el("option", { value: String(a), text: "axis " + a + " (" + shape[a] + ")" }));
    s.value = String(def);
    return s;
  };
  const ay = axisSelect("ay", nd - 2), ax = axisSelect("ax", nd - 1);
  const scale = el("select", { id: "scale" }, el("option", { value: "minmax", text: "min/max" }),
    el("option", { value: "percentile", text: "1st-99th percentile" }));
  const idx = [];
  const idxBox = el("span", {});
  for (let a = 0; a < nd; a++) {
    const i = el("input", { type: "number", min: "0", max: String(Math.max(0, shape[a] - 1)), value: "0", id: "index" + a });
    i.style.width = "5em";
    idx.push(i);
  }
  let step = 1;
  async function draw() {
    const y = +ay.value, x = +ax.value;
    idxBox.replaceChildren(...idx.map((i, a) => (a === y || a === x) ? "" : el("label", {}, "axis " + a + " ", i)));
    if (y === x) { status.textContent = "choose two different axes"; return; }
    const url = "/api/heatmap.png?" + q(root, path, key) + "&y=" + y + "&x=" + x + "&scale=" + scale.value +
      "&index=" + idx.map(i => i.value || 0).join(",");
    const t0 = performance.now();
    const r = await fetch(url);
    if (!r.ok) { status.textContent = await r.text(); return; }
    step = +r.headers.get("X-Step");
    status.textContent = "colour scale " + r.headers.get("X-Scale-Lo") + " to " + r.headers.get("X-Scale-Hi") +
      " (viridis); one pixel per " + step + " items; " + Math.round(performance.now() - t0) + " ms";
    img.src = URL.createObjectURL(await r.blob());
    await img.decode();
    // Small images are shown larger, by a whole factor (pixels stay square and sharp).
    const factor = Math.max(1, Math.floor(512 / Math.max(img.naturalWidth, img.naturalHeight)));
    img.style.width = (img.naturalWidth * factor) + "px";
  }
  let pending = null;
  img.addEventListener("mousemove", ev => {
    const rect = img.getBoundingClientRect();
    const px = Math.floor((ev.clientX - rect.left - img.clientLeft) * img.naturalWidth / img.clientWidth);
    const py = Math.floor((ev.clientY - rect.top - img.clientTop) * img.naturalHeight / img.clientHeight);
    if (px < 0 || py < 0 || px >= img.naturalWidth || py >= img.naturalHeight) return;
    const at = idx.map(i => +i.value || 0);
    at[+ay.value] = Math.min(shape[+ay.value] - 1, py * step);
    at[+ax.value] = Math.min(shape[+ax.value] - 1, px * step);
    clearTimeout(pending);
    pending = setTimeout(async () => {
      const r = await fetch("/api/value?" + q(root, path, key) + "&at=" + at.join(","));
      const v = await r.json();
      cursor.textContent = "[" + at.join(", ") + "] = " + v.value;
    }, 40);
  });
  for (const c of [ay, ax, scale, ...idx]) c.addEventListener("change", draw);
  sec.append(el("div", { class: "controls" }, el("label", {}, "rows ", ay), el("label", {}, "columns ", ax),
    el("label", {}, "scale ", scale), idxBox), cursor, img);
  await draw();
  return sec;
}

// Buttons for the previous and next pages with the label between them (never over it).
function pager(id) {
  const prev = el("button", { id: id + "prev", text: "◀ previous" });
  const next = el("button", { id: id + "next", text: "next ▶" });
  const info = el("span", { id: id + "info", class: "pageinfo" });
  return { prev, next, info, box: el("div", { class: "pager" }, prev, info, next) };
}

// A BatchArray: its batches (with the item counts its metadata claims) and a batch's items, a
// page at a time.
async function batchSection(root, path, key, b) {
  const sec = el("section", { id: "batches" }, el("h2", { text: "BatchArray" }));
  if (b.error) { sec.append(el("p", { class: "error", id: "batcherror", text: b.error })); return sec; }
  sec.append(el("p", { id: "batchsummary", text: b.batches + " batches" +
    (b.items !== null && b.items !== undefined ? ", " + b.items + " items (as _batch_array_metadata says)" : "") +
    ", serializer " + b.serializer + (b.items_per_block ? ", " + b.items_per_block + " items per block" : "") }));
  // A list of the batches, or past 1000 of them a number to type.
  const select = b.batches > 1000
    ? el("input", { id: "batch", type: "number", min: "0", max: String(b.batches - 1), value: "0" })
    : el("select", { id: "batch" });
  for (let i = 0; i < (b.batches > 1000 ? 0 : b.batches); i++) {
    const n = b.lengths && b.lengths[i] !== undefined ? " (" + b.lengths[i] + " items)" : "";
    select.append(el("option", { value: String(i), text: "batch " + i + n }));
  }
  const size = 50;
  let offset = 0;
  const p = pager("item");
  const body = el("tbody");
  async function load() {
    const r = await fetch("/api/batch?" + q(root, path, key) + "&batch=" + select.value + "&offset=" + offset + "&limit=" + size);
    let page;
    try { page = await r.json(); } catch (e) { page = { error: "an answer that is not JSON" }; }
    if (!r.ok || page.error) {
      body.replaceChildren(el("tr", {}, el("td", { class: "error", colspan: "2", text: page.error || "error" })));
      p.info.textContent = "";
      p.prev.disabled = p.next.disabled = true;
      return;
    }
    body.replaceChildren(...page.items.map((v, i) => el("tr", {},
      el("td", { class: "num", text: String(page.offset + i) }),
      el("td", { class: v === null ? "null" : "", text: v === null ? "null" : show(v) }))));
    p.info.textContent = "items " + (page.items.length ? page.offset : 0) + "-" + (page.offset + page.items.length) + " of " + page.n_items;
    p.prev.disabled = offset === 0;
    p.next.disabled = offset + page.items.length >= page.n_items;
  }
  p.prev.addEventListener("click", () => { offset = Math.max(0, offset - size); load(); });
  p.next.addEventListener("click", () => { offset += size; load(); });
  select.addEventListener("change", () => { offset = 0; load(); });
  sec.append(el("div", { class: "controls" }, el("label", {}, "batch ", select)), p.box,
    el("table", { id: "items" }, el("thead", {}, el("tr", {}, el("th", { text: "#" }), el("th", { text: "item" }))), body));
  await load();
  return sec;
}

// A python-blosc2 store as a folder of its members (each opens on a frame's page: a .b2d's member
// as its file, any other by its key), its vlmeta as values, and the CTable it holds, if any, as a
// table of its live rows, a page at a time, sorted by a column on the server when asked.
async function showStore(root, path) {
  crumb.textContent = "/ " + path;
  const r = await fetch("/api/store?" + q(root, path));
  if (!r.ok) {
    main.replaceChildren(el("p", { class: "error", id: "notframe", text: await r.text() }));
    return;
  }
  const s = await r.json();
  const rows = s.members.map(m => el("tr", { class: "member" },
    el("td", {}, el("a", { href: m.file ? framePage(root, path + "/" + m.file) : framePage(root, path, m.key), text: m.key })),
    el("td", { text: m.error ? "error" : m.kind }),
    el("td", { text: m.shape ? "(" + m.shape.join(", ") + ")" : "" }),
    el("td", { text: m.dtype || "" }),
    el("td", { text: m.codec || "" }),
    el("td", { class: m.error ? "error" : "num", text: m.error || (m.nbytes !== undefined ? fmtSize(m.nbytes) : "") })));
  const members = el("table", { id: "members" },
    el("thead", {}, el("tr", {}, ...["key", "kind", "shape", "dtype", "codec", "nbytes"].map(h => el("th", { text: h })))),
    el("tbody", {}, ...rows));
  const parts = [el("section", {}, el("h2", { text: s.form + " store, " + s.members.length + " members" }), members),
    el("section", {}, el("h2", { text: "Store vlmeta" }), vlmetaTable("storevlmeta", s.vlmeta))];
  if (s.table) parts.unshift(await tableSection(root, path, s.table));
  main.replaceChildren(...parts);
}

async function tableSection(root, path, t) {
  const sec = el("section", { id: "ctable" });
  if (t.error) {
    sec.append(el("h2", { text: "CTable" }), el("p", { class: "error", text: t.error }));
    return sec;
  }
  const size = 50;
  let offset = 0;
  let sort = null, desc = false;
  const p = pager("row");
  p.info.id = "rowinfo";
  const status = el("div", { id: "sortinfo" });
  const body = el("tbody");
  async function load() {
    const order = sort === null ? "" : "&sort=" + encodeURIComponent(sort) + "&desc=" + (desc ? 1 : 0);
    const r = await fetch("/api/table?" + q(root, path) + "&offset=" + offset + "&limit=" + size + order);
    let page;
    try { page = await r.json(); } catch (e) { page = { error: "an answer that is not JSON" }; }
    if (!r.ok || page.error) {
      body.replaceChildren(el("tr", {}, el("td", { class: "error", colspan: String(t.columns.length + 1), text: page.error || "error" })));
      p.prev.disabled = p.next.disabled = true;
      return;
    }
    body.replaceChildren(...page.rows.map((row, i) => el("tr", {},
      el("td", { class: "num", text: String(offset + i) }),
      ...row.map(v => el("td", { class: v === null ? "null" : "", text: v === null ? "null" : show(v) })))));
    p.info.textContent = "rows " + (page.rows.length ? offset : 0) + "-" + (offset + page.rows.length) + " of " + page.n_rows;
    status.textContent = sort === null ? "stored order (click a column to sort by it)"
      : "sorted by " + sort + (desc ? ", largest first" : ", smallest first") + "; nulls last";
    p.prev.disabled = offset === 0;
    p.next.disabled = offset + page.rows.length >= page.n_rows;
  }
  p.prev.addEventListener("click", () => { offset = Math.max(0, offset - size); load(); });
  p.next.addEventListener("click", () => { offset += size; load(); });
  const heads = t.columns.map(c => {
    const th = el("th", { class: "sortable", "data-col": c.name, title: "sort by " + c.name + " (click again to reverse)" },
      el("div", { class: "colname", text: c.name }),
      el("div", { class: "coltype", text: c.kind + (c.nullable ? ", nullable" : "") }));
    th.addEventListener("click", () => {
      if (sort === c.name) desc = !desc; else { sort = c.name; desc = false; }
      for (const h of heads) h.removeAttribute("data-sort");
      th.setAttribute("data-sort", desc ? "desc" : "asc");
      offset = 0;
      load();
    });
    return th;
  });
  const head = el("tr", {}, el("th", { text: "#" }), ...heads);
  sec.append(el("h2", { text: "CTable, " + t.n_rows + " rows, " + t.columns.length + " columns" }),
    p.box, status,
    el("table", { id: "rows" }, el("thead", {}, head), body),
    el("h2", { text: "Table vlmeta" }), vlmetaTable("tablevlmeta", t.vlmeta));
  await load();
  return sec;
}

async function route() {
  const m = location.hash.match(/^#\/file\/(\d+)\/(.*)$/);
  const mb = location.hash.match(/^#\/member\/(\d+)\/([^/]*)\/(.*)$/);
  const st = location.hash.match(/^#\/store\/(\d+)\/(.*)$/);
  try {
    if (m) await showFile(m[1], decodeURIComponent(m[2]));
    else if (mb) await showFile(mb[1], decodeURIComponent(mb[2]), decodeURIComponent(mb[3]));
    else if (st) await showStore(st[1], decodeURIComponent(st[2]));
    else await showList();
    document.body.setAttribute("data-ready", location.hash || "#/");
  } catch (e) {
    main.replaceChildren(el("p", { class: "error", text: String(e) }));
    document.body.setAttribute("data-ready", "error");
  }
}

window.addEventListener("hashchange", () => { document.body.removeAttribute("data-ready"); route(); });
route();
