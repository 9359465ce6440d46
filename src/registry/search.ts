/**
 * Offline node search: every keyword must match; each keyword scores by where it matched —
 * exact name > name prefix > name contains > description > param/output names — the scores add
 * up, and ties go by name. Plain string tests over lowercased fields: well under a millisecond
 * per hundred nodes.
 */
import type { NodeInterface } from "../core/node_interface.ts";

export const SCORE = {
  exact: 100,
  prefix: 80,
  contains: 60,
  description: 40,
  field: 20,
} as const;

export interface SearchResult {
  node: NodeInterface;
  score: number;
}

/** Splits a query into lowercase keywords (spaces or commas between them). */
export function keywordsOf(query: string | string[]): string[] {
  const parts = Array.isArray(query) ? query : [query];
  return parts.flatMap((p) => p.toLowerCase().split(/[\s,]+/)).filter(Boolean);
}

/** How well one keyword matches one node; 0 when it does not. */
function keywordScore(
  kw: string,
  name: string,
  altName: string,
  description: string,
  fields: string,
): number {
  if (name === kw || altName === kw) return SCORE.exact;
  if (name.startsWith(kw) || altName.startsWith(kw)) return SCORE.prefix;
  if (name.includes(kw) || altName.includes(kw)) return SCORE.contains;
  if (description.includes(kw)) return SCORE.description;
  if (fields.includes(kw)) return SCORE.field;
  return 0;
}

/**
 * The nodes matching every keyword, best first (ties by name). No keywords: every node, by name,
 * score 0.
 */
export function searchNodes(
  nodes: readonly NodeInterface[],
  query: string | string[],
  opts: { limit?: number } = {},
): SearchResult[] {
  const kws = keywordsOf(query);
  const results: SearchResult[] = [];
  for (const node of nodes) {
    if (kws.length === 0) {
      results.push({ node, score: 0 });
      continue;
    }
    const name = node.type.toLowerCase();
    const altName = node.mcp ? node.mcp.tool.toLowerCase() : name;
    const description = node.description.toLowerCase();
    // "\n" between names, so a keyword never matches across two of them.
    const fields = [...Object.keys(node.params), ...Object.keys(node.outputs)].join("\n")
      .toLowerCase();
    let total = 0;
    for (const kw of kws) {
      const s = keywordScore(kw, name, altName, description, fields);
      if (s === 0) {
        total = 0;
        break;
      }
      total += s;
    }
    if (total > 0) results.push({ node, score: total });
  }
  results.sort((a, b) =>
    b.score - a.score || (a.node.type < b.node.type ? -1 : a.node.type > b.node.type ? 1 : 0)
  );
  return opts.limit === undefined ? results : results.slice(0, opts.limit);
}
