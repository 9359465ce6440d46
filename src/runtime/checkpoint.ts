/**
 * Checkpoints: which nodes completed, a hash of each one's type and resolved params, their
 * outputs, and the node that failed. A re-run with the checkpoint skips completed nodes whose
 * hash is unchanged and re-runs the rest.
 */

export interface Checkpoint {
  completed_nodes: string[];
  node_hashes: Record<string, string>;
  node_outputs: Record<string, Record<string, unknown>>;
  node_actions: Record<string, string>;
  failed_node?: string;
}

export const emptyCheckpoint = (): Checkpoint => ({
  completed_nodes: [],
  node_hashes: {},
  node_outputs: {},
  node_actions: {},
});

/** JSON with sorted keys: the same value always hashes the same. */
export function stableJson(value: unknown): string {
  return JSON.stringify(
    value,
    (_k, v) =>
      v !== null && typeof v === "object" && !Array.isArray(v)
        ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, v[k]]))
        : v,
  ) ?? "null";
}

/** cyrb53 over the stable JSON: a 53-bit hash, cheap enough for every node of a large run. */
export function nodeHash(type: string, params: Record<string, unknown>): string {
  const text = stableJson([type, params]);
  let h1 = 0xdeadbeef, h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16).padStart(14, "0");
}

export function isCheckpoint(v: unknown): v is Checkpoint {
  const c = v as Checkpoint;
  return typeof c === "object" && c !== null && Array.isArray(c.completed_nodes) &&
    typeof c.node_hashes === "object" && typeof c.node_outputs === "object";
}
