/**
 * The one door to the official MCP SDK for pflow's MCP server (server side only; never import
 * client modules here). Under Deno the SDK's deep `.js` imports carry no types, so each re-export
 * names its declaration file with `@ts-types`: src/server imports the SDK from here, type-checked.
 */

// @ts-types="@modelcontextprotocol/sdk/server/mcp"
export { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
// @ts-types="@modelcontextprotocol/sdk/server/stdio"
export { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
// @ts-types="@modelcontextprotocol/sdk/types"
export type {
  CallToolResult,
  ReadResourceResult,
  TextContent,
} from "@modelcontextprotocol/sdk/types.js";
