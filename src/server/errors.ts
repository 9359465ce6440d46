/**
 * Failures as MCP tool results: `isError: true`, a readable first text block and a second text
 * block holding the structured `{error: {type, message, details, suggestions}}`. (Not
 * structuredContent: clients validate that against the tool's success-shaped output schema.)
 */
import type { CallToolResult } from "./sdk_server.ts";
import { formatError, type PflowError, toPflowError } from "../core/errors.ts";
import type { Redactor } from "../core/redact.ts";

export type ToolErrorType =
  | "not_found"
  | "validation"
  | "template_error"
  | "execution"
  | "security"
  | "invalid_params"
  | "exists";

export interface ToolError {
  type: ToolErrorType;
  message: string;
  details: Record<string, unknown>;
  suggestions: string[];
}

const TYPE_OF: Record<PflowError["code"], ToolErrorType> = {
  parse: "validation",
  validation: "validation",
  template_error: "template_error",
  not_found: "not_found",
  exists: "exists",
  security: "security",
  invalid_params: "invalid_params",
  permission: "execution",
  execution: "execution",
  io: "execution",
};

/** The structured form of anything thrown by a service. */
export function toToolError(err: unknown): ToolError {
  const e = toPflowError(err);
  const suggestions: string[] = [];
  if (e.suggestion) suggestions.push(e.suggestion);
  // Details must stay JSON: drop causes and anything that does not serialise.
  let details: Record<string, unknown> = {};
  try {
    details = JSON.parse(JSON.stringify(e.details ?? {})) ?? {};
  } catch { /* unserialisable details are left out */ }
  return { type: TYPE_OF[e.code] ?? "execution", message: e.message, details, suggestions };
}

/** The readable text of an error: the CLI's formatError, prefixed with its type. */
export function formatToolError(err: unknown): string {
  const e = toPflowError(err);
  return `Error (${toToolError(e).type}): ${formatError(e)}`;
}

/** An `isError` result for `err`, with secrets redacted. */
export function errorResult(err: unknown, redactor: Redactor): CallToolResult {
  const structured = redactor.value({ error: toToolError(err) });
  return {
    isError: true,
    content: [
      { type: "text", text: redactor.text(formatToolError(err)) },
      { type: "text", text: JSON.stringify(structured) },
    ],
  };
}

/** Reads the structured error back out of a result (tests and clients written in TS). */
export function structuredErrorOf(result: { content?: unknown }): ToolError | undefined {
  const blocks = Array.isArray(result.content) ? result.content : [];
  for (const b of blocks) {
    if (b && typeof b === "object" && (b as { type?: unknown }).type === "text") {
      try {
        const parsed = JSON.parse((b as { text: string }).text);
        if (parsed && typeof parsed === "object" && parsed.error?.type) return parsed.error;
      } catch { /* the readable block */ }
    }
  }
  return undefined;
}
