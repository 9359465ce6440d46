/**
 * End-to-end smoke suite against the offline build: `deno bundle` (the same entry point as
 * `deno compile`) into a temp folder, run with exactly the compile task's permission flags from a
 * folder outside the source tree — version, an embedded example, `pflow mcp serve` answering
 * initialize and tools/list over its stdin/stdout, `pflow mcp sync` against a real npm server.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { compilePermissionFlags } from "../scripts/release.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const MEMORY_SERVER = join(
  ROOT,
  "tests/mcp_servers/node_modules/@modelcontextprotocol/server-memory/dist/index.js",
);
const dec = new TextDecoder();

/** Built once for the whole file. */
let bundlePromise: Promise<string> | undefined;
function bundle(): Promise<string> {
  bundlePromise ??= (async () => {
    const dir = await Deno.makeTempDir({ prefix: "pflow-bundle-" });
    const out = join(dir, "pflow.js");
    const r = await new Deno.Command(Deno.execPath(), {
      args: ["bundle", "--quiet", "--platform=deno", "-o", out, join(ROOT, "main.ts")],
      cwd: ROOT,
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(r.code, 0, `deno bundle failed:\n${dec.decode(r.stderr)}`);
    return out;
  })();
  return bundlePromise;
}

interface Place {
  home: string;
  work: string;
}

async function place(): Promise<Place> {
  const base = await Deno.makeTempDir({ prefix: "pflow-smoke-" });
  const p = { home: join(base, "home"), work: join(base, "work") };
  for (const dir of Object.values(p)) await Deno.mkdir(dir, { recursive: true });
  return p;
}

/** `deno run <compile flags> pflow.js …`, started in p.work, outside the source tree. */
async function pflowCommand(p: Place, args: string[], piped = false): Promise<Deno.Command> {
  const flags = compilePermissionFlags();
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", "--no-config", ...flags, await bundle(), ...args],
    cwd: p.work,
    env: { PFLOW_HOME: p.home, NO_COLOR: "1" },
    stdin: piped ? "piped" : "null",
    stdout: "piped",
    stderr: "piped",
    // A guard against a hang, not a timing assertion.
    signal: AbortSignal.timeout(120_000),
  });
}

async function pflow(p: Place, args: string[]) {
  const r = await (await pflowCommand(p, args)).output();
  return { code: r.code, stdout: dec.decode(r.stdout), stderr: dec.decode(r.stderr) };
}

Deno.test("the bundle prints its version", async () => {
  const p = await place();
  const denoJson = JSON.parse(await Deno.readTextFile(join(ROOT, "deno.json")));
  const r = await pflow(p, ["--version"]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout.trim(), `pflow ${denoJson.version}`);
});

Deno.test("the bundle runs an embedded example workflow outside the source tree", async () => {
  const p = await place();
  const r = await pflow(p, ["examples", "run", "hello", "name=smoke"]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout.trim(), "HELLO, SMOKE!");
});

Deno.test("the bundle runs a workflow file given relative to the user's directory", async () => {
  const p = await place();
  await Deno.copyFile(join(ROOT, "examples", "hello.pflow.md"), join(p.work, "hello.pflow.md"));
  const r = await pflow(p, ["run", "hello.pflow.md"]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout.trim(), "HELLO, WORLD!");
});

Deno.test("the bundle's mcp serve answers initialize and tools/list over stdio", async () => {
  const p = await place();
  const child = (await pflowCommand(p, ["mcp", "serve"], true)).spawn();
  const writer = child.stdin.getWriter();
  const send = (msg: unknown) => writer.write(new TextEncoder().encode(JSON.stringify(msg) + "\n"));
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  /** The next JSON-RPC message with this id (notifications and logs are skipped). */
  async function response(id: number): Promise<Record<string, unknown>> {
    while (true) {
      const nl = buffered.indexOf("\n");
      if (nl >= 0) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        const msg = JSON.parse(line); // stdout must carry only protocol
        if (msg.id === id) return msg;
        continue;
      }
      const { value, done } = await lines.read();
      if (done) throw new Error(`pflow mcp serve closed stdout before answering request ${id}`);
      buffered += value;
    }
  }
  try {
    await send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "smoke", version: "1" },
      },
    });
    const init = await response(1);
    const result = init.result as { serverInfo?: { name?: string }; capabilities?: object };
    assert.ok(result, `initialize failed: ${JSON.stringify(init)}`);
    assert.ok(result.capabilities && "tools" in result.capabilities, JSON.stringify(init));
    await send({ jsonrpc: "2.0", method: "notifications/initialized" });
    await send({ jsonrpc: "2.0", id: 2, method: "tools/list" });
    const list = await response(2);
    const tools = (list.result as { tools: { name: string; inputSchema: unknown }[] }).tools;
    assert.ok(tools.length > 0, JSON.stringify(list));
    for (const t of tools) assert.ok(t.inputSchema, `tool ${t.name} has no inputSchema`);
  } finally {
    await writer.close().catch(() => {});
    await lines.cancel().catch(() => {});
    const status = await child.status;
    await child.stderr.cancel().catch(() => {});
    // Closing stdin ends the server: it must exit on its own, not hang.
    assert.equal(typeof status.code, "number");
  }
});

Deno.test("the bundle's mcp sync registers the tools of a real npm server", async () => {
  const p = await place();
  await Deno.writeTextFile(
    join(p.home, "mcp-servers.json"),
    JSON.stringify({
      mcpServers: {
        memory: {
          command: "node",
          args: [MEMORY_SERVER],
          env: { MEMORY_FILE_PATH: join(p.work, "memory.jsonl") },
        },
      },
    }),
  );
  const r = await pflow(p, ["mcp", "sync", "memory"]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const registry = JSON.parse(await Deno.readTextFile(join(p.home, "registry.json")));
  const nodes = Object.keys(registry.nodes);
  assert.ok(nodes.includes("mcp-memory-read-graph"), nodes.join(", "));
});
