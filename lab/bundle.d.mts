// Types of lab/bundle.mjs for the TypeScript lab modules that import it.
import type { BuildOptions, BuildResult } from "esbuild";

export function bundleForNode(entry: string, outfile: string, options?: BuildOptions): Promise<BuildResult>;
export function cachedBundle(options: { entry: string; dir: string; name: string; root: string }): Promise<string>;
