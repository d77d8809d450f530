// `status --watch`: list, then watch (bookmarks, reconnect, relist on 410) and re-render.
// On a terminal the view is redrawn at most every 200 ms; otherwise, or with -o json, one
// record per change is emitted. Runs until interrupted.
import { findCondition } from "../../approval/state.ts";
import type { KindName, Parsed } from "../../model/parse.ts";
import type { PtahMigration, PtahSchema, PtahSchemaApproval } from "../../model/kinds.ts";
import { formatJson, renderMachine } from "../../render/formats.ts";
import { sanitize } from "../../render/sanitize.ts";
import { renderSchemaDetail } from "../render/schema-detail.ts";
import { renderStatusList } from "../render/status-list.ts";
import { namespaceFlag } from "../options/output.ts";
import type { Printed, Connection, RunContext } from "../types.ts";
import type { StatusOptions } from "../status.ts";

const REDRAW_MS = 200;

type Store = Map<string, Parsed<unknown>>;

function keyOf(p: Parsed<unknown>): string {
  const m = (p.object as { metadata: { namespace?: string; name: string } }).metadata;
  return `${m.namespace ?? ""}/${m.name}`;
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
  };
  const schedule = (): void => {
    if (pending) return;
    const wait = Math.max(0, REDRAW_MS - (ctx.clock().getTime() - lastDraw));
    pending = setTimeout(draw, wait);
  };
  // Machine formats as `kubectl get -w -o …`: one YAML document per change (`---` between them),
  // one name per change, the template per change; -o json stays NDJSON of {type, object}.
  let documents = 0;
  const record = (kind: string, type: string, p: Parsed<unknown>): void => {
    if (kind === "PtahSchemaApproval") return;
    const output = options.output;
    if (output.kind === "json") ctx.emit(formatJson({ type, object: p.raw }, 0));
    else if (output.kind === "yaml") ctx.emit(`${documents++ > 0 ? "---\n" : ""}${renderMachine(output, [p.raw], true)}`);
    else if (output.kind === "name" || output.kind === "jsonpath") ctx.emit(renderMachine(output, [p.raw], true));
    else ctx.emit(changeRecord(kind, type, p, ctx.clock()));
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
        tolerant: true,
        signal: ctx.signal,
        onList: (items) => {
          const store = stores[kind]!;
          const before = new Map(store);
          store.clear();
          for (const item of items) store.set(keyOf(item), item);
          if (redraw) schedule();
          else for (const item of items) if (JSON.stringify(before.get(keyOf(item))?.raw) !== JSON.stringify(item.raw)) record(kind, "ADDED", item);
        },
        onEvent: (type, item) => {
          const store = stores[kind]!;
          if (type === "DELETED") store.delete(keyOf(item));
          else store.set(keyOf(item), item);
          if (redraw) schedule();
          else record(kind, type, item);
        },
      }),
    ),
  );
  if (pending) clearTimeout(pending);
  return { kind: "printed", stdout: "" };
}
