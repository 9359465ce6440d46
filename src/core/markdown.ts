/**
 * Reading workflows: the `.pflow.md` parser (compatible with the Python pflow's format) and the
 * loader that reads a workflow file, markdown or JSON IR, into a `ParsedWorkflow`.
 *
 * @example
 * ```ts
 * const { ir, sourceMap } = parseMarkdownWorkflow(text, { path: "hello.pflow.md" });
 * const wf = await loadWorkflowFile("examples/hello.pflow.md"); // needs --allow-read
 * ```
 */
import { PflowError, toPflowError } from "./errors.ts";
import { type ParsedWorkflow, WorkflowIRSchema } from "./ir.ts";
import { buildWorkflow } from "./_markdown_build.ts";
import { splitFrontmatterWithOffset } from "./_markdown_frontmatter.ts";
import { issuesToError } from "./_markdown_issues.ts";
import { parseJsonWorkflow } from "./_markdown_json.ts";
import { scanMarkdown } from "./_markdown_scan.ts";

export { serializeFrontmatter, splitFrontmatter } from "./_markdown_frontmatter.ts";

export interface ParseOptions {
  /** The file the text came from: named in errors (`details.path`). */
  path?: string;
}

/**
 * Parses `.pflow.md` text into the IR (schema defaults applied), a source map of heading,
 * param and code-block lines, the frontmatter metadata and the body after it.
 *
 * @throws PflowError `parse` with `details.line` for a malformed document; `validation` when
 *   the values do not fit the IR schema (e.g. an input `- type: strin`).
 */
export function parseMarkdownWorkflow(text: string, opts: ParseOptions = {}): ParsedWorkflow {
  try {
    const { metadata, body, bodyLineOffset } = splitFrontmatterWithOffset(text);
    const lines = text.split(/\r\n|\r|\n/);
    const built = buildWorkflow(scanMarkdown(lines, bodyLineOffset));
    const result = WorkflowIRSchema.safeParse(built.ir);
    if (!result.success) {
      throw issuesToError(result.error.issues, opts.path ? `in ${opts.path}` : "", (path) => {
        const [kind, key, field, param] = path;
        if (kind === "nodes" && typeof key === "number") {
          const id = (built.ir.nodes as { id: string }[])[key]?.id;
          const entry = built.sourceMap.nodes[id];
          if (!entry) return undefined;
          const name = field === "params" ? param : field;
          return (typeof name === "string" ? entry.params[name] : undefined) ?? entry.line;
        }
        if (kind === "inputs" && typeof key === "string") {
          return (typeof field === "string" ? built.inputParamLines[key]?.[field] : undefined) ??
            built.sourceMap.inputs[key];
        }
        if (kind === "outputs" && typeof key === "string") {
          return (typeof field === "string" ? built.outputParamLines[key]?.[field] : undefined) ??
            built.sourceMap.outputs[key];
        }
        return undefined;
      });
    }
    return { ir: result.data, sourceMap: built.sourceMap, metadata, body };
  } catch (err) {
    if (err instanceof PflowError && opts.path && err.details.path === undefined) {
      err.details.path = opts.path;
    }
    throw err;
  }
}

/**
 * Reads a workflow file: `.json` holds an IR (validated by the schema), anything else is
 * `.pflow.md`. Needs read permission for `path`.
 *
 * @throws PflowError `not_found` when the file does not exist, `parse` for bytes that are not
 *   UTF-8, broken JSON or malformed markdown, `validation` for a JSON IR that does not fit the
 *   schema, `permission` when Deno refuses the read.
 */
export async function loadWorkflowFile(path: string): Promise<ParsedWorkflow> {
  let bytes: Uint8Array;
  try {
    bytes = await Deno.readFile(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) {
      throw new PflowError("not_found", `Workflow file not found: ${path}`, {
        suggestion: "Check the path (relative paths start from the current directory).",
        details: { path },
      });
    }
    if (err instanceof Deno.errors.IsADirectory) {
      throw new PflowError("invalid_params", `${path} is a directory, not a workflow file`, {
        suggestion: "Give the path of a .pflow.md or .json file.",
        details: { path },
      });
    }
    throw toPflowError(err);
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new PflowError("parse", `${path} is not UTF-8 text`, {
      suggestion: "Save the workflow file with UTF-8 encoding.",
      details: { path },
    });
  }
  if (path.toLowerCase().endsWith(".json")) return parseJsonWorkflow(text, path);
  return parseMarkdownWorkflow(text, { path });
}
