// The one helper of cli-table3 the table renderer uses directly (it ships no types for it).
declare module "cli-table3/src/utils.js" {
  const utils: {
    /** Display width of the widest line, SGR colour codes excluded (string-width). */
    strlen(text: string): number;
  };
  export default utils;
}
