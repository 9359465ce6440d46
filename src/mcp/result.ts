/**
 * What a tool call gives a workflow: `structuredContent` when present; otherwise the content
 * blocks, with text that holds a JSON object or array parsed, images and resources kept as typed
 * objects, one block as itself and several as a list.
 */
import type { CallToolResult, ContentBlock } from "./sdk_client.ts";

export function resultValue(result: CallToolResult): unknown {
  if (result.structuredContent !== undefined && result.structuredContent !== null) {
    return result.structuredContent;
  }
  const blocks = (result.content ?? []).map(blockValue);
  if (blocks.length === 0) return null;
  return blocks.length === 1 ? blocks[0] : blocks;
}

export function resultText(result: CallToolResult): string {
  return (result.content ?? [])
    .filter((b): b is Extract<ContentBlock, { type: "text" }> => b.type === "text")
    .map((b) => b.text).join("\n");
}

function blockValue(block: ContentBlock): unknown {
  switch (block.type) {
    case "text":
      return parseJsonText(block.text);
    case "image":
    case "audio":
      return { type: block.type, data: block.data, mimeType: block.mimeType };
    case "resource":
      return { type: "resource", resource: block.resource };
    default:
      return block;
  }
}

/** Only objects and arrays: a tool that answers "42" or "true" meant a string. */
function parseJsonText(text: string): unknown {
  const t = text.trim();
  if (!(t.startsWith("{") && t.endsWith("}")) && !(t.startsWith("[") && t.endsWith("]"))) {
    return text;
  }
  try {
    return JSON.parse(t);
  } catch {
    return text;
  }
}
