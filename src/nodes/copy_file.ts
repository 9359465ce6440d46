/**
 * The `copy-file` node: copies one file. The copy is staged beside the destination and placed
 * atomically, so a reader never sees half a file and `overwrite: false` can never clobber a
 * file that appeared meanwhile. Needs --allow-read on the source, --allow-read and --allow-write
 * on the destination folder.
 */
import { dirname } from "node:path";
import type { NodeInterface } from "../core/node_interface.ts";
import { fsErrorMessage } from "./_fs_errors.ts";
import { readParams } from "./_params.ts";
import { resolvePath } from "./_paths.ts";
import { existsMessage, placeStaged, stageCopy } from "./_transfer.ts";
import { fail, type NodeContext, type NodeImpl, type NodeResult, ok } from "./types.ts";

const copyFileInterface: NodeInterface = {
  type: "copy-file",
  description:
    "Copy a file. Refuses to replace an existing destination unless overwrite is true; creates missing destination folders.",
  params: {
    source_path: { type: "string", required: true, description: "The file to copy" },
    dest_path: { type: "string", required: true, description: "Where the copy goes (a file path)" },
    overwrite: {
      type: "boolean",
      default: false,
      description: "Replace the destination if it exists",
    },
  },
  outputs: {
    source_path: { type: "string", description: "The absolute source path" },
    dest_path: { type: "string", description: "The absolute destination path" },
  },
  actions: ["default", "error"],
  category: "core",
};

async function copyFile(raw: Record<string, unknown>, ctx: NodeContext): Promise<NodeResult> {
  const checked = readParams(copyFileInterface, raw);
  if (!checked.ok) return fail(checked.error);
  const source = resolvePath(ctx.cwd, checked.values.source_path as string);
  const dest = resolvePath(ctx.cwd, checked.values.dest_path as string);
  const overwrite = checked.values.overwrite as boolean;
  try {
    if ((await Deno.stat(source)).isDirectory) {
      return fail(`${source} is a directory; copy-file copies single files`);
    }
  } catch (err) {
    return fail(fsErrorMessage(err, "copy", source));
  }
  let tmp: string;
  try {
    await Deno.mkdir(dirname(dest), { recursive: true });
    tmp = await stageCopy(source, dest);
  } catch (err) {
    return fail(fsErrorMessage(err, "copy to", dest));
  }
  try {
    await placeStaged(tmp, dest, overwrite);
  } catch (err) {
    if (err instanceof Deno.errors.AlreadyExists) return fail(existsMessage(dest));
    return fail(fsErrorMessage(err, "copy to", dest));
  }
  return ok({ source_path: source, dest_path: dest });
}

export const copyFileNode: NodeImpl = { interface: copyFileInterface, run: copyFile };
