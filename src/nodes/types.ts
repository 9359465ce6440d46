/**
 * The contract every node type implements: a declared interface and one `run` that takes
 * resolved params and ends with an action. Nodes never see the shared store: the executor
 * resolves templates before `run` and writes the outputs into the node's namespace after.
 */
import type { NodeInterface } from "../core/node_interface.ts";
import type { WorkflowIR } from "../core/ir.ts";
import type { McpSessions } from "../mcp/types.ts";

export interface NodeResult {
  /** `default`, `error`, or another action the node declares. */
  action: string;
  outputs: Record<string, unknown>;
  /** Set when action is `error`: a message a user can act on. */
  error?: string;
}

/** Runs a nested workflow; provided by the runtime so nodes need not import it. */
export type SubWorkflowRunner = (
  workflow: string | WorkflowIR,
  params: Record<string, unknown>,
  ctx: NodeContext,
) => Promise<{ success: boolean; outputs: Record<string, unknown>; error?: string }>;

export interface NodeContext {
  nodeId: string;
  /** Secrets from settings `env`: added to child environments, never overriding a set variable. */
  env: Record<string, string>;
  signal: AbortSignal;
  /** The directory the user is in: relative paths resolve against it. */
  cwd: string;
  /** Nesting: workflow names/paths from the outermost run down to this one. */
  stack: string[];
  mcp: McpSessions;
  runWorkflow: SubWorkflowRunner;
  /** Recorded in the trace (e.g. MCP server stderr). */
  log(line: string): void;
}

export interface NodeImpl {
  readonly interface: NodeInterface;
  run(params: Record<string, unknown>, ctx: NodeContext): Promise<NodeResult>;
}

export const ok = (outputs: Record<string, unknown>): NodeResult => ({
  action: "default",
  outputs,
});
export const fail = (error: string, outputs: Record<string, unknown> = {}): NodeResult => ({
  action: "error",
  outputs: { ...outputs, error },
  error,
});
