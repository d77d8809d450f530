// The one nesting bound of every JSON and YAML the plugin reads: served objects, plan documents,
// export files, kubeconfig files. What reads a value recurses (the model's parse, the printers of
// -o json|yaml, JSON.stringify), and at a few thousand levels that ends the whole command in
// "Maximum call stack size exceeded"; so a value is measured first, by a walk that does not
// recurse, and refused past the bound in one line.

/**
 * How deep a value may nest: 128 levels, objects and arrays counted alike, the value itself the
 * first. The models read at most 7 levels (a PtahSchema's), and a real object adds little to that
 * (managedFields repeat its paths a few levels deeper); a kubeconfig nests 5. None comes near.
 */
export const MAX_DEPTH = 128;

/** Whether `value` nests deeper than `max` levels (measured without recursion; it stops there). */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  if (value === null || typeof value !== "object") return false;
  const values: object[] = [value];
  const depths: number[] = [1];
  while (values.length > 0) {
    const v = values.pop()!;
    const depth = depths.pop()!;
    if (depth > max) return true;
    for (const x of Array.isArray(v) ? (v as unknown[]) : (Object.values(v) as unknown[])) {
      if (x !== null && typeof x === "object") {
        values.push(x);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}
