/**
 * The contract between the runtime and the MCP client: one pool of live sessions per workflow
 * run. The generic MCP node calls tools through it; the runtime closes it when the run ends.
 */

export interface McpCallOptions {
  /** Per-call timeout; on expiry the server is terminated and the call rejects. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface McpSessions {
  /** Calls `tool` on `server`, starting the server on first use and reusing it afterwards. */
  callTool(
    server: string,
    tool: string,
    args: Record<string, unknown>,
    opts?: McpCallOptions,
  ): Promise<McpToolResult>;
  /** Closes every session (stdin, wait, SIGTERM, SIGKILL): no process outlives the run. */
  closeAll(): Promise<void>;
}

export interface McpToolResult {
  isError: boolean;
  /** structuredContent when present, else parsed content. */
  value: unknown;
  /** The tool's own text, for error messages. */
  text: string;
  /** Server stderr lines / skipped noise lines, for the trace. */
  log: string[];
}
