/**
 * The one door to the official MCP SDK (client side only; never import server modules). Under
 * Deno the SDK's deep `.js` imports carry no types, so each re-export names its declaration file
 * with `@ts-types`: everything else in pflow imports the SDK from here and is type-checked.
 */

// @ts-types="@modelcontextprotocol/sdk/client/index"
export { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/shared/transport"
export type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
// @ts-types="@modelcontextprotocol/sdk/shared/stdio"
export { serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
// @ts-types="@modelcontextprotocol/sdk/types"
export { ErrorCode, JSONRPCMessageSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
// @ts-types="@modelcontextprotocol/sdk/types"
export type {
  CallToolResult,
  ContentBlock,
  JSONRPCMessage,
  Tool,
} from "@modelcontextprotocol/sdk/types.js";
