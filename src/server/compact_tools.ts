/**
 * The compact profile: five tools for agents with a small tool budget — browse components, list
 * and describe the library, execute by name (library first, then drafts), and move a draft into
 * the library.
 */
import { z } from "zod";
import { validateName } from "../library/names.ts";
import { defineTool, type ToolDef } from "./tool.ts";
import { executeForAgent, ListOutput } from "./workflow_tools.ts";
import { homeRelative } from "./workflow_ref.ts";

const Loose = z.looseObject({});

const browseComponents = defineTool({
  name: "browse_components",
  description:
    "Node types (with their inputs and outputs) and saved workflows matching every keyword of query; an empty query lists everything.",
  input: z.object({
    query: z.string().max(2000),
    include_workflows: z.boolean().default(true),
  }),
  output: z.looseObject({
    nodes: z.array(z.looseObject({
      type: z.string(),
      description: z.string(),
      inputs: Loose,
      outputs: Loose,
    })),
    workflows: z.array(z.looseObject({ name: z.string(), description: z.string() })).optional(),
  }),
  annotations: { readOnlyHint: true },
  async run({ query, include_workflows }, ctx) {
    const { browseComponentsService, formatBrowse } = await import("../services/compact.ts");
    const r = await browseComponentsService(ctx.home, query, {
      includeWorkflows: include_workflows,
    });
    return { structured: r, text: formatBrowse(r) };
  },
});

const listLibrary = defineTool({
  name: "list_library",
  description: "All saved workflows, or those matching every keyword of pattern.",
  input: z.object({ pattern: z.string().max(2000).optional() }),
  output: ListOutput,
  annotations: { readOnlyHint: true },
  async run({ pattern }, ctx) {
    const { formatWorkflowList, listWorkflowsService } = await import("../services/workflows.ts");
    const r = listWorkflowsService(ctx.home, { keywords: pattern ? [pattern] : [] });
    return { structured: r, text: formatWorkflowList(r) };
  },
});

const describeWorkflow = defineTool({
  name: "describe_workflow",
  description:
    "A saved workflow's declared inputs and outputs, every template variable it uses, and its run statistics.",
  input: z.object({ name: z.string().max(200) }),
  output: z.looseObject({
    inputs: z.array(Loose),
    outputs: z.array(Loose),
    template_variables: z.array(z.string()),
    stats: Loose,
  }),
  annotations: { readOnlyHint: true },
  async run({ name }, ctx) {
    const { describeForCallerService } = await import("../services/compact.ts");
    const { formatWorkflowDescription } = await import("../services/workflows.ts");
    const r = await describeForCallerService(ctx.home, ctx.cwd, name);
    const shown = { ...r, ...(r.path ? { path: homeRelative(ctx.home, r.path) } : {}) };
    return { structured: shown, text: formatWorkflowDescription(shown) };
  },
});

const execute = defineTool({
  name: "execute",
  description:
    "Run a saved workflow by name (library first, then drafts) with inputs. On failure the error carries the checkpoint.",
  input: z.object({
    name: z.string().max(200),
    inputs: z.record(z.string(), z.unknown()).optional(),
  }),
  output: z.looseObject({
    success: z.boolean(),
    outputs: z.record(z.string(), z.unknown()),
    checkpoint: z.looseObject({ completed_nodes: z.array(z.string()) }),
  }),
  annotations: { destructiveHint: true },
  run({ name, inputs }, ctx) {
    return executeForAgent(ctx, validateName(name), inputs ?? {});
  },
});

const saveToLibrary = defineTool({
  name: "save_to_library",
  description:
    "Move a draft into the library under final_name: the draft must exist, an existing workflow is never overwritten, and the draft is removed once saved.",
  input: z.object({
    draft_name: z.string().max(200),
    final_name: z.string().max(200),
    description: z.string().max(2000),
  }),
  output: z.looseObject({ success: z.boolean(), path: z.string() }),
  async run({ draft_name, final_name, description }, ctx) {
    const { saveDraftToLibraryService } = await import("../services/compact.ts");
    const { formatWorkflowSave } = await import("../services/workflows.ts");
    const r = await saveDraftToLibraryService(ctx.home, draft_name, final_name, description);
    const shown = { ...r, path: homeRelative(ctx.home, r.path)! };
    return { structured: { success: true, ...shown }, text: formatWorkflowSave(shown) };
  },
});

export const COMPACT_TOOLS: ToolDef[] = [
  browseComponents,
  listLibrary,
  describeWorkflow,
  execute,
  saveToLibrary,
];
