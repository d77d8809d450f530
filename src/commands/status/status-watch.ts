// `status --watch`: list, then watch (bookmarks, reconnect, relist on 410) and re-render.
// On a terminal the view is redrawn at most every 200 ms; otherwise, or with -o json, one
// record per change is emitted. Runs until interrupted.
import { findCondition } from "../../approval/state.ts";
import type { KindName, Parsed } from "../../model/parse.ts";
import type { PtahMigration, PtahSchema, PtahSchemaApproval } from "../../model/kinds.ts";
import { formatJson, renderMachine } from "../../render/formats.ts";
import { sanitize } from "../../render/sanitize.ts";
import { renderSchemaDetail } from "./status-schema-detail.ts";
import { renderStatusList } from "./status-list.ts";
import { namespaceFlag } from "../shared/output.ts";
import type { Printed, Connection, RunContext } from "../command-types.ts";
import type { NotShownItem } from "../../kube/types.ts";
import { notShownWarning } from "../shared/tolerance.ts";
import type { StatusOptions } from "./status-command.ts";

const REDRAW_MS = 200;

type Store = Map<string, Parsed<unknown>>;

/** namespace/name of a served object (the raw JSON: an object that does not fit has one too). */
function keyOf(raw: Record<string, unknown>): string {
  const m = raw.metadata as { namespace?: unknown; name?: unknown } | undefined;
  return `${typeof m?.namespace === "string" ? m.namespace : ""}/${typeof m?.name === "string" ? m.name : ""}`;
}

function changeRecord(kind: string, type: string, p: Parsed<unknown>, now: Date): string {
  const o = p.object as PtahSchema | PtahMigration;
  const ready = findCondition(o.status.conditions, "Ready");
  const plan = "plan" in o.status && o.status.plan?.name ? o.status.plan.name : "-";
  return (
    [
      now.toISOString().replace(/\.\d{3}Z$/u, "Z"),
      type,
      `${kind.toLowerCase()}/${sanitize(o.metadata.namespace ?? "")}/${sanitize(o.metadata.name)}`,
      `phase=${sanitize(o.status.phase ?? "-")}`,
      `ready=${ready ? `${sanitize(ready.status)}(${sanitize(ready.reason ?? "")})` : "-"}`,
      `plan=${sanitize(plan)}`,
    ].join(" ") + "\n"
  );
}

export async function watchStatus(options: StatusOptions, ctx: RunContext, connection: Connection): Promise<Printed> {
  const namespace = options.name === undefined && ctx.global.allNamespaces ? undefined : connection.namespace;
  const stores: Record<string, Store> = { PtahSchema: new Map(), PtahMigration: new Map(), PtahSchemaApproval: new Map() };
  // The objects that do not fit the model now, by kind and namespace/name: their warning lines.
  // Written as they arrive; on a terminal, after every redraw (which clears the screen).
  const notShownByKey = new Map<string, { readonly line: string; readonly served: string }>();
  const redraw = ctx.isTTY && options.output.kind === "human";
  let pending: NodeJS.Timeout | undefined;
  let lastDraw = 0;

  const draw = (): void => {
    pending = undefined;
    lastDraw = ctx.clock().getTime();
    const approvals = [...stores.PtahSchemaApproval!.values()].map((a) => a.object as PtahSchemaApproval);
    let text: string;
    if (options.name !== undefined) {
      const schema = stores.PtahSchema!.get(`${connection.namespace}/${options.name}`);
      text = schema
        ? renderSchemaDetail({ schema: schema.object as PtahSchema, approvals, now: ctx.clock(), color: ctx.global.color, nsFlag: namespaceFlag(ctx.global, connection.namespace) })
        : `no such schema: ${connection.namespace}/${options.name} (waiting for it to appear)\n`;
    } else {
      text =
        renderStatusList({
          schemas: [...stores.PtahSchema!.values()].map((s) => s.object as PtahSchema),
          migrations: [...stores.PtahMigration!.values()].map((m) => m.object as PtahMigration),
          approvals,
          allNamespaces: ctx.global.allNamespaces,
          wide: options.output.kind === "human" && options.output.wide,
          noHeaders: ctx.global.noHeaders,
          color: ctx.global.color,
          now: ctx.clock(),
        }) || "No resources found\n";
    }
    ctx.emit(`\u001b[H\u001b[2J${text}`);
    for (const m of notShownByKey.values()) ctx.log?.(m.line);
  };
  const schedule = (): void => {
    if (pending) return;
    const wait = Math.max(0, REDRAW_MS - (ctx.clock().getTime() - lastDraw));
    pending = setTimeout(draw, wait);
  };
  // Machine formats as `kubectl get -w -o …`: one YAML document per change (`---` between them),
  // one name per change, the template per change; -o json stays NDJSON of {type, object}.
  let documents = 0;
  // An object that does not fit has no change record (its warning stands for it); machine output
  // prints it as served, unless it cannot be printed (NotShownItem.unprintable): its warning only.
  const record = (kind: string, type: string, raw: Record<string, unknown>, p: Parsed<unknown> | undefined): void => {
    if (kind === "PtahSchemaApproval") return;
    const output = options.output;
    if (output.kind === "json") ctx.emit(formatJson({ type, object: raw }, 0));
    else if (output.kind === "yaml") ctx.emit(`${documents++ > 0 ? "---\n" : ""}${renderMachine(output, [raw], true)}`);
    else if (output.kind === "name" || output.kind === "jsonpath") ctx.emit(renderMachine(output, [raw], true));
    else if (p) ctx.emit(changeRecord(kind, type, p, ctx.clock()));
  };
  /** Notes an object that does not fit; true when it is news (not the same object as last seen). */
  const noteNotShown = (kind: string, r: NotShownItem, type: string): boolean => {
    const key = `${kind}\u0000${keyOf(r.raw)}`;
    if (type === "DELETED") return notShownByKey.delete(key) || true;
    // One that cannot be printed (nested too deep, not an object) is told apart by its problem alone.
    const m = { line: notShownWarning(r).trimEnd(), served: r.unprintable ? r.problem : JSON.stringify(r.raw) };
    const news = notShownByKey.get(key)?.served !== m.served;
    notShownByKey.set(key, m);
    if (news && !redraw) ctx.log?.(m.line);
    return news;
  };

  const kinds: KindName[] = options.name !== undefined ? ["PtahSchema", "PtahSchemaApproval"] : ["PtahSchema", "PtahMigration", "PtahSchemaApproval"];
  await Promise.all(
    kinds.map((kind) =>
      connection.reader.watch(kind, {
        namespace,
        labelSelector: kind === "PtahSchemaApproval" ? undefined : ctx.global.selector,
        fieldSelector:
          options.name !== undefined
            ? kind === "PtahSchema"
              ? `metadata.name=${options.name}`
              : undefined
            : kind === "PtahSchemaApproval"
              ? undefined
              : options.print.fieldSelector,
        signal: ctx.signal,
        onList: (items, notShown) => {
          const store = stores[kind]!;
          const before = new Map(store);
          store.clear();
          const seen = new Set(notShown.map((r) => `${kind}\u0000${keyOf(r.raw)}`));
          for (const key of [...notShownByKey.keys()]) if (key.startsWith(`${kind}\u0000`) && !seen.has(key)) notShownByKey.delete(key);
          for (const item of items) store.set(keyOf(item.raw), item);
          const news = notShown.filter((r) => noteNotShown(kind, r, "ADDED"));
          if (redraw) schedule();
          else {
            for (const item of items) if (JSON.stringify(before.get(keyOf(item.raw))?.raw) !== JSON.stringify(item.raw)) record(kind, "ADDED", item.raw, item);
            for (const r of news) if (!r.unprintable) record(kind, "ADDED", r.raw, undefined);
          }
        },
        onEvent: (type, item) => {
          const store = stores[kind]!;
          notShownByKey.delete(`${kind}\u0000${keyOf(item.raw)}`);
          if (type === "DELETED") store.delete(keyOf(item.raw));
          else store.set(keyOf(item.raw), item);
          if (redraw) schedule();
          else record(kind, type, item.raw, item);
        },
        onNotShown: (type, r) => {
          // It is no longer shown as it was: left out, with its warning.
          stores[kind]!.delete(keyOf(r.raw));
          noteNotShown(kind, r, type);
          if (redraw) schedule();
          else if (!r.unprintable) record(kind, type, r.raw, undefined);
        },
      }),
    ),
  );
  if (pending) clearTimeout(pending);
  return { kind: "printed", stdout: "" };
}
