// Types of krew/packs.mjs for the tests that import it.
interface Metafile {
  outputs: Record<string, { bytes?: number; imports: Array<{ path: string; kind: string; external?: boolean }>; entryPoint?: string }>;
}
export declare const PACK_SUFFIX: string;
export declare function planPacks(metafile: Metafile, outdir?: string, guard?: string, entry?: string): Map<string, string[]>;
export declare function packSource(npmDir: string, root: string, members: readonly string[]): string;
export declare function writePacks(npmDir: string, metafile: Metafile, outdir?: string): Map<string, string[]>;
export declare function removePacks(npmDir: string): void;
