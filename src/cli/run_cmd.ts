/**
 * `pflow run FILE|NAME [key=value…] [--json] [--resume[=TRACE]]`: progress per node on stderr
 * (`✓ fetch 0.12s`), the outputs on stdout; `--json` prints one result envelope instead.
 */
import { type Command, UsageError } from "./io.ts";
import { parseFlags, parseKeyValueArgs } from "./_flags.ts";
import { formatRunResult, runService } from "../services/run.ts";

const USAGE = "Usage: pflow run FILE|NAME [key=value…] [--json] [--resume[=TRACE]]";

export const runCommand: Command = async (args, io) => {
  const flags = parseFlags(args, { bools: ["--json", "--resume"], values: ["--resume"] }, USAGE);
  const json = flags.bools.has("--json");
  const resume = flags.values.get("--resume") ?? flags.bools.has("--resume");
  const [workflow, ...kv] = flags.positional;
  if (!workflow) throw new UsageError("run needs a workflow", USAGE);
  const params = parseKeyValueArgs(kv);
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
  if (!json) {
    for (const w of result.warnings) {
      io.stderr(
        `⚠ ${w.node ? `${w.node}: ` : ""}${w.message}${w.suggestion ? ` (${w.suggestion})` : ""}`,
      );
    }
  }
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
