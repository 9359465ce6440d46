/**
 * The per-run MCP session pool, loaded on first use: most runs call no MCP tool, and the SDK
 * and its dependencies cost ~100 ms of start-up to load. The pool itself is lazy too (nothing is
 * spawned before the first call), so a run without MCP steps pays nothing.
 */
import type { McpServersConfig } from "./config.ts";
import type { McpSessions } from "./types.ts";

export interface McpSessionsOptions {
  home: string;
  secrets: Record<string, string>;
  /** Server stderr and warnings also go to pflow's stderr. */
  verbose?: boolean;
  /** Server lines (stderr, stdout noise) that arrive outside a call, and warnings: for the trace. */
  onLog?: (line: string) => void;
  /** After SIGTERM, how long a server group gets before SIGKILL (default 2000 ms). */
  killGraceMs?: number;
  /** Used instead of reading mcp-servers.json (tests, the MCP server's try-a-node). */
  servers?: McpServersConfig;
}

export function lazyMcpSessions(opts: McpSessionsOptions): McpSessions {
  let pool: Promise<McpSessions> | undefined;
  const open = () => pool ??= import("./sessions.ts").then((m) => m.createMcpSessions(opts));
  return {
    callTool: async (server, tool, args, callOpts) =>
      await (await open()).callTool(server, tool, args, callOpts),
    closeAll: async () => {
      if (pool) await (await pool).closeAll();
    },
  };
}
