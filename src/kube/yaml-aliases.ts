// How much a YAML document's aliases may expand, by go-yaml's rule (what kubectl reads a
// kubeconfig with): every node decoded counts, and a node decoded again through an alias counts as
// aliased too; once more than 100 aliased among more than 1,000, a document whose aliased share
// passes 99% (up to 400,000 nodes, then down to 10% at 4,000,000) is refused, "document contains
// excessive aliasing". js-yaml hands an alias back as the same object, not a copy, so the parse
// itself is cheap; what expands is every later walk of that object graph. So the graph is measured
// once, in document order, each object's expanded size worked out once: a bomb of a few hundred
// bytes is refused in that walk, never expanded. The same walk measures the expanded nesting
// against the one depth bound, and refuses an alias to a node that contains it.
//
// What the graph cannot show, against go-yaml's count: an alias to a scalar counts as a plain node
// (it expands to one node either way), and a merge key's nodes are counted as js-yaml merged them.
import { MAX_DEPTH } from "../model/depth.ts";

export class YamlBoundError extends Error {}

const RANGE_LOW = 400_000;
const RANGE_HIGH = 4_000_000;

/** go-yaml's allowed share of aliased nodes among `decoded`. */
export function allowedAliasRatio(decoded: number): number {
  if (decoded <= RANGE_LOW) return 0.99;
  if (decoded >= RANGE_HIGH) return 0.1;
  return 0.99 - (0.89 * (decoded - RANGE_LOW)) / (RANGE_HIGH - RANGE_LOW);
}

/** Past this an expanded size is only "too many" (a bomb's true size overflows a double). */
const HUGE = 1e15;

interface Frame {
  readonly node: object;
  readonly children: readonly unknown[];
  /** Keys of a mapping count as nodes too (one each). */
  readonly keys: number;
  next: number;
  /** Nodes decoded for this node so far, itself included; its expanded size when done. */
  size: number;
  depth: number;
}

/**
 * Refuses, with a YamlBoundError, a loaded document whose aliases expand past go-yaml's rule,
 * that nests deeper than MAX_DEPTH once expanded, or whose alias contains itself.
 */
export function checkYamlBounds(doc: unknown): void {
  // The document node itself is go-yaml's first decode.
  let decoded = 1;
  let aliased = 0;
  /** go-yaml checks after every node it decodes; within an alias's run both counts rise, so its end is enough. */
  const count = (nodes: number, aliases: number): void => {
    decoded += nodes;
    aliased += aliases;
    if (aliased > 100 && decoded > 1000 && aliased / decoded > allowedAliasRatio(decoded)) throw new YamlBoundError("yaml: document contains excessive aliasing");
  };
  const done = new Map<object, { size: number; depth: number }>();
  const open = new Set<object>();
  const stack: Frame[] = [];
  const enter = (node: object): void => {
    count(1, 0);
    const children = Array.isArray(node) ? (node as unknown[]) : Object.values(node);
    if (stack.length + 1 > MAX_DEPTH) throw new YamlBoundError(`yaml: nesting is deeper than ${MAX_DEPTH} levels`);
    open.add(node);
    stack.push({ node, children, keys: Array.isArray(node) ? 0 : children.length, next: 0, size: 1, depth: 1 });
  };
  /** A child of the frame on top: a scalar, an alias (an object met before) or a new node. */
  const child = (top: Frame, value: unknown): void => {
    if (value === null || typeof value !== "object") {
      count(1, 0);
      top.size += 1;
      return;
    }
    const seen = done.get(value);
    if (seen) {
      // The alias node itself, then its anchor's nodes again, every one of them aliased.
      count(1, 0);
      count(seen.size, seen.size);
      if (stack.length + seen.depth > MAX_DEPTH) throw new YamlBoundError(`yaml: nesting is deeper than ${MAX_DEPTH} levels`);
      top.size = Math.min(HUGE, top.size + 1 + seen.size);
      top.depth = Math.max(top.depth, 1 + seen.depth);
      return;
    }
    if (open.has(value)) throw new YamlBoundError("yaml: an anchor's value contains an alias of itself");
    enter(value);
  };
  if (doc === null || typeof doc !== "object") return;
  enter(doc);
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (top.next < top.children.length) {
      if (top.keys > 0) {
        // The key's node, before its value (go-yaml decodes both).
        count(1, 0);
        top.size += 1;
      }
      child(top, top.children[top.next++]);
      continue;
    }
    stack.pop();
    open.delete(top.node);
    done.set(top.node, { size: top.size, depth: top.depth });
    const parent = stack[stack.length - 1];
    if (parent) {
      parent.size = Math.min(HUGE, parent.size + top.size);
      parent.depth = Math.max(parent.depth, 1 + top.depth);
    }
  }
}
