// Types of krew/wasm-asset.mjs for the tests that import it.
import type { Plugin } from "esbuild";
export declare const WASM_FILE: string;
export declare const WASM_ASSET: string;
export declare function wasmSource(): string;
export declare function copyWasmBesideGlue(metafile: { outputs: Record<string, { inputs: Record<string, unknown> }> }, root?: string): string[];
export declare function writeWasmAsset(dir: string): void;
export declare function embedWasm(embedded: string): Plugin;
