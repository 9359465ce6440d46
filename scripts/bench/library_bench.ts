/**
 * Library figures: `workflow list` over 1,000 saved workflows, against a baseline measured in
 * the same run (reading the same 1,000 files with no parsing), plus the absolute time. Cold:
 * every file changed since the last listing (a one-shot CLI run parses them all); warm: nothing
 * changed (a long-lived `mcp serve` only stats them).
 * Run: deno run -A scripts/bench/library_bench.ts
 */
import { join } from "node:path";
import { listWorkflowsService } from "../../src/services/workflows.ts";
import { serializeFrontmatter } from "../../src/core/markdown.ts";

const N = 1000;
const BODY = (i: number) =>
  `# Workflow ${i}

Fetches issue ${i} and summarises it.

## Steps

### fetch

Fetch it.

- type: shell
- command: echo ${i}
`;

async function time(fn: () => unknown, rounds: number): Promise<number> {
  for (let i = 0; i < 2; i++) await fn();
  const t0 = performance.now();
  for (let i = 0; i < rounds; i++) await fn();
  return (performance.now() - t0) / rounds;
}

const home = await Deno.makeTempDir();
try {
  const dir = join(home, "workflows");
  await Deno.mkdir(dir, { recursive: true });
  for (let i = 0; i < N; i++) {
    const meta = {
      description: `Fetches issue ${i}`,
      created_at: new Date().toISOString(),
      execution_count: i,
    };
    await Deno.writeTextFile(join(dir, `wf-${i}.pflow.md`), serializeFrontmatter(meta, BODY(i)));
  }
  const readMs = await time(async () => {
    const names: string[] = [];
    for await (const e of Deno.readDir(dir)) names.push(e.name);
    await Promise.all(names.map((n) => Deno.readTextFile(join(dir, n))));
  }, 10);
  // A new mtime on every file makes each listing parse them all again, as a fresh process would.
  let tick = Date.now() / 1000;
  const touchAll = () => {
    tick += 1;
    for (let i = 0; i < N; i++) Deno.utimeSync(join(dir, `wf-${i}.pflow.md`), tick, tick);
  };
  let coldTotal = 0;
  for (let r = 0; r < 5; r++) {
    touchAll();
    const t0 = performance.now();
    listWorkflowsService(home);
    coldTotal += performance.now() - t0;
  }
  const coldMs = coldTotal / 5;
  const listMs = await time(() => listWorkflowsService(home), 10);
  const searchMs = await time(
    () => listWorkflowsService(home, { keywords: ["issue", "99"] }),
    10,
  );
  console.log(
    `workflow list, ${N} workflows, cold (all parsed): ${coldMs.toFixed(1)} ms; ${
      (coldMs / readMs).toFixed(2)
    }× reading the same files raw (${readMs.toFixed(1)} ms)`,
  );
  console.log(
    `workflow list, ${N} workflows, warm (unchanged): ${listMs.toFixed(1)} ms; ${
      (listMs / readMs).toFixed(2)
    }× the raw read`,
  );
  console.log(
    `workflow list 'issue 99', ${N} workflows, warm: ${searchMs.toFixed(1)} ms; ${
      (searchMs / readMs).toFixed(2)
    }× the raw read`,
  );
} finally {
  await Deno.remove(home, { recursive: true });
}
