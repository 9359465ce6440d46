/**
 * The node registry as a user asks for it: list (grouped: core, then MCP by server), describe,
 * search, run one node for real, and read fields back from a cached node run. Each returns a
 * structured result with ONE text formatter, shared by the CLI and the MCP server.
 */
import { join } from "node:path";
import { PflowError, SecurityError } from "../core/errors.ts";
import { writeFileAtomic } from "../core/atomic.ts";
import type { ParsedWorkflow } from "../core/ir.ts";
import type { NodeInterface, OutputSpec, ParamSpec } from "../core/node_interface.ts";
import { homePaths } from "../core/paths.ts";
import { Redactor } from "../core/redact.ts";
import { loadSettings } from "../core/settings.ts";
import { closestMatches } from "../core/suggest.ts";
import { lookupPath, parseRef, type PathSegment } from "../core/template.ts";
import { Registry } from "../registry/registry.ts";
import { keywordsOf, searchNodes } from "../registry/search.ts";
import { runWorkflow } from "../runtime/run.ts";

async function loadRegistry(home: string, registry?: Registry): Promise<Registry> {
  return registry ?? await Registry.load(home);
}

function unknownNode(type: string, registry: Registry): PflowError {
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

// ---------------------------------------------------------------- run one node

/** The step id a single-node run uses: template paths print as `${node.…}`. */
export const RUN_NODE_ID = "node";
const EXECUTION_ID = /^[A-Za-z0-9][A-Za-z0-9-]{0,63}$/;

/** @throws SecurityError for an id that could be a path */
export function validateExecutionId(id: string): string {
  if (typeof id !== "string" || !EXECUTION_ID.test(id)) {
    throw new SecurityError(
      `Refused execution id ${
        JSON.stringify(String(id).slice(0, 70))
      }: ids are letters, digits and hyphens`,
      "Use the id printed by 'pflow registry run'",
    );
  }
  return id;
}

function newExecutionId(): string {
  const stamp = new Date().toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  return `${stamp}-${crypto.randomUUID().slice(0, 8)}`;
}

export interface FieldPreview {
  /** `${node.result.items[0].title}` */
  path: string;
  type: string;
  preview: string;
}

export interface NodeRunResult {
  execution_id: string;
  node_type: string;
  success: boolean;
  duration_ms: number;
  fields: FieldPreview[];
  /** Leaves not listed (too many to print). */
  more_fields: number;
  error?: string;
  cache_path: string;
  trace_path?: string;
}

export interface NodeRunCache {
  execution_id: string;
  node_type: string;
  node_id: string;
  created_at: string;
  success: boolean;
  params: Record<string, unknown>;
  outputs: Record<string, unknown>;
  error?: string;
}

/** `key=value` → params, typed by the node's param spec (JSON for non-strings). */
export function nodeParams(
  iface: NodeInterface,
  args: Record<string, string>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, raw] of Object.entries(args)) {
    const spec = iface.params[k];
    if (spec?.type === "string") {
      out[k] = raw;
      continue;
    }
    try {
      out[k] = JSON.parse(raw);
    } catch {
      out[k] = raw;
    }
  }
  return out;
}

const MAX_FIELDS = 40;
const MAX_ARRAY_ITEMS = 3;
const PREVIEW_CHARS = 40;

function jsonTypeOf(v: unknown): string {
  return v === null ? "null" : Array.isArray(v) ? "array" : typeof v;
}

function preview(v: unknown): string {
  const text = JSON.stringify(v) ?? String(v);
  return text.length > PREVIEW_CHARS ? text.slice(0, PREVIEW_CHARS - 1) + "…" : text;
}

function pathText(root: string, path: PathSegment[]): string {
  return root + path.map((p) => typeof p === "number" ? `[${p}]` : `.${p}`).join("");
}

/** A JSON object or array inside a string, which a template path would walk into. */
function parsedJson(v: string): unknown {
  const t = v.trim();
  if (!(t.startsWith("{") || t.startsWith("["))) return undefined;
  try {
    return JSON.parse(t);
  } catch {
    return undefined;
  }
}

/** Every leaf of `outputs` as a template path with a short value (first array items only). */
export function flattenFields(
  outputs: Record<string, unknown>,
  root = RUN_NODE_ID,
): { fields: FieldPreview[]; more: number } {
  const fields: FieldPreview[] = [];
  let more = 0;
  const add = (path: PathSegment[], v: unknown) => {
    if (fields.length < MAX_FIELDS) {
      fields.push({
        path: "${" + pathText(root, path) + "}",
        type: jsonTypeOf(v),
        preview: preview(v),
      });
    } else more++;
  };
  const visit = (v: unknown, path: PathSegment[], depth: number): void => {
    const inner = typeof v === "string" && depth < 8 ? parsedJson(v) : undefined;
    const value = inner ?? v;
    if (Array.isArray(value) && value.length && depth < 8) {
      value.slice(0, MAX_ARRAY_ITEMS).forEach((item, i) => visit(item, [...path, i], depth + 1));
      if (value.length > MAX_ARRAY_ITEMS) more += value.length - MAX_ARRAY_ITEMS;
    } else if (
      value !== null && typeof value === "object" && !Array.isArray(value) &&
      Object.keys(value).length && depth < 8
    ) {
      for (const [k, item] of Object.entries(value)) visit(item, [...path, k], depth + 1);
    } else add(path, v);
  };
  for (const [k, v] of Object.entries(outputs)) visit(v, [k], 0);
  return { fields, more };
}

export function nodeRunCachePath(home: string, id: string): string {
  return join(homePaths(home).nodeRuns, `${validateExecutionId(id)}.json`);
}

/**
 * Runs one node for real, as a one-step workflow (so templates, MCP sessions and secrets behave
 * as in any run), and caches its full output, secrets masked, for read-fields.
 */
export async function runNodeService(
  home: string,
  cwd: string,
  type: string,
  args: Record<string, unknown>,
  opts: {
    signal?: AbortSignal;
    registry?: Registry;
    /** Command-line `key=value` strings: typed by the node's params (JSON for non-strings). */
    fromText?: boolean;
  } = {},
): Promise<NodeRunResult> {
  const registry = await loadRegistry(home, opts.registry);
  const iface = registry.get(type);
  if (!iface) throw unknownNode(type, registry);
  const params = opts.fromText ? nodeParams(iface, args as Record<string, string>) : args;
  const parsed: ParsedWorkflow = {
    ir: {
      ir_version: "0.1.0",
      nodes: [{ id: RUN_NODE_ID, type, params }],
      edges: [],
      inputs: {},
      outputs: {},
    },
    metadata: {},
  };
  const secrets = (await loadSettings(home)).env;
  const redactor = Redactor.fromEnv(secrets);
  const result = await runWorkflow(parsed, {
    home,
    cwd,
    registry,
    secrets,
    signal: opts.signal,
    name: `node-${type}`,
  });
  const outputs = redactor.value(result.checkpoint.node_outputs[RUN_NODE_ID] ?? {});
  const error = result.success
    ? undefined
    : redactor.text(result.errors.map((e) => e.message).join("; ") || "The node failed");
  const id = newExecutionId();
  const cache: NodeRunCache = {
    execution_id: id,
    node_type: iface.type,
    node_id: RUN_NODE_ID,
    created_at: new Date().toISOString(),
    success: result.success,
    params: redactor.value(params),
    outputs,
    ...(error ? { error } : {}),
  };
  const cachePath = nodeRunCachePath(home, id);
  await writeFileAtomic(cachePath, JSON.stringify(cache, null, 1) + "\n");
  const { fields, more } = flattenFields(outputs);
  return {
    execution_id: id,
    node_type: iface.type,
    success: result.success,
    duration_ms: result.duration_ms,
    fields,
    more_fields: more,
    ...(error ? { error } : {}),
    cache_path: cachePath,
    ...(result.trace_path ? { trace_path: result.trace_path } : {}),
  };
}

export function formatNodeRun(r: NodeRunResult): string {
  const out = [
    `${r.success ? "✓" : "✗"} ${r.node_type} ${
      r.success ? "ran" : "failed"
    } in ${r.duration_ms} ms`,
  ];
  if (r.error) out.push(`Error: ${r.error}`);
  if (r.fields.length) {
    out.push("", "Outputs:");
    const width = Math.min(50, Math.max(...r.fields.map((f) => f.path.length)));
    for (const f of r.fields) out.push(`  ${f.path.padEnd(width)}  ${f.preview}`);
    if (r.more_fields) out.push(`  … and ${r.more_fields} more`);
  }
  out.push(
    "",
    `Execution id: ${r.execution_id}`,
    `  → Full values: pflow read-fields ${r.execution_id} ${
      r.fields[0]?.path.slice(2, -1) ?? "node.FIELD"
    }`,
  );
  return out.join("\n");
}

// ---------------------------------------------------------------- read fields

export interface ReadFieldsResult {
  execution_id: string;
  node_type: string;
  fields: { path: string; found: boolean; value?: unknown; error?: string }[];
}

export async function readNodeRun(home: string, id: string): Promise<NodeRunCache> {
  const path = nodeRunCachePath(home, id);
  try {
    return JSON.parse(await Deno.readTextFile(path)) as NodeRunCache;
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) {
      throw new PflowError("not_found", `No cached node run with id '${id}'`, {
        suggestion: "Use the execution id printed by 'pflow registry run'",
        details: { execution_id: id },
      });
    }
    if (err instanceof SyntaxError) {
      throw new PflowError("parse", `The cached node run '${id}' is corrupt`, {
        suggestion: "Run the node again with 'pflow registry run'",
      });
    }
    throw err;
  }
}

export async function readFieldsService(
  home: string,
  id: string,
  paths: string[],
): Promise<ReadFieldsResult> {
  validateExecutionId(id);
  if (paths.length === 0) {
    throw new PflowError("invalid_params", "Name at least one field path", {
      suggestion: `e.g. pflow read-fields ${id} ${RUN_NODE_ID}.stdout`,
    });
  }
  const cache = await readNodeRun(home, id);
  const fields = paths.map((raw) => {
    const inner = raw.startsWith("${") && raw.endsWith("}") ? raw.slice(2, -1) : raw;
    const ref = parseRef(inner);
    if (!ref) {
      return { path: raw, found: false, error: "not a field path (e.g. node.result.items[0])" };
    }
    const walk: PathSegment[] = ref.root === cache.node_id ? ref.path : [ref.root, ...ref.path];
    const hit = lookupPath(cache.outputs, walk);
    if (hit.found) return { path: raw, found: true, value: hit.value };
    return {
      path: raw,
      found: false,
      error: `no field at '${hit.at || raw}'; available: ${
        hit.available.slice(0, 10).join(", ") || "(none)"
      }`,
    };
  });
  return { execution_id: id, node_type: cache.node_type, fields };
}

export function formatReadFields(r: ReadFieldsResult): string {
  return r.fields.map((f) => {
    if (!f.found) return `${f.path}: (not found: ${f.error})`;
    const text = typeof f.value === "string" ? f.value : JSON.stringify(f.value, null, 2);
    return r.fields.length === 1 ? text : `${f.path}:\n${text}`;
  }).join("\n\n");
}
