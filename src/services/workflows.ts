/**
 * The saved-workflow library as a user asks for it: list (keyword search), describe, save,
 * delete, history. Each returns a structured result and has ONE text formatter; the CLI prints
 * the text (or the structure with --json) and the MCP server returns both.
 */
import type { InterfaceLookup } from "../core/node_interface.ts";
import { Registry } from "../registry/registry.ts";
import { describeWorkflow, type WorkflowDescription } from "../library/describe.ts";
import { type RunStatistics, runStatistics } from "../library/metadata.ts";
import { validateName } from "../library/names.ts";
import { resolveWorkflow, type WorkflowSource } from "../library/resolve.ts";
import {
  deleteWorkflow,
  listWorkflows,
  loadWorkflow,
  saveWorkflow,
  workflowExists,
  type WorkflowKind,
} from "../library/store.ts";

// ---------------------------------------------------------------- list

export interface WorkflowListItem {
  name: string;
  description: string;
  execution_count: number;
  last_execution_timestamp?: string;
  last_execution_success?: boolean;
  score?: number;
}

export interface WorkflowListResult {
  kind: WorkflowKind;
  keywords: string[];
  workflows: WorkflowListItem[];
  /** How many exist in all (before the keyword filter). */
  total: number;
}

/** Relevance of one keyword: exact name > name prefix > name contains > description; 0 = no match. */
function keywordScore(kw: string, name: string, description: string): number {
  if (name === kw) return 100;
  if (name.startsWith(kw)) return 80;
  if (name.includes(kw)) return 60;
  if (description.includes(kw)) return 40;
  return 0;
}

export function listWorkflowsService(
  home: string,
  opts: { keywords?: string[]; kind?: WorkflowKind } = {},
): WorkflowListResult {
  const kind = opts.kind ?? "workflow";
  const keywords = (opts.keywords ?? []).flatMap((k) => k.toLowerCase().split(/[\s,]+/))
    .filter(Boolean);
  const all = listWorkflows(home, kind);
  const items: WorkflowListItem[] = [];
  for (const w of all) {
    let score = 0;
    for (const kw of keywords) {
      const s = keywordScore(kw, w.name, w.description.toLowerCase());
      if (s === 0) {
        score = -1;
        break;
      }
      score += s;
    }
    if (score < 0) continue;
    const stats = runStatistics(w.metadata);
    items.push({
      name: w.name,
      description: w.description,
      execution_count: stats.execution_count,
      ...(stats.last_execution_timestamp
        ? { last_execution_timestamp: stats.last_execution_timestamp }
        : {}),
      ...(stats.last_execution_success !== undefined
        ? { last_execution_success: stats.last_execution_success }
        : {}),
      ...(keywords.length ? { score } : {}),
    });
  }
  items.sort((a, b) => (b.score ?? 0) - (a.score ?? 0) || (a.name < b.name ? -1 : 1));
  return { kind, keywords, workflows: items, total: all.length };
}

const truncate = (s: string, n: number) => s.length > n ? s.slice(0, n - 1) + "…" : s;

export function formatWorkflowList(r: WorkflowListResult): string {
  const noun = r.kind === "draft" ? "draft" : "saved workflow";
  if (r.workflows.length === 0) {
    if (r.total === 0) {
      return `No ${noun}s yet.\n  → Save one with 'pflow workflow save FILE --name NAME'`;
    }
    return `No ${noun}s match '${
      r.keywords.join(" ")
    }' (${r.total} in all).\n  → Try fewer keywords, or 'pflow workflow list' for all`;
  }
  const width = Math.min(40, Math.max(...r.workflows.map((w) => w.name.length)));
  const lines = r.workflows.map((w) => {
    const runs = w.execution_count
      ? `  (${w.execution_count} run${w.execution_count === 1 ? "" : "s"}${
        w.last_execution_success === false ? ", last failed" : ""
      })`
      : "";
    return `  ${w.name.padEnd(width)}  ${truncate(w.description || "(no description)", 70)}${runs}`;
  });
  const header = r.keywords.length
    ? `${r.workflows.length} of ${r.total} ${noun}s match '${r.keywords.join(" ")}':`
    : `${r.workflows.length} ${noun}${r.workflows.length === 1 ? "" : "s"}:`;
  return [header, ...lines].join("\n");
}

// ---------------------------------------------------------------- describe

export interface WorkflowDescribeResult extends WorkflowDescription {
  source: WorkflowSource;
  path?: string;
}

export async function describeWorkflowService(
  home: string,
  cwd: string,
  ref: string | Record<string, unknown>,
): Promise<WorkflowDescribeResult> {
  const resolved = await resolveWorkflow(ref, { home, cwd });
  return {
    ...describeWorkflow(resolved.parsed, { name: resolved.name }),
    source: resolved.source,
    ...(resolved.path ? { path: resolved.path } : {}),
  };
}

const show = (v: unknown) => JSON.stringify(v);

export function formatWorkflowDescription(d: WorkflowDescribeResult): string {
  const out: string[] = [];
  out.push(
    `Workflow: ${d.name ?? d.title ?? d.path ?? "(inline)"}${
      d.source === "draft" ? " (draft)" : ""
    }`,
  );
  if (d.title && d.name) out.push(`Title: ${d.title}`);
  if (d.description) out.push(`Description: ${d.description}`);
  out.push("", "Inputs:");
  if (d.inputs.length === 0) out.push("  (none)");
  for (const i of d.inputs) {
    const flags = i.required
      ? "required"
      : `optional${i.default !== undefined ? `, default ${show(i.default)}` : ""}`;
    out.push(`  ${i.name} (${i.type}, ${flags})${i.description ? ` — ${i.description}` : ""}`);
  }
  out.push("", "Outputs:");
  if (d.outputs.length === 0) out.push("  (none)");
  for (const o of d.outputs) {
    out.push(`  ${o.name} ← ${o.source}${o.description ? ` — ${o.description}` : ""}`);
  }
  if (d.undeclared.length) {
    out.push(
      "",
      `Undeclared template variables: ${d.undeclared.map((v) => "${" + v + "}").join(", ")}`,
      "  → Declare them under '## Inputs', or fix the step id they refer to",
    );
  }
  out.push("", `Steps: ${d.nodes.map((n) => `${n.id} (${n.type})`).join(" → ")}`);
  if (d.stats.execution_count > 0) out.push("", formatStats(d.stats));
  if (d.name && d.source === "library") {
    const args = d.inputs.filter((i) => i.required).map((i) => `${i.name}=…`).join(" ");
    out.push("", `Run: pflow run ${d.name}${args ? " " + args : ""}`);
  }
  return out.join("\n");
}

function formatStats(s: RunStatistics): string {
  const lines = [
    `Runs: ${s.execution_count}` +
    (s.average_execution_duration_ms !== undefined
      ? `, average ${s.average_execution_duration_ms} ms`
      : ""),
  ];
  if (s.last_execution_timestamp) {
    lines.push(
      `Last run: ${s.last_execution_timestamp} — ${
        s.last_execution_status ?? (s.last_execution_success ? "success" : "failed")
      }` +
        (s.last_execution_duration_ms !== undefined ? `, ${s.last_execution_duration_ms} ms` : ""),
    );
  }
  if (s.last_execution_params && Object.keys(s.last_execution_params).length) {
    lines.push(`Last params: ${JSON.stringify(s.last_execution_params)}`);
  }
  return lines.join("\n");
}

// ---------------------------------------------------------------- save

export interface WorkflowSaveRequest {
  /** A path, markdown content, an IR object, or a draft name. */
  workflow: string | Record<string, unknown>;
  name: string;
  force?: boolean;
  /** Remove the draft the workflow came from, once the library file is in place. */
  deleteDraft?: boolean;
  lookup?: InterfaceLookup;
}

export interface WorkflowSaveResult {
  name: string;
  path: string;
  replaced: boolean;
  draft_deleted?: string;
}

export async function saveWorkflowService(
  home: string,
  cwd: string,
  req: WorkflowSaveRequest,
): Promise<WorkflowSaveResult> {
  const name = validateName(req.name);
  const resolved = await resolveWorkflow(req.workflow, { home, cwd });
  const lookup = req.lookup ?? (await Registry.load(home)).lookup;
  const existed = req.force ? await workflowExists(home, name) : false;
  const saved = await saveWorkflow(home, name, resolved.parsed, { lookup, force: req.force });
  const result: WorkflowSaveResult = { name, path: saved.path, replaced: existed };
  if (req.deleteDraft && resolved.source === "draft" && resolved.name) {
    await deleteWorkflow(home, resolved.name, "draft");
    result.draft_deleted = resolved.name;
  }
  return result;
}

export function formatWorkflowSave(r: WorkflowSaveResult): string {
  const lines = [`${r.replaced ? "Replaced" : "Saved"} workflow '${r.name}' (${r.path})`];
  if (r.draft_deleted) lines.push(`Removed draft '${r.draft_deleted}'`);
  lines.push(`  → Run it with 'pflow run ${r.name}'`);
  return lines.join("\n");
}

// ---------------------------------------------------------------- delete

export interface WorkflowDeleteResult {
  name: string;
  kind: WorkflowKind;
  path: string;
  deleted: true;
}

export async function deleteWorkflowService(
  home: string,
  name: string,
  opts: { kind?: WorkflowKind } = {},
): Promise<WorkflowDeleteResult> {
  const kind = opts.kind ?? "workflow";
  const r = await deleteWorkflow(home, name, kind);
  return { name: r.name, kind, path: r.path, deleted: true };
}

export function formatWorkflowDelete(r: WorkflowDeleteResult): string {
  return `Deleted ${r.kind} '${r.name}'`;
}

// ---------------------------------------------------------------- history

export interface WorkflowHistoryResult {
  name: string;
  stats: RunStatistics;
}

export async function workflowHistoryService(
  home: string,
  name: string,
): Promise<WorkflowHistoryResult> {
  const stored = await loadWorkflow(home, name);
  return { name, stats: runStatistics(stored.parsed.metadata) };
}

export function formatWorkflowHistory(r: WorkflowHistoryResult): string {
  if (r.stats.execution_count === 0) {
    return `Workflow '${r.name}' has not run yet.\n  → Run it with 'pflow run ${r.name}'`;
  }
  const lines = [`History of '${r.name}':`, formatStats(r.stats)];
  if (r.stats.recent_runs.length) {
    lines.push("Recent runs:");
    for (const run of r.stats.recent_runs) {
      lines.push(`  ${run.timestamp}  ${run.status.padEnd(8)}  ${run.duration_ms} ms`);
    }
  }
  return lines.join("\n");
}
