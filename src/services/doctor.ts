/**
 * `pflow doctor`: what pflow can do here and what is broken — version, PFLOW_HOME, the Deno
 * permissions it holds, each configured MCP server (command found on PATH? allowed by
 * --allow-run?), and the state of the registry and the library. One structured result and the
 * one text formatter. Only queries permissions (never prompts) and never starts a server.
 * Needs nothing: whatever it may not read is reported as such.
 */
import { isAbsolute, join, resolve } from "node:path";
import { toPflowError } from "../core/errors.ts";
import { homePaths } from "../core/paths.ts";
import { loadSettings } from "../core/settings.ts";
import { loadServersConfig, type McpServersConfig } from "../mcp/config.ts";
import { expandServerConfig } from "../mcp/expand.ts";
import { loadRegistryFile } from "../registry/store.ts";
import { listNames } from "../library/store.ts";

export type PermissionName = "read" | "write" | "run" | "net" | "env" | "sys";
export const PERMISSION_NAMES: readonly PermissionName[] = [
  "read",
  "write",
  "run",
  "net",
  "env",
  "sys",
];

export interface PermissionReport {
  name: PermissionName;
  /** `all`: the whole permission; `scoped`: an allowlist or nothing (Deno cannot tell which). */
  scope: "all" | "scoped";
  flag: string;
  /** Checks of what pflow itself needs under this permission, e.g. reading PFLOW_HOME. */
  checks: { what: string; path: string; granted: boolean }[];
}

export interface McpServerReport {
  name: string;
  command: string;
  args: string[];
  /** Where the command was found: a path, or null when not found (or not looked for). */
  path: string | null;
  found: boolean;
  /** Deno's --allow-run allows starting the command. */
  allowed: boolean;
  /** Why the server cannot start, one line with the fix; absent when it can. */
  problem?: string;
  /** Things that may bite (unset ${VAR}s, never synced). */
  warnings: string[];
  /** Tools registered by the last sync, or null when it was never synced. */
  tools: number | null;
}

export type FileState = "ok" | "absent" | "broken";

export interface DoctorReport {
  ok: boolean;
  version: string;
  deno: string;
  platform: string;
  home: string;
  cwd: string;
  permissions: PermissionReport[];
  mcp: { config: FileState; error?: string; servers: McpServerReport[] };
  registry: { state: FileState; error?: string; mcp_nodes: number; synced_servers: number };
  library: { state: "ok" | "broken"; error?: string; workflows: number; drafts: number };
  /** Everything that cannot work as configured; `ok` is false when there is any. */
  problems: string[];
}

export interface DoctorRequest {
  version: string;
  home: string;
  cwd: string;
}

const state = (desc: Deno.PermissionDescriptor) => Deno.permissions.querySync(desc).state;
const granted = (desc: Deno.PermissionDescriptor) => state(desc) === "granted";

export async function doctorService(req: DoctorRequest): Promise<DoctorReport> {
  const problems: string[] = [];
  const permissions = permissionReports(req.home);
  for (const p of permissions) {
    for (const c of p.checks) {
      if (!c.granted) {
        problems.push(`pflow cannot ${c.what} PFLOW_HOME: add --allow-${p.name}=${c.path}`);
      }
    }
  }
  const mcp = await mcpReport(req, problems);
  const registry = await registryReport(req.home, problems);
  const library = libraryReport(req.home, problems);
  for (const s of mcp.servers) {
    if (registry.state === "ok" && s.tools === null && !s.problem) {
      s.warnings.push(`never synced: run 'pflow mcp sync ${s.name}' to turn its tools into nodes`);
    }
  }
  return {
    ok: problems.length === 0,
    version: req.version,
    deno: Deno.version.deno,
    platform: `${Deno.build.os}-${Deno.build.arch}`,
    home: req.home,
    cwd: req.cwd,
    permissions,
    mcp,
    registry,
    library,
    problems,
  };
}

/** Each permission's breadth, and whether pflow's own needs (its home) are met. */
function permissionReports(home: string): PermissionReport[] {
  return PERMISSION_NAMES.map((name) => {
    const scope = granted({ name } as Deno.PermissionDescriptor) ? "all" : "scoped";
    const checks: PermissionReport["checks"] = [];
    if (name === "read" || name === "write") {
      const what = name === "read" ? "read" : "write";
      checks.push({ what, path: home, granted: granted({ name, path: home }) });
    }
    return { name, scope, flag: `--allow-${name}`, checks };
  });
}

async function mcpReport(req: DoctorRequest, problems: string[]): Promise<DoctorReport["mcp"]> {
  let servers: McpServersConfig;
  try {
    servers = await loadServersConfig(req.home);
  } catch (err) {
    const e = toPflowError(err);
    problems.push(`mcp-servers.json: ${e.message}`);
    return { config: "broken", error: e.message, servers: [] };
  }
  const exists = await fileExists(homePaths(req.home).mcpServers);
  let secrets: Record<string, string> = {};
  try {
    secrets = (await loadSettings(req.home)).env;
  } catch {
    // A broken settings.json is not the doctor's to report here; expansion just lacks secrets.
  }
  const syncInfo = await loadRegistryFile(req.home).then((r) => r.servers, () => ({}));
  const reports: McpServerReport[] = [];
  for (const [name, cfg] of Object.entries(servers).sort(([a], [b]) => a.localeCompare(b))) {
    const expanded = expandServerConfig(cfg, secrets, safeEnvLookup);
    const warnings = expanded.missing.length
      ? [`${expanded.missing.map((m) => "${" + m + "}").join(", ")} not set`]
      : [];
    const command = expanded.command;
    const path = await findCommand(command, req.cwd);
    const allowed = command !== "" && granted({ name: "run", command });
    let problem: string | undefined;
    if (command === "") problem = "its command is empty (an unset ${VAR}?)";
    else if (!allowed) problem = `'${command}' is not allowed: add --allow-run=${command}`;
    else if (path === null && granted({ name: "read" })) {
      problem = `'${command}' was not found on PATH: install it or fix "command"`;
    } else if (path === null) {
      warnings.push(`'${command}' not found; PATH may be unreadable under a scoped --allow-read`);
    }
    if (problem) problems.push(`MCP server '${name}': ${problem}`);
    const info = (syncInfo as Record<string, { tools: number; error?: string }>)[name];
    if (info?.error) warnings.push(`last sync failed: ${info.error}`);
    reports.push({
      name,
      command,
      args: expanded.args,
      path,
      found: path !== null,
      allowed,
      problem,
      warnings,
      tools: info ? info.tools : null,
    });
  }
  return { config: exists ? "ok" : "absent", servers: reports };
}

/** An env lookup that never throws or prompts under a scoped --allow-env. */
function safeEnvLookup(name: string): string | undefined {
  return granted({ name: "env", variable: name }) ? Deno.env.get(name) : undefined;
}

/** The command's path: as given when it has a separator, else the first hit on PATH. */
async function findCommand(command: string, cwd: string): Promise<string | null> {
  if (command === "") return null;
  const windows = Deno.build.os === "windows";
  const exts = windows
    ? ["", ...(safeEnvLookup("PATHEXT") ?? ".EXE;.CMD;.BAT").split(";").map((e) => e.toLowerCase())]
    : [""];
  const candidates: string[] = [];
  if (command.includes("/") || (windows && command.includes("\\"))) {
    const base = isAbsolute(command) ? command : resolve(cwd, command);
    for (const ext of exts) candidates.push(base + ext);
  } else {
    const dirs = (safeEnvLookup("PATH") ?? "").split(windows ? ";" : ":").filter(Boolean);
    for (const dir of dirs) for (const ext of exts) candidates.push(join(dir, command + ext));
  }
  for (const candidate of candidates) {
    try {
      const info = await Deno.stat(candidate);
      if (info.isFile && (windows || info.mode === null || (info.mode & 0o111) !== 0)) {
        return candidate;
      }
    } catch {
      // Not there, or not readable under --allow-read: keep looking.
    }
  }
  return null;
}

async function registryReport(home: string, problems: string[]): Promise<DoctorReport["registry"]> {
  const exists = await fileExists(homePaths(home).registry);
  try {
    const reg = await loadRegistryFile(home);
    return {
      state: exists ? "ok" : "absent",
      mcp_nodes: Object.keys(reg.nodes).length,
      synced_servers: Object.keys(reg.servers).length,
    };
  } catch (err) {
    const e = toPflowError(err);
    problems.push(`registry.json: ${e.message}${e.suggestion ? ` (${e.suggestion})` : ""}`);
    return { state: "broken", error: e.message, mcp_nodes: 0, synced_servers: 0 };
  }
}

function libraryReport(home: string, problems: string[]): DoctorReport["library"] {
  try {
    return {
      state: "ok",
      workflows: (listNames(home)).length,
      drafts: (listNames(home, "draft")).length,
    };
  } catch (err) {
    const e = toPflowError(err);
    problems.push(`library: ${e.message}`);
    return { state: "broken", error: e.message, workflows: 0, drafts: 0 };
  }
}

async function fileExists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

/** The one text form of a doctor report. */
export function formatDoctorReport(r: DoctorReport): string {
  const lines = [
    `pflow ${r.version} (deno ${r.deno}, ${r.platform})`,
    `PFLOW_HOME: ${r.home}`,
    "",
    "Permissions:",
  ];
  for (const p of r.permissions) {
    const scope = p.scope === "all" ? "all" : "scoped or none";
    const checks = p.checks.map((c) => `${c.granted ? "✓" : "✗"} ${c.what} PFLOW_HOME`).join("; ");
    lines.push(`  ${p.flag.padEnd(13)} ${scope}${checks ? `  (${checks})` : ""}`);
  }
  lines.push("", `MCP servers (mcp-servers.json: ${r.mcp.config}):`);
  if (r.mcp.error) lines.push(`  ✗ ${r.mcp.error}`);
  if (r.mcp.servers.length === 0 && !r.mcp.error) {
    lines.push("  none — add one with 'pflow mcp add'");
  }
  for (const s of r.mcp.servers) {
    const tools = s.tools === null ? "not synced" : `${s.tools} tools`;
    const where = s.found ? s.path : "not found";
    lines.push(
      `  ${s.problem ? "✗" : "✓"} ${s.name}: ${s.command} (${where}; ${
        s.allowed ? "allowed" : "not allowed"
      }; ${tools})`,
    );
    if (s.problem) lines.push(`      ${s.problem}`);
    for (const w of s.warnings) lines.push(`      ! ${w}`);
  }
  lines.push("", "Registry and library:");
  lines.push(
    r.registry.state === "broken"
      ? `  ✗ registry.json: ${r.registry.error}`
      : `  ✓ registry.json: ${
        r.registry.state === "absent"
          ? "absent (no MCP nodes yet)"
          : `${r.registry.mcp_nodes} MCP nodes from ${r.registry.synced_servers} servers`
      }`,
  );
  lines.push(
    r.library.state === "broken"
      ? `  ✗ library: ${r.library.error}`
      : `  ✓ library: ${r.library.workflows} workflows, ${r.library.drafts} drafts`,
  );
  lines.push("");
  if (r.ok) lines.push("Everything configured can work.");
  else {
    lines.push(`${r.problems.length} problem${r.problems.length === 1 ? "" : "s"}:`);
    for (const p of r.problems) lines.push(`  ✗ ${p}`);
  }
  return lines.join("\n");
}
