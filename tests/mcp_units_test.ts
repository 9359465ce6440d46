/** The MCP client's pure parts: config layouts, ${VAR} expansion, names, entries, results. */
import assert from "node:assert/strict";
import { parseServersConfig } from "../src/mcp/config.ts";
import { expandServerConfig } from "../src/mcp/expand.ts";
import { mcpNodeType, sanitizeToolName } from "../src/mcp/naming.ts";
import { Registry } from "../src/registry/registry.ts";
import { runWorkflow } from "../src/runtime/run.ts";
import { WorkflowIRSchema } from "../src/core/ir.ts";
import type { NodeInterface } from "../src/core/node_interface.ts";
import type { McpSessions } from "../src/mcp/types.ts";
import { toolEntries, toolEntry } from "../src/mcp/entries.ts";
import { resultValue } from "../src/mcp/result.ts";
import { serverEnv } from "../src/mcp/connection.ts";

Deno.test("config: the standard mcpServers layout is read", () => {
  const c = parseServersConfig({
    mcpServers: { gh: { command: "npx", args: ["-y", "x"], env: { A: "1" } } },
  });
  assert.deepEqual(c, { gh: { command: "npx", args: ["-y", "x"], env: { A: "1" } } });
});

Deno.test("config: the older servers layout with transport stdio is read", () => {
  const c = parseServersConfig({
    servers: { gh: { transport: "stdio", command: "node", args: [] } },
  });
  assert.equal(c.gh.command, "node");
});

Deno.test("config: an sse transport is refused, saying only stdio is supported", () => {
  assert.throws(
    () => parseServersConfig({ servers: { w: { transport: "sse", command: "x" } } }),
    /uses transport 'sse'; only stdio servers are supported/,
  );
});

Deno.test("expand: ${VAR} from the environment wins over settings env", () => {
  const e = expandServerConfig(
    { command: "${CMD}", args: ["--t=${TOKEN}"], env: { K: "${TOKEN}" } },
    { TOKEN: "from-settings", CMD: "node" },
    (n) => (n === "TOKEN" ? "from-env" : undefined),
  );
  assert.deepEqual([e.command, e.args, e.env.K], ["node", ["--t=from-env"], "from-env"]);
});

Deno.test("expand: ${VAR:-default} uses the default when unset", () => {
  const e = expandServerConfig(
    { command: "x", args: ["${MODE:-fast}"], env: {} },
    {},
    () => undefined,
  );
  assert.deepEqual(e.args, ["fast"]);
  assert.deepEqual(e.missing, []);
});

Deno.test("expand: an undefined ${VAR} becomes empty and is reported missing", () => {
  const e = expandServerConfig({ command: "x", args: ["a${NOPE}b"], env: {} }, {}, () => undefined);
  assert.deepEqual(e.args, ["ab"]);
  assert.deepEqual(e.missing, ["NOPE"]);
});

Deno.test("server env: LD_* inherited variables are dropped, config env wins", () => {
  Deno.env.set("LD_PFLOW_TEST", "1");
  try {
    const env = serverEnv({ SECRET: "s" }, { MINE: "m" });
    assert.equal(env.LD_PFLOW_TEST, undefined);
    assert.equal(env.MINE, "m");
    assert.equal(env.SECRET ?? "s", "s");
  } finally {
    Deno.env.delete("LD_PFLOW_TEST");
  }
});

Deno.test("naming: tool names are lowercased and sanitised to [a-z0-9-]", () => {
  assert.equal(sanitizeToolName("create_issue"), "create-issue");
  assert.equal(sanitizeToolName("Get.Tiny__Image"), "get-tiny-image");
  assert.equal(mcpNodeType("github", "create_issue"), "mcp-github-create-issue");
});

Deno.test("a step calls the server and tool its registry entry names, '-' in names and all", async () => {
  const entry = (server: string, tool: string): NodeInterface => ({
    type: mcpNodeType(server, tool),
    description: tool,
    params: {},
    outputs: {},
    actions: ["default", "error"],
    category: "mcp",
    openOutputs: true,
    mcp: { server, tool },
  });
  // Server "my" has a tool "files-read_file": its type would read like server "my-files" too.
  const nodes = [entry("my-files", "read_file"), entry("my", "files-list")];
  const registry = new Registry({
    version: 1,
    nodes: Object.fromEntries(nodes.map((n) => [n.type, n])),
    servers: {},
  });
  const calls: string[] = [];
  const mcp: McpSessions = {
    callTool: (server, tool, args) => {
      calls.push(`${server}/${tool} ${JSON.stringify(args)}`);
      return Promise.resolve({ isError: false, value: "ok", text: "ok", log: [] });
    },
    closeAll: () => Promise.resolve(),
  };
  const ir = WorkflowIRSchema.parse({
    nodes: [
      // The verbatim tool spelling resolves to the same node.
      { id: "a", type: "mcp-my-files-read_file", params: { path: "x", timeout: 5 } },
      { id: "b", type: "mcp-my-files-list", params: {} },
    ],
    edges: [{ from: "a", to: "b" }],
  });
  const home = await Deno.makeTempDir();
  try {
    const r = await runWorkflow({ ir, metadata: {} }, { home, registry, mcp, secrets: {} });
    assert.equal(r.status, "success", JSON.stringify(r.errors));
    assert.deepEqual(calls, ['my-files/read_file {"path":"x"}', "my/files-list {}"]);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("entries: params keep type, required, default, enum, and unions as JSON Schema", () => {
  const e = toolEntry("s", {
    name: "do_it",
    inputSchema: {
      type: "object",
      properties: {
        a: { type: "string", description: "A", enum: ["x", "y"] },
        n: { type: "integer", default: 3 },
        u: { anyOf: [{ type: "string" }, { type: "number" }] },
      },
      required: ["a"],
    },
  });
  assert.deepEqual(e.params.a, {
    type: "string",
    description: "A",
    required: true,
    enum: ["x", "y"],
  });
  assert.equal(e.params.n.default, 3);
  assert.equal(e.params.u.type, "any");
  assert.ok(e.params.u.schema);
  assert.equal(e.params.timeout.type, "number");
  assert.equal(e.openOutputs, true);
});

Deno.test("entries: an output schema becomes result plus its top-level fields", () => {
  const e = toolEntry("s", {
    name: "t",
    inputSchema: { type: "object" },
    outputSchema: { type: "object", properties: { count: { type: "integer" } } },
    annotations: { readOnlyHint: true },
  });
  assert.equal(e.outputs.count.type, "integer");
  assert.equal(e.outputs.result.structure?.count.type, "integer");
  assert.equal(e.openOutputs, undefined);
  assert.deepEqual(e.mcp?.annotations, { readOnlyHint: true });
});

Deno.test("entries: two tools that sanitise to one node name are refused", () => {
  assert.throws(
    () =>
      toolEntries("s", [
        { name: "get_x", inputSchema: { type: "object" } },
        { name: "get-x", inputSchema: { type: "object" } },
      ]),
    /tools 'get_x' and 'get-x', which both become node 'mcp-s-get-x'/,
  );
});

Deno.test("result: structuredContent is preferred over text", () => {
  assert.deepEqual(
    resultValue({ content: [{ type: "text", text: "{}" }], structuredContent: { a: 1 } }),
    { a: 1 },
  );
});

Deno.test("result: JSON text is parsed; several blocks become a list; images stay typed", () => {
  const v = resultValue({
    content: [
      { type: "text", text: '{"k": [1, 2]}' },
      { type: "text", text: "plain" },
      { type: "image", data: "AAAA", mimeType: "image/png" },
    ],
  });
  assert.deepEqual(v, [{ k: [1, 2] }, "plain", {
    type: "image",
    data: "AAAA",
    mimeType: "image/png",
  }]);
});
