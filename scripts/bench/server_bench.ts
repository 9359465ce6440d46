/**
 * Benchmarks of `pflow mcp serve`: cold start to the `initialize` reply against a bare SDK server
 * with one tool started the same way (goal ≤ 1.3×), and the round-trip p50/p99 of registry_search,
 * workflow_list and browse_components with 1,000 saved workflows and 2,000 registry nodes (goal
 * p50 ≤ 10 ms). Prints ratios; asserts nothing.
 * Run: deno run -A scripts/bench/server_bench.ts
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "../../src/mcp/sdk_client.ts";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { PFLOW_FLAGS } from "../permission_flags.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const FLAGS = ["run", ...PFLOW_FLAGS];
const ROUNDS = 10;
const CALLS = 200;

const BARE = `
import { McpServer } from "${join(ROOT, "src/server/sdk_server.ts")}";
import { StdioServerTransport } from "${join(ROOT, "src/server/sdk_server.ts")}";
import { z } from "zod";
const s = new McpServer({ name: "bare", version: "1" });
s.registerTool("echo", { inputSchema: { text: z.string() } }, ({ text }) => ({ content: [{ type: "text", text }] }));
await s.connect(new StdioServerTransport());
`;

/** A client connected (initialize answered) to a server started with `args`. */
async function connect(args: string[], home: string): Promise<Client> {
  const client = new Client({ name: "bench", version: "1" });
  await client.connect(
    new StdioClientTransport({
      command: Deno.execPath(),
      args,
      env: { ...Deno.env.toObject(), PFLOW_HOME: home },
      cwd: ROOT,
      stderr: "ignore",
    }),
  );
  return client;
}

async function coldStart(args: string[], home: string): Promise<number> {
  const t0 = performance.now();
  const client = await connect(args, home);
  const ms = performance.now() - t0;
  await client.close();
  return ms;
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))];
};
const median = (xs: number[]) => pct(xs, 0.5);

/** CALLS round trips of one tool on a server started with `args`; ms per call. */
async function roundTrips(
  args: string[],
  home: string,
  tool: string,
  toolArgs: Record<string, unknown>,
): Promise<number[]> {
  const client = await connect(args, home);
  await client.listTools();
  const times: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const t0 = performance.now();
    await client.callTool({ name: tool, arguments: toolArgs });
    times.push(performance.now() - t0);
  }
  await client.close();
  return times;
}

async function fill(home: string) {
  await Deno.mkdir(join(home, "workflows"), { recursive: true });
  const words = [
    "fetch",
    "github",
    "issues",
    "report",
    "slack",
    "daily",
    "csv",
    "parse",
    "summary",
    "deploy",
  ];
  await Promise.all(Array.from({ length: 1000 }, (_, i) => {
    const a = words[i % 10], b = words[(i * 7) % 10];
    return Deno.writeTextFile(
      join(home, "workflows", `${a}-${b}-${i}.pflow.md`),
      `---\ndescription: ${a} then ${b} number ${i}\n---\n# ${a} ${b}\n\nDoes ${a} and ${b}.\n\n## Steps\n\n### s\n\nRun.\n\n- type: shell\n- command: echo ${i}\n`,
    );
  }));
  const nodes: Record<string, unknown> = {};
  for (let i = 0; i < 2000; i++) {
    const server = `srv${i % 20}`, tool = `${words[i % 10]}-${words[(i * 3) % 10]}-${i}`;
    nodes[`mcp-${server}-${tool}`] = {
      type: `mcp-${server}-${tool}`,
      description: `Tool ${tool} of ${server}: ${words[(i * 5) % 10]} things`,
      params: { query: { type: "string", description: "q" } },
      outputs: { result: { type: "object", description: "r" } },
      actions: ["default", "error"],
      category: "mcp",
      mcp: { server, tool },
    };
  }
  await Deno.writeTextFile(
    join(home, "registry.json"),
    JSON.stringify({ version: 1, nodes, servers: {} }),
  );
}

if (import.meta.main) {
  const home = await Deno.makeTempDir({ prefix: "pflow-server-bench-" });
  const bareFile = join(home, "bare_server.ts");
  await Deno.writeTextFile(bareFile, BARE);
  const pflowArgs = [...FLAGS, join(ROOT, "main.ts"), "mcp", "serve"];
  const bareArgs = [...FLAGS, "--config", join(ROOT, "deno.json"), bareFile];
  // One warm-up each, so both are measured with a warm module cache.
  await coldStart(pflowArgs, home);
  await coldStart(bareArgs, home);
  const pflow: number[] = [], bare: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    pflow.push(await coldStart(pflowArgs, home));
    bare.push(await coldStart(bareArgs, home));
  }
  console.log(
    `cold start to initialize: pflow ${median(pflow).toFixed(0)} ms, bare SDK ${
      median(bare).toFixed(0)
    } ms, ratio ${(median(pflow) / median(bare)).toFixed(2)}× (goal ≤ 1.3×)`,
  );

  await fill(home);
  // Baseline for the round trips: the bare SDK server's one tool, over the same transport.
  const baseline = await roundTrips(bareArgs, home, "echo", { text: "hi" });
  console.log(
    `bare SDK echo      p50 ${pct(baseline, 0.5).toFixed(2)} ms, p99 ${
      pct(baseline, 0.99).toFixed(2)
    } ms (same-run baseline)`,
  );
  for (
    const [profile, tool, args] of [
      ["standard", "registry_search", { pattern: "github issues" }],
      ["standard", "workflow_list", { filter: "github" }],
      ["compact", "browse_components", { query: "github", include_workflows: true }],
    ] as const
  ) {
    const times = await roundTrips([...pflowArgs, "--profile", profile], home, tool, args);
    const p50 = pct(times, 0.5);
    console.log(
      `${tool.padEnd(18)} p50 ${p50.toFixed(2)} ms, p99 ${pct(times, 0.99).toFixed(2)} ms, ${
        (p50 / pct(baseline, 0.5)).toFixed(1)
      }× the bare echo; p50/goal ${(p50 / 10).toFixed(2)} (goal p50 ≤ 10 ms)`,
    );
  }
  await Deno.remove(home, { recursive: true });
}
