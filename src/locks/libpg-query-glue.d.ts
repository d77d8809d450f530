// libpg-query's Emscripten module, which the package ships without types: a factory resolving to
// the module whose exports src/locks/parser.ts checks before it uses them.
declare module "libpg-query/wasm/libpg-query.js" {
  const factory: (options?: Record<string, unknown>) => Promise<unknown>;
  export default factory;
}
