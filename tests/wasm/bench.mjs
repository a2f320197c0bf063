// The module's side of benches/bench_wasm.rs: compresses `data.bin` in the directory with each
// line of `specs.txt`, writes the chunk as `<line>.chunk`, and prints per line the compression
// and decompression MB/s (1e6 uncompressed bytes per second, best of at least 5 runs and 0.5 s).
//
//     node tests/wasm/bench.mjs <module.wasm> <directory>
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { load } from "./module.mjs";

const [wasmPath, dir] = process.argv.slice(2);
const ex = await load(wasmPath);
const data = readFileSync(join(dir, "data.bin"));
const specs = readFileSync(join(dir, "specs.txt"), "utf8").split("\n");

function put(bytes) {
    const h = ex.bufNew(bytes.length);
    new Uint8Array(ex.memory.buffer, ex.bufPtr(h), bytes.length).set(bytes);
    return h;
}

/** Runs `op` (which returns a result handle) and frees the result; throws on an error. */
function once(op) {
    const r = op();
    if (ex.bufOk(r) !== 1) throw new Error("the module failed");
    ex.bufFree(r);
}

function best(f) {
    let [min, total, reps] = [Infinity, 0, 0];
    while (total < 500 || reps < 5) {
        const t = performance.now();
        f();
        const dt = performance.now() - t;
        min = Math.min(min, dt);
        total += dt;
        reps += 1;
    }
    return data.length / 1e6 / (min / 1e3);
}

const hdata = put(data);
specs.forEach((spec, i) => {
    const hspec = put(new TextEncoder().encode(spec));
    const hchunk = ex.compress(hdata, hspec);
    writeFileSync(join(dir, `${i}.chunk`), new Uint8Array(ex.memory.buffer, ex.bufPtr(hchunk), ex.bufLen(hchunk)));
    const c = best(() => once(() => ex.compress(hdata, hspec)));
    const d = best(() => once(() => ex.decompress(hchunk, data.length)));
    console.log(`${c} ${d}`);
    ex.bufFree(hspec);
    ex.bufFree(hchunk);
});
