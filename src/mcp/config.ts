/**
 * `PFLOW_HOME/mcp-servers.json`: the configured MCP servers. Written in the standard layout
 * (`{"mcpServers": {name: {command, args, env}}}`, as Claude Desktop, Cursor and Claude Code use,
 * so users can paste theirs); the older `{"servers": {name: {"transport": "stdio", …}}}` layout
 * is read too. Only stdio servers are supported. Writes are atomic.
 * Needs --allow-read (and --allow-write to save) on PFLOW_HOME.
 */
import { PflowError } from "../core/errors.ts";
import { writeFileAtomic } from "../core/atomic.ts";
import { homePaths } from "../core/paths.ts";

/** Server names: what `mcp-<server>-<tool>` node types are made of. */
export const SERVER_NAME_PATTERN = /^[a-z0-9-]+$/;

/** Default per-call timeout, seconds. */
export const DEFAULT_CALL_TIMEOUT_S = 30;
/** Default and largest tools/list discovery timeout, seconds. */
export const DEFAULT_DISCOVERY_TIMEOUT_S = 5;
export const MAX_DISCOVERY_TIMEOUT_S = 30;

export interface McpServerConfig {
  command: string;
  args: string[];
  env: Record<string, string>;
  /** Per-call timeout in seconds (a node's `timeout` param wins). */
  timeout?: number;
  /** Sync's tools/list timeout in seconds (at most 30). */
  discovery_timeout?: number;
  /** Working directory of the server process. */
  cwd?: string;
}

export type McpServersConfig = Record<string, McpServerConfig>;

/**
 * Reads either layout from parsed JSON; a single server object `{command, args}` is not a
 * layout (it has no name). Throws PflowError "invalid_params" naming the first bad server.
 */
export function parseServersConfig(data: unknown, where = "mcp-servers.json"): McpServersConfig {
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    throw new PflowError("invalid_params", `${where} must hold a JSON object`, {
      suggestion: 'Use the layout {"mcpServers": {"name": {"command": "...", "args": []}}}',
    });
  }
  const obj = data as Record<string, unknown>;
  const section = obj.mcpServers ?? obj.servers;
  if (section === undefined) {
    throw new PflowError("invalid_params", `${where} has no "mcpServers" section`, {
      suggestion: 'Use the layout {"mcpServers": {"name": {"command": "...", "args": []}}}',
    });
  }
  if (typeof section !== "object" || section === null || Array.isArray(section)) {
    throw new PflowError("invalid_params", `${where}: "mcpServers" must be an object of servers`);
  }
  const out: McpServersConfig = {};
  for (const [name, raw] of Object.entries(section as Record<string, unknown>)) {
    out[name] = parseServerEntry(name, raw, where);
  }
  return out;
}

/** Checks one named server entry and returns it normalised. */
export function parseServerEntry(
  name: string,
  raw: unknown,
  where = "mcp-servers.json",
): McpServerConfig {
  checkServerName(name);
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw new PflowError("invalid_params", `${where}: server '${name}' must be an object`);
  }
  const e = raw as Record<string, unknown>;
  const transport = e.transport ?? e.type;
  if (transport !== undefined && transport !== "stdio") {
    throw new PflowError(
      "invalid_params",
      `${where}: server '${name}' uses transport '${
        String(transport)
      }'; only stdio servers are supported for now`,
      { suggestion: "Configure a stdio server (a command pflow starts), or remove this entry" },
    );
  }
  if (typeof e.command !== "string" || e.command.trim() === "") {
    throw new PflowError("invalid_params", `${where}: server '${name}' has no "command"`, {
      suggestion:
        `Give it the program to start, e.g. "command": "npx", "args": ["-y", "<package>"]`,
    });
  }
  const args = e.args ?? [];
  if (!Array.isArray(args) || args.some((a) => typeof a !== "string" && typeof a !== "number")) {
    throw new PflowError(
      "invalid_params",
      `${where}: server '${name}': "args" must be a list of strings`,
    );
  }
  const env: Record<string, string> = {};
  if (e.env !== undefined) {
    if (typeof e.env !== "object" || e.env === null || Array.isArray(e.env)) {
      throw new PflowError("invalid_params", `${where}: server '${name}': "env" must be an object`);
    }
    for (const [k, v] of Object.entries(e.env)) env[k] = String(v);
  }
  const cfg: McpServerConfig = { command: e.command, args: args.map(String), env };
  for (const key of ["timeout", "discovery_timeout"] as const) {
    if (e[key] === undefined) continue;
    const n = Number(e[key]);
    if (!Number.isFinite(n) || n <= 0) {
      throw new PflowError(
        "invalid_params",
        `${where}: server '${name}': "${key}" must be a positive number of seconds`,
      );
    }
    cfg[key] = n;
  }
  if (typeof e.cwd === "string") cfg.cwd = e.cwd;
  return cfg;
}

export function checkServerName(name: string): void {
  if (!SERVER_NAME_PATTERN.test(name)) {
    const fixed = name.toLowerCase().replace(/[^a-z0-9-]+/g, "-").replace(/^-+|-+$/g, "");
    throw new PflowError(
      "invalid_params",
      `Invalid server name '${name}': names use only lowercase letters, digits and '-'`,
      { suggestion: fixed ? `Use '${fixed}'` : "Choose a name such as 'github' or 'my-files'" },
    );
  }
}

/** The configured servers; an absent file means none. */
export async function loadServersConfig(home: string): Promise<McpServersConfig> {
  const path = homePaths(home).mcpServers;
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return {};
    throw err;
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new PflowError("parse", `mcp-servers.json is not valid JSON: ${(err as Error).message}`, {
      suggestion: `Fix ${path}, or add servers again with 'pflow mcp add'`,
      details: { path },
    });
  }
  return parseServersConfig(data, path);
}

/** Saves in the standard layout, atomically. */
export async function saveServersConfig(home: string, servers: McpServersConfig): Promise<void> {
  const mcpServers: Record<string, unknown> = {};
  for (const name of Object.keys(servers).sort()) mcpServers[name] = servers[name];
  await writeFileAtomic(
    homePaths(home).mcpServers,
    JSON.stringify({ mcpServers }, null, 2) + "\n",
  );
}

/** Seconds → ms for sync, defaulting to 5 s and capped at 30 s. */
export function discoveryTimeoutMs(cfg: McpServerConfig, override?: number): number {
  const s = override ?? cfg.discovery_timeout ?? DEFAULT_DISCOVERY_TIMEOUT_S;
  return Math.min(s, MAX_DISCOVERY_TIMEOUT_S) * 1000;
}
