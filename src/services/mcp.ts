/**
 * What a user can ask of the MCP client: add, list, remove and sync servers, list their tools,
 * describe one MCP node. Each returns a structured result and has the one text formatter for
 * it, so `pflow mcp …` and the MCP server's tools give the same answer.
 */
import { PflowError } from "../core/errors.ts";
import type { NodeInterface, ParamSpec } from "../core/node_interface.ts";
import { loadSettings } from "../core/settings.ts";
import { closestMatches } from "../core/suggest.ts";
import {
  discoveryTimeoutMs,
  loadServersConfig,
  MAX_DISCOVERY_TIMEOUT_S,
  type McpServersConfig,
  saveServersConfig,
} from "../mcp/config.ts";
import { discoverTools } from "../mcp/discovery.ts";
import { toolEntries } from "../mcp/entries.ts";
import { loadRegistryFile, saveRegistryFile, type ServerSyncInfo } from "../registry/store.ts";

// ---------- add ----------

export interface AddServersResult {
  added: string[];
  /** Names that existed and were replaced. */
  replaced: string[];
}

/** Adds (or replaces) servers in mcp-servers.json; their tools appear after a sync. */
export async function addServers(
  home: string,
  servers: McpServersConfig,
): Promise<AddServersResult> {
  const names = Object.keys(servers);
  if (names.length === 0) {
    throw new PflowError("invalid_params", "No servers to add", {
      suggestion: 'Pass NAME -- COMMAND [ARGS…], or a file / JSON with {"mcpServers": {…}}',
    });
  }
  const current = await loadServersConfig(home);
  const replaced = names.filter((n) => n in current);
  await saveServersConfig(home, { ...current, ...servers });
  return { added: names, replaced };
}

export function formatAddServers(r: AddServersResult): string {
  const lines = r.replaced.map((n) => `Warning: server '${n}' already existed and was replaced`);
  for (const n of r.added) lines.push(`Added MCP server '${n}'`);
  lines.push(
    `Next: pflow mcp sync ${
      r.added.length === 1 ? r.added[0] : "--all"
    } (turns its tools into nodes)`,
  );
  return lines.join("\n");
}

// ---------- list ----------

export interface ServerListEntry {
  name: string;
  command: string;
  args: string[];
  /** Only the keys: values may be secrets. */
  env_keys: string[];
  timeout?: number;
  sync?: ServerSyncInfo;
}

export interface ServerListResult {
  servers: ServerListEntry[];
}

export async function listServers(home: string): Promise<ServerListResult> {
  const [config, registry] = await Promise.all([loadServersConfig(home), loadRegistryFile(home)]);
  return {
    servers: Object.keys(config).sort().map((name) => {
      const c = config[name];
      const entry: ServerListEntry = {
        name,
        command: c.command,
        args: c.args,
        env_keys: Object.keys(c.env),
      };
      if (c.timeout !== undefined) entry.timeout = c.timeout;
      if (registry.servers[name]) entry.sync = registry.servers[name];
      return entry;
    }),
  };
}

export function formatServerList(r: ServerListResult): string {
  if (r.servers.length === 0) {
    return "No MCP servers configured.\nAdd one: pflow mcp add NAME -- COMMAND [ARGS…]";
  }
  const lines = [`MCP servers (${r.servers.length}):`];
  for (const s of r.servers) {
    const status = !s.sync
      ? "not synced"
      : s.sync.error
      ? `last sync failed (${firstLine(s.sync.error)}); ${s.sync.tools} tools kept`
      : `${s.sync.tools} tools, synced ${s.sync.synced_at}`;
    lines.push(`  ${s.name}: ${[s.command, ...s.args].join(" ")}  [${status}]`);
    if (s.env_keys.length) lines.push(`    env: ${s.env_keys.join(", ")}`);
  }
  return lines.join("\n");
}

// ---------- remove ----------

export interface RemoveServerResult {
  name: string;
  nodes_removed: number;
}

/** Removes a server and its nodes. */
export async function removeServer(home: string, name: string): Promise<RemoveServerResult> {
  const config = await loadServersConfig(home);
  const registry = await loadRegistryFile(home);
  if (!(name in config) && !(name in registry.servers)) {
    throw notConfigured(name, Object.keys(config));
  }
  delete config[name];
  await saveServersConfig(home, config);
  let removed = 0;
  for (const [type, entry] of Object.entries(registry.nodes)) {
    if (entry.mcp?.server === name) {
      delete registry.nodes[type];
      removed++;
    }
  }
  delete registry.servers[name];
  await saveRegistryFile(home, registry);
  return { name, nodes_removed: removed };
}

export function formatRemoveServer(r: RemoveServerResult): string {
  return `Removed MCP server '${r.name}' and its ${r.nodes_removed} node${
    r.nodes_removed === 1 ? "" : "s"
  }`;
}

// ---------- sync ----------

export interface ServerSyncResult {
  server: string;
  ok: boolean;
  tools_discovered: number;
  tools_registered: number;
  added: string[];
  removed: string[];
  warnings: string[];
  /** On failure: why; the last good set was kept. */
  error?: string;
  kept?: number;
}

export interface SyncResult {
  tools_discovered: number;
  tools_registered: number;
  servers: ServerSyncResult[];
}

export interface SyncOptions {
  /** Discovery timeout in seconds (default: the server's, else 5; at most 30). */
  timeoutS?: number;
  /** Called before and after each server: for the CLI's progress lines. */
  onProgress?: (line: string) => void;
  killGraceMs?: number;
}

/**
 * Discovers each server's tools and replaces its registry entries as a set. A server that fails
 * keeps its last good set, and its `error` is recorded. Servers are synced one at a time, so
 * only one is starting at once.
 */
export async function syncServers(
  home: string,
  which: string[] | "all",
  opts: SyncOptions = {},
): Promise<SyncResult> {
  if (opts.timeoutS !== undefined && !(opts.timeoutS > 0)) {
    throw new PflowError("invalid_params", "--timeout must be a positive number of seconds");
  }
  const config = await loadServersConfig(home);
  const names = which === "all" ? Object.keys(config).sort() : which;
  for (const n of names) if (!(n in config)) throw notConfigured(n, Object.keys(config));
  const secrets = (await loadSettings(home)).env;
  const result: SyncResult = { tools_discovered: 0, tools_registered: 0, servers: [] };
  for (const server of names) {
    opts.onProgress?.(`Syncing ${server}…`);
    const r = await syncOne(home, server, config, secrets, opts);
    opts.onProgress?.(
      r.ok
        ? `  ${server}: ${r.tools_registered} tools registered`
        : `  ${server}: failed, kept ${r.kept} tools from the last good sync`,
    );
    result.servers.push(r);
    result.tools_discovered += r.tools_discovered;
    result.tools_registered += r.tools_registered;
  }
  return result;
}

async function syncOne(
  home: string,
  server: string,
  config: McpServersConfig,
  secrets: Record<string, string>,
  opts: SyncOptions,
): Promise<ServerSyncResult> {
  const cfg = config[server];
  let discovered;
  let entries: Record<string, NodeInterface>;
  try {
    discovered = await discoverTools(server, cfg, {
      secrets,
      timeoutMs: discoveryTimeoutMs(cfg, opts.timeoutS),
      killGraceMs: opts.killGraceMs,
    });
    entries = toolEntries(server, discovered.tools);
  } catch (err) {
    return await recordFailure(home, server, err);
  }
  // The registry is read after discovery so a concurrent sync of another server is not lost.
  const registry = await loadRegistryFile(home);
  for (const type of Object.keys(entries)) {
    const owner = registry.nodes[type]?.mcp?.server;
    if (owner && owner !== server) {
      return await recordFailure(
        home,
        server,
        new PflowError(
          "validation",
          `Node '${type}' of server '${server}' would replace the node of the same name from server '${owner}'`,
          {
            suggestion:
              `Rename one of the servers (pflow mcp remove ${server}; pflow mcp add <other-name> …)`,
          },
        ),
      );
    }
  }
  const before = Object.keys(registry.nodes).filter((t) =>
    registry.nodes[t].mcp?.server === server
  );
  for (const t of before) delete registry.nodes[t];
  Object.assign(registry.nodes, entries);
  const count = Object.keys(entries).length;
  registry.servers[server] = { synced_at: new Date().toISOString(), tools: count };
  await saveRegistryFile(home, registry);
  const after = Object.keys(entries);
  return {
    server,
    ok: true,
    tools_discovered: discovered.tools.length,
    tools_registered: count,
    added: after.filter((t) => !before.includes(t)).sort(),
    removed: before.filter((t) => !after.includes(t)).sort(),
    warnings: discovered.warnings,
  };
}

async function recordFailure(
  home: string,
  server: string,
  err: unknown,
): Promise<ServerSyncResult> {
  const message = err instanceof Error ? err.message : String(err);
  const registry = await loadRegistryFile(home);
  const kept = Object.values(registry.nodes).filter((e) => e.mcp?.server === server).length;
  const previous = registry.servers[server];
  registry.servers[server] = { synced_at: previous?.synced_at ?? "", tools: kept, error: message };
  await saveRegistryFile(home, registry);
  return {
    server,
    ok: false,
    tools_discovered: 0,
    tools_registered: 0,
    added: [],
    removed: [],
    warnings: [],
    error: message,
    kept,
  };
}

export function formatSyncResult(r: SyncResult): string {
  if (r.servers.length === 0) {
    return "No MCP servers configured.\nAdd one: pflow mcp add NAME -- COMMAND [ARGS…]";
  }
  const lines: string[] = [];
  for (const s of r.servers) {
    for (const w of s.warnings) lines.push(`Warning: ${w}`);
    if (s.ok) {
      const changes = [
        s.added.length ? `+${s.added.length} new` : "",
        s.removed.length ? `-${s.removed.length} removed` : "",
      ].filter(Boolean).join(", ");
      lines.push(`${s.server}: ${s.tools_registered} tools${changes ? ` (${changes})` : ""}`);
    } else {
      lines.push(`${s.server}: sync failed; kept the last good set (${s.kept} tools)`);
      lines.push(indent(s.error ?? ""));
    }
  }
  const failed = r.servers.filter((s) => !s.ok).length;
  lines.push(
    `Synced ${
      r.servers.length - failed
    }/${r.servers.length} servers: ${r.tools_registered} tools registered` +
      (failed ? ` (${failed} failed)` : ""),
  );
  return lines.join("\n");
}

// ---------- tools / info ----------

export interface McpToolListResult {
  tools: { type: string; server: string; tool: string; description: string }[];
}

export async function listMcpTools(home: string, server?: string): Promise<McpToolListResult> {
  const registry = await loadRegistryFile(home);
  if (server !== undefined && !(server in registry.servers)) {
    const config = await loadServersConfig(home);
    if (!(server in config)) throw notConfigured(server, Object.keys(config));
  }
  const tools = Object.values(registry.nodes)
    .filter((e) => e.mcp && (server === undefined || e.mcp.server === server))
    .sort((a, b) => a.type.localeCompare(b.type))
    .map((e) => ({
      type: e.type,
      server: e.mcp!.server,
      tool: e.mcp!.tool,
      description: e.description,
    }));
  return { tools };
}

export function formatToolList(r: McpToolListResult, server?: string): string {
  if (r.tools.length === 0) {
    return server
      ? `Server '${server}' has no synced tools. Run: pflow mcp sync ${server}`
      : "No MCP tools synced. Add a server (pflow mcp add) and run: pflow mcp sync --all";
  }
  const lines = [`MCP tools (${r.tools.length}):`];
  for (const t of r.tools) lines.push(`  ${t.type}  ${firstLine(t.description)}`);
  return lines.join("\n");
}

export interface McpNodeInfoResult {
  node: NodeInterface;
}

export async function mcpNodeInfo(home: string, node: string): Promise<McpNodeInfoResult> {
  const registry = await loadRegistryFile(home);
  let entry = registry.nodes[node];
  if (!entry) {
    // The verbatim spelling (mcp-github-create_issue) names the same node.
    entry = Object.values(registry.nodes).find((e) =>
      e.mcp && `mcp-${e.mcp.server}-${e.mcp.tool}` === node
    ) as NodeInterface;
  }
  if (!entry) {
    const near = closestMatches(node, Object.keys(registry.nodes));
    throw new PflowError("not_found", `MCP node '${node}' not found`, {
      suggestion: near.length
        ? `Did you mean ${near.join(", ")}?`
        : "List them with 'pflow mcp tools', or sync with 'pflow mcp sync --all'",
    });
  }
  return { node: entry };
}

export function formatNodeInfo(r: McpNodeInfoResult): string {
  const n = r.node;
  const lines = [n.type, `  ${n.description.split("\n").join("\n  ")}`];
  if (n.mcp) {
    lines.push(`  server: ${n.mcp.server}   tool: ${n.mcp.tool}`);
    const hints = Object.entries(n.mcp.annotations ?? {})
      .filter(([k]) => k.endsWith("Hint")).map(([k, v]) => `${k}=${v}`);
    if (hints.length) lines.push(`  annotations: ${hints.join(", ")}`);
  }
  lines.push("Params:");
  const params = Object.entries(n.params);
  if (params.length === 0) lines.push("  (none)");
  for (const [name, p] of params) lines.push(`  ${name}: ${paramLine(p)}`);
  lines.push("Outputs:");
  for (const [name, o] of Object.entries(n.outputs)) {
    lines.push(`  ${name}: ${o.type}${o.description ? ` — ${o.description}` : ""}`);
    for (const [k, s] of Object.entries(o.structure ?? {})) lines.push(`    .${k}: ${s.type}`);
  }
  if (n.openOutputs) lines.push("  (no output schema: any path under result is allowed)");
  return lines.join("\n");
}

function paramLine(p: ParamSpec): string {
  const bits = [p.type, p.required ? "required" : "optional"];
  if (p.default !== undefined) bits.push(`default ${JSON.stringify(p.default)}`);
  if (p.enum) bits.push(`one of ${p.enum.map((v) => JSON.stringify(v)).join("|")}`);
  return `${bits.join(", ")}${p.description ? ` — ${firstLine(p.description)}` : ""}`;
}

// ---------- helpers ----------

function notConfigured(name: string, known: string[]): PflowError {
  const near = closestMatches(name, known);
  return new PflowError("not_found", `Server ${name} not configured`, {
    suggestion: near.length
      ? `Did you mean ${near.map((n) => `'${n}'`).join(", ")}?`
      : `Add it with 'pflow mcp add ${name} -- COMMAND [ARGS…]'`,
    details: { server: name },
  });
}

function firstLine(text: string): string {
  return text.split("\n")[0];
}

function indent(text: string): string {
  return text.split("\n").map((l) => `  ${l}`).join("\n");
}

export { MAX_DISCOVERY_TIMEOUT_S };
