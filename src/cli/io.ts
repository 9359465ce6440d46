/**
 * What every CLI command gets: where to print, where pflow's home is, where the user is. Tests
 * run commands in-process with a captured CliIO; main.ts wires the real one.
 */
import { formatError, PflowError, toPflowError } from "../core/errors.ts";

export interface CliIO {
  stdout(text: string): void;
  stderr(text: string): void;
  /** PFLOW_HOME. */
  home: string;
  /** The directory the user ran pflow in: relative paths resolve against it. */
  cwd: string;
  /** Piped stdin, or undefined when stdin is a terminal / empty. */
  readStdin(): Promise<string | undefined>;
  verbose: boolean;
  /** Aborted on SIGINT/SIGTERM. */
  signal: AbortSignal;
}

/** A command: its args (after the command words) and the IO; returns the exit code. */
export type Command = (args: string[], io: CliIO) => Promise<number>;

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

/** A usage mistake: exit code 2. */
export class UsageError extends PflowError {
  constructor(message: string, suggestion?: string) {
    super("invalid_params", message, { suggestion });
    this.name = "UsageError";
  }
}

/**
 * The end of every command group's switch: no subcommand or `help` prints its usage (exit 2 or
 * 0); anything else is an unknown subcommand.
 */
export function usageOrUnknown(
  io: CliIO,
  group: string,
  sub: string | undefined,
  usage: string,
): number {
  if (sub === undefined || sub === "help" || sub === "--help" || sub === "-h") {
    io.stdout(usage);
    return sub === undefined ? EXIT_USAGE : EXIT_OK;
  }
  throw new UsageError(`Unknown ${group} command '${sub}'`, usage);
}

/** Prints a service result: its one text form for people, or `{success: true, …}` with --json. */
export function printResult<T>(
  io: CliIO,
  json: boolean,
  result: T,
  format: (r: T) => string,
): number {
  io.stdout(json ? JSON.stringify({ success: true, ...result }, null, 2) : format(result));
  return EXIT_OK;
}

/** Prints an error for people (or as JSON) and returns its exit code. Never a stack unless verbose. */
export function reportError(err: unknown, io: CliIO, json = false): number {
  const e = toPflowError(err);
  if (json) {
    io.stdout(JSON.stringify(
      {
        success: false,
        error: { type: e.code, message: e.message, details: e.details, suggestion: e.suggestion },
      },
      null,
      2,
    ));
  } else {
    io.stderr(`Error: ${formatError(e)}`);
    if (io.verbose && e.cause instanceof Error && e.cause.stack) io.stderr(e.cause.stack);
    else if (io.verbose && e.stack) io.stderr(e.stack);
  }
  return e instanceof UsageError ? EXIT_USAGE : EXIT_FAILURE;
}
