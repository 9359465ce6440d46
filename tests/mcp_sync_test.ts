/**
 * `pflow mcp add/sync/list/tools/info/remove` against the real npm servers (installed by
 * `npm ci --prefix tests/mcp_servers`, started with node, no network) and paginated / failing
 * fixtures: counts, entries, set replacement, and last-good-set on failure.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { command as mcpCommand } from "../src/cli/mcp_cmd.ts";
import type { CliIO } from "../src/cli/io.ts";
import { loadServersConfig, saveServersConfig } from "../src/mcp/config.ts";
import { loadRegistryFile } from "../src/registry/store.ts";
import { Registry } from "../src/registry/registry.ts";
import { syncServers } from "../src/services/mcp.ts";
import { fixtureServer, npmServer, tempHome } from "./fixtures/mcp/helpers.ts";

function io(home: string) {
  const out: string[] = [];
  const err: string[] = [];
  const cli: CliIO = {
    stdout: (t) => out.push(t),
    stderr: (t) => err.push(t),
    home,
    cwd: home,
    readStdin: () => Promise.resolve(undefined),
    verbose: false,
    signal: new AbortController().signal,
  };
  return { cli, out, err };
}

async function homeWith(servers: Parameters<typeof saveServersConfig>[1]): Promise<string> {
  const home = await tempHome();
  await saveServersConfig(home, servers);
  return home;
}

function mcpNodes(file: Awaited<ReturnType<typeof loadRegistryFile>>, server: string) {
  return Object.values(file.nodes).filter((n) => n.mcp?.server === server);
}

Deno.test("sync server-everything registers its 13 tools", async () => {
  const home = await homeWith({ everything: npmServer("server-everything", "stdio") });
  const r = await syncServers(home, ["everything"], { timeoutS: 20 });
  assert.equal(r.servers[0].error, undefined);
  const file = await loadRegistryFile(home);
  const nodes = mcpNodes(file, "everything");
  assert.equal(nodes.length, 13);
  assert.equal(r.tools_registered, 13);
  assert.equal(file.servers.everything.tools, 13);
  const echo = file.nodes["mcp-everything-echo"];
  assert.equal(echo.mcp?.tool, "echo");
  assert.equal(echo.params.message.type, "string");
  assert.equal(echo.params.message.required, true);
  assert.equal(echo.category, "mcp");
});

Deno.test("sync server-filesystem registers its 14 tools with sanitised names and annotations", async () => {
  const dir = await tempHome();
  const home = await homeWith({ fs: npmServer("server-filesystem", dir) });
  const r = await syncServers(home, ["fs"], { timeoutS: 20 });
  assert.equal(r.servers[0].error, undefined);
  const file = await loadRegistryFile(home);
  assert.equal(mcpNodes(file, "fs").length, 14);
  const write = file.nodes["mcp-fs-write-file"];
  assert.equal(write.mcp?.tool, "write_file");
  assert.equal(write.params.path.required, true);
  assert.equal(typeof write.mcp?.annotations, "object");
  // The verbatim spelling resolves to the same node.
  const registry = new Registry(file);
  assert.equal(registry.canonical("mcp-fs-write_file"), "mcp-fs-write-file");
});

Deno.test("sync server-memory registers its 9 tools", async () => {
  const dir = await tempHome();
  const home = await homeWith({
    memory: { ...npmServer("server-memory"), env: { MEMORY_FILE_PATH: join(dir, "memory.jsonl") } },
  });
  const r = await syncServers(home, ["memory"], { timeoutS: 20 });
  assert.equal(r.servers[0].error, undefined);
  const file = await loadRegistryFile(home);
  assert.equal(mcpNodes(file, "memory").length, 9);
  assert.ok(file.nodes["mcp-memory-create-entities"]);
  assert.equal(file.nodes["mcp-memory-create-entities"].params.entities.type, "array");
});

Deno.test("sync follows nextCursor through every page of tools/list", async () => {
  const home = await homeWith({ paged: fixtureServer("paginated_server.mjs") });
  const r = await syncServers(home, ["paged"]);
  assert.equal(r.tools_discovered, 7);
  const file = await loadRegistryFile(home);
  assert.deepEqual(
    mcpNodes(file, "paged").map((n) => n.type).sort(),
    [
      "mcp-paged-alpha",
      "mcp-paged-beta-two",
      "mcp-paged-delta",
      "mcp-paged-epsilon",
      "mcp-paged-eta",
      "mcp-paged-gamma-three",
      "mcp-paged-zeta",
    ],
  );
  assert.equal(file.nodes["mcp-paged-gamma-three"].mcp?.tool, "gamma.three");
  assert.equal(file.nodes["mcp-paged-alpha"].openOutputs, true);
});

Deno.test("a failing sync keeps the last good set and records the error", async () => {
  const home = await homeWith({ paged: fixtureServer("paginated_server.mjs") });
  await syncServers(home, ["paged"]);
  await saveServersConfig(home, {
    paged: { command: "pflow-no-such-command-xyz", args: [], env: {} },
  });
  const r = await syncServers(home, ["paged"]);
  assert.equal(r.servers[0].ok, false);
  assert.match(r.servers[0].error!, /Command not found: pflow-no-such-command-xyz/);
  const file = await loadRegistryFile(home);
  assert.equal(mcpNodes(file, "paged").length, 7);
  assert.match(file.servers.paged.error!, /Command not found/);
});

Deno.test("a re-sync replaces the server's tools as a set", async () => {
  const home = await homeWith({ s: fixtureServer("paginated_server.mjs") });
  await syncServers(home, ["s"]);
  await saveServersConfig(home, { s: fixtureServer("counter_server.mjs") });
  const r = await syncServers(home, ["s"]);
  assert.equal(r.servers[0].removed.length, 7);
  const file = await loadRegistryFile(home);
  assert.deepEqual(mcpNodes(file, "s").map((n) => n.type), ["mcp-s-increment"]);
});

Deno.test("cli: mcp add NAME -- COMMAND writes the standard layout, with --env", async () => {
  const home = await tempHome();
  const { cli, out } = io(home);
  const code = await mcpCommand(["add", "x", "--env", "K=V", "--", "node", "s.js", "--flag"], cli);
  assert.equal(code, 0);
  assert.match(out.join("\n"), /Added MCP server 'x'/);
  const saved = JSON.parse(await Deno.readTextFile(join(home, "mcp-servers.json")));
  assert.deepEqual(saved, {
    mcpServers: { x: { command: "node", args: ["s.js", "--flag"], env: { K: "V" } } },
  });
});

Deno.test("cli: mcp add JSON in the older servers layout adds several; a repeat warns", async () => {
  const home = await tempHome();
  const { cli, err } = io(home);
  const json = JSON.stringify({
    servers: {
      a: { transport: "stdio", command: "node", args: ["a.js"] },
      b: { transport: "stdio", command: "node", args: ["b.js"], env: { T: "${TOKEN}" } },
    },
  });
  assert.equal(await mcpCommand(["add", json], cli), 0);
  assert.equal(await mcpCommand(["add", "a", "--", "node", "a2.js"], cli), 0);
  assert.match(err.join("\n"), /server 'a' already existed and was replaced/);
  const cfg = await loadServersConfig(home);
  assert.deepEqual(Object.keys(cfg).sort(), ["a", "b"]);
  assert.deepEqual(cfg.a.args, ["a2.js"]);
  assert.equal(cfg.b.env.T, "${TOKEN}");
});

Deno.test("cli: mcp add refuses a non-stdio transport", async () => {
  const home = await tempHome();
  const { cli } = io(home);
  const json = JSON.stringify({ mcpServers: { web: { type: "http", url: "https://x" } } });
  await assert.rejects(() => mcpCommand(["add", json], cli), /only stdio servers are supported/);
});

Deno.test("cli: mcp add refuses a server name outside [a-z0-9-]", async () => {
  const home = await tempHome();
  const { cli } = io(home);
  await assert.rejects(
    () => mcpCommand(["add", "My_Server", "--", "node", "s.js"], cli),
    /Invalid server name 'My_Server'/,
  );
});

Deno.test("cli: sync --json prints tools_discovered and tools_registered", async () => {
  const home = await homeWith({ paged: fixtureServer("paginated_server.mjs") });
  const { cli, out } = io(home);
  assert.equal(await mcpCommand(["sync", "--all", "--json"], cli), 0);
  const r = JSON.parse(out.join(""));
  assert.equal(r.tools_discovered, 7);
  assert.equal(r.tools_registered, 7);
});

Deno.test("cli: list, tools, info and remove show and drop a synced server", async () => {
  const home = await homeWith({ paged: fixtureServer("paginated_server.mjs") });
  const { cli, out } = io(home);
  assert.equal(await mcpCommand(["sync", "paged"], cli), 0);
  assert.equal(await mcpCommand(["list"], cli), 0);
  assert.match(out.join("\n"), /paged: node .*\[7 tools, synced/);
  out.length = 0;
  assert.equal(await mcpCommand(["tools", "paged", "--json"], cli), 0);
  assert.equal(JSON.parse(out.join("")).tools.length, 7);
  out.length = 0;
  assert.equal(await mcpCommand(["info", "mcp-paged-Beta_Two"], cli), 0);
  assert.match(out.join("\n"), /tool: Beta_Two/);
  out.length = 0;
  assert.equal(await mcpCommand(["remove", "paged"], cli), 0);
  assert.match(out.join("\n"), /Removed MCP server 'paged' and its 7 nodes/);
  const file = await loadRegistryFile(home);
  assert.equal(Object.keys(file.nodes).length, 0);
  assert.deepEqual(await loadServersConfig(home), {});
});

Deno.test("cli: sync of an unknown server says it is not configured", async () => {
  const home = await homeWith({ paged: fixtureServer("paginated_server.mjs") });
  const { cli } = io(home);
  await assert.rejects(() => mcpCommand(["sync", "pagd"], cli), /Server pagd not configured/);
});
