/**
 * Reading run traces back (`trace_read`): the latest trace, or one named by its file name under
 * `PFLOW_HOME/debug/`, summarised — status, failed node, errors, each node's outputs. Names are
 * checked before they become paths: nothing outside the debug folder is ever read.
 */
import { basename, join, relative } from "node:path";
import { PflowError, SecurityError } from "../core/errors.ts";
import { homePaths } from "../core/paths.ts";

const TRACE_FILE = /^workflow-trace-[A-Za-z0-9_-]+\.json$/;

export interface TraceNodeSummary {
  id: string;
  type?: string;
  status?: string;
  error?: string;
  outputs?: unknown;
}

export interface TraceSummary {
  /** Relative to PFLOW_HOME. */
  trace: string;
  workflow: string;
  status: string;
  started_at?: string;
  duration_ms?: number;
  failed_node?: string;
  errors: unknown[];
  nodes: TraceNodeSummary[];
}

/** `debug/<file>` or `<file>`, a trace file name; anything path-like is refused. */
function traceFile(home: string, ref: string): string {
  const file = ref.startsWith("debug/") ? ref.slice("debug/".length) : ref;
  // NFKC folds look-alikes (fullwidth solidus, one-dot leader…) onto what they mimic.
  const pathLike = (s: string) =>
    // deno-lint-ignore no-control-regex
    /[\\/\u0000-\u001f\u2215\u2044\u29f8\u2024]|\.\.|%[0-9a-fA-F]{2}|^~/.test(s);
  if (pathLike(file) || pathLike(file.normalize("NFKC")) || file !== basename(file)) {
    throw new SecurityError(
      `Refused trace ${
        JSON.stringify(ref.slice(0, 80))
      }: give a trace file name from PFLOW_HOME/debug`,
      "Omit 'trace' for the latest, or pass the trace_path a run returned",
    );
  }
  if (!TRACE_FILE.test(file)) {
    throw new PflowError("invalid_params", `'${file.slice(0, 80)}' is not a trace file name`, {
      suggestion: "Trace files look like workflow-trace-NAME-STAMP.json",
    });
  }
  return join(homePaths(home).debug, file);
}

async function latest(home: string): Promise<string> {
  const dir = homePaths(home).debug;
  let best: { name: string; mtime: number } | undefined;
  try {
    for await (const e of Deno.readDir(dir)) {
      if (!e.isFile || !TRACE_FILE.test(e.name)) continue;
      const mtime = (await Deno.stat(join(dir, e.name))).mtime?.getTime() ?? 0;
      if (!best || mtime > best.mtime || (mtime === best.mtime && e.name > best.name)) {
        best = { name: e.name, mtime };
      }
    }
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
  if (!best) {
    throw new PflowError("not_found", "No traces yet", {
      suggestion: "Run a workflow first: every run writes a trace",
    });
  }
  return join(dir, best.name);
}

export async function readTraceService(home: string, ref?: string): Promise<TraceSummary> {
  const path = ref ? traceFile(home, ref) : await latest(home);
  let data: Record<string, unknown>;
  try {
    data = JSON.parse(await Deno.readTextFile(path));
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) {
      throw new PflowError("not_found", `No trace '${basename(path)}'`, {
        suggestion: "Omit 'trace' to read the latest one",
      });
    }
    throw new PflowError("parse", `Trace '${basename(path)}' is not valid JSON`);
  }
  const checkpoint = (data.checkpoint ?? {}) as { failed_node?: string };
  const nodes = (Array.isArray(data.nodes) ? data.nodes : []) as Record<string, unknown>[];
  return {
    trace: relative(home, path),
    workflow: String(data.workflow ?? ""),
    status: String(data.status ?? "unknown"),
    ...(typeof data.started_at === "string" ? { started_at: data.started_at } : {}),
    ...(typeof data.duration_ms === "number" ? { duration_ms: data.duration_ms } : {}),
    ...(checkpoint.failed_node ? { failed_node: checkpoint.failed_node } : {}),
    errors: Array.isArray(data.errors) ? data.errors : [],
    nodes: nodes.map((n) => ({
      id: String(n.id),
      ...(typeof n.type === "string" ? { type: n.type } : {}),
      ...(typeof n.status === "string" ? { status: n.status } : {}),
      ...(typeof n.error === "string" ? { error: n.error } : {}),
      ...(n.outputs !== undefined ? { outputs: n.outputs } : {}),
    })),
  };
}

export function formatTrace(t: TraceSummary): string {
  const out = [
    `Trace ${t.trace}: '${t.workflow}' ${t.status}${
      t.duration_ms !== undefined ? ` in ${t.duration_ms} ms` : ""
    }`,
  ];
  if (t.failed_node) out.push(`Failed node: ${t.failed_node}`);
  for (const e of t.errors as { message?: string; node?: string }[]) {
    out.push(`  ✗ ${e.node ? `${e.node}: ` : ""}${e.message ?? JSON.stringify(e)}`);
  }
  for (const n of t.nodes) {
    const outputs = n.outputs === undefined ? "" : ` → ${JSON.stringify(n.outputs).slice(0, 120)}`;
    out.push(`  ${n.status === "error" ? "✗" : "✓"} ${n.id} (${n.type ?? "?"})${outputs}`);
  }
  return out.join("\n");
}
