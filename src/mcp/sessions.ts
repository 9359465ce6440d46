/**
 * The per-run pool of live MCP sessions. The first call to a server starts it; every later call
 * in the same run reuses that session, so stateful servers keep their state. Nothing is spawned
 * and no config read until the first call. A call that times out terminates its server (the next
 * call starts a fresh one); closeAll() ends every server's whole process group.
 * Needs --allow-read on PFLOW_HOME, --allow-env, and --allow-run for each server's command.
 */
import { PflowError } from "../core/errors.ts";
import { closestMatches } from "../core/suggest.ts";
import { DEFAULT_CALL_TIMEOUT_S, loadServersConfig, type McpServersConfig } from "./config.ts";
import { addWarnings, connectServer, type McpConnection } from "./connection.ts";
import { resultText, resultValue } from "./result.ts";
import { type CallToolResult, ErrorCode, McpError } from "./sdk_client.ts";
import { withStderr } from "./stdio_transport.ts";
import type { McpCallOptions, McpSessions, McpToolResult } from "./types.ts";
import type { McpSessionsOptions } from "./lazy_sessions.ts";

export type { McpSessionsOptions };

const JSONRPC_NAMES: Record<number, string> = {
  [-32700]: "Parse error",
  [-32600]: "Invalid request",
  [-32601]: "Method not found",
  [-32602]: "Invalid params",
  [-32603]: "Internal error",
  [-32000]: "Connection closed",
  [-32001]: "Request timed out",
};

interface Live {
  conn: McpConnection;
  /** Lines collected for the call in flight (undefined between calls). */
  callLog?: string[];
}

export function createMcpSessions(opts: McpSessionsOptions): McpSessions {
  return new McpSessionPool(opts);
}

export class McpSessionPool implements McpSessions {
  readonly #opts: McpSessionsOptions;
  #config?: Promise<McpServersConfig>;
  readonly #live = new Map<string, Promise<Live>>();
  #closed = false;
  /** The process group id of every server this pool started (tests check none survive). */
  readonly startedPids: number[] = [];

  constructor(opts: McpSessionsOptions) {
    this.#opts = opts;
  }

  #servers(): Promise<McpServersConfig> {
    this.#config ??= this.#opts.servers
      ? Promise.resolve(this.#opts.servers)
      : loadServersConfig(this.#opts.home);
    return this.#config;
  }

  #log(line: string): void {
    this.#opts.onLog?.(line);
    if (this.#opts.verbose) console.error(line);
  }

  async callTool(
    server: string,
    tool: string,
    args: Record<string, unknown>,
    opts: McpCallOptions = {},
  ): Promise<McpToolResult> {
    if (this.#closed) {
      throw new PflowError("execution", `MCP sessions are closed; cannot call ${server}/${tool}`);
    }
    const servers = await this.#servers();
    const cfg = servers[server];
    if (!cfg) {
      const near = closestMatches(server, Object.keys(servers));
      throw new PflowError("not_found", `Server ${server} not configured`, {
        suggestion: near.length
          ? `Did you mean ${
            near.map((n) => `'${n}'`).join(", ")
          }? Configured servers: pflow mcp list`
          : `Add it with 'pflow mcp add ${server} -- <command> [args…]', then 'pflow mcp sync ${server}'`,
        details: { server },
      });
    }
    const timeoutMs = opts.timeoutMs ?? (cfg.timeout ?? DEFAULT_CALL_TIMEOUT_S) * 1000;
    const deadline = Date.now() + timeoutMs;
    const log: string[] = [];
    let live: Live | undefined;
    try {
      live = await this.#session(server, timeoutMs, opts.signal, log);
      live.callLog = log;
      const remaining = Math.max(1, deadline - Date.now());
      const result = await live.conn.client.callTool(
        { name: tool, arguments: args },
        undefined,
        { timeout: remaining, signal: opts.signal },
      ) as CallToolResult;
      const text = resultText(result);
      if (result.isError && /not found|unknown tool/i.test(text)) {
        await this.#checkToolExists(live, server, tool);
      }
      return { isError: result.isError === true, value: resultValue(result), text, log };
    } catch (err) {
      const e = opts.signal?.aborted
        ? new PflowError("execution", `MCP tool ${tool} on server ${server} was cancelled`, {
          details: { server, tool },
        })
        : await this.#callError(err, server, tool, timeoutMs, live);
      for (const line of log) this.#opts.onLog?.(line);
      e.details.log = log;
      throw e;
    } finally {
      if (live) live.callLog = undefined;
    }
  }

  /** The live session for `server`, started on first use; concurrent callers share one start. */
  #session(
    server: string,
    timeoutMs: number,
    signal: AbortSignal | undefined,
    log: string[],
  ): Promise<Live> {
    let entry = this.#live.get(server);
    if (!entry) {
      const holder: { live?: Live } = {};
      entry = (async () => {
        const cfg = (await this.#servers())[server];
        const conn = await connectServer(server, cfg, {
          secrets: this.#opts.secrets,
          timeoutMs,
          signal,
          killGraceMs: this.#opts.killGraceMs,
          onWarning: (w) => {
            log.push(w);
            this.#log(w);
            if (!this.#opts.verbose && !this.#opts.onLog) console.error(`Warning: ${w}`);
          },
          onLine: (kind, line) => {
            const text = `[mcp:${server}${kind === "stdout" ? " stdout" : ""}] ${line}`;
            const target = holder.live?.callLog ?? (holder.live ? undefined : log);
            if (target) {
              target.push(text);
              if (this.#opts.verbose) console.error(text);
            } else this.#log(text);
          },
        });
        if (conn.transport.pid) this.startedPids.push(conn.transport.pid);
        holder.live = { conn };
        return holder.live;
      })();
      this.#live.set(server, entry);
      // A failed start is forgotten, so a later step may try again.
      entry.catch(() => {
        if (this.#live.get(server) === entry) this.#live.delete(server);
      });
    }
    return entry;
  }

  async #checkToolExists(live: Live, server: string, tool: string): Promise<void> {
    let names: string[] = [];
    try {
      let cursor: string | undefined;
      for (let page = 0; page < 100; page++) {
        const r = await live.conn.client.listTools(cursor ? { cursor } : undefined, {
          timeout: 5000,
        });
        names.push(...r.tools.map((t) => t.name));
        cursor = r.nextCursor;
        if (!cursor) break;
      }
    } catch {
      return; // Cannot tell: keep the original error.
    }
    if (names.includes(tool)) return;
    names = closestMatches(tool, names);
    throw new PflowError("not_found", `Tool ${tool} not found on server ${server}`, {
      suggestion: `The server no longer offers it: run 'pflow mcp sync ${server}'` +
        (names.length ? ` (similar: ${names.join(", ")})` : ""),
      details: { server, tool },
    });
  }

  async #callError(
    err: unknown,
    server: string,
    tool: string,
    timeoutMs: number,
    live: Live | undefined,
  ): Promise<PflowError> {
    if (!live) return err instanceof PflowError ? err : new PflowError("execution", String(err));
    const { conn } = live;
    const tail = conn.transport.stderrTail();
    const failure = conn.transport.failure;
    if (failure) {
      await this.#drop(server);
      return addWarnings(failure.error, conn.warnings);
    }
    if (err instanceof PflowError) return err;
    if (err instanceof McpError) {
      if (err.code === ErrorCode.RequestTimeout) {
        // A server that stopped answering may be stuck for good: end it; the next call restarts.
        await this.#drop(server);
        return new PflowError(
          "execution",
          withStderr(
            `MCP tool ${tool} on server ${server} timed out after ${
              timeoutMs / 1000
            }s; the server was stopped`,
            tail,
          ),
          {
            suggestion:
              "Raise the node's timeout param (seconds), or the server's timeout in mcp-servers.json",
            details: { server, tool, timeout_ms: timeoutMs },
          },
        );
      }
      if (err.code === ErrorCode.ConnectionClosed) {
        await this.#drop(server);
        return addWarnings(
          new PflowError(
            "execution",
            withStderr(`MCP server process terminated unexpectedly (server '${server}')`, tail),
            { details: { server, tool } },
          ),
          conn.warnings,
        );
      }
      if (err.code === ErrorCode.MethodNotFound || err.code === ErrorCode.InvalidParams) {
        await this.#checkToolExists(live, server, tool);
      }
      const name = JSONRPC_NAMES[err.code] ?? "JSON-RPC error";
      const raw = err.message.replace(/^MCP error -?\d+: /, "");
      return new PflowError(
        "execution",
        `MCP tool ${tool} on server ${server} failed: ${name} (${err.code}): ${raw}`,
        {
          suggestion: err.code === ErrorCode.InvalidParams
            ? `Check the node's params against 'pflow mcp info mcp-${server}-${tool}'`
            : undefined,
          details: { server, tool, jsonrpc_code: err.code, data: err.data },
        },
      );
    }
    if (err instanceof Error && err.name === "AbortError") {
      return new PflowError("execution", `MCP tool ${tool} on server ${server} was cancelled`, {
        details: { server, tool },
      });
    }
    const message = err instanceof Error ? err.message : String(err);
    return new PflowError("execution", `MCP tool ${tool} on server ${server} failed: ${message}`, {
      details: { server, tool },
      cause: err,
    });
  }

  /** Ends one server and forgets it. */
  async #drop(server: string): Promise<void> {
    const entry = this.#live.get(server);
    this.#live.delete(server);
    if (!entry) return;
    try {
      await (await entry).conn.close();
    } catch {
      // Start failed: nothing to close.
    }
  }

  async closeAll(): Promise<void> {
    this.#closed = true;
    const entries = [...this.#live.keys()];
    await Promise.all(entries.map((s) => this.#drop(s)));
  }
}
