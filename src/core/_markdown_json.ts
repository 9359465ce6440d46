/**
 * Workflow files that hold the IR as JSON: parse errors name the line and column, schema
 * errors name the field.
 */
import { PflowError } from "./errors.ts";
import { type ParsedWorkflow, WorkflowIRSchema } from "./ir.ts";
import { issuesToError } from "./_markdown_issues.ts";

/**
 * @throws PflowError `parse` for broken JSON (with `details.line` / `details.column`),
 *   `validation` when the value is not a workflow IR.
 */
export function parseJsonWorkflow(text: string, path: string): ParsedWorkflow {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    const offset = jsonErrorOffset(text);
    const { line, column } = lineAndColumn(text, offset);
    const reason = err instanceof Error ? err.message.replace(/ in JSON at position.*$/, "") : "";
    throw new PflowError(
      "parse",
      `Invalid JSON in ${path} at line ${line}, column ${column}: ${reason}`,
      {
        suggestion: "Fix the JSON syntax there (a missing comma, quote or bracket is usual).",
        details: { path, line, column, position: offset },
      },
    );
  }
  // Saved Python pflow files wrap the IR as {"ir": {...}, ...metadata}.
  const wrapped = isRecord(data) && !("nodes" in data) && isRecord(data.ir);
  const irValue = wrapped ? (data as { ir: unknown }).ir : data;
  const result = WorkflowIRSchema.safeParse(irValue);
  if (!result.success) {
    const err = issuesToError(result.error.issues, `in ${path}`);
    err.details.path = path;
    throw err;
  }
  return { ir: result.data, metadata: {} };
}

/**
 * Where JSON.parse gave up. V8 names the position for most errors but not for "Unexpected
 * token"; the longest prefix that is still valid-so-far ends at the bad character.
 */
function jsonErrorOffset(text: string): number {
  const okSoFar = (k: number): boolean => {
    try {
      JSON.parse(text.slice(0, k));
      return true;
    } catch (err) {
      const msg = err instanceof Error ? err.message : "";
      if (msg.startsWith("Unexpected end of JSON input")) return true;
      const m = /at position (\d+)/.exec(msg);
      return m !== null && Number(m[1]) >= k;
    }
  };
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (okSoFar(mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  return { line, column: offset - before.lastIndexOf("\n") };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
