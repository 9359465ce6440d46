/**
 * Offline discovery for agents (`workflow_discover`, `registry_discover`): ranks saved workflows
 * or node types against a task described in words, with no LLM and no key. Each candidate gets a
 * confidence in [0, 1] — the weighted share of the task's keywords it covers (name counts most,
 * then description, then inputs/outputs/params) — a one-line reason, and `strong` when it covers
 * the task well enough that the agent should use it instead of building something new.
 */
import type { NodeInterface } from "../core/node_interface.ts";
import { listWorkflows, loadWorkflow, type WorkflowSummary } from "../library/store.ts";
import { Registry } from "../registry/registry.ts";

export interface DiscoverCandidate {
  name: string;
  description: string;
  /** Input, output and param names. */
  fields: string[];
}

export interface DiscoverMatch {
  name: string;
  description: string;
  confidence: number;
  reason: string;
  strong: boolean;
}

export interface DiscoverResult {
  query: string;
  keywords: string[];
  matches: DiscoverMatch[];
}

/** At or above this confidence a match is `strong` (use it, do not rebuild). */
export const STRONG_CONFIDENCE = 0.75;
const WEIGHT = { name: 1, description: 0.7, field: 0.5 } as const;

const STOPWORDS = new Set(
  ("a an the and or of to in on for from with by into at as is are be it this that these those " +
    "i me my we our you your some any all each every then than so do does please want need " +
    "using use via can could would should will get make")
    .split(" "),
);

/** Lowercase words of a task, without stop words, crude-stemmed (`files` → `file`). */
export function taskKeywords(text: string): string[] {
  const words = text.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w && !STOPWORDS.has(w));
  return [...new Set(words.map(stem))];
}

function stem(w: string): string {
  if (w.length > 5 && w.endsWith("ing")) return w.slice(0, -3);
  if (w.length > 4 && w.endsWith("ies")) return w.slice(0, -3) + "y";
  if (w.length > 4 && w.endsWith("es") && /(ch|sh|x|ss)es$/.test(w)) return w.slice(0, -2);
  if (w.length > 3 && w.endsWith("s") && !w.endsWith("ss")) return w.slice(0, -1);
  if (w.length > 4 && w.endsWith("ed")) return w.slice(0, -2);
  return w;
}

/** The stemmed word set of a field, for whole-word matching. */
const wordsOf = (s: string) => new Set(taskKeywords(s));

/** Ranks candidates against `query`; only candidates matching at least one keyword, best first. */
export function rankCandidates(
  query: string,
  candidates: readonly DiscoverCandidate[],
  opts: { limit?: number } = {},
): DiscoverResult {
  const keywords = taskKeywords(query);
  const matches: DiscoverMatch[] = [];
  if (keywords.length === 0) return { query, keywords, matches };
  for (const c of candidates) {
    const name = wordsOf(c.name);
    const description = wordsOf(c.description);
    const fields = wordsOf(c.fields.join(" "));
    const where: Record<"name" | "description" | "field", string[]> = {
      name: [],
      description: [],
      field: [],
    };
    let total = 0;
    for (const kw of keywords) {
      if (name.has(kw)) (total += WEIGHT.name, where.name.push(kw));
      else if (description.has(kw)) (total += WEIGHT.description, where.description.push(kw));
      else if (fields.has(kw)) (total += WEIGHT.field, where.field.push(kw));
    }
    if (total === 0) continue;
    let confidence = total / keywords.length;
    // Every keyword found somewhere: a full cover is worth more than its weights alone say.
    const covered = where.name.length + where.description.length + where.field.length;
    if (covered === keywords.length) confidence = Math.min(1, confidence + 0.15);
    confidence = Math.round(confidence * 100) / 100;
    const parts = [
      where.name.length && `${list(where.name)} in the name`,
      where.description.length && `${list(where.description)} in the description`,
      where.field.length && `${list(where.field)} in inputs/outputs`,
    ].filter(Boolean);
    const missing = keywords.filter((k) =>
      !where.name.includes(k) && !where.description.includes(k) && !where.field.includes(k)
    );
    const reason = `Matches ${parts.join("; ")}` +
      (missing.length ? `; not ${list(missing)}` : "");
    matches.push({
      name: c.name,
      description: c.description,
      confidence,
      reason,
      strong: confidence >= STRONG_CONFIDENCE,
    });
  }
  matches.sort((a, b) => b.confidence - a.confidence || (a.name < b.name ? -1 : 1));
  return { query, keywords, matches: opts.limit ? matches.slice(0, opts.limit) : matches };
}

const list = (ws: string[]) => ws.map((w) => `'${w}'`).join(", ");

/**
 * Input and output names of each listed workflow, parsed once per version of its file: a
 * summary object is replaced whenever its file changes (see listWorkflows), so it keys the memo.
 */
const fieldsMemo = new WeakMap<WorkflowSummary, string[]>();

async function fieldsOf(home: string, summary: WorkflowSummary): Promise<string[]> {
  let fields = fieldsMemo.get(summary);
  if (!fields) {
    try {
      const { parsed } = await loadWorkflow(home, summary.name);
      fields = [...Object.keys(parsed.ir.inputs), ...Object.keys(parsed.ir.outputs)];
    } catch {
      fields = []; // an unreadable workflow still ranks by name and description
    }
    fieldsMemo.set(summary, fields);
  }
  return fields;
}

/** Saved workflows ranked against a task, by name, description, inputs and outputs. */
export async function discoverWorkflowsService(
  home: string,
  query: string,
  opts: { limit?: number } = {},
): Promise<DiscoverResult> {
  const summaries = listWorkflows(home);
  const candidates = await Promise.all(summaries.map(async (s): Promise<DiscoverCandidate> => ({
    name: s.name,
    description: s.description,
    fields: await fieldsOf(home, s),
  })));
  return rankCandidates(query, candidates, { limit: opts.limit ?? 10 });
}

/** The candidate form of a node type: its type, description, params and outputs. */
export function nodeCandidate(node: NodeInterface): DiscoverCandidate {
  return {
    name: node.type,
    description: node.description,
    fields: [...Object.keys(node.params), ...Object.keys(node.outputs)],
  };
}

/** Node types ranked against a task. */
export async function discoverNodesService(
  home: string,
  task: string,
  opts: { limit?: number } = {},
): Promise<DiscoverResult> {
  const registry = await Registry.load(home);
  return rankCandidates(task, registry.list().map(nodeCandidate), { limit: opts.limit ?? 10 });
}

/** The one text form of a discovery answer. */
export function formatDiscover(r: DiscoverResult, noun: "workflow" | "node"): string {
  if (r.matches.length === 0) {
    return noun === "workflow"
      ? `No saved workflow matches '${r.query}'.\n  → Build one: read pflow://instructions, then validate and run it`
      : `No node matches '${r.query}'.\n  → Try other words, or list all with registry_list`;
  }
  const lines = [
    `${r.matches.length} ${noun}${r.matches.length === 1 ? "" : "s"} for '${r.query}':`,
  ];
  for (const m of r.matches) {
    lines.push(
      `  ${m.strong ? "★" : " "} ${m.name} (${m.confidence.toFixed(2)}) — ${
        m.description || "(no description)"
      }`,
      `      ${m.reason}`,
    );
  }
  if (r.matches[0].strong) {
    lines.push(
      noun === "workflow"
        ? `  → '${r.matches[0].name}' is a strong match: run it instead of building a new one`
        : `  → '${r.matches[0].name}' is a strong match: describe it with registry_describe`,
    );
  }
  return lines.join("\n");
}
