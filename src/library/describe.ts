/**
 * What a workflow asks for and gives back: declared inputs and outputs, every template variable
 * the workflow uses without declaring it (what a caller will have to supply or fix), and the run
 * statistics of a saved workflow.
 */
import type { ParsedWorkflow, ValueType } from "../core/ir.ts";
import { findRefs } from "../core/template.ts";
import { type RunStatistics, runStatistics } from "./metadata.ts";
import { descriptionFromBody } from "./store.ts";

export interface InputDescription {
  name: string;
  type: ValueType;
  required: boolean;
  default?: unknown;
  description: string;
}

export interface OutputDescription {
  name: string;
  source: string;
  description: string;
}

export interface WorkflowDescription {
  name?: string;
  title?: string;
  description: string;
  inputs: InputDescription[];
  outputs: OutputDescription[];
  /** Template roots used in the workflow that are neither a declared input nor a node id. */
  undeclared: string[];
  nodes: { id: string; type: string; purpose?: string }[];
  stats: RunStatistics;
}

/** Template roots a workflow uses that nothing declares, sorted. */
export function undeclaredVariables(parsed: ParsedWorkflow): string[] {
  const { ir } = parsed;
  const known = new Set<string>([...Object.keys(ir.inputs), ...ir.nodes.map((n) => n.id)]);
  const found = new Set<string>();
  for (const node of ir.nodes) {
    // A batch node sees its current element under `batch.as` (default `item`).
    const batchAs = node.batch && typeof node.batch.as === "string" ? node.batch.as : "item";
    for (const ref of findRefs(node.params)) {
      if (!known.has(ref.root) && !(node.batch && ref.root === batchAs)) found.add(ref.root);
    }
    if (node.batch) {
      for (const ref of findRefs(node.batch)) if (!known.has(ref.root)) found.add(ref.root);
    }
  }
  for (const out of Object.values(ir.outputs)) {
    for (const ref of findRefs(out.source)) if (!known.has(ref.root)) found.add(ref.root);
  }
  return [...found].sort();
}

export function describeWorkflow(
  parsed: ParsedWorkflow,
  opts: { name?: string } = {},
): WorkflowDescription {
  const { ir } = parsed;
  const meta = parsed.metadata ?? {};
  const description = ir.description ??
    (typeof meta.description === "string" ? meta.description : undefined) ??
    (parsed.body ? descriptionFromBody(parsed.body) : "");
  return {
    ...(opts.name ? { name: opts.name } : {}),
    ...(ir.title ? { title: ir.title } : {}),
    description,
    inputs: Object.entries(ir.inputs).map(([name, i]) => ({
      name,
      type: i.type,
      required: i.required && i.default === undefined,
      ...(i.default !== undefined ? { default: i.default } : {}),
      description: i.description,
    })),
    outputs: Object.entries(ir.outputs).map(([name, o]) => ({
      name,
      source: o.source,
      description: o.description,
    })),
    undeclared: undeclaredVariables(parsed),
    nodes: ir.nodes.map((n) => ({
      id: n.id,
      type: n.type,
      ...(n.purpose ? { purpose: n.purpose } : {}),
    })),
    stats: runStatistics(meta),
  };
}
