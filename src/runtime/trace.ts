/**
 * Traces: one JSON file per run, success or failure, under `PFLOW_HOME/debug/`. Params and
 * outputs are redacted and large values truncated, so a trace is safe to share.
 */
import { join } from "node:path";
import { writeFileAtomic } from "../core/atomic.ts";
import { homePaths } from "../core/paths.ts";
import type { Redactor } from "../core/redact.ts";
import { PflowError } from "../core/errors.ts";

/** Strings longer than this are cut in traces. */
const MAX_TRACE_STRING = 2000;

export interface TraceRecord {
  workflow: string;
  status: string;
  started_at: string;
  duration_ms: number;
  inputs: Record<string, unknown>;
  nodes: unknown[];
  errors: unknown[];
  outputs: Record<string, unknown>;
  checkpoint: unknown;
}

export function truncateForTrace(value: unknown, depth = 0): unknown {
  if (typeof value === "string") {
    return value.length > MAX_TRACE_STRING
      ? `${value.slice(0, MAX_TRACE_STRING)}… [${value.length - MAX_TRACE_STRING} more chars]`
      : value;
  }
  if (depth > 20) return "[too deep]";
  if (Array.isArray(value)) {
    const head = value.slice(0, 100).map((v) => truncateForTrace(v, depth + 1));
    return value.length > 100 ? [...head, `[${value.length - 100} more items]`] : head;
  }
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, truncateForTrace(v, depth + 1)]),
    );
  }
  return value;
}

export const safeName = (name: string) =>
  name.replace(/[^a-zA-Z0-9_-]+/g, "-").slice(0, 60) || "workflow";

/** Writes the trace; returns its absolute path. */
export async function writeTrace(
  home: string,
  record: TraceRecord,
  redactor: Redactor,
): Promise<string> {
  const stamp = record.started_at.replace(/[:.]/g, "-");
  const file = `workflow-trace-${safeName(record.workflow)}-${stamp}-${
    crypto.randomUUID().slice(0, 6)
  }.json`;
  const path = join(homePaths(home).debug, file);
  // The checkpoint stays whole: a resume needs the real outputs, not a preview.
  const { checkpoint, ...rest } = record;
  const safe = redactor.value({ ...(truncateForTrace(rest) as object), checkpoint });
  await writeFileAtomic(path, JSON.stringify(safe, null, 2) + "\n");
  return path;
}

/** Reads a trace file's checkpoint (for `--resume`). */
export async function readTraceCheckpoint(path: string): Promise<unknown> {
  let data: { checkpoint?: unknown };
  try {
    data = JSON.parse(await Deno.readTextFile(path));
  } catch (err) {
    throw new PflowError(
      err instanceof Deno.errors.NotFound ? "not_found" : "parse",
      `Cannot read trace ${path}: ${(err as Error).message}`,
      { suggestion: "Pass a trace file from PFLOW_HOME/debug, or --resume without a path" },
    );
  }
  return data.checkpoint;
}

/** The newest trace of a workflow (by name), or undefined. */
export async function latestTrace(home: string, workflow: string): Promise<string | undefined> {
  const dir = homePaths(home).debug;
  // The name is followed by the ISO stamp, so `a` never matches the traces of `a-b`.
  const pattern = new RegExp(
    `^workflow-trace-${safeName(workflow)}-\\d{4}-\\d\\d-\\d\\dT.*\\.json$`,
  );
  let best: string | undefined;
  try {
    for await (const e of Deno.readDir(dir)) {
      if (e.isFile && pattern.test(e.name)) {
        // The stamp sorts lexically in time order.
        if (!best || e.name > best) best = e.name;
      }
    }
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
  return best ? join(dir, best) : undefined;
}
