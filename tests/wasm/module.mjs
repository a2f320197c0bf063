// The module of tests/wasm (scripts/wasm.sh builds it) instantiated, its one export `b2(op, a, b,
// c)` given by operation (the numbers of `exports::Op` in tests/wasm/src/exports.rs).
import { readFileSync } from "node:fs";

const OP = {
    bufNew: 1, bufPtr: 2, bufLen: 3, bufOk: 4, bufFree: 5,
    decompress: 6, decompressAs: 7, decompressBlocks: 8, compress: 9,
};

/** The module at `path`: `memory` and one function per operation, each taking its arguments. */
export async function load(path) {
    const { instance } = await WebAssembly.instantiate(readFileSync(path), {});
    const { b2, memory } = instance.exports;
    if (typeof b2 !== "function") throw new Error(`${path} exports no function b2`);
    const ops = { memory };
    for (const [name, op] of Object.entries(OP)) {
        ops[name] = (a = 0, b = 0, c = 0) => b2(op, a, b, c);
    }
    return ops;
}
