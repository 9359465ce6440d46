/**
 * `pflow mcp serve` under hostile input: the traversal corpus through every tool that takes a
 * name or path (→ `security`, nothing created), and 1,000 random/hostile argument sets (only
 * structured errors or answers, and the server still answers ping).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import fc from "fast-check";
import { errorOf, serve } from "./_server_harness.ts";
import { structuredErrorOf } from "../src/server/errors.ts";

const TRAVERSAL = [
  "../../etc/passwd",
  "..",
  "../secrets",
  "..\\..\\windows\\system32",
  "/etc/passwd",
  "foo/../../bar",
  "~/.ssh/id_rsa",
  "~root",
  "..%2f..%2fetc%2fpasswd",
  "%2e%2e%2fetc",
  "name\u0000.pflow",
  "a\u0000b",
  "\uff0e\uff0e\uff0fetc",
  "evil\u2215name",
  "..\u2024passwd",
  "../../../etc/passwd.pflow.md",
  "../outside.json",
  "sub/../../x.pflow.md",
];

/** Each tool with a name or path argument, and how to put a hostile value in it. */
const CASES: [string, (v: string) => Record<string, unknown>][] = [
  ["workflow_execute", (v) => ({ workflow: v })],
  ["workflow_validate", (v) => ({ workflow: v })],
  ["workflow_save", (v) => ({ workflow: v, name: "ok-name" })],
  [
    "workflow_save",
    (v) => ({
      workflow: "# T\n\nx\n\n## Steps\n\n### a\n\nA.\n\n- type: shell\n- command: echo\n",
      name: v,
    }),
  ],
  ["workflow_describe", (v) => ({ name: v })],
  ["describe_workflow", (v) => ({ name: v })],
  ["execute", (v) => ({ name: v })],
  ["save_to_library", (v) => ({ draft_name: v, final_name: "ok-name", description: "" })],
  ["save_to_library", (v) => ({ draft_name: "ok-name", final_name: v, description: "" })],
  ["read_fields", (v) => ({ execution_id: v, paths: ["node.x"] })],
  ["trace_read", (v) => ({ trace: v })],
];

async function snapshot(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(dir)) {
    out.push(e.name);
    if (e.isDirectory) {
      for (const f of await snapshot(join(dir, e.name))) out.push(`${e.name}/${f}`);
    }
  }
  return out.sort();
}

Deno.test("every name or path argument refuses the traversal corpus with a security error and creates nothing", async () => {
  const s = await serve({ args: ["--profile", "full"] });
  const s2 = await serve({ args: ["--profile", "compact"], home: s.home });
  try {
    const before = await snapshot(s.home);
    for (const [tool, args] of CASES) {
      const client = ["describe_workflow", "execute", "save_to_library"].includes(tool)
        ? s2.client
        : s.client;
      for (const v of TRAVERSAL) {
        const e = errorOf(await client.callTool({ name: tool, arguments: args(v) }));
        assert.equal(e.type, "security", `${tool} ${JSON.stringify(v)} → ${e.type}: ${e.message}`);
      }
    }
    assert.deepEqual(await snapshot(s.home), before);
  } finally {
    await s.close();
    await s2.close();
  }
});

const TOOLS = [
  "workflow_discover",
  "registry_discover",
  "workflow_validate",
  "workflow_save",
  "registry_describe",
  "registry_search",
  "registry_list",
  "workflow_list",
  "workflow_describe",
  "read_fields",
  "trace_read",
  "settings_get",
];
const KEYS = [
  "workflow",
  "name",
  "query",
  "task",
  "nodes",
  "pattern",
  "filter",
  "force",
  "execution_id",
  "paths",
  "trace",
  "key",
  "description",
  "__proto__",
  "constructor",
];
const hostileString = fc.oneof(
  fc.string(),
  fc.constantFrom(...TRAVERSAL, "", "\n", "${x}", "# T\n", "{}", "null", "a".repeat(300)),
  fc.string({ unit: "binary" }),
);
const value = fc.letrec((tie) => ({
  v: fc.oneof(
    { depthSize: "small" },
    hostileString,
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("v"), { maxLength: 3 }),
    fc.dictionary(fc.oneof(fc.constantFrom(...KEYS), fc.string()), tie("v"), { maxKeys: 3 }),
  ),
})).v;

Deno.test("1,000 random and hostile argument sets get only structured answers, and ping still works", async () => {
  const s = await serve({ args: ["--profile", "full"] });
  try {
    const samples = fc.sample(
      fc.tuple(
        fc.constantFrom(...TOOLS),
        fc.dictionary(fc.constantFrom(...KEYS), value, { maxKeys: 4 }),
      ),
      { numRuns: 1000, seed: 42 },
    );
    for (const [tool, args] of samples) {
      const r = await s.client.callTool({ name: tool, arguments: args }) as {
        isError?: boolean;
        structuredContent?: unknown;
        content?: unknown;
      };
      if (r.isError) {
        const e = structuredErrorOf(r);
        assert.ok(
          e,
          `${tool} ${JSON.stringify(args)} gave an unstructured error: ${JSON.stringify(r)}`,
        );
        assert.ok(
          [
            "not_found",
            "validation",
            "template_error",
            "execution",
            "security",
            "invalid_params",
            "exists",
          ]
            .includes(e.type),
        );
      } else {
        assert.ok(r.structuredContent, `${tool} answered without structure`);
      }
    }
    assert.deepEqual(await s.client.ping(), {});
  } finally {
    await s.close();
  }
});
