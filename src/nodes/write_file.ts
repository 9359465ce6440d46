/**
 * The `write-file` node: writes text (objects as JSON) to a file, atomically when replacing
 * (temp file + rename, keeping the old file's mode), or appends. Needs --allow-read and
 * --allow-write on the file's folder.
 */
import { dirname } from "node:path";
import { writeFileAtomic } from "../core/atomic.ts";
import type { NodeInterface } from "../core/node_interface.ts";
import { fsErrorMessage } from "./_fs_errors.ts";
import { readParams } from "./_params.ts";
import { resolvePath } from "./_paths.ts";
import { fail, type NodeContext, type NodeImpl, type NodeResult, ok } from "./types.ts";

const writeFileInterface: NodeInterface = {
  type: "write-file",
  description:
    "Write content to a file: strings as-is, objects and arrays as JSON. Replaces the file atomically, or appends.",
  params: {
    file_path: { type: "string", required: true, description: "The file to write" },
    content: {
      type: "any",
      required: true,
      description: "What to write: strings as-is, anything else as JSON",
    },
    append: {
      type: "boolean",
      default: false,
      description: "Append to the file instead of replacing it",
    },
    create_dirs: {
      type: "boolean",
      default: true,
      description: "Create missing parent folders",
    },
  },
  outputs: {
    written: { type: "boolean", description: "Always true on success" },
    path: { type: "string", description: "The absolute path that was written" },
    bytes: { type: "integer", description: "How many bytes were written" },
  },
  actions: ["default", "error"],
  category: "core",
};

/** Strings as-is; everything else as indented JSON, the form a person would want in a file. */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  return JSON.stringify(content, null, 2) ?? String(content);
}

async function writeFile(raw: Record<string, unknown>, ctx: NodeContext): Promise<NodeResult> {
  const checked = readParams(writeFileInterface, raw);
  if (!checked.ok) return fail(checked.error);
  const p = checked.values;
  const path = resolvePath(ctx.cwd, p.file_path as string);
  const text = contentText(p.content);
  const dir = dirname(path);
  try {
    if (p.create_dirs) {
      await Deno.mkdir(dir, { recursive: true });
    } else if (!(await isDirectory(dir))) {
      return fail(
        `Folder ${dir} does not exist; create it first or set create_dirs: true`,
      );
    }
    if (p.append) {
      await Deno.writeTextFile(path, text, { append: true });
    } else {
      // Write through a symlink to its target, and keep an existing file's permissions.
      const target = await Deno.realPath(path).catch(() => path);
      const mode = await Deno.stat(target).then((s) => s.mode ?? undefined, () => undefined);
      await writeFileAtomic(target, text, mode === undefined ? {} : { mode: mode & 0o7777 });
    }
  } catch (err) {
    return fail(fsErrorMessage(err, p.append ? "append to" : "write", path));
  }
  return ok({ written: true, path, bytes: new TextEncoder().encode(text).length });
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isDirectory;
  } catch {
    return false;
  }
}

export const writeFileNode: NodeImpl = { interface: writeFileInterface, run: writeFile };
