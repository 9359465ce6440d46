/**
 * The node registry as a user asks for it: list (grouped: core, then MCP by server), describe
 * and search. Each returns a structured result with ONE text formatter, shared by the CLI and
 * the MCP server. Running one node for real lives in node_runs.ts.
 */
import { PflowError } from "../core/errors.ts";
import type { NodeInterface, OutputSpec, ParamSpec } from "../core/node_interface.ts";
import { closestMatches } from "../core/suggest.ts";
import { Registry } from "../registry/registry.ts";
import { keywordsOf, searchNodes } from "../registry/search.ts";

export async function loadRegistry(home: string, registry?: Registry): Promise<Registry> {
  return registry ?? await Registry.load(home);
}

export function unknownNode(type: string, registry: Registry): PflowError {
  const close = closestMatches(type, registry.types());
  return new PflowError("not_found", `Unknown node type '${type}'`, {
    suggestion: close.length
      ? `Did you mean ${close.map((c) => `'${c}'`).join(", ")}?`
      : "Run 'pflow registry list' to see the node types",
    details: { node_type: type, similar: close },
  });
}

// ---------------------------------------------------------------- list

export interface NodeSummary {
  type: string;
  description: string;
}

export interface NodeGroup {
  /** `core`, or the MCP server's name. */
  group: string;
  category: "core" | "mcp";
  nodes: NodeSummary[];
}

export interface NodeListResult {
  keywords: string[];
  groups: NodeGroup[];
  total: number;
}

export async function listNodesService(
  home: string,
  opts: { keywords?: string[]; registry?: Registry } = {},
): Promise<NodeListResult> {
  const registry = await loadRegistry(home, opts.registry);
  const keywords = keywordsOf(opts.keywords ?? []);
  const all = registry.list();
  const matched = keywords.length ? searchNodes(all, keywords).map((r) => r.node) : all;
  const groups = new Map<string, NodeGroup>();
  const core: NodeGroup = { group: "core", category: "core", nodes: [] };
  for (const node of matched) {
    const summary = { type: node.type, description: node.description };
    if (node.category !== "mcp") {
      core.nodes.push(summary);
      continue;
    }
    const server = node.mcp?.server ?? "mcp";
    if (!groups.has(server)) groups.set(server, { group: server, category: "mcp", nodes: [] });
    groups.get(server)!.nodes.push(summary);
  }
  const mcp = [...groups.values()].sort((a, b) => a.group.localeCompare(b.group));
  const byType = (a: NodeSummary, b: NodeSummary) => a.type.localeCompare(b.type);
  for (const g of [core, ...mcp]) if (!keywords.length) g.nodes.sort(byType);
  return {
    keywords,
    groups: [core, ...mcp].filter((g) => g.nodes.length > 0),
    total: matched.length,
  };
}

const firstSentence = (s: string, n = 80) => {
  const line = s.split(/(?<=\.)\s/)[0] ?? s;
  return line.length > n ? line.slice(0, n - 1) + "…" : line;
};

export function formatNodeList(r: NodeListResult): string {
  if (r.total === 0) {
    return r.keywords.length
      ? `No node types match '${
        r.keywords.join(" ")
      }'.\n  → Try fewer keywords, or 'pflow registry list' for all`
      : "No node types.";
  }
  const out: string[] = [];
  for (const g of r.groups) {
    out.push(g.category === "core" ? "Core nodes:" : `MCP: ${g.group}`);
    const width = Math.min(40, Math.max(...g.nodes.map((n) => n.type.length)));
    for (const n of g.nodes) out.push(`  ${n.type.padEnd(width)}  ${firstSentence(n.description)}`);
    out.push("");
  }
  out.push(
    `${r.total} node type${r.total === 1 ? "" : "s"}. Details: pflow registry describe TYPE`,
  );
  return out.join("\n");
}

// ---------------------------------------------------------------- search

export interface NodeSearchResult {
  query: string[];
  results: (NodeSummary & { score: number; category: "core" | "mcp"; server?: string })[];
}

export async function searchNodesService(
  home: string,
  query: string | string[],
  opts: { limit?: number; registry?: Registry } = {},
): Promise<NodeSearchResult> {
  const registry = await loadRegistry(home, opts.registry);
  const keywords = keywordsOf(query);
  if (keywords.length === 0) {
    throw new PflowError("invalid_params", "Search needs at least one keyword", {
      suggestion: "e.g. pflow registry search github issue",
    });
  }
  const results = searchNodes(registry.list(), keywords, { limit: opts.limit }).map((r) => ({
    type: r.node.type,
    description: r.node.description,
    score: r.score,
    category: r.node.category,
    ...(r.node.mcp ? { server: r.node.mcp.server } : {}),
  }));
  return { query: keywords, results };
}

export function formatNodeSearch(r: NodeSearchResult): string {
  if (r.results.length === 0) {
    return `No node types match '${
      r.query.join(" ")
    }'.\n  → Try fewer or other keywords, or 'pflow registry list'`;
  }
  const width = Math.min(40, Math.max(...r.results.map((n) => n.type.length)));
  return [
    `${r.results.length} match${r.results.length === 1 ? "" : "es"} for '${r.query.join(" ")}':`,
    ...r.results.map((n) =>
      `  ${n.type.padEnd(width)}  ${String(n.score).padStart(3)}  ${firstSentence(n.description)}`
    ),
  ].join("\n");
}

// ---------------------------------------------------------------- describe

export interface NodeDescription extends NodeInterface {
  /** A step using this node, in `.pflow.md`. */
  example: string;
}

export interface NodeDescribeResult {
  nodes: NodeDescription[];
}

function placeholder(spec: ParamSpec): string {
  if (spec.default !== undefined) return JSON.stringify(spec.default);
  if (spec.enum?.length) return JSON.stringify(spec.enum[0]);
  switch (spec.type) {
    case "number":
    case "integer":
      return "1";
    case "boolean":
      return "true";
    case "object":
      return "{}";
    case "array":
      return "[]";
    default:
      return "${input}";
  }
}

/** A step using `iface` in `.pflow.md`: its required params (or the first one). */
export function exampleStep(iface: NodeInterface): string {
  const params = Object.entries(iface.params);
  const shown = params.filter(([, p]) => p.required);
  if (shown.length === 0 && params.length) shown.push(params[0]);
  const id = iface.type.replace(/^mcp-/, "").replace(/[^a-zA-Z0-9_-]/g, "-").slice(0, 30) || "step";
  return [
    `### ${/^[a-zA-Z]/.test(id) ? id : `step-${id}`}`,
    "",
    "What this step does, in one sentence.",
    "",
    `- type: ${iface.type}`,
    ...shown.map(([k, p]) => `- ${k}: ${placeholder(p)}`),
  ].join("\n");
}

export async function describeNodesService(
  home: string,
  types: string[],
  opts: { registry?: Registry } = {},
): Promise<NodeDescribeResult> {
  if (types.length === 0) {
    throw new PflowError("invalid_params", "Name at least one node type to describe", {
      suggestion: "e.g. pflow registry describe shell",
    });
  }
  const registry = await loadRegistry(home, opts.registry);
  return {
    nodes: types.map((t) => {
      const iface = registry.get(t);
      if (!iface) throw unknownNode(t, registry);
      return { ...iface, example: exampleStep(iface) };
    }),
  };
}

function outputLines(name: string, spec: OutputSpec, depth: number, out: string[]): void {
  if (depth > 6) return;
  const type = spec.type === "array" && spec.items ? `array of ${spec.items.type}` : spec.type;
  out.push(
    `${"  ".repeat(depth + 1)}${name} (${type})${spec.description ? ` — ${spec.description}` : ""}`,
  );
  const structure = spec.structure ?? spec.items?.structure;
  for (const [k, v] of Object.entries(structure ?? {})) outputLines(k, v, depth + 1, out);
}

export function formatNodeDescription(r: NodeDescribeResult): string {
  return r.nodes.map((n) => {
    const out = [
      `${n.type}${n.mcp ? ` (MCP ${n.mcp.server}: ${n.mcp.tool})` : ""}`,
      "",
      n.description,
      "",
      "Params:",
    ];
    const params = Object.entries(n.params);
    if (!params.length) out.push("  (none)");
    for (const [k, p] of params) {
      const flags = [p.type, p.required ? "required" : "optional"];
      if (p.default !== undefined) flags.push(`default ${JSON.stringify(p.default)}`);
      if (p.enum?.length) flags.push(`one of ${p.enum.map((e) => JSON.stringify(e)).join(", ")}`);
      out.push(`  ${k} (${flags.join(", ")})${p.description ? ` — ${p.description}` : ""}`);
    }
    out.push("", "Outputs:");
    const outputs = Object.entries(n.outputs);
    if (!outputs.length) {
      out.push(n.openOutputs ? "  (not declared: any path is allowed)" : "  (none)");
    }
    for (const [k, o] of outputs) outputLines(k, o, 0, out);
    out.push("", `Actions: ${n.actions.join(", ")}`, "", "Example step:", "", n.example);
    return out.join("\n");
  }).join("\n\n---\n\n");
}
