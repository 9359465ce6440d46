/**
 * Turns what a user or agent hands over into a parsed workflow, in one fixed order: an IR object;
 * markdown content (text with a newline); a path ending `.pflow.md` or `.json` (relative to cwd);
 * a library name; a draft name. Names pass validateName first, so a hostile one reads nothing.
 * Needs --allow-read on cwd and PFLOW_HOME.
 */
import { resolve as resolvePath } from "node:path";
import { PflowError, SecurityError } from "../core/errors.ts";
import { type ParsedWorkflow, WorkflowIRSchema } from "../core/ir.ts";
import { loadWorkflowFile, parseMarkdownWorkflow } from "../core/markdown.ts";
import { closestMatches } from "../core/suggest.ts";
import { validateName } from "./names.ts";
import { listNames, loadWorkflow, workflowExists } from "./store.ts";

export type WorkflowSource = "ir" | "content" | "path" | "library" | "draft";

export interface ResolvedWorkflow {
  parsed: ParsedWorkflow;
  /** The library or draft name, when it came from one. */
  name?: string;
  source: WorkflowSource;
  path?: string;
}

/** A zod-checked IR object as a ParsedWorkflow. @throws PflowError `validation` */
export function parsedFromIR(ir: Record<string, unknown>): ParsedWorkflow {
  const result = WorkflowIRSchema.safeParse(ir);
  if (!result.success) {
    const lines = result.error.issues.map((i) =>
      `  - ${i.path.join(".") || "(root)"}: ${i.message}`
    );
    throw new PflowError("validation", `The workflow IR is not valid:\n${lines.join("\n")}`, {
      suggestion: "Give nodes (id, type, params); see 'pflow registry describe TYPE' for params",
      details: { issues: result.error.issues },
    });
  }
  return { ir: result.data, metadata: {} };
}

/**
 * @throws SecurityError for a hostile name (nothing read); PflowError `not_found` listing close
 * names; `parse` / `validation` for a workflow that cannot be read.
 */
export async function resolveWorkflow(
  ref: string | Record<string, unknown>,
  opts: { home: string; cwd: string },
): Promise<ResolvedWorkflow> {
  if (typeof ref === "object" && ref !== null) {
    return { parsed: parsedFromIR(ref), source: "ir" };
  }
  if (typeof ref !== "string") {
    throw new PflowError(
      "invalid_params",
      "A workflow is a name, a path, markdown text or an IR object",
    );
  }
  if (ref.includes("\0")) {
    throw new SecurityError(
      `Refused workflow reference ${JSON.stringify(ref.slice(0, 60))}: it contains a NUL`,
    );
  }
  if (ref.includes("\n")) return { parsed: parseMarkdownWorkflow(ref), source: "content" };
  if (ref.endsWith(".pflow.md") || ref.endsWith(".json")) {
    const path = resolvePath(opts.cwd, ref);
    return { parsed: await loadWorkflowFile(path), source: "path", path };
  }
  const name = validateName(ref);
  if (await workflowExists(opts.home, name)) {
    const stored = await loadWorkflow(opts.home, name);
    return { parsed: stored.parsed, name, source: "library", path: stored.path };
  }
  if (await workflowExists(opts.home, name, "draft")) {
    const stored = await loadWorkflow(opts.home, name, "draft");
    return { parsed: stored.parsed, name, source: "draft", path: stored.path };
  }
  const candidates = [...listNames(opts.home), ...listNames(opts.home, "draft")];
  const close = closestMatches(name, new Set(candidates));
  throw new PflowError("not_found", `No saved workflow or draft named '${name}'`, {
    suggestion: close.length
      ? `Did you mean ${close.map((c) => `'${c}'`).join(", ")}?`
      : "Run 'pflow workflow list' to see saved workflows, or give a path to a .pflow.md file",
    details: { name, similar: close },
  });
}
