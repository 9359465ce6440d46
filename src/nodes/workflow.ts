/**
 * `workflow`: runs another workflow (a library name, a path, or inline IR) as one step, with
 * param and output mappings. Depth limit and cycle detection live in the runtime's runner.
 */
import type { WorkflowIR } from "../core/ir.ts";
import { toPflowError } from "../core/errors.ts";
import { fail, type NodeImpl, ok } from "./types.ts";

export const workflowNode: NodeImpl = {
  interface: {
    type: "workflow",
    description:
      "Runs another workflow (library name, file path, or inline IR) as one step and returns its outputs.",
    params: {
      workflow: {
        type: "any",
        description: "The workflow: a saved name, a path to .pflow.md/.json, or an IR object",
        required: true,
        raw: true,
      },
      param_mapping: {
        type: "object",
        description: "Inputs for the child workflow: {child_input: value or ${template}}",
        default: {},
      },
      output_mapping: {
        type: "object",
        description: "Which child outputs to expose: {my_key: child_output}; all when omitted",
      },
    },
    outputs: {
      outputs: { type: "object", description: "The child workflow's outputs" },
    },
    actions: ["default", "error"],
    category: "core",
    openOutputs: true,
  },
  async run(params, ctx) {
    const ref = params.workflow as string | WorkflowIR;
    if (typeof ref !== "string" && (typeof ref !== "object" || ref === null)) {
      return fail("Param 'workflow' must be a workflow name, a path, or an IR object");
    }
    const mapping = (params.param_mapping ?? {}) as Record<string, unknown>;
    try {
      const r = await ctx.runWorkflow(ref, mapping, ctx);
      if (!r.success) return fail(`Sub-workflow failed: ${r.error ?? "unknown error"}`);
      const outMap = params.output_mapping as Record<string, string> | undefined;
      const exposed = outMap
        ? Object.fromEntries(Object.entries(outMap).map(([k, child]) => [k, r.outputs[child]]))
        : r.outputs;
      return ok({ ...exposed, outputs: r.outputs });
    } catch (err) {
      return fail(toPflowError(err).message);
    }
  },
};
