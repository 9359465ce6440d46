/**
 * Running a workflow as a user asks for it: resolve the reference (file, name, IR), run it,
 * record statistics for saved workflows, and find the checkpoint to resume from. The CLI's
 * `run` and the MCP server's `workflow_execute` both call this.
 */
import { basename, dirname, relative } from "node:path";
import { PflowError } from "../core/errors.ts";
import { type ResolvedWorkflow, resolveWorkflow } from "../library/resolve.ts";
import { recordRun } from "../library/metadata.ts";
import { isCheckpoint } from "../runtime/checkpoint.ts";
import { type NodeRun, type RunResult, runWorkflow } from "../runtime/run.ts";
import { latestTrace, readTraceCheckpoint } from "../runtime/trace.ts";
import { stringifyForText } from "../core/template.ts";

export interface RunRequest {
  workflow: string | Record<string, unknown>;
  params?: Record<string, unknown>;
  /** Read only when the workflow has an input marked `stdin: true` (never blocks otherwise). */
  stdin?: () => Promise<string | undefined>;
  home: string;
  cwd: string;
  /** true: the latest checkpoint of this workflow; a string: a trace path; an object: a checkpoint. */
  resume?: boolean | string | Record<string, unknown>;
  signal?: AbortSignal;
  onNode?: (run: NodeRun) => void;
  verbose?: boolean;
}

export interface RunResponse extends RunResult {
  workflow: string;
}

export async function runService(req: RunRequest): Promise<RunResponse> {
  const resolved = await resolveWorkflow(req.workflow, { home: req.home, cwd: req.cwd });
  const name = resolved.name ??
    (resolved.path ? basename(resolved.path).replace(/\.(pflow\.md|md|json)$/, "") : undefined) ??
    resolved.parsed.ir.title ?? "workflow";
  const resume = await findCheckpoint(req, name);
  const result = await runWorkflow(resolved.parsed, {
    home: req.home,
    cwd: req.cwd,
    params: req.params,
    stdin: Object.values(resolved.parsed.ir.inputs).some((i) => i.stdin) && req.stdin
      ? await req.stdin()
      : undefined,
    resume,
    signal: req.signal,
    onNode: req.onNode,
    name,
    // Workflows are told apart by library name or path: two files may share a title.
    stack: [resolved.name ?? resolved.path ?? name],
    verbose: req.verbose,
    workflowDir: fileDir(resolved),
    resolveWorkflow: async (ref, base) => {
      const child = await resolveWorkflow(ref as string | Record<string, unknown>, {
        home: req.home,
        cwd: base,
      });
      return {
        parsed: child.parsed,
        name: child.name ?? child.path ?? child.parsed.ir.title ?? "inline",
        dir: fileDir(child),
      };
    },
  });
  if (resolved.source === "library" && resolved.name) {
    await recordRun(req.home, resolved.name, result, req.params ?? {});
  }
  return { ...result, workflow: name };
}

/** The folder of a workflow read from a file path (not the library: names are not paths). */
const fileDir = (r: ResolvedWorkflow) =>
  r.source === "path" && r.path ? dirname(r.path) : undefined;

async function findCheckpoint(req: RunRequest, name: string) {
  if (req.resume === undefined || req.resume === false) return undefined;
  let checkpoint: unknown = req.resume;
  if (req.resume === true) {
    const trace = await latestTrace(req.home, name);
    if (!trace) {
      throw new PflowError("not_found", `No earlier run of '${name}' to resume`, {
        suggestion: "Run it once without --resume",
      });
    }
    checkpoint = await readTraceCheckpoint(trace);
  } else if (typeof req.resume === "string") {
    checkpoint = await readTraceCheckpoint(req.resume);
  }
  if (!isCheckpoint(checkpoint)) {
    throw new PflowError("invalid_params", "The resume source holds no checkpoint", {
      suggestion: "Pass a trace written by a pflow run, or the checkpoint object it returned",
    });
  }
  return checkpoint;
}

/** The one text form of a run result (CLI stdout, MCP text content). */
export function formatRunResult(r: RunResponse, home?: string): string {
  const lines: string[] = [];
  if (r.success) {
    const entries = Object.entries(r.outputs);
    if (entries.length === 1) lines.push(stringifyForText(entries[0][1]).replace(/\n$/, ""));
    else for (const [k, v] of entries) lines.push(`${k}: ${stringifyForText(v)}`);
    if (r.status === "degraded") lines.push("(completed with handled errors)");
  } else {
    lines.push(`✗ Workflow '${r.workflow}' failed`);
    for (const e of r.errors) {
      const where = [
        e.node && `node '${e.node}'`,
        e.param && `param '${e.param}'`,
        e.line && `line ${e.line}`,
      ]
        .filter(Boolean).join(", ");
      lines.push(`  ${where ? `${where}: ` : ""}${e.message}`);
      if (e.suggestion) lines.push(`    → ${e.suggestion}`);
    }
    if (r.checkpoint.completed_nodes.length > 0) {
      lines.push(
        `  Completed: ${r.checkpoint.completed_nodes.join(", ")} — fix and re-run with --resume`,
      );
    }
  }
  if (!r.success && r.trace_path) {
    lines.push(`  Trace: ${home ? relative(home, r.trace_path) : r.trace_path}`);
  }
  return lines.join("\n");
}
