/**
 * What the MCP server's compact profile asks for that the other services do not give in one
 * call: browse nodes and workflows together, describe a workflow for a caller (with every
 * template variable it uses), save with a description, and move a draft into the library.
 * Structured results with one text formatter each.
 */
import type { NodeInterface, OutputSpec, ParamSpec } from "../core/node_interface.ts";
import { findRefs } from "../core/template.ts";
import { Registry } from "../registry/registry.ts";
import { searchNodes } from "../registry/search.ts";
import { resolveWorkflow } from "../library/resolve.ts";
import { validateName } from "../library/names.ts";
import { deleteWorkflow, loadWorkflow, saveWorkflow, workflowExists } from "../library/store.ts";
import {
  describeWorkflowService,
  listWorkflowsService,
  saveWorkflowService,
  type WorkflowDescribeResult,
  type WorkflowSaveResult,
} from "./workflows.ts";

// ---------------------------------------------------------------- browse

export interface ComponentNode {
  type: string;
  description: string;
  inputs: Record<string, ParamSpec>;
  outputs: Record<string, OutputSpec>;
}

export interface BrowseResult {
  query: string;
  nodes: ComponentNode[];
  workflows?: { name: string; description: string }[];
}

const asComponent = (n: NodeInterface): ComponentNode => ({
  type: n.type,
  description: n.description,
  inputs: n.params,
  outputs: n.outputs,
});

/** Nodes (and saved workflows) matching every keyword of `query`; all of them when empty. */
export async function browseComponentsService(
  home: string,
  query: string,
  opts: { includeWorkflows?: boolean; limit?: number } = {},
): Promise<BrowseResult> {
  const registry = await Registry.load(home);
  const nodes = searchNodes(registry.list(), query, { limit: opts.limit ?? 50 })
    .map((r) => asComponent(r.node));
  const result: BrowseResult = { query, nodes };
  if (opts.includeWorkflows ?? true) {
    const list = listWorkflowsService(home, { keywords: [query] });
    result.workflows = list.workflows.slice(0, opts.limit ?? 50)
      .map((w) => ({ name: w.name, description: w.description }));
  }
  return result;
}

export function formatBrowse(r: BrowseResult): string {
  const out: string[] = [];
  out.push(r.nodes.length ? `Nodes (${r.nodes.length}):` : `No nodes match '${r.query}'.`);
  for (const n of r.nodes) {
    const ins = Object.entries(n.inputs).map(([k, p]) => `${k}${p.required ? "*" : ""}`);
    out.push(`  ${n.type} — ${n.description.split(/(?<=\.)\s/)[0]}`);
    if (ins.length) {
      out.push(`      params: ${ins.join(", ")}; outputs: ${Object.keys(n.outputs).join(", ")}`);
    }
  }
  if (r.workflows) {
    out.push(
      "",
      r.workflows.length ? `Saved workflows (${r.workflows.length}):` : "No saved workflows match.",
    );
    for (const w of r.workflows) out.push(`  ${w.name} — ${w.description || "(no description)"}`);
  }
  return out.join("\n");
}

// ---------------------------------------------------------------- describe for a caller

export interface CallerDescription extends WorkflowDescribeResult {
  /** Every `${...}` the workflow uses, as written (`url`, `fetch.stdout`). */
  template_variables: string[];
}

export async function describeForCallerService(
  home: string,
  cwd: string,
  name: string,
): Promise<CallerDescription> {
  validateName(name);
  const d = await describeWorkflowService(home, cwd, name);
  const resolved = await resolveWorkflow(name, { home, cwd });
  const vars = new Set<string>();
  for (const node of resolved.parsed.ir.nodes) {
    for (const r of findRefs(node.params)) vars.add(r.raw);
  }
  for (const o of Object.values(resolved.parsed.ir.outputs)) {
    for (const r of findRefs(o.source)) vars.add(r.raw);
  }
  return { ...d, template_variables: [...vars].sort() };
}

// ---------------------------------------------------------------- save

/**
 * saveWorkflowService, plus an optional description stored in the metadata (it replaces the one
 * the workflow's prose gives).
 */
export async function saveDescribedService(
  home: string,
  cwd: string,
  req: {
    workflow: string | Record<string, unknown>;
    name: string;
    description?: string;
    force?: boolean;
  },
): Promise<WorkflowSaveResult> {
  if (req.description === undefined) {
    return await saveWorkflowService(home, cwd, {
      workflow: req.workflow,
      name: req.name,
      force: req.force,
    });
  }
  const name = validateName(req.name);
  const resolved = await resolveWorkflow(req.workflow, { home, cwd });
  const lookup = (await Registry.load(home)).lookup;
  const existed = req.force ? await workflowExists(home, name) : false;
  const parsed = {
    ...resolved.parsed,
    ir: { ...resolved.parsed.ir, description: req.description },
  };
  const saved = await saveWorkflow(home, name, parsed, { lookup, force: req.force });
  return { name, path: saved.path, replaced: existed };
}

/**
 * Moves draft `draftName` into the library as `finalName`: never overwrites (the error names the
 * existing workflow); the draft is removed only once the library file is in place.
 */
export async function saveDraftToLibraryService(
  home: string,
  draftName: string,
  finalName: string,
  description?: string,
): Promise<WorkflowSaveResult> {
  validateName(draftName, "draft name");
  const name = validateName(finalName);
  const draft = await loadWorkflow(home, draftName, "draft");
  const lookup = (await Registry.load(home)).lookup;
  const parsed = description === undefined
    ? draft.parsed
    : { ...draft.parsed, ir: { ...draft.parsed.ir, description } };
  const saved = await saveWorkflow(home, name, parsed, { lookup });
  await deleteWorkflow(home, draftName, "draft").catch(() => undefined);
  return { name, path: saved.path, replaced: false, draft_deleted: draftName };
}
