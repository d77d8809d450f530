// kubectl's -o jsonpath template dialect over jsonpath-plus: text outside braces is literal,
// `{.a.b}` prints values (several results space-separated, objects as compact JSON),
// `{"\n"}` prints a string literal, `{range EXPR}…{end}` iterates with `@` as the item.
// Missing keys print nothing, as `kubectl get -o jsonpath` does.
import { JSONPath } from "jsonpath-plus";
import { UsageError } from "../errors.ts";
import { sanitize } from "./sanitize.ts";

type Node =
  { readonly t: "text"; readonly text: string } | { readonly t: "expr"; readonly path: string } | { readonly t: "range"; readonly path: string; readonly body: readonly Node[] };

/** Splits a template into nodes; throws UsageError on unbalanced braces or range/end. */
export function parseJsonPathTemplate(template: string): readonly Node[] {
  const tokens: ({ t: "text"; text: string } | { t: "action"; text: string })[] = [];
  let i = 0;
  while (i < template.length) {
    const open = template.indexOf("{", i);
    if (open < 0) {
      tokens.push({ t: "text", text: template.slice(i) });
      break;
    }
    if (open > i) tokens.push({ t: "text", text: template.slice(i, open) });
    const close = findClose(template, open + 1);
    if (close < 0) throw new UsageError(`error parsing jsonpath ${template}: unclosed action`);
    tokens.push({ t: "action", text: template.slice(open + 1, close).trim() });
    i = close + 1;
  }
  const stack: Node[][] = [[]];
  const ranges: string[] = [];
  for (const token of tokens) {
    const top = stack[stack.length - 1]!;
    if (token.t === "text") {
      top.push({ t: "text", text: token.text });
    } else if (/^range\s/u.test(token.text)) {
      ranges.push(normalisePath(token.text.slice(6).trim(), template));
      stack.push([]);
    } else if (token.text === "end") {
      const body = stack.pop();
      const path = ranges.pop();
      if (!body || path === undefined || stack.length === 0) {
        throw new UsageError(`error parsing jsonpath ${template}: not in range, nothing to end`);
      }
      stack[stack.length - 1]!.push({ t: "range", path, body });
    } else if (token.text.startsWith('"') || token.text.startsWith("'")) {
      top.push({ t: "text", text: unquote(token.text, template) });
    } else {
      top.push({ t: "expr", path: normalisePath(token.text, template) });
    }
  }
  if (ranges.length > 0) throw new UsageError(`error parsing jsonpath ${template}: range without end`);
  return stack[0]!;
}

function findClose(template: string, from: number): number {
  let quote: string | undefined;
  for (let j = from; j < template.length; j++) {
    const ch = template[j];
    if (quote) {
      if (ch === "\\") j++;
      else if (ch === quote) quote = undefined;
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === "}") return j;
  }
  return -1;
}

function unquote(literal: string, template: string): string {
  const body = literal.slice(1, -1);
  try {
    return JSON.parse(`"${body.replace(/(^|[^\\])"/gu, '$1\\"')}"`) as string;
  } catch {
    throw new UsageError(`error parsing jsonpath ${template}: invalid string literal ${literal}`);
  }
}

/** kubectl allows `.a`, `$.a`, `@.a` and `a`; jsonpath-plus wants `$…` or `@…`. */
function normalisePath(expr: string, template: string): string {
  if (expr === "") throw new UsageError(`error parsing jsonpath ${template}: empty expression`);
  if (expr === "$" || expr === "@") return expr;
  if (expr.startsWith("$") || expr.startsWith("@")) return expr;
  if (expr.startsWith(".") || expr.startsWith("[")) return `@${expr}`;
  return `@.${expr}`;
}

function evaluate(path: string, current: unknown, root: unknown): unknown[] {
  const target = path.startsWith("$") ? root : current;
  const expr = path.startsWith("@") ? `$${path.slice(1)}` : path;
  if (target === undefined || target === null) return [];
  try {
    const result = JSONPath({ path: expr, json: target as object, wrap: true, eval: "safe" }) as unknown[] | undefined;
    return result ?? [];
  } catch (err) {
    throw new UsageError(`error executing jsonpath ${path}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

function formatValue(value: unknown): string {
  if (value === undefined) return "";
  if (value === null) return "<nil>";
  // Values come from the cluster: neutralised like every other printed string.
  if (typeof value === "string") return sanitize(value);
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return sanitize(JSON.stringify(value));
}

function renderNodes(nodes: readonly Node[], current: unknown, root: unknown): string {
  let out = "";
  for (const node of nodes) {
    if (node.t === "text") out += node.text;
    else if (node.t === "expr") out += evaluate(node.path, current, root).map(formatValue).join(" ");
    else {
      for (const item of evaluate(node.path, current, root)) {
        // `{range .items[*]}` yields each element; a range over an array value iterates it.
        const items = Array.isArray(item) && /\[\*\]$/u.test(node.path) === false ? item : [item];
        for (const element of items) out += renderNodes(node.body, element, root);
      }
    }
  }
  return out;
}

/** Renders kubectl's template over one object (or a kubectl List). */
export function renderJsonPath(template: string, data: unknown): string {
  return renderNodes(parseJsonPathTemplate(template), data, data);
}

/**
 * kubectl's relaxed field expression (`--sort-by`, custom columns): `a.b`, `.a.b`, `{a.b}` and
 * `{.a.b}` all mean the template `{.a.b}`.
 */
export function relaxedJsonPath(expression: string): string {
  const t = expression.trim();
  if (t.startsWith("{")) return t;
  return `{${t.startsWith(".") || t.startsWith("[") ? t : `.${t}`}}`;
}

/** The raw results of each `{…}` expression of a template over one object (no formatting). */
export function jsonPathResults(template: string, data: unknown): unknown[][] {
  return parseJsonPathTemplate(template).flatMap((n) => (n.t === "expr" ? [evaluate(n.path, data, data)] : []));
}
