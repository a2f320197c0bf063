// Runs b2schema_wasm::decode in the viewer's module under node over the files that
// tests/readers.rs decoded natively, and compares the texts; node's own modules only.
//
//     node tests/wasm/readers.mjs <b2schema_wasm.wasm> <case directory with cases.json>
//
// A case: {name, path (the file), expect (the native text)}. Each file is read twice: through
// the module's import (the host's source: fs.readSync at the offsets the readers ask), and from
// bytes put in the module's memory. Exits 1 when any text differs (the first lines that differ
// are printed), 2 when the cases cannot be read.
import { closeSync, fstatSync, openSync, readFileSync, readSync } from "node:fs";
import { join } from "node:path";
import "../../b2schema-wasm/viewer/module.js";

const { load } = globalThis.B2schemaViewer;

const [wasmPath, dir] = process.argv.slice(2);
if (!wasmPath || !dir) {
  console.error("usage: node readers.mjs <module.wasm> <case directory>");
  process.exit(2);
}
const fds = [];
let reads = 0;
const mod = await load(readFileSync(wasmPath), (id, offset, len) => {
  reads += 1;
  const bytes = new Uint8Array(len);
  return readSync(fds[id], bytes, 0, len, offset) === len ? bytes : null;
});
const { cases } = JSON.parse(readFileSync(join(dir, "cases.json"), "utf8"));

/** The first line where `a` and `b` differ, both sides. */
function firstDiff(a, b) {
  const x = a.split("\n"), y = b.split("\n");
  const i = x.findIndex((l, k) => l !== y[k]);
  return `line ${i + 1}:\n  wasm   ${x[i]}\n  native ${y[i]}`;
}

const failures = [];
for (const c of cases) {
  for (const via of ["host", "memory"]) {
    let got;
    try {
      let source;
      if (via === "host") {
        const fd = openSync(c.path, "r");
        fds.push(fd);
        source = mod.hostSource(fds.length - 1, fstatSync(fd).size, false);
      } else {
        source = mod.memorySource(readFileSync(c.path));
      }
      got = mod.decode(source, c.name);
      mod.free(source);
    } catch (e) {
      // A trap (a panic is an `unreachable` in the module) or a broken interface.
      failures.push(`${c.name} (${via}): ${e}`);
      continue;
    }
    if (!got.ok || got.text !== c.expect) failures.push(`${c.name} (${via}): ${firstDiff(got.text, c.expect)}`);
  }
}
for (const fd of fds) closeSync(fd);
for (const f of failures.slice(0, 20)) console.log(`MISMATCH ${f}`);
console.log(`wasm readers: ${cases.length * 2 - failures.length} of ${cases.length * 2} decodes equal to native ` +
  `(${cases.length} files, each through the host's reads and from memory; ${reads} host reads)`);
process.exit(failures.length === 0 && cases.length > 0 ? 0 : 1);
