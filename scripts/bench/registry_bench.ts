/**
 * Registry figures: loading a registry.json with 2,000 MCP entries, and searching 2,000 nodes.
 * Each is printed as a ratio against a baseline measured in the same run (a bare JSON.parse of
 * the same file, and a bare substring scan of the same nodes), plus the absolute time.
 * Run: deno run -A scripts/bench/registry_bench.ts
 */
import type { NodeInterface } from "../../src/core/node_interface.ts";
import { Registry } from "../../src/registry/registry.ts";
import { parseRegistryText, saveRegistryFile } from "../../src/registry/store.ts";
import { searchNodes } from "../../src/registry/search.ts";

const N = 2000;

function entry(i: number): NodeInterface {
  const server = `srv${i % 20}`;
  return {
    type: `mcp-${server}-tool-${i}`,
    description: `Tool number ${i} that fetches issues, pages and records from a service`,
    params: {
      query: { type: "string", description: "what to look for", required: true },
      limit: { type: "integer", description: "how many", default: 10 },
    },
    outputs: {
      result: {
        type: "object",
        description: "the result",
        structure: {
          items: { type: "array", description: "", items: { type: "object", description: "" } },
        },
      },
    },
    actions: ["default", "error"],
    category: "mcp",
    mcp: { server, tool: `tool_${i}` },
  };
}

async function time(fn: () => unknown | Promise<unknown>, rounds: number): Promise<number> {
  for (let i = 0; i < 3; i++) await fn();
  const t0 = performance.now();
  for (let i = 0; i < rounds; i++) await fn();
  return (performance.now() - t0) / rounds;
}

const home = await Deno.makeTempDir();
try {
  const nodes = Object.fromEntries(Array.from({ length: N }, (_, i) => [entry(i).type, entry(i)]));
  await saveRegistryFile(home, { version: 1, nodes, servers: {} });
  const path = `${home}/registry.json`;

  const parseMs = await time(async () => JSON.parse(await Deno.readTextFile(path)), 30);
  // Cold: what every CLI command pays (read, parse, build the view). Warm: a long-lived
  // `mcp serve` whose registry.json did not change (read and compare only).
  const coldMs = await time(
    async () => new Registry(parseRegistryText(await Deno.readTextFile(path), path)).list(),
    30,
  );
  const warmMs = await time(async () => (await Registry.load(home)).list(), 30);
  console.log(
    `registry load, ${N} MCP entries, cold: ${coldMs.toFixed(2)} ms (goal < 10 ms); ` +
      `${(coldMs / parseMs).toFixed(2)}× a bare read+JSON.parse (${parseMs.toFixed(2)} ms)`,
  );
  console.log(
    `registry load, ${N} MCP entries, warm (file unchanged): ${warmMs.toFixed(2)} ms; ` +
      `${(warmMs / parseMs).toFixed(2)}× the bare read+parse`,
  );

  const all = (await Registry.load(home)).list();
  const scanMs = await time(
    () => all.filter((n) => n.description.toLowerCase().includes("issues")),
    200,
  );
  for (const q of ["tool-1999", "issues", "srv3 query"]) {
    const ms = await time(() => searchNodes(all, q), 200);
    console.log(
      `search '${q}' over ${all.length} nodes: ${ms.toFixed(3)} ms (${
        (ms / (all.length / 100)).toFixed(4)
      } ms per 100 nodes); ` +
        `${(ms / scanMs).toFixed(2)}× a bare description scan (${scanMs.toFixed(3)} ms)`,
    );
  }
} finally {
  await Deno.remove(home, { recursive: true });
}
