/**
 * The `delete-file` node: removes one file (or symlink), never a folder. Needs --allow-read and
 * --allow-write on the path.
 */
import type { NodeInterface } from "../core/node_interface.ts";
import { fsErrorMessage } from "./_fs_errors.ts";
import { readParams } from "./_params.ts";
import { resolvePath } from "./_paths.ts";
import { fail, type NodeContext, type NodeImpl, type NodeResult, ok } from "./types.ts";

const deleteFileInterface: NodeInterface = {
  type: "delete-file",
  description:
    "Delete a file. A missing file is an error unless missing_ok is true; folders are refused.",
  params: {
    file_path: { type: "string", required: true, description: "The file to delete" },
    missing_ok: {
      type: "boolean",
      default: false,
      description: "Succeed (with deleted: false) when the file does not exist",
    },
  },
  outputs: {
    deleted: { type: "boolean", description: "True when a file was removed" },
    path: { type: "string", description: "The absolute path" },
  },
  actions: ["default", "error"],
  category: "core",
};

async function deleteFile(raw: Record<string, unknown>, ctx: NodeContext): Promise<NodeResult> {
  const checked = readParams(deleteFileInterface, raw);
  if (!checked.ok) return fail(checked.error);
  const path = resolvePath(ctx.cwd, checked.values.file_path as string);
  try {
    if ((await Deno.lstat(path)).isDirectory) {
      return fail(`${path} is a directory; delete-file removes single files`);
    }
    await Deno.remove(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound && checked.values.missing_ok) {
      return ok({ deleted: false, path });
    }
    return fail(fsErrorMessage(err, "delete", path));
  }
  return ok({ deleted: true, path });
}

export const deleteFileNode: NodeImpl = { interface: deleteFileInterface, run: deleteFile };
