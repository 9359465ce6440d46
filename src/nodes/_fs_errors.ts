/**
 * One message per file-system failure a user can meet, so every file node words the same
 * problem the same way: what failed, on which path, and what to do.
 */
import { permissionError } from "../core/errors.ts";

/** `verb` completes "Could not …", e.g. "read", "write to", "copy". */
export function fsErrorMessage(err: unknown, verb: string, path: string): string {
  if (err instanceof Deno.errors.NotCapable) return permissionError(err).message;
  if (err instanceof Deno.errors.NotFound) {
    return `Could not ${verb} ${path}: no such file or directory; check the path (relative paths resolve against the current directory)`;
  }
  if (err instanceof Deno.errors.PermissionDenied) {
    return `Could not ${verb} ${path}: the operating system denied access; check the file's permissions`;
  }
  if (err instanceof Deno.errors.IsADirectory) {
    return `Could not ${verb} ${path}: it is a directory; give the path of a file`;
  }
  if (err instanceof Deno.errors.NotADirectory) {
    return `Could not ${verb} ${path}: a part of the path is a file, not a directory`;
  }
  const message = err instanceof Error ? err.message : String(err);
  return `Could not ${verb} ${path}: ${message}`;
}

/** Deno reports EXDEV (rename/link across file systems) as a plain Error with a code. */
export function isCrossDevice(err: unknown): boolean {
  return err instanceof Error && (err as Error & { code?: string }).code === "EXDEV";
}
