/**
 * Trying one node for real (`pflow registry run`, `registry_run`): it runs as a one-step
 * workflow, so templates, secrets and MCP sessions work as in any run; its full output is
 * cached (secrets masked) under `cache/node-runs/<id>.json`, and `read-fields` reads values back.
 * Each returns a structured result with ONE text formatter, shared by the CLI and the MCP server.
 */
import { join } from "node:path";
import { PflowError, SecurityError } from "../core/errors.ts";
import { writeFileAtomic } from "../core/atomic.ts";
import type { ParsedWorkflow } from "../core/ir.ts";
import type { NodeInterface } from "../core/node_interface.ts";
import { homePaths } from "../core/paths.ts";
import { Redactor } from "../core/redact.ts";
import { loadSettings } from "../core/settings.ts";
import { lookupPath, parseRef, type PathSegment } from "../core/template.ts";
import type { Registry } from "../registry/registry.ts";
import { runWorkflow } from "../runtime/run.ts";
import { loadRegistry, unknownNode } from "./registry.ts";

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
