/**
 * Atomic file writes: a temp file in the same folder, then rename (replace) or hard link
 * (create only). No crash at any instant leaves a half-written or lost file.
 * Needs --allow-read and --allow-write on the target folder.
 */
import { basename, dirname, join } from "node:path";
import { PflowError } from "./errors.ts";

async function writeTemp(path: string, data: string, mode?: number): Promise<string> {
  const dir = dirname(path);
  await Deno.mkdir(dir, { recursive: true });
  const tmp = join(dir, `.${basename(path)}.${crypto.randomUUID().slice(0, 8)}.tmp`);
  const file = await Deno.open(tmp, { write: true, createNew: true, mode: mode ?? 0o644 });
  try {
    const bytes = new TextEncoder().encode(data);
    let written = 0;
    while (written < bytes.length) written += await file.write(bytes.subarray(written));
    await file.sync();
  } finally {
    file.close();
  }
  if (mode !== undefined) await Deno.chmod(tmp, mode).catch(() => {});
  return tmp;
}

/** Writes `data` to `path`, replacing any existing file atomically. */
export async function writeFileAtomic(
  path: string,
  data: string,
  opts: { mode?: number } = {},
): Promise<void> {
  const tmp = await writeTemp(path, data, opts.mode);
  try {
    await Deno.rename(tmp, path);
  } catch (err) {
    await Deno.remove(tmp).catch(() => {});
    throw err;
  }
}

/**
 * Writes `data` to `path` only if nothing is there. The existence check *is* the write (a hard
 * link fails atomically if the target exists), so of two racing writers exactly one wins.
 * @throws PflowError code "exists" when the target is already there.
 */
export async function writeFileNew(path: string, data: string): Promise<void> {
  const tmp = await writeTemp(path, data);
  try {
    await Deno.link(tmp, path);
  } catch (err) {
    if (err instanceof Deno.errors.AlreadyExists) {
      throw new PflowError("exists", `${path} already exists`, {
        suggestion: "Choose another name, or pass force to overwrite it",
      });
    }
    throw err;
  } finally {
    await Deno.remove(tmp).catch(() => {});
  }
}
