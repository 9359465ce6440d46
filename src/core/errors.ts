/**
 * Errors a user can meet. Every one carries a `code` (what kind of problem), a message that
 * says what was wrong, and where it helps a `suggestion` (what to do next). The CLI prints
 * them without a stack trace; the MCP server maps `code` to its structured error `type`.
 */

export type ErrorCode =
  | "parse" // a workflow file that cannot be read as .pflow.md / JSON
  | "validation" // a workflow that parsed but is not valid
  | "template_error" // an unresolved ${...}
  | "not_found" // a workflow, node, file, server or trace that does not exist
  | "exists" // a save that would overwrite
  | "security" // a name or path refused before it touched the disk
  | "invalid_params" // bad arguments to a command or tool
  | "permission" // Deno refused an operation
  | "execution" // a run failed
  | "io"; // the disk said no

export interface ErrorDetails {
  node?: string;
  param?: string;
  line?: number;
  [key: string]: unknown;
}

export class PflowError extends Error {
  readonly code: ErrorCode;
  readonly suggestion?: string;
  readonly details: ErrorDetails;

  constructor(
    code: ErrorCode,
    message: string,
    opts: { suggestion?: string; details?: ErrorDetails; cause?: unknown } = {},
  ) {
    super(message, { cause: opts.cause });
    this.name = "PflowError";
    this.code = code;
    this.suggestion = opts.suggestion;
    this.details = opts.details ?? {};
  }
}

/** A name or path that must never be resolved (traversal, separators, NUL…). */
export class SecurityError extends PflowError {
  constructor(message: string, suggestion?: string) {
    super("security", message, { suggestion });
    this.name = "SecurityError";
  }
}

/**
 * Turns anything thrown into a PflowError: Deno permission refusals become one clear line
 * naming the flag that would allow the operation.
 */
export function toPflowError(err: unknown): PflowError {
  if (err instanceof PflowError) return err;
  if (err instanceof Deno.errors.NotCapable || err instanceof Deno.errors.PermissionDenied) {
    return permissionError(err);
  }
  if (err instanceof Deno.errors.NotFound) {
    return new PflowError("not_found", err.message);
  }
  const message = err instanceof Error ? err.message : String(err);
  return new PflowError("execution", message, { cause: err });
}

/** Deno says e.g. `Requires run access to "npx", run again with the --allow-run flag`. */
export function permissionError(err: Error): PflowError {
  // The target is absent when the whole resource was asked for (e.g. the full environment).
  const m = /Requires (\w+) access(?: to "?([^",]*)"?)?/.exec(err.message);
  if (!m) {
    return new PflowError("permission", `Permission denied: ${err.message}`, {
      suggestion: "Run pflow with the needed --allow-* flag",
    });
  }
  const [, kind, target] = m;
  const flag = `--allow-${kind}${target ? `=${target}` : ""}`;
  const what = { run: "running", read: "reading", write: "writing", net: "connecting to" }[kind] ??
    `${kind} access to`;
  const subject = target ? `${what} ${target}` : `${kind} access`;
  return new PflowError(
    "permission",
    `Permission denied: ${subject} is not allowed; add ${flag}`,
    { suggestion: `Start pflow with ${flag} (or a broader --allow-${kind})`, details: { flag } },
  );
}

/** The message plus suggestion, one or two lines, for people. */
export function formatError(err: PflowError): string {
  const where = [
    err.details.node ? `node '${err.details.node}'` : "",
    err.details.param ? `param '${err.details.param}'` : "",
    err.details.line ? `line ${err.details.line}` : "",
  ].filter(Boolean).join(", ");
  let text = where ? `${err.message} (${where})` : err.message;
  if (err.suggestion) text += `\n  → ${err.suggestion}`;
  return text;
}
