/**
 * Tool discovery for `pflow mcp sync`: start the server, initialize, then `tools/list` through
 * every page (`nextCursor`), all within the discovery timeout, and stop the server again.
 */
import { PflowError } from "../core/errors.ts";
import type { McpServerConfig } from "./config.ts";
import { connectServer } from "./connection.ts";
import { ErrorCode, McpError, type Tool } from "./sdk_client.ts";
import { withStderr } from "./stdio_transport.ts";

/** A server that keeps handing out cursors is broken, not large. */
const MAX_PAGES = 1000;

export interface Discovered {
  tools: Tool[];
  server: { name: string; version: string } | undefined;
  warnings: string[];
}

export async function discoverTools(
  server: string,
  cfg: McpServerConfig,
  opts: {
    secrets: Record<string, string>;
    timeoutMs: number;
    killGraceMs?: number;
    onLine?: (kind: "stderr" | "stdout", line: string) => void;
  },
): Promise<Discovered> {
  const deadline = Date.now() + opts.timeoutMs;
  const warnings: string[] = [];
  const conn = await connectServer(server, cfg, {
    ...opts,
    onWarning: (w) => warnings.push(w),
  });
  try {
    const tools: Tool[] = [];
    const seen = new Set<string>();
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw timeout(server, opts.timeoutMs, conn.transport.stderrTail());
      let r;
      try {
        r = await conn.client.listTools(cursor ? { cursor } : undefined, { timeout: remaining });
      } catch (err) {
        if (conn.transport.failure) throw conn.transport.failure.error;
        if (err instanceof McpError && err.code === ErrorCode.RequestTimeout) {
          throw timeout(server, opts.timeoutMs, conn.transport.stderrTail());
        }
        throw new PflowError(
          "execution",
          withStderr(
            `tools/list failed on MCP server '${server}': ${(err as Error).message}`,
            conn.transport.stderrTail(),
          ),
          { details: { server } },
        );
      }
      tools.push(...r.tools);
      cursor = r.nextCursor;
      if (!cursor) break;
      if (seen.has(cursor)) {
        throw new PflowError(
          "execution",
          `MCP server '${server}' repeated tools/list cursor '${cursor}'`,
        );
      }
      seen.add(cursor);
    }
    const info = conn.client.getServerVersion();
    return {
      tools,
      server: info ? { name: info.name, version: info.version } : undefined,
      warnings: [...warnings, ...conn.warnings.filter((w) => !warnings.includes(w))],
    };
  } finally {
    await conn.close();
  }
}

function timeout(server: string, ms: number, tail: string[]): PflowError {
  return new PflowError(
    "execution",
    withStderr(
      `Discovering the tools of MCP server '${server}' took longer than ${ms / 1000}s`,
      tail,
    ),
    {
      suggestion: `Raise it with 'pflow mcp sync ${server} --timeout <seconds>' (at most 30)`,
      details: { server },
    },
  );
}
