/**
 * The building blocks of copy-file and move-file: stage a copy beside the destination, then
 * place it with one atomic step — rename to replace, hard link to create only (a link fails if
 * the destination exists, so "check then write" races cannot happen).
 */
import { basename, dirname, join } from "node:path";

/** Copies `source` to a temp file in `dest`'s folder (same file system as `dest`). */
export async function stageCopy(source: string, dest: string): Promise<string> {
  const tmp = join(dirname(dest), `.${basename(dest)}.${crypto.randomUUID().slice(0, 8)}.tmp`);
  try {
    await Deno.copyFile(source, tmp);
  } catch (err) {
    await Deno.remove(tmp).catch(() => {});
    throw err;
  }
  return tmp;
}

/** Moves the staged temp file to `dest`: replacing (rename) or create-only (link). */
export async function placeStaged(tmp: string, dest: string, overwrite: boolean): Promise<void> {
  try {
    if (overwrite) await Deno.rename(tmp, dest);
    else await Deno.link(tmp, dest);
  } finally {
    await Deno.remove(tmp).catch(() => {});
  }
}

export function existsMessage(dest: string): string {
  return `${dest} already exists; set overwrite: true to replace it, or choose another dest_path`;
}
