// Runs the cases that tests/node.rs wrote natively through b2schema-chunk compiled to WebAssembly
// and compares every outcome with the native one; node's own modules only.
//
//     node tests/wasm/run.mjs <module.wasm> <case directory with cases.json>
//
// A case: {name, op: "decompress" | "compress", input (a file in the directory), limit (decompress:
// the most bytes it may give), spec (compress), expect: {ok: true, len, sha256} | {ok: false,
// error}, blocks (decompress: the outcome of decoding block by block), decoded (compress: what the
// native chunk decompresses to natively)}. A chunk the module compresses is decompressed by the
// module too, and must give `decoded`. Exits 1 when any outcome differs (each is printed), 2 when
// the cases cannot be read.
import { readFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { load } from "./module.mjs";

const [wasmPath, dir] = process.argv.slice(2);
if (!wasmPath || !dir) {
    console.error("usage: node run.mjs <module.wasm> <case directory>");
    process.exit(2);
}
const ex = await load(wasmPath);
const { cases } = JSON.parse(readFileSync(join(dir, "cases.json"), "utf8"));

const sha256 = (bytes) => createHash("sha256").update(bytes).digest("hex");

/** A new module buffer holding `bytes`; its handle. */
function put(bytes) {
    const h = ex.bufNew(bytes.length);
    if (h === 0) throw new Error(`the module could not allocate ${bytes.length} bytes`);
    new Uint8Array(ex.memory.buffer, ex.bufPtr(h), bytes.length).set(bytes);
    return h;
}

/** The buffer's bytes (a copy) and whether it is a result; frees it. */
function take(h) {
    if (h === 0) throw new Error("the module returned no buffer");
    const bytes = new Uint8Array(ex.memory.buffer, ex.bufPtr(h), ex.bufLen(h)).slice();
    const ok = ex.bufOk(h) === 1;
    ex.bufFree(h);
    return { ok, bytes };
}

/** What an outcome is, in the terms of `expect`. */
function outcome({ ok, bytes }) {
    return ok ? { ok, len: bytes.length, sha256: sha256(bytes) } : { ok, error: new TextDecoder().decode(bytes) };
}

/** An outcome as one string (key order aside). */
const text = (o) => (o.ok ? `ok: ${o.len} bytes, sha256 ${o.sha256}` : `error: ${o.error}`);
const same = (a, b) => text(a) === text(b);
const counts = { decompress: 0, compress: 0, errors: 0 };
const failures = [];
for (const c of cases) {
    const input = readFileSync(join(dir, c.input));
    let got;
    try {
        const hin = put(input);
        if (c.op === "decompress") {
            got = take(ex.decompress(hin, c.limit));
            const blocks = outcome(take(ex.decompressBlocks(hin, c.limit)));
            if (!same(blocks, c.blocks)) {
                failures.push(`${c.name}: block by block, wasm ${text(blocks)}; native ${text(c.blocks)}`);
            }
        } else {
            const hspec = put(new TextEncoder().encode(c.spec));
            got = take(ex.compress(hin, hspec));
            if (got.ok) {
                const hchunk = put(got.bytes);
                const back = outcome(take(ex.decompressAs(hchunk, hspec, 0x7fffffff)));
                ex.bufFree(hchunk);
                if (!same(back, c.decoded)) {
                    failures.push(`${c.name}: the module's chunk decompresses to ${text(back)}; native ${text(c.decoded)}`);
                }
            }
            ex.bufFree(hspec);
        }
        ex.bufFree(hin);
    } catch (e) {
        // A trap (a panic is an `unreachable` in the module) or a broken interface.
        failures.push(`${c.name}: ${e}`);
        continue;
    }
    const o = outcome(got);
    if (!same(o, c.expect)) {
        failures.push(`${c.name}: wasm ${text(o)}; native ${text(c.expect)}`);
    }
    counts[c.op] += 1;
    if (!o.ok) counts.errors += 1;
}
const failed = new Set(failures.map((f) => f.slice(0, f.indexOf(": "))));
for (const f of failures.slice(0, 30)) console.log(`MISMATCH ${f}`);
console.log(
    `wasm: ${cases.length - failed.size} of ${cases.length} cases equal to native ` +
        `(${counts.decompress} decompress, ${counts.compress} compress, ${counts.errors} of them errors)`,
);
process.exit(failures.length === 0 && cases.length > 0 ? 0 : 1);
