/**
 * `pflow run FILE|NAME [key=value…] [--json] [--resume[=TRACE]]`: progress per node on stderr
 * (`✓ fetch 0.12s`), the outputs on stdout; `--json` prints one result envelope instead.
 */
import { type Command, UsageError } from "./io.ts";
import { toPflowError } from "../core/errors.ts";
import { parseKeyValueArgs } from "../runtime/inputs.ts";
import { formatRunResult, runService } from "../services/run.ts";

export const runCommand: Command = async (args, io) => {
  let json = false;
  let resume: boolean | string = false;
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--json") json = true;
    else if (a === "--resume") resume = true;
    else if (a.startsWith("--resume=")) resume = a.slice("--resume=".length);
    else if (a.startsWith("--")) {
      throw new UsageError(`Unknown option '${a}'`, "Options: --json, --resume[=TRACE], --verbose");
    } else rest.push(a);
  }
  const [workflow, ...kv] = rest;
  if (!workflow) {
    throw new UsageError("run needs a workflow", "Usage: pflow run FILE|NAME [key=value…]");
  }
  let params: Record<string, string>;
  try {
    params = parseKeyValueArgs(kv);
  } catch (err) {
    // A malformed argument is a usage mistake: exit 2, like an unknown option.
    const e = toPflowError(err);
    throw new UsageError(e.message, e.suggestion);
  }
  const result = await runService({
    workflow,
    params,
    stdin: io.readStdin,
    home: io.home,
    cwd: io.cwd,
    resume,
    signal: io.signal,
    verbose: io.verbose,
    onNode: json ? undefined : (n) => {
      const mark = n.status === "cached" ? "↺" : n.status === "success" ? "✓" : "✗";
      io.stderr(
        `${mark} ${n.id} ${(n.duration_ms / 1000).toFixed(2)}s${
          n.status === "cached" ? " (cached)" : ""
        }`,
      );
    },
  });
  if (json) {
    const { success, status, outputs, errors, checkpoint, trace_path, duration_ms, nodes } = result;
    io.stdout(JSON.stringify(
      { success, status, outputs, errors, checkpoint, trace_path, duration_ms, nodes },
      null,
      2,
    ));
  } else if (result.success) {
    io.stdout(formatRunResult(result, io.home));
  } else {
    io.stderr(formatRunResult(result, io.home));
  }
  if (io.signal.aborted) return io.signal.reason === "SIGTERM" ? 143 : 130;
  return result.success ? 0 : 1;
};
