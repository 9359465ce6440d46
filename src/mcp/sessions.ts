/** Placeholder until the MCP client lands: the per-run pool of live MCP sessions. */
import { PflowError } from "../core/errors.ts";
import type { McpSessions } from "./types.ts";

export interface McpSessionsOptions {
  home: string;
  secrets: Record<string, string>;
  verbose?: boolean;
  onLog?: (line: string) => void;
}

export function createMcpSessions(_opts: McpSessionsOptions): McpSessions {
  return {
    callTool(server) {
      return Promise.reject(new PflowError("not_found", `Server ${server} not configured`));
    },
    closeAll: () => Promise.resolve(),
  };
}
