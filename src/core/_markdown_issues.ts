/**
 * Turns zod issues from `WorkflowIRSchema` into one PflowError `validation` that names the
 * field (`nodes[1].type`, `inputs.name.required`) and, for markdown sources, the line.
 */
import type { z } from "zod";
import { PflowError } from "./errors.ts";

/** `nodes[0].params.command` from `["nodes", 0, "params", "command"]`. */
export function fieldPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else out += out === "" ? String(part) : `.${String(part)}`;
  }
  return out || "(workflow)";
}

/**
 * @param where  e.g. `in workflow.json`, placed after "Invalid workflow".
 * @param lineOf maps an issue path to a source line, when the source has lines.
 */
export function issuesToError(
  issues: readonly z.core.$ZodIssue[],
  where: string,
  lineOf?: (path: readonly PropertyKey[]) => number | undefined,
): PflowError {
  const [first] = issues;
  const field = fieldPath(first.path);
  const lines = issues.map((i) => `${fieldPath(i.path)}: ${i.message}`);
  const line = lineOf?.(first.path);
  const message = `Invalid workflow${where ? ` ${where}` : ""}: ${lines.join("; ")}`;
  return new PflowError("validation", message, {
    suggestion: `Fix '${field}'${
      line ? ` at line ${line}` : ""
    }; a workflow needs nodes (each with an id and a type), and inputs/outputs of the documented shape.`,
    details: {
      field,
      ...(line ? { line } : {}),
      issues: issues.map((i) => ({ field: fieldPath(i.path), message: i.message })),
    },
  });
}
