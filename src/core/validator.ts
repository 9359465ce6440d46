/**
 * The one validator: the CLI, the runtime and the MCP server all call it, once, before anything
 * runs. Every issue names where it is (node, param, line) and how to fix it.
 */
import type { ParsedWorkflow, ValueType, WorkflowIR } from "./ir.ts";
import {
  type InterfaceLookup,
  isRawParam,
  type NodeInterface,
  type OutputSpec,
  type ParamSpec,
} from "./node_interface.ts";
import { findRefs, type PathSegment, type TemplateRef } from "./template.ts";
import { closestMatches, didYouMean } from "./suggest.ts";

export interface Issue {
  code: string;
  message: string;
  node?: string;
  param?: string;
  line?: number;
  suggestion?: string;
}

export interface ValidationReport {
  valid: boolean;
  errors: Issue[];
  warnings: Issue[];
}

/** Every node that ends with `error` carries this output, so an error handler can read it. */
const ERROR_OUTPUT: OutputSpec = {
  type: "string",
  description: "Why the step failed (set when it ends with the error action)",
};

/** Params pflow itself understands on every node (never reported as unknown). */
const PFLOW_PARAMS = new Set(["timeout"]);

export function validateWorkflow(
  parsed: ParsedWorkflow,
  lookup: InterfaceLookup,
): ValidationReport {
  const { ir, sourceMap } = parsed;
  const errors: Issue[] = [];
  const warnings: Issue[] = [];
  const nodeLine = (id: string) => sourceMap?.nodes[id]?.line;
  const paramLine = (id: string, p: string) => sourceMap?.nodes[id]?.params[p] ?? nodeLine(id);

  // Ids: unique, and not shadowing an input (both live in the template namespace).
  const ids = new Set<string>();
  for (const node of ir.nodes) {
    if (ids.has(node.id)) {
      errors.push({
        code: "duplicate_id",
        message: `Node id '${node.id}' is used twice`,
        node: node.id,
        line: nodeLine(node.id),
        suggestion: "Give every step a unique id",
      });
    }
    ids.add(node.id);
    if (node.id in ir.inputs) {
      errors.push({
        code: "id_conflict",
        message: `Node id '${node.id}' is also an input name, so \${${node.id}} is ambiguous`,
        node: node.id,
        line: nodeLine(node.id),
        suggestion: "Rename the step or the input",
      });
    }
  }

  // Edges and start node.
  for (const e of ir.edges) {
    for (const end of [e.from, e.to]) {
      if (!ids.has(end)) {
        errors.push({
          code: "bad_edge",
          message: `Edge ${e.from} → ${e.to} refers to unknown node '${end}'`,
          suggestion: didYouMean(end, ids) ?? `Known nodes: ${[...ids].join(", ")}`,
        });
      }
    }
  }
  if (ir.start_node !== undefined && !ids.has(ir.start_node)) {
    errors.push({
      code: "bad_start_node",
      message: `start_node '${ir.start_node}' is not a node`,
      suggestion: didYouMean(ir.start_node, ids) ?? "Set start_node to the first step's id",
    });
  }
  const cycle = findCycle(ir);
  if (cycle) {
    errors.push({
      code: "cycle",
      message: `The steps form a cycle: ${cycle.join(" → ")}`,
      node: cycle[0],
      line: nodeLine(cycle[0]),
      suggestion: "Remove one of the edges so the workflow has an end",
    });
  }

  // Per node: type, params, templates.
  const order = executionOrder(ir);
  const position = new Map(order.map((id, i) => [id, i]));
  const interfaces = new Map<string, NodeInterface>();
  for (const node of ir.nodes) {
    const iface = lookup(node.type);
    if (iface) interfaces.set(node.id, iface);
  }
  const usedInputs = new Set<string>();
  // Only types the lookup knows: an unknown type must never be suggested for itself.
  const allTypes = [...new Set(ir.nodes.map((n) => n.type))].filter((t) => lookup(t));

  for (const node of ir.nodes) {
    const iface = interfaces.get(node.id);
    if (!iface) {
      const isMcp = node.type.startsWith("mcp-");
      errors.push({
        code: "unknown_node_type",
        message: `Unknown node type '${node.type}'`,
        node: node.id,
        param: "type",
        line: paramLine(node.id, "type"),
        suggestion: isMcp
          ? "Add the server with 'pflow mcp add' and run 'pflow mcp sync', or check the tool name with 'pflow mcp tools'"
          : (didYouMean(node.type, lookupTypes(lookup, allTypes)) ??
            "Run 'pflow registry list' to see the node types"),
      });
    } else {
      checkParams(node.id, node.params, iface, errors, warnings, paramLine);
    }
    for (const [param, value] of Object.entries(node.params)) {
      if (isRawParam(iface?.params[param], value)) continue;
      for (const ref of findRefs(value)) {
        checkRef(ref, {
          node: node.id,
          param,
          line: paramLine(node.id, param),
          before: (id) => (position.get(id) ?? Infinity) < (position.get(node.id) ?? -1),
        });
      }
    }
  }

  for (const [name, out] of Object.entries(ir.outputs)) {
    const line = sourceMap?.outputs[name];
    const refs = findRefs(out.source);
    if (refs.length === 0 && !out.source.includes("${")) {
      // A bare node id or literal: allowed only as a node id shorthand.
      if (!ids.has(out.source)) {
        errors.push({
          code: "bad_output_source",
          message: `Output '${name}' has source '${out.source}', which is not a template`,
          param: "source",
          line,
          suggestion: "Write the source as a template, e.g. ${step.stdout}",
        });
      }
    }
    for (const ref of refs) {
      checkRef(ref, { output: name, param: "source", line, before: (id) => ids.has(id) });
    }
  }

  for (const [name, input] of Object.entries(ir.inputs)) {
    if (!usedInputs.has(name) && !input.stdin) {
      errors.push({
        code: "unused_input",
        message: `Input '${name}' is declared but never used`,
        line: sourceMap?.inputs[name],
        suggestion: `Use it in a step as \${${name}}, or remove it from ## Inputs`,
      });
    }
  }

  return { valid: errors.length === 0, errors, warnings };

  function checkRef(
    ref: TemplateRef,
    where: {
      node?: string;
      output?: string;
      param: string;
      line?: number;
      before: (id: string) => boolean;
    },
  ): void {
    const at = where.node ? `Step '${where.node}'` : `Output '${where.output}'`;
    if (ref.root in ir.inputs) {
      usedInputs.add(ref.root);
      return;
    }
    if (!ids.has(ref.root)) {
      const candidates = [...Object.keys(ir.inputs), ...ids];
      errors.push({
        code: "unknown_template_variable",
        message: `${at} uses \${${ref.raw}}, but '${ref.root}' is neither an input nor a step`,
        node: where.node,
        param: where.param,
        line: where.line,
        suggestion: didYouMean(ref.root, candidates) ??
          `Declare it under ## Inputs, or use one of: ${candidates.join(", ") || "(none)"}`,
      });
      return;
    }
    if (!where.before(ref.root)) {
      errors.push({
        code: "forward_reference",
        message: `${at} uses \${${ref.raw}}, but '${ref.root}' does not run before it`,
        node: where.node,
        param: where.param,
        line: where.line,
        suggestion: "Move the step that produces the value earlier, or reference an earlier step",
      });
      return;
    }
    const source = interfaces.get(ref.root);
    if (!source || source.openOutputs) return;
    const problem = checkOutputPath({ ...source.outputs, error: ERROR_OUTPUT }, ref.path);
    if (problem) {
      errors.push({
        code: "unknown_output",
        message: `${at} uses \${${ref.raw}}, but ${problem.message}`,
        node: where.node,
        param: where.param,
        line: where.line,
        suggestion: problem.suggestion,
      });
    }
  }
}

function lookupTypes(lookup: InterfaceLookup, extra: string[]): string[] {
  // The lookup is a function; callers with a Registry pass its types through `extra` as well.
  const withTypes = lookup as InterfaceLookup & { types?: () => string[] };
  return [...(withTypes.types?.() ?? []), ...extra];
}

/** Walks a template path through declared outputs; undefined when it is (or may be) fine. */
function checkOutputPath(
  outputs: Record<string, OutputSpec>,
  path: PathSegment[],
): { message: string; suggestion: string } | undefined {
  if (path.length === 0) return undefined;
  let level: Record<string, OutputSpec> | undefined = outputs;
  let spec: OutputSpec | undefined;
  const walked: string[] = [];
  for (const seg of path) {
    if (typeof seg === "number") {
      if (spec && spec.type !== "array" && spec.type !== "any" && spec.type !== "string") {
        return {
          message: `'${walked.join(".")}' is ${spec.type}, not a list`,
          suggestion: `Drop the [${seg}] index`,
        };
      }
      spec = spec?.items;
      level = spec?.structure;
      if (!spec) return undefined;
      continue;
    }
    if (!level) {
      // Past the declared structure: any/object/string (JSON) values may have more inside,
      // but a number or boolean has nothing inside it.
      if (spec && (spec.type === "number" || spec.type === "integer" || spec.type === "boolean")) {
        return {
          message: `'${walked.join(".")}' is ${spec.type}, which has no '${seg}' inside`,
          suggestion: `Use '${walked.join(".")}' itself: a ${spec.type} has no fields`,
        };
      }
      return undefined;
    }
    const next: OutputSpec | undefined = level[seg];
    if (!next) {
      const keys = Object.keys(level);
      return {
        message: `it has no output '${[...walked, seg].join(".")}'`,
        suggestion: [
          didYouMean(seg, keys),
          `Available: ${keys.map((k) => [...walked, k].join(".")).join(", ")}`,
        ].filter(Boolean).join(" "),
      };
    }
    walked.push(seg);
    spec = next;
    level = next.structure;
  }
  return undefined;
}

function checkParams(
  nodeId: string,
  params: Record<string, unknown>,
  iface: NodeInterface,
  errors: Issue[],
  warnings: Issue[],
  paramLine: (id: string, p: string) => number | undefined,
): void {
  for (const [name, spec] of Object.entries(iface.params)) {
    if (spec.required && spec.default === undefined && !(name in params)) {
      errors.push({
        code: "missing_param",
        message: `Step '${nodeId}' (${iface.type}) needs param '${name}': ${spec.description}`,
        node: nodeId,
        param: name,
        line: paramLine(nodeId, "type"),
        suggestion: `Add '- ${name}: …' to the step`,
      });
    }
  }
  const known = Object.keys(iface.params);
  for (const [name, value] of Object.entries(params)) {
    if (name.startsWith("__") || PFLOW_PARAMS.has(name)) continue;
    const spec = iface.params[name];
    if (!spec) {
      const close = closestMatches(name, known, 1)[0];
      warnings.push({
        code: "unknown_param",
        message: `Step '${nodeId}' (${iface.type}) has no param '${name}'; it will be ignored`,
        node: nodeId,
        param: name,
        line: paramLine(nodeId, name),
        suggestion: close
          ? `Did you mean '${close}'?`
          : `Known params: ${known.join(", ") || "(none)"}`,
      });
      continue;
    }
    const mismatch = typeMismatch(value, spec);
    if (mismatch) {
      errors.push({
        code: "type_mismatch",
        message: `Step '${nodeId}' param '${name}' should be ${spec.type}, got ${mismatch}`,
        node: nodeId,
        param: name,
        line: paramLine(nodeId, name),
        suggestion: spec.enum
          ? `Use one of: ${spec.enum.map((v) => JSON.stringify(v)).join(", ")}`
          : `Give '${name}' a ${spec.type} value`,
      });
    }
  }
}

/** An obvious mismatch of a literal value (templates are checked at run time). */
function typeMismatch(value: unknown, spec: ParamSpec): string | undefined {
  if (typeof value === "string" && value.includes("${")) return undefined;
  if (spec.enum && !spec.enum.some((e) => e === value)) return JSON.stringify(value);
  const actual = jsonType(value);
  return ACCEPTS[spec.type](actual, value) ? undefined : `${actual} ${short(value)}`;
}

/** Which literal values each declared type accepts (by JSON type, and strings that read as it). */
const ACCEPTS: Record<ValueType, (actual: string, value: unknown) => boolean> = {
  any: () => true,
  string: (a) => a !== "object" && a !== "array", // numbers and booleans read fine as text
  number: (a, v) => a === "number" || a === "integer" || (a === "string" && isNumeric(v)),
  integer: (a, v) => a === "integer" || (a === "string" && /^-?\d+$/.test(String(v).trim())),
  boolean: (a, v) => a === "boolean" || (a === "string" && /^(true|false)$/i.test(String(v))),
  object: (a) => a === "object",
  array: (a) => a === "array",
};

const isNumeric = (v: unknown) => typeof v === "string" && v.trim() !== "" && !isNaN(Number(v));
const short = (v: unknown) => {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 40 ? s.slice(0, 37) + "…" : s;
};

export function jsonType(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v;
}

/** Each node's edge targets, in edge order. */
function successors(ir: WorkflowIR): Map<string, string[]> {
  const next = new Map<string, string[]>();
  for (const e of ir.edges) {
    const list = next.get(e.from);
    if (list) list.push(e.to);
    else next.set(e.from, [e.to]);
  }
  return next;
}

/** Node ids in the order they run: from the start node along `default` edges, then the rest. */
export function executionOrder(ir: WorkflowIR): string[] {
  const next = successors(ir);
  const start = ir.start_node ?? ir.nodes[0]?.id;
  const seen = new Set<string>();
  const order: string[] = [];
  // Depth-first with an explicit stack: a 10,000-step chain must not overflow the call stack.
  const visit = (root: string) => {
    if (seen.has(root)) return;
    seen.add(root);
    order.push(root);
    const stack = [{ id: root, i: 0 }];
    while (stack.length > 0) {
      const top = stack[stack.length - 1];
      const targets = next.get(top.id) ?? [];
      if (top.i >= targets.length) {
        stack.pop();
        continue;
      }
      const to = targets[top.i++];
      if (seen.has(to)) continue;
      seen.add(to);
      order.push(to);
      stack.push({ id: to, i: 0 });
    }
  };
  if (start) visit(start);
  for (const n of ir.nodes) visit(n.id);
  return order;
}

function findCycle(ir: WorkflowIR): string[] | undefined {
  const next = successors(ir);
  const state = new Map<string, 1 | 2>();
  for (const n of ir.nodes) {
    if (state.has(n.id)) continue;
    // Iterative for the same reason as executionOrder.
    state.set(n.id, 1);
    const stack = [{ id: n.id, i: 0 }];
    while (stack.length > 0) {
      const top = stack[stack.length - 1];
      const targets = next.get(top.id) ?? [];
      if (top.i >= targets.length) {
        state.set(top.id, 2);
        stack.pop();
        continue;
      }
      const to = targets[top.i++];
      if (state.get(to) === 1) {
        const path = stack.map((f) => f.id);
        return [...path.slice(path.indexOf(to)), to];
      }
      if (!state.has(to)) {
        state.set(to, 1);
        stack.push({ id: to, i: 0 });
      }
    }
  }
  return undefined;
}
