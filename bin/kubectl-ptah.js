#!/usr/bin/env node
// npm's entry point (CommonJS: bin/package.json): the loader npm run build writes, which runs
// the bundle in dist/npm/ from V8's code cache (src/cli/code-cache.ts).
require("../dist/start.cjs");
