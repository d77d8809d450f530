#!/usr/bin/env node
// npm's entry point: the esbuild bundle (npm run build writes dist/).
import "../dist/kubectl-ptah.mjs";
