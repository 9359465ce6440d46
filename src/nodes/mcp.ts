/**
 * The one generic MCP node: runs any synced MCP tool. The compiler injects `__mcp_server__` and
 * `__mcp_tool__`; every other param except pflow's own (`timeout`, `__*`) is a tool argument.
 * (Placeholder until the MCP client lands.)
 */
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
    const server = String(params.__mcp_server__ ?? "");
    const tool = String(params.__mcp_tool__ ?? "");
    const args: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(params)) {
      if (k !== "timeout" && !k.startsWith("__")) args[k] = v;
    }
    const r = await ctx.mcp.callTool(server, tool, args, { signal: ctx.signal });
    if (r.isError) return fail(r.text);
    return ok({ result: r.value });
  },
};
