/** `pflow registry …` and `pflow read-fields`, plus registry.json crash safety and corrupt-file reporting. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { loadRegistryFile, saveRegistryFile } from "../src/registry/store.ts";
import type { NodeInterface } from "../src/core/node_interface.ts";
import { pflowIn, withHome } from "./_cli.ts";
import { runNodeService } from "../src/services/node_runs.ts";

const CONFIG = new URL("../deno.json", import.meta.url).pathname;

const mcpEntry = (server: string, tool: string): NodeInterface => ({
  type: `mcp-${server}-${tool}`,
  description: `The ${tool} tool`,
  params: { query: { type: "string", description: "what", required: true } },
  outputs: {
    result: {
      type: "object",
      description: "r",
      structure: {
        items: {
          type: "array",
          description: "",
          items: {
            type: "object",
            description: "",
            structure: { title: { type: "string", description: "t" } },
          },
        },
      },
    },
  },
  actions: ["default", "error"],
  category: "mcp",
  mcp: { server, tool },
});

Deno.test("registry list groups core nodes first, then MCP nodes by server", () =>
  withHome(async (home) => {
    await saveRegistryFile(home, {
      version: 1,
      nodes: { "mcp-zeta-a": mcpEntry("zeta", "a"), "mcp-alpha-b": mcpEntry("alpha", "b") },
      servers: {},
    });
    const r = await pflowIn(home, "registry", "list");
    assert.equal(r.code, 0, r.err);
    const core = r.out.indexOf("Core nodes:");
    const alpha = r.out.indexOf("MCP: alpha");
    const zeta = r.out.indexOf("MCP: zeta");
    assert.ok(core >= 0 && core < alpha && alpha < zeta, r.out);
  }));

Deno.test("registry describe shows params, nested outputs and an example step", () =>
  withHome(async (home) => {
    await saveRegistryFile(home, {
      version: 1,
      nodes: { "mcp-gh-find": mcpEntry("gh", "find") },
      servers: {},
    });
    const r = await pflowIn(home, "registry", "describe", "mcp-gh-find");
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /query \(string, required\)/);
    assert.match(r.out, /\n {6}title \(string\)/);
    assert.match(r.out, /- type: mcp-gh-find\n- query: /);
  }));

Deno.test("registry describe of an unknown node suggests a close one", () =>
  withHome(async (home) => {
    const r = await pflowIn(home, "registry", "describe", "shel");
    assert.equal(r.code, 1);
    assert.match(r.err, /Unknown node type 'shel'[\s\S]*'shell'/);
  }));

Deno.test("registry search --json returns scored results", () =>
  withHome(async (home) => {
    const r = JSON.parse((await pflowIn(home, "registry", "search", "shell", "--json")).out);
    assert.equal(r.results[0].type, "shell");
    assert.equal(typeof r.results[0].score, "number");
  }));

Deno.test("registry run prints template paths with short values and an execution id", () =>
  withHome(async (home) => {
    const r = await pflowIn(
      home,
      "registry",
      "run",
      "shell",
      `command=echo '{"items":[{"title":"Hello there, this is a long title for sure"}]}'`,
    );
    assert.equal(r.code, 0, r.err);
    assert.match(
      r.out,
      /\$\{node\.stdout\.items\[0\]\.title\}\s+"Hello there, this is a long title for …\n/,
    );
    assert.match(r.out, /Execution id: [0-9]{8}-[0-9]{6}-[0-9a-f]{8}/);
  }));

Deno.test("read-fields prints the chosen value from the cached node run", () =>
  withHome(async (home) => {
    const run = JSON.parse(
      (await pflowIn(home, "registry", "run", "shell", "command=echo hi", "--json")).out,
    );
    const r = await pflowIn(home, "read-fields", run.execution_id, "node.stdout");
    assert.equal(r.code, 0, r.err);
    assert.equal(r.out, "hi\n");
  }));

Deno.test("read-fields of a missing path exits 1 and lists what is there", () =>
  withHome(async (home) => {
    const run = JSON.parse(
      (await pflowIn(home, "registry", "run", "shell", "command=echo hi", "--json")).out,
    );
    const r = await pflowIn(home, "read-fields", run.execution_id, "node.nope");
    assert.equal(r.code, 1);
    assert.match(r.out, /not found.*stdout/);
  }));

Deno.test("read-fields of an unknown id is not_found", () =>
  withHome(async (home) => {
    const r = await pflowIn(home, "read-fields", "20200101-000000-deadbeef", "node.stdout");
    assert.equal(r.code, 1);
    assert.match(r.err, /No cached node run/);
  }));

Deno.test("a corrupt registry.json is reported with the backup offered, not emptied", () =>
  withHome(async (home) => {
    await Deno.writeTextFile(join(home, "registry.json"), "{ broken");
    const r = await pflowIn(home, "registry", "list");
    assert.equal(r.code, 1);
    assert.match(r.err, /registry\.json is corrupt[\s\S]*registry\.json\.bak/);
    assert.equal(await Deno.readTextFile(join(home, "registry.json")), "{ broken");
  }));

Deno.test("a registry write killed with SIGKILL leaves a whole registry.json (old or new)", () =>
  withHome(async (home) => {
    const script = join(home, "reg_loop.ts");
    const storeModule = new URL("../src/registry/store.ts", import.meta.url).href;
    await Deno.writeTextFile(
      script,
      `
import { saveRegistryFile } from "${storeModule}";
const nodes: Record<string, unknown> = {};
for (let i = 0; i < 3000; i++) nodes["mcp-s-t" + i] = { type: "mcp-s-t" + i, description: "x".repeat(50), params: {}, outputs: {}, actions: ["default"], category: "mcp", mcp: { server: "s", tool: "t" + i } };
console.log("ready");
for (let n = 0; ; n++) await saveRegistryFile(Deno.args[0], { version: 1, nodes, servers: { s: { synced_at: String(n), tools: 3000 } } } as never);
`,
    );
    for (let round = 0; round < 5; round++) {
      const child = new Deno.Command(Deno.execPath(), {
        args: ["run", "--no-check", "-A", "--config", CONFIG, script, home],
        stdout: "piped",
        stderr: "null",
      }).spawn();
      const reader = child.stdout.getReader();
      await reader.read();
      const turns = 1 + Math.floor(Math.random() * 100);
      for (let i = 0; i < turns; i++) await new Promise((r) => setTimeout(r, 1));
      child.kill("SIGKILL");
      await child.status;
      reader.releaseLock();
      await child.stdout.cancel();
      if (!(await Deno.stat(join(home, "registry.json")).then(() => true, () => false))) continue;
      const file = await loadRegistryFile(home);
      assert.equal(Object.keys(file.nodes).length, 3000);
    }
  }));

Deno.test("run-node keeps typed values from an agent and types command-line text", () =>
  withHome(async (home) => {
    const cached = async (id: string) =>
      JSON.parse(await Deno.readTextFile(join(home, "cache", "node-runs", `${id}.json`)));
    const typed = await runNodeService(home, home, "echo", { message: "42" });
    assert.equal((await cached(typed.execution_id)).outputs.echo, "42");
    const fromText = await runNodeService(home, home, "echo", { message: "42" }, {
      fromText: true,
    });
    assert.equal((await cached(fromText.execution_id)).outputs.echo, 42);
  }));
