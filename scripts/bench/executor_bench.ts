/**
 * Executor overhead: a 10,000-node chain of `echo` nodes, each reading the previous one's output
 * through a template, run end to end by runWorkflow (validation, templates, checkpoint, trace).
 * Reported as time per node against a baseline measured in the same run: the echo node's own
 * run() called 10,000 times in a loop. Run with `deno task bench`.
 */
import { type ParsedWorkflow, WorkflowIRSchema } from "../../src/core/ir.ts";
import { echoNode } from "../../src/nodes/echo.ts";
import { runWorkflow } from "../../src/runtime/run.ts";
import { Registry } from "../../src/registry/registry.ts";

const N = 10_000;

function chain(n: number): ParsedWorkflow {
  const nodes = Array.from({ length: n }, (_, i) => ({
    id: `n${i}`,
    type: "echo",
    params: { message: i === 0 ? "start" : `\${n${i - 1}.echo}` },
  }));
  const edges = nodes.slice(1).map((node, i) => ({ from: nodes[i].id, to: node.id }));
  return { ir: WorkflowIRSchema.parse({ title: "bench", nodes, edges }), metadata: {} };
}

async function baseline(n: number): Promise<number> {
  const ctx = {
    nodeId: "n",
    env: {},
    signal: new AbortController().signal,
    cwd: Deno.cwd(),
    stack: [],
    mcp: { callTool: () => Promise.reject(new Error("unused")), closeAll: () => Promise.resolve() },
    runWorkflow: () => Promise.reject(new Error("unused")),
    log: () => {},
  };
  let message: unknown = "start";
  const t0 = performance.now();
  for (let i = 0; i < n; i++) message = (await echoNode.run({ message }, ctx)).outputs.echo;
  return performance.now() - t0;
}

const home = await Deno.makeTempDir({ prefix: "pflow-bench-" });
try {
  const parsed = chain(N);
  const registry = new Registry();
  // Warm up both paths so JIT compilation is not measured.
  await baseline(N);
  await runWorkflow(chain(100), { home, registry, secrets: {}, writeTrace: false });

  const base = await baseline(N);
  const t0 = performance.now();
  const result = await runWorkflow(parsed, { home, registry, secrets: {}, writeTrace: false });
  const run = performance.now() - t0;
  if (result.status !== "success" || result.outputs.echo !== "start") {
    throw new Error(`bench run failed: ${JSON.stringify(result.errors.slice(0, 3))}`);
  }
  const t1 = performance.now();
  await runWorkflow(parsed, { home, registry, secrets: {} });
  const traced = performance.now() - t1;

  const us = (ms: number) => `${((ms * 1000) / N).toFixed(2)} µs/node`;
  console.log(`executor: ${N}-node echo chain`);
  console.log(`  baseline (echo run() in a loop): ${us(base)}`);
  console.log(
    `  runWorkflow, no trace:           ${us(run)}  (${(run / base).toFixed(1)}× baseline)`,
  );
  console.log(
    `  runWorkflow, with trace:         ${us(traced)}  (${(traced / base).toFixed(1)}× baseline)`,
  );
} finally {
  await Deno.remove(home, { recursive: true });
}
