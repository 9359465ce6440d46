/** Validating a workflow as a user asks for it, and the one text form of the answer. */
import { resolveWorkflow } from "../library/resolve.ts";
import { type Issue, validateWorkflow, type ValidationReport } from "../core/validator.ts";
import { Registry } from "../registry/registry.ts";
import { toPflowError } from "../core/errors.ts";

export interface ValidateResponse extends ValidationReport {
  workflow?: string;
}

/** Parse errors become a report (valid: false) rather than an exception. */
export async function validateService(
  workflow: string | Record<string, unknown>,
  opts: { home: string; cwd: string },
): Promise<ValidateResponse> {
  let resolved;
  try {
    resolved = await resolveWorkflow(workflow, opts);
  } catch (err) {
    const e = toPflowError(err);
    if (e.code !== "parse" && e.code !== "validation") throw e;
    return {
      valid: false,
      errors: [{
        code: e.code === "parse" ? "parse_error" : "schema_error",
        message: e.message,
        ...(e.details.line ? { line: e.details.line as number } : {}),
        ...(e.details.node ? { node: e.details.node as string } : {}),
        ...(e.details.param ? { param: e.details.param as string } : {}),
        ...(e.suggestion ? { suggestion: e.suggestion } : {}),
      }],
      warnings: [],
    };
  }
  const registry = await Registry.load(opts.home);
  const report = validateWorkflow(resolved.parsed, registry.lookup);
  return { ...report, workflow: resolved.name ?? resolved.parsed.ir.title };
}

const formatIssue = (i: Issue, mark: string) => {
  const where = [
    i.node && `node '${i.node}'`,
    i.param && `param '${i.param}'`,
    i.line && `line ${i.line}`,
  ]
    .filter(Boolean).join(", ");
  return `${mark} ${where ? `[${where}] ` : ""}${i.message}${
    i.suggestion ? `\n    → ${i.suggestion}` : ""
  }`;
};

export function formatValidation(r: ValidationReport): string {
  const lines = r.valid ? ["✓ Workflow is valid"] : [
    `✗ Workflow is invalid (${r.errors.length} error${r.errors.length === 1 ? "" : "s"})`,
    ...r.errors.map((e) => formatIssue(e, "  ✗")),
  ];
  for (const w of r.warnings) lines.push(formatIssue(w, "  ⚠"));
  return lines.join("\n");
}
