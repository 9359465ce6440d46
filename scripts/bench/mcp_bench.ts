/**
 * MCP client overhead: a 100-step workflow calling server-everything's `echo` (one live session
 * reused by every step), against the SDK client alone doing one spawn and the same 100 calls in
 * this same script; and, for contrast, the cost of spawning a server per call. Prints ratios
 * (goal: workflow ≤ 1.5× the bare SDK). Needs `npm ci --prefix tests/mcp_servers` first.
 * Run: deno run -A scripts/bench/mcp_bench.ts [--steps N] [--rounds R]
 */
import { fileURLToPath } from "node:url";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { Client } from "../../src/mcp/sdk_client.ts";
import { type McpServerConfig, saveServersConfig } from "../../src/mcp/config.ts";
import { syncServers } from "../../src/services/mcp.ts";
import { runWorkflow } from "../../src/runtime/run.ts";
import { WorkflowIRSchema } from "../../src/core/ir.ts";

const ENTRY = fileURLToPath(
  new URL(
    "../../tests/mcp_servers/node_modules/@modelcontextprotocol/server-everything/dist/index.js",
    import.meta.url,
  ),
);

function flag(name: string, fallback: number): number {
  const i = Deno.args.indexOf(name);
  return i >= 0 ? Number(Deno.args[i + 1]) : fallback;
}

/** The SDK client alone, connected to a fresh server-everything process. */
async function connectEverything(): Promise<Client> {
  const client = new Client({ name: "bench", version: "1" });
  await client.connect(
    new StdioClientTransport({
      command: "node",
      args: [ENTRY, "stdio"],
      env: Deno.env.toObject(),
      stderr: "ignore",
    }),
  );
  return client;
}

/** Total ms (spawn + calls), and ms per call once connected. */
async function sdkAlone(steps: number): Promise<{ total: number; perCall: number }> {
  const t0 = performance.now();
  const client = await connectEverything();
  const t1 = performance.now();
  for (let i = 0; i < steps; i++) {
    await client.callTool({ name: "echo", arguments: { message: `m${i}` } });
  }
  const perCall = (performance.now() - t1) / steps;
  await client.close();
  return { total: performance.now() - t0, perCall };
}

/** Total ms, and the median step time after the first (which starts the server). */
async function pflowWorkflow(
  home: string,
  steps: number,
): Promise<{ total: number; perCall: number }> {
  const nodes = Array.from({ length: steps }, (_, i) => ({
    id: `s${i}`,
    type: "mcp-everything-echo",
    params: { message: `m${i}` },
  }));
  const edges = nodes.slice(1).map((n, i) => ({ from: nodes[i].id, to: n.id }));
  const ir = WorkflowIRSchema.parse({ nodes, edges });
  const t0 = performance.now();
  const r = await runWorkflow({ ir, metadata: {} } as never, { home, writeTrace: false });
  const total = performance.now() - t0;
  if (!r.success) throw new Error(`workflow failed: ${JSON.stringify(r.errors)}`);
  return { total, perCall: median(r.nodes.slice(1).map((n) => n.duration_ms)) };
}

async function spawnPerCall(calls: number): Promise<number> {
  const t0 = performance.now();
  for (let i = 0; i < calls; i++) {
    const client = await connectEverything();
    await client.callTool({ name: "echo", arguments: { message: `m${i}` } });
    await client.close();
  }
  return (performance.now() - t0) / calls;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function main(): Promise<void> {
  const steps = flag("--steps", 100);
  const rounds = flag("--rounds", 3);
  try {
    await Deno.stat(ENTRY);
  } catch {
    console.log("skipped: server-everything is not installed (npm ci --prefix tests/mcp_servers)");
    return;
  }
  const home = await Deno.makeTempDir({ prefix: "pflow-mcp-bench-" });
  const cfg: McpServerConfig = { command: "node", args: [ENTRY, "stdio"], env: {} };
  await saveServersConfig(home, { everything: cfg });
  await syncServers(home, ["everything"], { timeoutS: 30 });

  const sdk: { total: number; perCall: number }[] = [];
  const wf: { total: number; perCall: number }[] = [];
  await sdkAlone(5); // warm caches (node, the SDK) before measuring either side
  for (let r = 0; r < rounds; r++) {
    sdk.push(await sdkAlone(steps));
    wf.push(await pflowWorkflow(home, steps));
  }
  const perSpawn = await spawnPerCall(5);
  const sdkMs = median(sdk.map((x) => x.total));
  const wfMs = median(wf.map((x) => x.total));
  console.log(`MCP bench: ${steps} echo calls to server-everything, median of ${rounds} rounds`);
  console.log(`  SDK client alone (1 spawn + ${steps} calls): ${sdkMs.toFixed(0)} ms`);
  console.log(`  pflow workflow (${steps} steps, 1 live session): ${wfMs.toFixed(0)} ms`);
  console.log(`  ratio workflow / SDK alone: ${(wfMs / sdkMs).toFixed(2)}x (goal <= 1.5x)`);
  // Per call once the server is up: the SDK's calls in a loop, pflow's median step (its own
  // node overhead included: templates, checkpoint, result parsing).
  const sdkCall = median(sdk.map((x) => x.perCall));
  const wfCall = median(wf.map((x) => x.perCall));
  console.log(
    `  per call, server running: SDK ${sdkCall.toFixed(2)} ms, pflow step ${
      wfCall.toFixed(2)
    } ms, ratio ${(wfCall / sdkCall).toFixed(2)}x`,
  );
  console.log(
    `  spawn-per-call: ${perSpawn.toFixed(0)} ms per call -> ${steps} calls ≈ ${
      (perSpawn * steps).toFixed(0)
    } ms`,
  );
  console.log(`  ratio spawn-per-call / live session: ${((perSpawn * steps) / wfMs).toFixed(1)}x`);
  await Deno.remove(home, { recursive: true });
}

if (import.meta.main) await main();
