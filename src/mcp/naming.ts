/**
 * MCP node type names: `mcp-<server>-<tool>`, the tool part lowercased and sanitised to
 * `[a-z0-9-]` (`create_issue` → `create-issue`). The entry keeps the original tool name, which
 * is what gets called.
 */

export function sanitizeToolName(tool: string): string {
  return tool.toLowerCase().replace(/[^a-z0-9-]+/g, "-").replace(/-{2,}/g, "-")
    .replace(/^-+|-+$/g, "");
}

export function mcpNodeType(server: string, tool: string): string {
  return `mcp-${server}-${sanitizeToolName(tool)}`;
}
