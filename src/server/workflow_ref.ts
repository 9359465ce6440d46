/**
 * The `workflow` argument every tool takes: an IR object; markdown content (has a newline); a path
 * ending `.pflow.md`/`.json`; a library name; a draft name (resolveWorkflow's fixed order). Before
 * that, a server-side gate: a path may not climb (`..`), start with `~`, or hide characters —
 * an agent names files it was given, it does not explore the disk.
 */
import { relative } from "node:path";
import { z } from "zod";
import { SecurityError } from "../core/errors.ts";

export const WorkflowRef = z.union([
  z.string().min(1).describe(
    "Markdown content (contains a newline), a path ending .pflow.md or .json, a saved workflow name, or a draft name",
  ),
  z.record(z.string(), z.unknown()).describe("A workflow IR object"),
]).describe(
  "The workflow: IR object, markdown content, path, library name or draft name — tried in that order",
);

// deno-lint-ignore no-control-regex
const HIDDEN = /[\u0000-\u001f\u007f%]/;

/** Returns `ref` when the server may resolve it. @throws SecurityError */
export function guardWorkflowRef(
  ref: string | Record<string, unknown>,
): string | Record<string, unknown> {
  if (typeof ref !== "string" || ref.includes("\n")) return ref;
  const folded = ref.normalize("NFKC");
  for (const s of [ref, folded]) {
    if (s.split(/[\\/]/).includes("..") || s.startsWith("~") || HIDDEN.test(s)) {
      throw new SecurityError(
        `Refused workflow reference ${
          JSON.stringify(ref.slice(0, 80))
        }: paths may not climb with '..', start with '~' or hold control or percent-encoded characters`,
        "Pass a saved workflow's name, the workflow content itself, or a plain path to a .pflow.md file",
      );
    }
  }
  return ref;
}

/** A path relative to PFLOW_HOME when it lies inside it (what responses show). */
export function homeRelative(home: string, path: string | undefined): string | undefined {
  if (!path) return path;
  const rel = relative(home, path);
  return rel.startsWith("..") ? path : rel;
}
