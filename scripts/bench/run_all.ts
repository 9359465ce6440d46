/**
 * `deno task bench`: runs every `scripts/bench/*_bench.ts` in turn, each as its own subprocess
 * with the `pflow` task's permission flags (so one benchmark's JIT state or leftovers cannot
 * skew the next), and prints their output. Exits 1 if any benchmark failed.
 */
import { join } from "node:path";
import { fileURLToPath as fromFileUrl } from "node:url";
import { PFLOW_FLAGS } from "../permission_flags.ts";

const DIR = fromFileUrl(new URL(".", import.meta.url));
const CONFIG = fromFileUrl(new URL("../../deno.json", import.meta.url));

const benches: string[] = [];
for await (const e of Deno.readDir(DIR)) {
  if (e.isFile && e.name.endsWith("_bench.ts")) benches.push(e.name);
}
benches.sort();

let failed = 0;
for (const name of benches) {
  console.log(`## ${name}`);
  const { code } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", `--config=${CONFIG}`, ...PFLOW_FLAGS, join(DIR, name)],
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (code !== 0) {
    failed++;
    console.log(`✗ ${name} exited with code ${code}`);
  }
  console.log("");
}
console.log(`${benches.length - failed} of ${benches.length} benchmarks ran`);
if (failed > 0) Deno.exit(1);
