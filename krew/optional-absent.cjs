// Stands in, in the single-file CommonJS build (the SEA entry), for optional packages that
// dependencies try to require() inside try/catch: supports-color (debug), bufferutil and
// utf-8-validate (ws), encoding (node-fetch). They are not installed, so the real require would
// throw and the caller would fall back; a SEA's require() would also print a warning on stderr
// first. This module throws the same "not found" error, silently.
const error = new Error("optional module not bundled");
error.code = "MODULE_NOT_FOUND";
throw error;
