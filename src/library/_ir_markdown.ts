/**
 * Writes an IR (sent as JSON by an agent, or read from a `.json` file) as `.pflow.md`, so every
 * library file has the same authoring format. Values are written as JSON, which is valid YAML, so
 * the parser reads back exactly what was written.
 */
import { PflowError } from "../core/errors.ts";
import type { WorkflowIR } from "../core/ir.ts";

const item = (key: string, value: unknown) => `- ${key}: ${JSON.stringify(value)}`;
const prose = (text: string | undefined, fallback: string) => (text ?? "").trim() || fallback;

/** True when the edges say nothing beyond "run the nodes in order". */
function isLinear(ir: WorkflowIR): boolean {
  if (ir.edges.length === 0) return true;
  if (ir.edges.length !== ir.nodes.length - 1) return false;
  return ir.edges.every((e, i) =>
    e.from === ir.nodes[i].id && e.to === ir.nodes[i + 1].id &&
    (e.action ?? "default") === "default"
  );
}

/** @throws PflowError `invalid_params` when the IR has branches markdown cannot express. */
export function irToMarkdown(ir: WorkflowIR): string {
  if (!isLinear(ir)) {
    throw new PflowError(
      "invalid_params",
      "This workflow has branching edges, which a .pflow.md file cannot hold",
      { suggestion: "Write the workflow as .pflow.md (steps run in document order) and save that" },
    );
  }
  const out: string[] = [
    `# ${prose(ir.title, "Workflow")}`,
    "",
    prose(ir.description, "A saved workflow."),
    "",
  ];
  const inputs = Object.entries(ir.inputs);
  if (inputs.length) {
    out.push("## Inputs", "");
    for (const [name, spec] of inputs) {
      out.push(`### ${name}`, "", prose(spec.description, `The ${name} input.`), "");
      out.push(item("type", spec.type));
      if (!spec.required) out.push(item("required", false));
      if (spec.default !== undefined) out.push(item("default", spec.default));
      if (spec.stdin) out.push(item("stdin", true));
      out.push("");
    }
  }
  out.push("## Steps", "");
  for (const node of ir.nodes) {
    out.push(`### ${node.id}`, "", prose(node.purpose, `Runs ${node.type}.`), "");
    out.push(item("type", node.type));
    for (const [key, value] of Object.entries(node.params)) out.push(item(key, value));
    if (node.batch) out.push(item("batch", node.batch));
    out.push("");
  }
  const outputs = Object.entries(ir.outputs);
  if (outputs.length) {
    out.push("## Outputs", "");
    for (const [name, spec] of outputs) {
      out.push(`### ${name}`, "", prose(spec.description, `The ${name} output.`), "");
      out.push(item("source", spec.source));
      if (spec.type) out.push(item("type", spec.type));
      out.push("");
    }
  }
  return out.join("\n");
}
