/**
 * The `move-file` node: moves a file (or a folder) with one atomic step where the file system
 * allows it: rename to replace, hard link + unlink to create only (the link fails if the
 * destination exists, so no racing writer is clobbered). Across file systems a file is copied
 * beside the destination, placed atomically, then the source removed. Needs --allow-read and
 * --allow-write on both folders.
 */
import { dirname } from "node:path";
import type { NodeInterface } from "../core/node_interface.ts";
import { fsErrorMessage, isCrossDevice } from "./_fs_errors.ts";
import { readParams } from "./_params.ts";
import { resolvePath } from "./_paths.ts";
import { existsMessage, placeStaged, stageCopy } from "./_transfer.ts";
import { fail, type NodeContext, type NodeImpl, type NodeResult, ok } from "./types.ts";

const moveFileInterface: NodeInterface = {
  type: "move-file",
  description:
    "Move or rename a file or folder. Refuses to replace an existing destination unless overwrite is true; creates missing destination folders.",
  params: {
    source_path: { type: "string", required: true, description: "The file or folder to move" },
    dest_path: { type: "string", required: true, description: "Its new path" },
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

async function moveFile(raw: Record<string, unknown>, ctx: NodeContext): Promise<NodeResult> {
  const checked = readParams(moveFileInterface, raw);
  if (!checked.ok) return fail(checked.error);
  const source = resolvePath(ctx.cwd, checked.values.source_path as string);
  const dest = resolvePath(ctx.cwd, checked.values.dest_path as string);
  const overwrite = checked.values.overwrite as boolean;
  let isDirectory: boolean;
  try {
    isDirectory = (await Deno.lstat(source)).isDirectory;
    await Deno.mkdir(dirname(dest), { recursive: true });
  } catch (err) {
    return fail(fsErrorMessage(err, "move", source));
  }
  try {
    if (isDirectory) await moveFolder(source, dest, overwrite);
    else await moveSingle(source, dest, overwrite);
  } catch (err) {
    if (err instanceof Deno.errors.AlreadyExists) return fail(existsMessage(dest));
    if (isCrossDevice(err)) {
      return fail(`Could not move folder ${source} to ${dest}: they are on different file systems`);
    }
    return fail(fsErrorMessage(err, `move ${source} to`, dest));
  }
  return ok({ source_path: source, dest_path: dest });
}

async function moveSingle(source: string, dest: string, overwrite: boolean): Promise<void> {
  try {
    if (overwrite) {
      await Deno.rename(source, dest);
      return;
    }
    await Deno.link(source, dest);
  } catch (err) {
    if (!isCrossDevice(err)) throw err;
    await placeStaged(await stageCopy(source, dest), dest, overwrite);
  }
  await Deno.remove(source);
}

/** A folder cannot be hard-linked: creating an empty folder reserves the name atomically,
 * and rename replaces an empty folder in one step. */
async function moveFolder(source: string, dest: string, overwrite: boolean): Promise<void> {
  if (overwrite) {
    await Deno.rename(source, dest);
    return;
  }
  await Deno.mkdir(dest);
  try {
    await Deno.rename(source, dest);
  } catch (err) {
    await Deno.remove(dest).catch(() => {});
    throw err;
  }
}

export const moveFileNode: NodeImpl = { interface: moveFileInterface, run: moveFile };
