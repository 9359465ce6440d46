/**
 * A per-workflow lock file for read-modify-write updates (run statistics, forced saves): created
 * with `createNew`, so of any number of processes exactly one holds it; the others retry. A lock
 * left by a killed process is broken once it is older than any update could take.
 * Needs --allow-read and --allow-write on the folder.
 */
import { PflowError } from "../core/errors.ts";

/** No update holds the lock this long; an older lock was left by a crash. */
const STALE_MS = 10_000;
/** How long a caller waits for the lock before giving up. */
const WAIT_MS = 30_000;

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function acquire(lockPath: string): Promise<void> {
  const start = Date.now();
  let backoff = 1;
  for (;;) {
    try {
      const file = await Deno.open(lockPath, { write: true, createNew: true });
      try {
        await file.write(new TextEncoder().encode(`${Deno.pid} ${new Date().toISOString()}\n`));
      } finally {
        file.close();
      }
      return;
    } catch (err) {
      if (!(err instanceof Deno.errors.AlreadyExists)) throw err;
    }
    const info = await Deno.stat(lockPath).catch(() => undefined);
    if (info?.mtime && Date.now() - info.mtime.getTime() > STALE_MS) {
      await Deno.remove(lockPath).catch(() => {});
      continue;
    }
    if (Date.now() - start > WAIT_MS) {
      throw new PflowError("io", `Timed out waiting for the lock ${lockPath}`, {
        suggestion:
          "Another pflow process is updating this workflow; if none is, delete the lock file",
      });
    }
    await pause(backoff + Math.random() * backoff);
    backoff = Math.min(backoff * 2, 50);
  }
}

/** Runs `fn` while holding the lock at `lockPath`; the lock is released even when `fn` throws. */
export async function withLock<T>(lockPath: string, fn: () => Promise<T>): Promise<T> {
  await acquire(lockPath);
  try {
    return await fn();
  } finally {
    await Deno.remove(lockPath).catch(() => {});
  }
}
