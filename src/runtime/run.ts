/**
 * The executor: validate once, resolve inputs, then run nodes along their edges. Each node gets
 * resolved params and ends with an action; its outputs land in its own namespace of the shared
 * store, which others read only through templates. A checkpoint is kept as nodes complete and a
 * trace is written for every run.
 */
import { dirname, resolve } from "node:path";
import {
  type ParsedWorkflow,
  type WorkflowEdge,
  type WorkflowIR,
  WorkflowIRSchema,
  type WorkflowNode,
} from "../core/ir.ts";
import { loadWorkflowFile } from "../core/markdown.ts";
import { PflowError, toPflowError } from "../core/errors.ts";
import { loadSettings } from "../core/settings.ts";
import { Redactor } from "../core/redact.ts";
import { resolveTemplates, TemplateError } from "../core/template.ts";
import { type Issue, validateWorkflow } from "../core/validator.ts";
import { isRawParam, type NodeInterface } from "../core/node_interface.ts";
import type { McpSessions } from "../mcp/types.ts";
import { lazyMcpSessions } from "../mcp/lazy_sessions.ts";
import type { NodeContext, NodeResult } from "../nodes/types.ts";
import { Registry } from "../registry/registry.ts";
import { type Checkpoint, emptyCheckpoint, nodeHash } from "./checkpoint.ts";
import { resolveInputs } from "./inputs.ts";
import { writeTrace } from "./trace.ts";

export type RunStatus = "success" | "degraded" | "failed";

export interface NodeRun {
  id: string;
  type: string;
  /** `cached`: skipped on resume because its type and params were unchanged. */
  status: "success" | "error" | "cached";
  action: string;
  duration_ms: number;
  error?: string;
}

/** A validation issue, or what went wrong while running. */
export interface RunError extends Issue {
  /** For template errors: the variable that did not resolve. */
  variable?: string;
  available?: string[];
}

export interface RunResult {
  success: boolean;
  status: RunStatus;
  outputs: Record<string, unknown>;
  errors: RunError[];
  warnings: Issue[];
  checkpoint: Checkpoint;
  trace_path?: string;
  duration_ms: number;
  nodes: NodeRun[];
}

/**
 * Turns a workflow reference (name, path, IR) into a parsed workflow, for the workflow node.
 * Relative paths resolve against `base`; `dir` is the folder of the file it came from, if any.
 */
export type WorkflowResolver = (
  ref: string | WorkflowIR,
  base: string,
) => Promise<{ parsed: ParsedWorkflow; name: string; dir?: string }>;

export interface RunOptions {
  home: string;
  registry?: Registry;
  params?: Record<string, unknown>;
  stdin?: string;
  cwd?: string;
  resume?: Checkpoint;
  signal?: AbortSignal;
  /** Called as each node finishes (the CLI prints `✓ fetch 0.12s`). */
  onNode?: (run: NodeRun) => void;
  /** Names the trace file. */
  name?: string;
  /** Settings `env`; loaded from PFLOW_HOME when omitted. */
  secrets?: Record<string, string>;
  /** A pool shared with a parent run; otherwise one is made for this run and closed after. */
  mcp?: McpSessions;
  writeTrace?: boolean;
  /** Workflow names from the outermost run down (nested workflows). */
  stack?: string[];
  resolveWorkflow?: WorkflowResolver;
  /**
   * The folder of the workflow's own file: a nested workflow's relative path resolves against
   * it, as a relative import would (else against the user's cwd).
   */
  workflowDir?: string;
  verbose?: boolean;
}

const MAX_DEPTH = 10;

export async function runWorkflow(parsed: ParsedWorkflow, opts: RunOptions): Promise<RunResult> {
  const started = performance.now();
  const startedAt = new Date().toISOString();
  const { ir } = parsed;
  const name = opts.name ?? ir.title ?? "workflow";
  const secrets = opts.secrets ?? (await loadSettings(opts.home)).env;
  const redactor = Redactor.fromEnv(secrets);
  const registry = opts.registry ?? await Registry.load(opts.home);
  const checkpoint = emptyCheckpoint();
  const nodes: NodeRun[] = [];
  const errors: RunError[] = [];
  const traceNodes: unknown[] = [];
  let outputs: Record<string, unknown> = {};
  let inputs: Record<string, unknown> = {};
  let status: RunStatus = "failed";
  const ownMcp = !opts.mcp;
  const nodeLogs: string[] = [];
  const mcp = opts.mcp ??
    lazyMcpSessions({
      home: opts.home,
      secrets,
      verbose: opts.verbose,
      onLog: (l) => nodeLogs.push(l),
    });

  const report = validateWorkflow(parsed, registry.lookup);
  try {
    if (!report.valid) {
      errors.push(...report.errors);
    } else {
      inputs = resolveInputs(ir.inputs, opts.params ?? {}, opts.stdin);
      status = await execute();
    }
  } catch (err) {
    errors.push(errorOf(err));
    status = "failed";
  } finally {
    if (ownMcp) await mcp.closeAll();
  }

  const result: RunResult = {
    success: status !== "failed",
    status,
    outputs,
    errors,
    warnings: report.warnings,
    checkpoint,
    duration_ms: Math.round(performance.now() - started),
    nodes,
  };
  if (opts.writeTrace !== false) {
    // A trace that cannot be written (a read-only home, a full disk) must not undo the run.
    result.trace_path = await writeTrace(opts.home, {
      workflow: name,
      status,
      started_at: startedAt,
      duration_ms: result.duration_ms,
      inputs,
      nodes: traceNodes,
      errors,
      outputs,
      checkpoint,
    }, redactor).catch((err) => {
      result.warnings = [...result.warnings, {
        code: "trace_not_written",
        message: `The trace could not be written: ${toPflowError(err).message}`,
        suggestion: "Check that PFLOW_HOME/debug is writable",
      }];
      return undefined;
    });
  }
  // Nothing leaves a run with a secret in it.
  return {
    ...result,
    outputs: redactor.value(outputs),
    errors: redactor.value(errors),
    nodes: redactor.value(nodes),
    checkpoint: redactor.value(checkpoint),
  };

  async function execute(): Promise<RunStatus> {
    const byId = new Map(ir.nodes.map((n) => [n.id, n]));
    // One lookup per node, not a scan of every edge: long chains stay linear.
    const edgeFor = new Map<string, WorkflowEdge>();
    for (const e of ir.edges) {
      const key = `${e.from}\0${e.action}`;
      if (!edgeFor.has(key)) edgeFor.set(key, e);
    }
    const shared: Record<string, unknown> = { ...inputs };
    let degraded = false;
    let current: string | undefined = ir.start_node ?? ir.nodes[0].id;
    let last: string | undefined;

    while (current !== undefined) {
      if (opts.signal?.aborted) {
        throw new PflowError("execution", "Interrupted", { details: { node: current } });
      }
      const node: WorkflowNode = byId.get(current)!;
      const step = await runStep(node, shared);
      shared[node.id] = step.result.outputs;
      last = node.id;
      nodes.push(step.run);
      traceNodes.push({
        ...step.run,
        params: step.params,
        outputs: step.result.outputs,
        log: step.log,
      });
      opts.onNode?.(step.run);
      if (step.fatal) {
        errors.push(step.fatal);
        checkpoint.failed_node = node.id;
        return "failed";
      }
      const { action, error } = step.result;
      const edge: WorkflowEdge | undefined = edgeFor.get(`${node.id}\0${action}`);
      if (action === "error") {
        if (!edge) {
          errors.push({
            code: "execution",
            node: node.id,
            message: error ?? `Step '${node.id}' failed`,
          });
          checkpoint.failed_node = node.id;
          return "failed";
        }
        degraded = true;
      }
      current = edge?.to;
    }

    outputs = resolveOutputs(shared, last);
    return degraded ? "degraded" : "success";
  }

  /**
   * One node: resolve its params, reuse its checkpointed outputs when its hash is unchanged, or
   * run it. `fatal` is set for a template that does not resolve: the workflow's fault, not the
   * node's, so no error edge can handle it.
   */
  async function runStep(
    node: WorkflowNode,
    shared: Record<string, unknown>,
  ): Promise<{
    run: NodeRun;
    result: NodeResult;
    params: Record<string, unknown>;
    log: string[];
    fatal?: RunError;
  }> {
    const t0 = performance.now();
    nodeLogs.length = 0;
    let params: Record<string, unknown> = {};
    let result: NodeResult;
    let status: NodeRun["status"] = "success";
    let fatal: RunError | undefined;
    try {
      const iface = registry.get(node.type);
      params = resolveParams(node.params, shared, iface);
      // An MCP type is in the registry (validation made sure): its entry names server and tool
      // exactly, even when a server's name contains '-'.
      if (iface?.mcp) {
        params = { ...params, __mcp_server__: iface.mcp.server, __mcp_tool__: iface.mcp.tool };
      }
      const hash = nodeHash(node.type, params);
      const previous = opts.resume;
      if (
        previous && previous.completed_nodes.includes(node.id) &&
        previous.node_hashes[node.id] === hash
      ) {
        result = {
          action: previous.node_actions?.[node.id] ?? "default",
          outputs: previous.node_outputs[node.id] ?? {},
        };
        status = "cached";
      } else {
        const impl = registry.implFor(node.type);
        if (!impl) throw new PflowError("validation", `Unknown node type '${node.type}'`);
        result = await impl.run(params, context(node.id));
      }
      if (result.action !== "error") {
        checkpoint.completed_nodes.push(node.id);
        checkpoint.node_hashes[node.id] = hash;
        checkpoint.node_outputs[node.id] = result.outputs;
        checkpoint.node_actions[node.id] = result.action;
      }
    } catch (err) {
      const e = errorOf(err, node.id);
      result = { action: "error", outputs: { error: e.message }, error: e.message };
      if (err instanceof TemplateError) fatal = e;
    }
    if (result.action === "error" && status !== "cached") status = "error";
    const run: NodeRun = {
      id: node.id,
      type: node.type,
      status,
      action: result.action,
      duration_ms: Math.round((performance.now() - t0) * 100) / 100,
      ...(result.error ? { error: result.error } : {}),
    };
    return { run, result, params, log: [...nodeLogs], fatal };
  }

  function resolveOutputs(shared: Record<string, unknown>, last?: string) {
    const declared = Object.entries(ir.outputs);
    if (declared.length === 0) {
      return last ? { ...(shared[last] as Record<string, unknown>) } : {};
    }
    const out: Record<string, unknown> = {};
    for (const [key, spec] of declared) {
      const source = spec.source.includes("${") ? spec.source : `\${${spec.source}}`;
      out[key] = resolveTemplates(source, shared);
    }
    return out;
  }

  function context(nodeId: string): NodeContext {
    return {
      nodeId,
      env: secrets,
      signal: opts.signal ?? new AbortController().signal,
      cwd: opts.cwd ?? Deno.cwd(),
      stack: opts.stack ?? [name],
      mcp,
      log: (line) => nodeLogs.push(line),
      runWorkflow: async (ref, params, ctx) => {
        const stack = ctx.stack;
        if (stack.length >= MAX_DEPTH) {
          return fail(`Workflows nest deeper than ${MAX_DEPTH}: ${stack.join(" → ")}`);
        }
        const resolver = opts.resolveWorkflow ?? defaultResolver;
        const child = await resolver(ref, opts.workflowDir ?? ctx.cwd);
        if (stack.includes(child.name)) {
          return fail(`Workflow cycle: ${[...stack, child.name].join(" → ")}`);
        }
        const r = await runWorkflow(child.parsed, {
          ...opts,
          params,
          stdin: undefined,
          resume: undefined,
          onNode: undefined,
          name: child.name,
          secrets,
          registry,
          mcp,
          writeTrace: false,
          stack: [...stack, child.name],
          workflowDir: child.dir,
        });
        return {
          success: r.success,
          outputs: r.outputs,
          error: r.errors.map((e) => (e.node ? `${e.node}: ${e.message}` : e.message)).join("; ") ||
            undefined,
        };
      },
    };
  }
}

/** Resolves every param's templates, except raw object params (see ParamSpec.raw). */
function resolveParams(
  params: Record<string, unknown>,
  shared: Record<string, unknown>,
  iface: NodeInterface | undefined,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(params)) {
    out[name] = isRawParam(iface?.params[name], value) ? value : resolveTemplates(value, shared);
  }
  return out;
}

const fail = (error: string) => ({ success: false, outputs: {}, error });

function errorOf(err: unknown, node?: string): RunError {
  const e = toPflowError(err);
  const out: RunError = { code: e.code, message: e.message };
  const n = node ?? e.details.node;
  if (n) out.node = n;
  if (e.details.param) out.param = e.details.param;
  if (e.details.line) out.line = e.details.line;
  if (e.suggestion) out.suggestion = e.suggestion;
  if (err instanceof TemplateError) {
    out.variable = err.variable;
    out.available = err.available;
  }
  return out;
}

/** Without the library: inline IR or a file path. */
async function defaultResolver(ref: string | WorkflowIR, cwd: string) {
  if (typeof ref !== "string") {
    return {
      parsed: { ir: WorkflowIRSchema.parse(ref), metadata: {} },
      name: ref.title ?? "inline",
    };
  }
  const path = resolve(cwd, ref);
  return { parsed: await loadWorkflowFile(path), name: ref, dir: dirname(path) };
}
