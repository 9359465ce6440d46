/**
 * The workflow library on disk: saved workflows in `PFLOW_HOME/workflows/<name>.pflow.md`, drafts
 * in `PFLOW_HOME/drafts/<name>.pflow.md`. Metadata lives in YAML frontmatter; the author's
 * markdown body is kept byte for byte. Every name passes validateName before it becomes a path;
 * every write is atomic, and a save without `force` cannot overwrite (the hard link is the check).
 * Needs --allow-read and --allow-write on PFLOW_HOME.
 */
import { join } from "node:path";
import { PflowError } from "../core/errors.ts";
import { writeFileAtomic, writeFileNew } from "../core/atomic.ts";
import { homePaths } from "../core/paths.ts";
import type { ParsedWorkflow } from "../core/ir.ts";
import type { InterfaceLookup } from "../core/node_interface.ts";
import { parseMarkdownWorkflow, serializeFrontmatter, splitFrontmatter } from "../core/markdown.ts";
import { validateWorkflow } from "../core/validator.ts";
import { closestMatches } from "../core/suggest.ts";
import { validateName } from "./names.ts";
import { withLock } from "./_lock.ts";
import { irToMarkdown } from "./_ir_markdown.ts";

export type WorkflowKind = "workflow" | "draft";
export const WORKFLOW_EXT = ".pflow.md";

function folder(home: string, kind: WorkflowKind): string {
  const paths = homePaths(home);
  return kind === "draft" ? paths.drafts : paths.workflows;
}

/** The file of a saved workflow or draft. @throws SecurityError / PflowError for a bad name. */
export function workflowPath(home: string, name: string, kind: WorkflowKind = "workflow"): string {
  return join(folder(home, kind), `${validateName(name, kindLabel(kind))}${WORKFLOW_EXT}`);
}

export function lockPath(home: string, name: string, kind: WorkflowKind = "workflow"): string {
  return join(folder(home, kind), `.${validateName(name, kindLabel(kind))}.lock`);
}

const kindLabel = (kind: WorkflowKind) => kind === "draft" ? "draft name" : "workflow name";

/** A library file, parsed. */
export interface StoredWorkflow {
  name: string;
  kind: WorkflowKind;
  path: string;
  parsed: ParsedWorkflow;
}

/** One line of a listing: read from the frontmatter only, so listing stays fast. */
export interface WorkflowSummary {
  name: string;
  kind: WorkflowKind;
  path: string;
  description: string;
  metadata: Record<string, unknown>;
}

export interface SaveOptions {
  /** The registry view to validate against (the one validator, placeholders for inputs). */
  lookup: InterfaceLookup;
  /** Replace an existing file. Without it a save never overwrites. */
  force?: boolean;
  kind?: WorkflowKind;
}

/** Throws a `validation` PflowError listing every error, or returns. */
export function assertValid(parsed: ParsedWorkflow, lookup: InterfaceLookup): void {
  const report = validateWorkflow(parsed, lookup);
  if (report.valid) return;
  const lines = report.errors.map((e) => {
    const where = [
      e.node && `node '${e.node}'`,
      e.param && `param '${e.param}'`,
      e.line && `line ${e.line}`,
    ]
      .filter(Boolean).join(", ");
    return `  - ${e.message}${where ? ` (${where})` : ""}`;
  });
  throw new PflowError(
    "validation",
    `The workflow is not valid (${report.errors.length} error${
      report.errors.length === 1 ? "" : "s"
    }):\n${lines.join("\n")}`,
    {
      suggestion: "Fix the errors above, then save again ('pflow validate FILE' checks it)",
      details: { errors: report.errors },
    },
  );
}

/** The first prose paragraph after `# Title`, for workflows saved without a description. */
export function descriptionFromBody(body: string): string {
  const lines = body.split(/\r?\n/);
  let i = lines.findIndex((l) => /^#\s/.test(l));
  if (i < 0) return "";
  const para: string[] = [];
  for (i++; i < lines.length; i++) {
    const l = lines[i].trim();
    if (l.startsWith("#")) break;
    if (!l) {
      if (para.length) break;
      continue;
    }
    para.push(l);
  }
  return para.join(" ");
}

/** A description as one line: listings, search results and frontmatter show it on one row. */
const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();

/** The file text to store: fresh metadata in the frontmatter, the author's body verbatim. */
function fileText(parsed: ParsedWorkflow, keep: Record<string, unknown> = {}): string {
  const body = parsed.body ?? irToMarkdown(parsed.ir);
  const now = new Date().toISOString();
  const description = oneLine(parsed.ir.description ?? descriptionFromBody(body));
  const metadata: Record<string, unknown> = {
    ...(description ? { description } : {}),
    created_at: keep.created_at ?? now,
    updated_at: now,
  };
  return serializeFrontmatter(metadata, body);
}

/**
 * Validates `parsed`, then writes it as `name`. Without `force` the write is a hard link, so of
 * concurrent saves of one name exactly one wins and the others get an `exists` error.
 * @throws PflowError `validation` (nothing written), `exists`, SecurityError for a hostile name
 */
export async function saveWorkflow(
  home: string,
  name: string,
  parsed: ParsedWorkflow,
  opts: SaveOptions,
): Promise<{ name: string; path: string; kind: WorkflowKind }> {
  const kind = opts.kind ?? "workflow";
  const path = workflowPath(home, name, kind);
  assertValid(parsed, opts.lookup);
  if (!opts.force) {
    try {
      await writeFileNew(path, fileText(parsed));
    } catch (err) {
      if (err instanceof PflowError && err.code === "exists") {
        throw new PflowError("exists", `A ${kind} named '${name}' already exists`, {
          suggestion: `Pass --force to replace it, or choose another name`,
          details: { name, path },
        });
      }
      throw err;
    }
    return { name, path, kind };
  }
  // Forced: under the lock, so a concurrent run-statistics update cannot write the old body back.
  await Deno.mkdir(folder(home, kind), { recursive: true });
  await withLock(lockPath(home, name, kind), async () => {
    const old = await Deno.readTextFile(path).then(splitFrontmatter).catch(() => undefined);
    await writeFileAtomic(path, fileText(parsed, old?.metadata));
  });
  return { name, path, kind };
}

/** Saves a draft (same rules as a saved workflow, in `drafts/`). */
export function saveDraft(
  home: string,
  name: string,
  parsed: ParsedWorkflow,
  opts: Omit<SaveOptions, "kind">,
): Promise<{ name: string; path: string; kind: WorkflowKind }> {
  return saveWorkflow(home, name, parsed, { ...opts, kind: "draft" });
}

/**
 * Moves draft `draftName` into the library as `name` (default: the same name). The draft is
 * removed only after the library file is in place, so a crash loses nothing.
 */
export async function saveDraftToLibrary(
  home: string,
  draftName: string,
  opts: SaveOptions & { name?: string },
): Promise<{ name: string; path: string; kind: WorkflowKind }> {
  const draft = await loadWorkflow(home, draftName, "draft");
  const saved = await saveWorkflow(home, opts.name ?? draftName, draft.parsed, {
    ...opts,
    kind: "workflow",
  });
  await Deno.remove(draft.path).catch((err) => {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  });
  return saved;
}

/** Names of every workflow (or draft) on disk, sorted. Stray files are ignored. */
export function listNames(home: string, kind: WorkflowKind = "workflow"): string[] {
  const names: string[] = [];
  try {
    // Sync: iterating a large folder asynchronously costs a promise per entry (5x slower).
    for (const entry of Deno.readDirSync(folder(home, kind))) {
      if (!entry.isFile || !entry.name.endsWith(WORKFLOW_EXT) || entry.name.startsWith(".")) {
        continue;
      }
      const name = entry.name.slice(0, -WORKFLOW_EXT.length);
      if (/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(name)) names.push(name);
    }
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return [];
    throw err;
  }
  return names.sort();
}

/** @throws PflowError `not_found` listing close names */
export function notFound(home: string, name: string, kind: WorkflowKind): never {
  const close = closestMatches(name, listNames(home, kind));
  throw new PflowError("not_found", `No ${kind} named '${name}'`, {
    suggestion: close.length
      ? `Did you mean ${close.map((c) => `'${c}'`).join(", ")}?`
      : `Run 'pflow workflow list' to see the saved workflows`,
    details: { name, similar: close },
  });
}

/** Reads and parses a saved workflow or draft. @throws PflowError `not_found`, `parse` */
export async function loadWorkflow(
  home: string,
  name: string,
  kind: WorkflowKind = "workflow",
): Promise<StoredWorkflow> {
  const path = workflowPath(home, name, kind);
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return notFound(home, name, kind);
    throw err;
  }
  return { name, kind, path, parsed: parseMarkdownWorkflow(text, { path }) };
}

/** True when a workflow (or draft) of that name exists. */
export async function workflowExists(
  home: string,
  name: string,
  kind: WorkflowKind = "workflow",
): Promise<boolean> {
  const path = workflowPath(home, name, kind);
  return await Deno.stat(path).then((s) => s.isFile, () => false);
}

/** Deletes a saved workflow or draft. @throws PflowError `not_found` */
export async function deleteWorkflow(
  home: string,
  name: string,
  kind: WorkflowKind = "workflow",
): Promise<{ name: string; path: string }> {
  const path = workflowPath(home, name, kind);
  try {
    await Deno.remove(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return notFound(home, name, kind);
    throw err;
  }
  return { name, path };
}

/** The summary of each listed file by path, reused while the file's stat says it is unchanged. */
const summaries = new Map<string, { key: string; summary: WorkflowSummary }>();

/**
 * Every workflow (or draft) with its frontmatter; unreadable files are listed without it. Each
 * file is stat'ed every time, so edits are always seen (an edit changes its mtime, size or, for
 * an atomic replace, inode); only changed files are read and parsed again. Sync calls on
 * purpose: a thousand small stats take ~3 ms, a thousand concurrent promises several times that.
 */
export function listWorkflows(
  home: string,
  kind: WorkflowKind = "workflow",
): WorkflowSummary[] {
  const dir = folder(home, kind);
  // listNames only returns names of the valid shape, so they join safely without re-checking.
  return (listNames(home, kind)).map((name): WorkflowSummary => {
    const path = join(dir, `${name}${WORKFLOW_EXT}`);
    let key: string;
    let text: string;
    try {
      const st = Deno.statSync(path);
      key = `${st.mtime?.getTime()}:${st.size}:${st.ino}`;
      const cached = summaries.get(path);
      if (cached?.key === key) return cached.summary;
      text = Deno.readTextFileSync(path);
    } catch {
      return { name, kind, path, description: "", metadata: {} };
    }
    let metadata: Record<string, unknown> = {};
    let body = text;
    try {
      ({ metadata, body } = splitFrontmatter(text));
    } catch { /* listed without metadata; load reports the problem */ }
    const description = oneLine(
      typeof metadata.description === "string" ? metadata.description : descriptionFromBody(body),
    );
    const summary = { name, kind, path, description, metadata };
    summaries.set(path, { key, summary });
    return summary;
  });
}
