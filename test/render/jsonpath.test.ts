// kubectl's -o jsonpath template dialect (as kubectl 1.33 prints it): text outside braces is
// literal, `$` is optional, {range}{end} iterates, arrays print space-separated, filters work,
// missing keys print nothing, objects print as JSON, bad templates are usage errors.
import { describe, expect, it } from "vitest";
import { UsageError } from "../../src/errors.ts";
import { parseJsonPathTemplate, renderJsonPath } from "../../src/render/jsonpath.ts";
import { asList } from "../../src/render/formats.ts";
import { FP1, awaitingSchema, blockedSchema, inSyncSchema } from "../support/builders.ts";

const schema = awaitingSchema();
const list = asList([awaitingSchema(), blockedSchema()]);
const object = {
  kind: "Thing",
  metadata: { name: "a", labels: { app: "shop", tier: "db" } },
  spec: { replicas: 3, paused: false, nothing: null, tags: ["x", "y"] },
  status: {
    conditions: [
      { type: "Ready", status: "True" },
      { type: "Synced", status: "False" },
    ],
  },
};

describe("renderJsonPath over a schema and a List", () => {
  it.each([
    {
      name: "the seed's line prints the phase and the fingerprint on two lines",
      template: '{.status.phase}{"\\n"}{.status.plan.fingerprint}{"\\n"}',
      data: schema,
      out: `AwaitingApproval\n${FP1}\n`,
    },
    {
      name: "range over .items[*] prints one name per line",
      template: '{range .items[*]}{.metadata.name}{"\\n"}{end}',
      data: list,
      out: "storefront\ncatalog\n",
    },
    {
      name: "a filter selects the Ready condition's status",
      template: '{.status.conditions[?(@.type=="Ready")].status}',
      data: schema,
      out: "False",
    },
    {
      name: "a filter with single quotes works too",
      template: "{.status.conditions[?(@.type=='Ready')].reason}",
      data: schema,
      out: "AwaitingApproval",
    },
    {
      name: "a wildcard prints every match, space-separated",
      template: "{.items[*].metadata.name}",
      data: list,
      out: "storefront catalog",
    },
    {
      name: "$ at the start is optional",
      template: "{$.items[0].metadata.name} {.items[1].metadata.name}",
      data: list,
      out: "storefront catalog",
    },
    {
      name: "text outside braces is printed literally, backslashes included",
      template: "phase=\\n{.status.phase};",
      data: schema,
      out: "phase=\\nAwaitingApproval;",
    },
    {
      name: "a missing key prints nothing",
      template: "[{.status.nope}][{.no.such.path}]",
      data: schema,
      out: "[][]",
    },
    {
      name: "nested ranges iterate each item's conditions",
      template: '{range .items[*]}{.metadata.name}:{range .status.conditions[?(@.status=="False")]} {.type}{end}{"\\n"}{end}',
      data: asList([awaitingSchema(), inSyncSchema({ name: "orders" })]),
      out: "storefront: InSync Ready\norders: DriftDetected ApprovalRequired Applying\n",
    },
    {
      name: "a range over an empty list prints nothing",
      template: '{range .items[*]}{.metadata.name}{"\\n"}{end}',
      data: asList([]),
      out: "",
    },
  ])("$name", ({ template, data, out }) => {
    expect(renderJsonPath(template, data)).toBe(out);
  });
});

describe("renderJsonPath value printing", () => {
  it.each([
    { name: "an object prints as compact JSON", template: "{.metadata.labels}", out: '{"app":"shop","tier":"db"}' },
    { name: "an array value prints as compact JSON", template: "{.spec.tags}", out: '["x","y"]' },
    { name: "array elements with [*] print space-separated", template: "{.spec.tags[*]}", out: "x y" },
    {
      name: "objects among several results print as JSON, space-separated",
      template: "{.status.conditions[*]}",
      out: '{"type":"Ready","status":"True"} {"type":"Synced","status":"False"}',
    },
    { name: "a number prints as a number", template: "{.spec.replicas}", out: "3" },
    { name: "false prints as false", template: "{.spec.paused}", out: "false" },
    { name: "null prints as <nil>, as Go's fmt does", template: "{.spec.nothing}", out: "<nil>" },
    { name: "a string literal can hold a tab", template: '{.kind}{"\\t"}{.metadata.name}', out: "Thing\ta" },
    { name: "a negative index counts from the end", template: "{.spec.tags[-1:]}", out: "y" },
    { name: "spaces inside braces are ignored", template: "{ .metadata.name }", out: "a" },
    { name: "a template without braces is plain text", template: "hello}", out: "hello}" },
  ])("$name", ({ template, out }) => {
    expect(renderJsonPath(template, object)).toBe(out);
  });

  it("neutralises control characters in values that come from the cluster", () => {
    const hostile = { metadata: { name: "evil\u001b]0;pwned\u0007\u001b[31m", labels: { x: "a\u202eb" } } };
    expect(renderJsonPath("{.metadata.name}|{.metadata.labels}", hostile)).toBe('evil^[]0;pwned\\x07^[[31m|{"x":"a\\u202eb"}');
  });
});

describe("parseJsonPathTemplate refuses bad templates as usage errors", () => {
  it.each([
    { name: "an unclosed brace", template: "{.status.phase" },
    { name: "an unclosed brace after text", template: 'x{.a}{"\\n"' },
    { name: "an end without a range", template: "{.a}{end}" },
    { name: "a range without an end", template: "{range .items[*]}{.metadata.name}" },
    { name: "two ranges and one end", template: "{range .items[*]}{range .x[*]}{end}" },
    { name: "an empty action", template: "{}" },
    { name: "an unterminated string literal", template: '{"abc}' },
    { name: "an invalid escape in a string literal", template: '{"\\q"}' },
  ])("$name", ({ template }) => {
    expect(() => renderJsonPath(template, object)).toThrow(UsageError);
  });

  it("names the template in the message", () => {
    expect(() => parseJsonPathTemplate("{.a")).toThrow("error parsing jsonpath {.a: unclosed action");
  });
});
