/**
 * The `--allow-*` flags of a deno.json task: deno.json is the one place pflow's permission
 * profiles are written, and the release script, the tests and the benchmarks that start pflow
 * as a subprocess all read them from there, so they run it exactly as users do.
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const CONFIG = join(fileURLToPath(new URL("..", import.meta.url)), "deno.json");

/** E.g. `taskPermissionFlags("pflow")` → `["--allow-read", …]`. Throws when the task has none. */
export function taskPermissionFlags(task: string, configPath = CONFIG): string[] {
  const config = JSON.parse(Deno.readTextFileSync(configPath)) as {
    tasks?: Record<string, string | { command: string }>;
  };
  const entry = config.tasks?.[task];
  const command = typeof entry === "string" ? entry : entry?.command;
  if (!command) throw new Error(`${configPath} has no "${task}" task`);
  const flags = command.split(/\s+/).filter((t) => t.startsWith("--allow-"));
  if (flags.length === 0) {
    throw new Error(`the "${task}" task in ${configPath} has no --allow-* flags`);
  }
  return flags;
}

/** The flags `deno task pflow` runs pflow with (the full profile). */
export const PFLOW_FLAGS: readonly string[] = taskPermissionFlags("pflow");
