/** "Did you mean": the closest candidates to a misspelt name, by edit distance. */

export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  const prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0];
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j];
      prev[j] = Math.min(prev[j] + 1, prev[j - 1] + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return prev[b.length];
}

/** Up to `limit` candidates close to `name` (substring matches first), best first. */
export function closestMatches(name: string, candidates: Iterable<string>, limit = 3): string[] {
  const lower = name.toLowerCase();
  const scored: [string, number][] = [];
  for (const c of candidates) {
    const cl = c.toLowerCase();
    const d = editDistance(lower, cl);
    const contains = cl.includes(lower) || lower.includes(cl);
    if (d <= Math.max(2, Math.floor(Math.max(lower.length, cl.length) / 3)) || contains) {
      scored.push([c, contains ? d - 100 : d]);
    }
  }
  return scored.sort((x, y) => x[1] - y[1] || x[0].localeCompare(y[0])).slice(0, limit).map((
    [c],
  ) => c);
}

/** `Did you mean 'x'?` or undefined. */
export function didYouMean(name: string, candidates: Iterable<string>): string | undefined {
  const [best] = closestMatches(name, candidates, 1);
  return best === undefined ? undefined : `Did you mean '${best}'?`;
}
