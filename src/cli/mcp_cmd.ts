/**
 * `pflow mcp add|list|remove|sync|tools|info`: configure MCP servers whose tools become workflow
 * nodes. A thin layer over services/mcp.ts (text for people, --json for programs).
 * `pflow sync` arrives here as `sync --all …`; `pflow mcp serve` is routed elsewhere.
 */
import { resolve } from "node:path";
import { PflowError } from "../core/errors.ts";
import { checkServerName, type McpServerConfig, parseServersConfig } from "../mcp/config.ts";
import {
  addServers,
  formatAddServers,
  formatNodeInfo,
  formatRemoveServer,
  formatServerList,
  formatSyncResult,
  formatToolList,
  listMcpTools,
  listServers,
  mcpNodeInfo,
  removeServer,
  syncServers,
} from "../services/mcp.ts";
import {
  type CliIO,
  type Command,
  EXIT_FAILURE,
  EXIT_OK,
  UsageError,
  usageOrUnknown,
} from "./io.ts";

const USAGE = `Usage:
  pflow mcp add NAME [--env K=V]… [--timeout S] -- COMMAND [ARGS…]
  pflow mcp add FILE|JSON            servers in {"mcpServers": {…}} layout (several at once)
  pflow mcp list [--json]
  pflow mcp remove NAME              removes its nodes too
  pflow mcp sync NAME…|--all [--timeout S] [--json]
  pflow mcp tools [SERVER] [--json]
  pflow mcp info NODE [--json]`;

export const command: Command = async (args, io) => {
  const [sub, ...rest] = args;
  const json = rest.includes("--json");
  const positional = rest.filter((a) => a !== "--json");
  const out = (data: unknown, text: string) =>
    io.stdout(json ? JSON.stringify(data, null, 2) : text);
  switch (sub) {
    case "add": {
      const r = await addServers(
        io.home,
        await parseAdd(args.slice(1).filter((a) => a !== "--json"), io),
      );
      if (!json) {
        for (const n of r.replaced) {
          io.stderr(`Warning: server '${n}' already existed and was replaced`);
        }
      }
      out(
        r,
        formatAddServers({ ...r, replaced: [] }),
      );
      return EXIT_OK;
    }
    case "list":
    case "ls": {
      const r = await listServers(io.home);
      out(r, formatServerList(r));
      return EXIT_OK;
    }
    case "remove":
    case "rm": {
      const [name] = positional;
      if (!name) throw new UsageError("mcp remove needs a server name", "pflow mcp remove NAME");
      const r = await removeServer(io.home, name);
      out(r, formatRemoveServer(r));
      return EXIT_OK;
    }
    case "sync": {
      const { values, timeout } = takeTimeout(positional);
      const all = values.includes("--all");
      const names = values.filter((a) => a !== "--all");
      const unknownFlag = names.find((a) => a.startsWith("-"));
      if (unknownFlag) throw new UsageError(`Unknown option ${unknownFlag}`, USAGE);
      if (!all && names.length === 0) {
        throw new UsageError(
          "mcp sync needs a server name or --all",
          "pflow mcp sync NAME | --all",
        );
      }
      const r = await syncServers(io.home, all ? "all" : names, {
        timeoutS: timeout,
        onProgress: json ? undefined : (line) => io.stderr(line),
      });
      if (json) {
        io.stdout(JSON.stringify(
          {
            tools_discovered: r.tools_discovered,
            tools_registered: r.tools_registered,
            servers: r.servers,
          },
          null,
          2,
        ));
      } else io.stdout(formatSyncResult(r));
      return r.servers.every((s) => s.ok) ? EXIT_OK : EXIT_FAILURE;
    }
    case "tools": {
      const [server] = positional;
      const r = await listMcpTools(io.home, server);
      out(r, formatToolList(r, server));
      return EXIT_OK;
    }
    case "info": {
      const [node] = positional;
      if (!node) {
        throw new UsageError("mcp info needs a node name", "pflow mcp info mcp-SERVER-TOOL");
      }
      const r = await mcpNodeInfo(io.home, node);
      out(r, formatNodeInfo(r));
      return EXIT_OK;
    }
    default:
      return usageOrUnknown(io, "mcp", sub, USAGE);
  }
};

function takeTimeout(args: string[]): { values: string[]; timeout?: number } {
  const values: string[] = [];
  let timeout: number | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const inline = a.startsWith("--timeout=") ? a.slice(10) : undefined;
    if (a === "--timeout" || inline !== undefined) {
      const raw = inline ?? args[++i];
      timeout = Number(raw);
      if (!Number.isFinite(timeout) || timeout <= 0) {
        throw new UsageError(`--timeout needs a positive number of seconds, got '${raw ?? ""}'`);
      }
    } else values.push(a);
  }
  return { values, timeout };
}

/** `NAME [opts] -- COMMAND ARGS…`, `NAME COMMAND ARGS…`, or one FILE / JSON argument. */
async function parseAdd(args: string[], io: CliIO): Promise<Record<string, McpServerConfig>> {
  const dd = args.indexOf("--");
  const before = dd === -1 ? args : args.slice(0, dd);
  const after = dd === -1 ? [] : args.slice(dd + 1);
  if (before.length === 0) throw new UsageError("mcp add needs a server", USAGE);
  const first = before[0];
  if (dd === -1 && before.length === 1) {
    // One argument: inline JSON or a file of either layout.
    let text = first;
    let where = "the JSON argument";
    if (!first.trimStart().startsWith("{")) {
      where = resolve(io.cwd, first);
      try {
        text = await Deno.readTextFile(where);
      } catch (err) {
        if (err instanceof Deno.errors.NotFound) {
          throw new UsageError(
            `No file ${where}`,
            'Pass NAME -- COMMAND [ARGS…], a file with {"mcpServers": {…}}, or that JSON inline',
          );
        }
        throw err;
      }
    }
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (err) {
      throw new PflowError("parse", `${where} is not valid JSON: ${(err as Error).message}`);
    }
    return parseServersConfig(data, where);
  }
  const name = first;
  checkServerName(name);
  const env: Record<string, string> = {};
  let timeout: number | undefined;
  const commandWords: string[] = [...after];
  for (let i = 1; i < before.length; i++) {
    const a = before[i];
    if (a === "--env" || a === "-e") {
      const kv = before[++i] ?? "";
      const eq = kv.indexOf("=");
      if (eq <= 0) throw new UsageError(`--env needs KEY=VALUE, got '${kv}'`);
      env[kv.slice(0, eq)] = kv.slice(eq + 1);
    } else if (a === "--timeout") {
      timeout = Number(before[++i]);
      if (!Number.isFinite(timeout) || timeout <= 0) {
        throw new UsageError("--timeout needs a positive number of seconds");
      }
    } else if (dd === -1) {
      commandWords.push(...before.slice(i));
      break;
    } else {
      throw new UsageError(`Unexpected '${a}' before --`, USAGE);
    }
  }
  if (commandWords.length === 0) {
    throw new UsageError(
      `mcp add ${name}: no command given`,
      `pflow mcp add ${name} -- npx -y <package>`,
    );
  }
  const [cmd, ...cmdArgs] = commandWords;
  const cfg: McpServerConfig = { command: cmd, args: cmdArgs, env };
  if (timeout !== undefined) cfg.timeout = timeout;
  return { [name]: cfg };
}
