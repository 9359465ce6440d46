/**
 * Which server and tool an `mcp-…` node type names when the registry has no entry for it.
 * Server names may contain `-`, so the longest configured server name that matches wins.
 */

export function resolveMcpType(
  type: string,
  serverNames: string[],
): { server: string; tool: string } | undefined {
  if (!type.startsWith("mcp-")) return undefined;
  const rest = type.slice(4);
  let best: string | undefined;
  for (const name of serverNames) {
    if (rest.startsWith(`${name}-`) && rest.length > name.length + 1) {
      if (best === undefined || name.length > best.length) best = name;
    }
  }
  return best === undefined ? undefined : { server: best, tool: rest.slice(best.length + 1) };
}
