/**
 * The node registry tools of the standard profile: discover, run one node, describe, search,
 * list. Each calls its service and answers with the structure and the CLI's text for it.
 */
import { z } from "zod";
import { PflowError } from "../core/errors.ts";
import { defineTool, type ToolDef } from "./tool.ts";
import { DiscoverOutput } from "./workflow_tools.ts";
import { homeRelative } from "./workflow_ref.ts";

const Loose = z.looseObject({});

const registryDiscover = defineTool({
  name: "registry_discover",
  description:
    "Find the node types for a task, ranked offline over names, descriptions, params and outputs. Use it to choose the steps of a new workflow.",
  input: z.object({
    task: z.string().min(1).max(2000).describe("What a step should do, in words"),
  }),
  output: DiscoverOutput,
  annotations: { readOnlyHint: true },
  async run({ task }, ctx) {
    const { discoverNodesService, formatDiscover } = await import("../services/discover.ts");
    const r = await discoverNodesService(ctx.home, task);
    return { structured: r, text: formatDiscover(r, "node") };
  },
});

const registryRun = defineTool({
  name: "registry_run",
  description:
    "Run one node for real with the given parameters to see its actual output structure (template paths with previews). The full output is cached: read exact values with read_fields(execution_id, paths).",
  input: z.object({
    node_type: z.string().min(1).max(200),
    parameters: z.record(z.string(), z.unknown()).optional(),
  }),
  output: z.looseObject({
    execution_id: z.string(),
    node_type: z.string(),
    success: z.boolean(),
    duration_ms: z.number(),
    fields: z.array(z.looseObject({ path: z.string(), type: z.string(), preview: z.string() })),
    more_fields: z.number(),
  }),
  async run({ node_type, parameters }, ctx) {
    const { formatNodeRun, runNodeService } = await import("../services/node_runs.ts");
    const r = await runNodeService(ctx.home, ctx.cwd, node_type, parameters ?? {}, {
      signal: ctx.signal,
    });
    const shown = {
      ...r,
      cache_path: homeRelative(ctx.home, r.cache_path)!,
      ...(r.trace_path ? { trace_path: homeRelative(ctx.home, r.trace_path) } : {}),
    };
    if (!r.success) {
      throw new PflowError("execution", formatNodeRun(shown), {
        suggestion: "Fix the parameters (registry_describe lists them) and run it again",
        details: shown,
      });
    }
    return { structured: shown, text: formatNodeRun(shown) };
  },
});

const registryDescribe = defineTool({
  name: "registry_describe",
  description:
    "Full interfaces of node types: every param (type, required, default), every output with its nested structure, and an example step in .pflow.md.",
  input: z.object({ nodes: z.array(z.string().min(1).max(200)).min(1).max(50) }),
  output: z.looseObject({
    nodes: z.array(z.looseObject({ type: z.string(), example: z.string() })),
  }),
  annotations: { readOnlyHint: true },
  async run({ nodes }, ctx) {
    const { describeNodesService, formatNodeDescription } = await import("../services/registry.ts");
    const r = await describeNodesService(ctx.home, nodes);
    return { structured: r, text: formatNodeDescription(r) };
  },
});

const registrySearch = defineTool({
  name: "registry_search",
  description: "Search node types by keywords (every keyword must match), best first.",
  input: z.object({ pattern: z.string().min(1).max(2000) }),
  output: z.looseObject({
    query: z.array(z.string()),
    results: z.array(
      z.looseObject({ type: z.string(), description: z.string(), score: z.number() }),
    ),
  }),
  annotations: { readOnlyHint: true },
  async run({ pattern }, ctx) {
    const { formatNodeSearch, searchNodesService } = await import("../services/registry.ts");
    const r = await searchNodesService(ctx.home, pattern);
    return { structured: r, text: formatNodeSearch(r) };
  },
});

const registryList = defineTool({
  name: "registry_list",
  description:
    "List node types, core first then MCP tools by server; filter keeps those matching every keyword.",
  input: z.object({ filter: z.string().max(2000).optional() }),
  output: z.looseObject({
    keywords: z.array(z.string()),
    groups: z.array(
      z.looseObject({ group: z.string(), category: z.string(), nodes: z.array(Loose) }),
    ),
    total: z.number(),
  }),
  annotations: { readOnlyHint: true },
  async run({ filter }, ctx) {
    const { formatNodeList, listNodesService } = await import("../services/registry.ts");
    const r = await listNodesService(ctx.home, { keywords: filter ? [filter] : [] });
    return { structured: r, text: formatNodeList(r) };
  },
});

export const REGISTRY_TOOLS: ToolDef[] = [
  registryDiscover,
  registryRun,
  registryDescribe,
  registrySearch,
  registryList,
];
