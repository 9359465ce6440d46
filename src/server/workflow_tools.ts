/**
 * The workflow tools of the standard profile: discover, execute, validate, save, list, describe.
 * Each calls its service and answers with the service's structure and the CLI's text for it.
 */
import { z } from "zod";
import { PflowError } from "../core/errors.ts";
import type { RunResponse } from "../services/run.ts";
import { defineTool, type ToolContext, type ToolDef } from "./tool.ts";
import { guardWorkflowRef, homeRelative, WorkflowRef } from "./workflow_ref.ts";

const Loose = z.looseObject({});
const Params = z.record(z.string(), z.unknown());

export const DiscoverOutput = z.looseObject({
  query: z.string(),
  keywords: z.array(z.string()),
  matches: z.array(z.looseObject({
    name: z.string(),
    description: z.string(),
    confidence: z.number().min(0).max(1),
    reason: z.string(),
    strong: z.boolean(),
  })),
});

const workflowDiscover = defineTool({
  name: "workflow_discover",
  description:
    "Find saved workflows that already do a task, ranked offline. Call this FIRST: a match marked strong should be run (workflow_execute) instead of building a new workflow.",
  input: z.object({ query: z.string().min(1).max(2000).describe("The task, in words") }),
  output: DiscoverOutput,
  annotations: { readOnlyHint: true },
  async run({ query }, ctx) {
    const { discoverWorkflowsService, formatDiscover } = await import("../services/discover.ts");
    const r = await discoverWorkflowsService(ctx.home, query);
    return { structured: r, text: formatDiscover(r, "workflow") };
  },
});

export const RunOutput = z.looseObject({
  success: z.boolean(),
  status: z.enum(["success", "degraded", "failed"]),
  workflow: z.string(),
  outputs: Params,
  errors: z.array(Loose),
  checkpoint: z.looseObject({ completed_nodes: z.array(z.string()) }),
  trace_path: z.string().optional(),
  duration_ms: z.number(),
});

/** The run's answer for agents: trace path relative to PFLOW_HOME; a failure is an error result. */
export async function executeForAgent(
  ctx: ToolContext,
  workflow: string | Record<string, unknown>,
  params: Record<string, unknown>,
  resume?: boolean | Record<string, unknown>,
) {
  const { formatRunResult, runService } = await import("../services/run.ts");
  const r = await runService({
    workflow,
    params,
    home: ctx.home,
    cwd: ctx.cwd,
    resume,
    signal: ctx.signal,
    // An agent's call never reads the server's stdin: that is the protocol stream.
    stdin: () => Promise.resolve(undefined),
  });
  const response: RunResponse = { ...r, trace_path: homeRelative(ctx.home, r.trace_path) };
  const structured = {
    success: response.success,
    status: response.status,
    workflow: response.workflow,
    outputs: response.outputs,
    errors: response.errors,
    warnings: response.warnings,
    checkpoint: response.checkpoint,
    ...(response.trace_path ? { trace_path: response.trace_path } : {}),
    duration_ms: response.duration_ms,
    nodes: response.nodes,
  };
  if (!r.success) {
    const type = r.errors.some((e) => e.code === "template_error")
      ? "template_error"
      : r.errors.some((e) => e.code === "validation" || e.code === "schema_error")
      ? "validation"
      : "execution";
    const missing = r.errors.flatMap((e) => e.variable ? [e.variable] : []);
    throw new PflowError(type, formatRunResult(response), {
      suggestion: r.checkpoint.completed_nodes.length
        ? "Fix the failed step, then call again with resume: true (completed steps are not re-run)"
        : "Fix the workflow (workflow_validate checks it), then call again",
      details: {
        ...(r.checkpoint.failed_node ? { node: r.checkpoint.failed_node } : {}),
        ...(missing.length ? { missing_variables: missing } : {}),
        ...structured,
      },
    });
  }
  return { structured, text: formatRunResult(response) };
}

const workflowExecute = defineTool({
  name: "workflow_execute",
  description:
    "Run a workflow (IR object, markdown content, .pflow.md path, saved name or draft name). Writes a trace (path returned, relative to PFLOW_HOME). On failure the error names the node and any missing template variables and carries the checkpoint; after fixing, call again with resume: true (or the checkpoint) to continue without re-running completed steps. No auto-repair.",
  input: z.object({
    workflow: WorkflowRef,
    parameters: Params.optional().describe("Workflow inputs by name"),
    resume: z.union([z.boolean(), z.record(z.string(), z.unknown())]).optional()
      .describe(
        "true: resume from this workflow's last checkpoint; or the checkpoint object a failed run returned",
      ),
  }),
  output: RunOutput,
  annotations: { destructiveHint: true },
  run({ workflow, parameters, resume }, ctx) {
    return executeForAgent(ctx, guardWorkflowRef(workflow), parameters ?? {}, resume);
  },
});

const workflowValidate = defineTool({
  name: "workflow_validate",
  description:
    "Check a workflow without running it: schema, node types, params, templates, edges. Each error says where (node, param, line) and how to fix it. Validate before executing.",
  input: z.object({ workflow: WorkflowRef }),
  output: z.looseObject({
    valid: z.boolean(),
    errors: z.array(Loose),
    warnings: z.array(Loose),
    workflow: z.string().optional(),
  }),
  annotations: { readOnlyHint: true },
  async run({ workflow }, ctx) {
    const { formatValidation, validateService } = await import("../services/validate.ts");
    const r = await validateService(guardWorkflowRef(workflow), { home: ctx.home, cwd: ctx.cwd });
    return { structured: r, text: formatValidation(r) };
  },
});

export const SaveOutput = z.looseObject({
  name: z.string(),
  path: z.string(),
  replaced: z.boolean(),
  draft_deleted: z.string().optional(),
});

const workflowSave = defineTool({
  name: "workflow_save",
  description:
    "Save a working workflow to the library under a name (lowercase letters, digits, hyphens). Validates first; never overwrites unless force is true.",
  input: z.object({
    workflow: WorkflowRef,
    name: z.string().describe("Library name, e.g. 'fetch-issues'"),
    description: z.string().max(2000).optional(),
    force: z.boolean().optional().describe("Replace an existing workflow of that name"),
  }),
  output: SaveOutput,
  async run({ workflow, name, description, force }, ctx) {
    const { formatWorkflowSave } = await import("../services/workflows.ts");
    const { saveDescribedService } = await import("../services/compact.ts");
    const r = await saveDescribedService(ctx.home, ctx.cwd, {
      workflow: guardWorkflowRef(workflow),
      name,
      description,
      force,
    });
    const shown = { ...r, path: homeRelative(ctx.home, r.path)! };
    return { structured: shown, text: formatWorkflowSave(shown) };
  },
});

export const ListOutput = z.looseObject({
  kind: z.string(),
  keywords: z.array(z.string()),
  workflows: z.array(z.looseObject({ name: z.string(), description: z.string() })),
  total: z.number(),
});

const workflowList = defineTool({
  name: "workflow_list",
  description: "List saved workflows, optionally only those matching every keyword of filter.",
  input: z.object({ filter: z.string().max(2000).optional() }),
  output: ListOutput,
  annotations: { readOnlyHint: true },
  async run({ filter }, ctx) {
    const { formatWorkflowList, listWorkflowsService } = await import("../services/workflows.ts");
    const r = listWorkflowsService(ctx.home, { keywords: filter ? [filter] : [] });
    return { structured: r, text: formatWorkflowList(r) };
  },
});

export const DescribeOutput = z.looseObject({
  description: z.string(),
  inputs: z.array(Loose),
  outputs: z.array(Loose),
  undeclared: z.array(z.string()),
  nodes: z.array(Loose),
  stats: Loose,
  source: z.string(),
});

const workflowDescribe = defineTool({
  name: "workflow_describe",
  description:
    "Describe a saved workflow (or draft): its inputs, outputs, steps, undeclared template variables and run statistics — what you need to call it.",
  input: z.object({ name: WorkflowRef }),
  output: DescribeOutput,
  annotations: { readOnlyHint: true },
  async run({ name }, ctx) {
    const { describeWorkflowService, formatWorkflowDescription } = await import(
      "../services/workflows.ts"
    );
    const r = await describeWorkflowService(ctx.home, ctx.cwd, guardWorkflowRef(name));
    const shown = { ...r, ...(r.path ? { path: homeRelative(ctx.home, r.path) } : {}) };
    return { structured: shown, text: formatWorkflowDescription(shown) };
  },
});

export const WORKFLOW_TOOLS: ToolDef[] = [
  workflowDiscover,
  workflowExecute,
  workflowValidate,
  workflowSave,
  workflowList,
  workflowDescribe,
];
