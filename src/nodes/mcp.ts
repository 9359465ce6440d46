/**
 * The one generic MCP node: runs any synced MCP tool through the run's live sessions. The
 * compiler injects `__mcp_server__` and `__mcp_tool__`; every other param except pflow's own
 * (`timeout`, seconds, and anything starting `__`) is passed to the tool with its type intact.
 * Outputs: `result`, plus the top-level fields of an object result.
 */
import { toPflowError } from "../core/errors.ts";
import type { NodeImpl } from "./types.ts";
import { fail, ok } from "./types.ts";

export const mcpNode: NodeImpl = {
  interface: {
    type: "mcp",
    description: "Calls a tool of a configured MCP server.",
    params: {},
    outputs: { result: { type: "any", description: "The tool's result" } },
    actions: ["default", "error"],
    category: "mcp",
    hidden: true,
  },
  async run(params, ctx) {
    const server = typeof params.__mcp_server__ === "string" ? params.__mcp_server__ : "";
    const tool = typeof params.__mcp_tool__ === "string" ? params.__mcp_tool__ : "";
    if (!server || !tool) {
      return fail(
        `Node '${ctx.nodeId}' is not bound to an MCP tool; run 'pflow mcp sync' so its type is known`,
      );
    }
    let timeoutMs: number | undefined;
    if (params.timeout !== undefined && params.timeout !== null) {
      const s = Number(params.timeout);
      if (!Number.isFinite(s) || s <= 0) {
        return fail(`${server}/${tool}: param 'timeout' must be a positive number of seconds`);
      }
      timeoutMs = s * 1000;
    }
    const args: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(params)) {
      if (k !== "timeout" && !k.startsWith("__")) args[k] = v;
    }
    let r;
    try {
      r = await ctx.mcp.callTool(server, tool, args, { timeoutMs, signal: ctx.signal });
    } catch (err) {
      const e = toPflowError(err);
      return fail(e.suggestion ? `${e.message}\n  → ${e.suggestion}` : e.message);
    }
    for (const line of r.log) ctx.log(line);
    if (r.isError) {
      const text = r.text || JSON.stringify(r.value);
      return fail(`MCP tool ${tool} on server ${server} returned an error: ${text}`, {
        result: r.value,
      });
    }
    const fields = isPlainObject(r.value) ? r.value : {};
    return ok({ ...fields, result: r.value });
  },
};

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
