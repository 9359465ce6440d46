/**
 * Where pflow keeps its files: everything under PFLOW_HOME (default `~/.pflow`).
 * Needs --allow-env=PFLOW_HOME,HOME (USERPROFILE on Windows).
 */
import { join } from "node:path";

export function pflowHome(): string {
  const fromEnv = Deno.env.get("PFLOW_HOME");
  if (fromEnv) return fromEnv;
  const home = Deno.env.get("HOME") ?? Deno.env.get("USERPROFILE") ?? ".";
  return join(home, ".pflow");
}

export const homePaths = (home = pflowHome()) => ({
  home,
  workflows: join(home, "workflows"),
  drafts: join(home, "drafts"),
  mcpServers: join(home, "mcp-servers.json"),
  registry: join(home, "registry.json"),
  settings: join(home, "settings.json"),
  debug: join(home, "debug"),
  nodeRuns: join(home, "cache", "node-runs"),
  instructions: join(home, "instructions"),
});
export type HomePaths = ReturnType<typeof homePaths>;
