/**
 * Workflows that call MCP tools end to end: sync real servers, then run IR workflows that chain
 * their tools with templates through runWorkflow; one live session per server per run; faults
 * become the node's error and no server process outlives the run.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { type WorkflowIRInput, WorkflowIRSchema } from "../src/core/ir.ts";
import { type McpServersConfig, saveServersConfig } from "../src/mcp/config.ts";
import { runWorkflow } from "../src/runtime/run.ts";
import { syncServers } from "../src/services/mcp.ts";
import { fixtureServer, npmServer, tempHome } from "./fixtures/mcp/helpers.ts";

async function syncedHome(servers: McpServersConfig): Promise<string> {
  const home = await tempHome();
  await saveServersConfig(home, servers);
  const r = await syncServers(home, "all", { timeoutS: 20 });
  for (const s of r.servers) assert.equal(s.error, undefined, `sync of ${s.server}`);
  return home;
}

function run(home: string, ir: WorkflowIRInput, params: Record<string, unknown> = {}) {
  return runWorkflow({ ir: WorkflowIRSchema.parse(ir), metadata: {} } as never, {
    home,
    params,
    writeTrace: false,
  });
}

Deno.test("filesystem: write_file then read_text_file through templates", async () => {
  const dir = await Deno.realPath(await tempHome());
  const home = await syncedHome({ fs: npmServer("server-filesystem", dir) });
  const file = join(dir, "note.txt");
  const r = await run(home, {
    inputs: { text: { type: "string" } },
    nodes: [
      { id: "write", type: "mcp-fs-write-file", params: { path: file, content: "${text}" } },
      { id: "read", type: "mcp-fs-read_text_file", params: { path: file } },
    ],
    edges: [{ from: "write", to: "read" }],
    outputs: { body: { source: "${read.result}" } },
  }, { text: "hello from pflow" });
  assert.equal(r.success, true, JSON.stringify(r.errors));
  assert.equal(await Deno.readTextFile(file), "hello from pflow");
  assert.match(JSON.stringify(r.outputs.body), /hello from pflow/);
});

Deno.test("memory: create_entities then search_nodes finds the entity", async () => {
  const dir = await tempHome();
  const home = await syncedHome({
    memory: { ...npmServer("server-memory"), env: { MEMORY_FILE_PATH: join(dir, "memory.jsonl") } },
  });
  const r = await run(home, {
    nodes: [
      {
        id: "create",
        type: "mcp-memory-create-entities",
        params: {
          entities: [{
            name: "Ada",
            entityType: "person",
            observations: ["wrote the first program"],
          }],
        },
      },
      { id: "search", type: "mcp-memory-search_nodes", params: { query: "Ada" } },
    ],
    edges: [{ from: "create", to: "search" }],
    outputs: { found: { source: "${search.result}" } },
  });
  assert.equal(r.success, true, JSON.stringify(r.errors));
  assert.match(JSON.stringify(r.outputs.found), /wrote the first program/);
});

Deno.test("everything: echo output feeds the next step's param", async () => {
  const home = await syncedHome({ everything: npmServer("server-everything", "stdio") });
  const r = await run(home, {
    nodes: [
      { id: "one", type: "mcp-everything-echo", params: { message: "ping" } },
      { id: "two", type: "mcp-everything-echo", params: { message: "got ${one.result}" } },
    ],
    edges: [{ from: "one", to: "two" }],
    outputs: { last: { source: "${two.result}" } },
  });
  assert.equal(r.success, true, JSON.stringify(r.errors));
  assert.equal(r.outputs.last, "Echo: got Echo: ping");
});

Deno.test("one run reuses one session: the counter answers 1 then 2", async () => {
  const home = await syncedHome({ counter: fixtureServer("counter_server.mjs") });
  const r = await run(home, {
    nodes: [
      { id: "a", type: "mcp-counter-increment", params: {} },
      { id: "b", type: "mcp-counter-increment", params: {} },
    ],
    edges: [{ from: "a", to: "b" }],
    outputs: { first: { source: "${a.result.count}" }, second: { source: "${b.result.count}" } },
  });
  assert.equal(r.success, true, JSON.stringify(r.errors));
  assert.equal(r.outputs.first, 1);
  assert.equal(r.outputs.second, 2);
});

Deno.test("a hanging tool fails its node at the timeout param, not with a hang", async () => {
  const home = await syncedHome({ hang: fixtureServer("hang_server.mjs") });
  const r = await run(home, {
    nodes: [{ id: "h", type: "mcp-hang-echo", params: { message: "x", timeout: 1 } }],
  });
  assert.equal(r.success, false);
  assert.match(r.errors.map((e) => e.message).join("\n"), /timed out after 1s/);
});

Deno.test("a tool's isError fails the node with the tool's own text", async () => {
  const home = await syncedHome({ errs: fixtureServer("error_server.mjs") });
  const r = await run(home, { nodes: [{ id: "f", type: "mcp-errs-fail", params: {} }] });
  assert.equal(r.success, false);
  assert.match(r.errors.map((e) => e.message).join("\n"), /quota exceeded for today/);
});
