/**
 * The `shell` node: runs a command with `sh -c` in its own process group, feeds it stdin, and
 * collects stdout/stderr in full. A timeout or cancellation kills the whole group, so nothing
 * the command started outlives the node. Needs --allow-run=sh (and --allow-env for the child's
 * environment).
 */
import { permissionError } from "../core/errors.ts";
import type { NodeInterface } from "../core/node_interface.ts";
import { childEnv } from "../core/settings.ts";
import { signalProcessGroup } from "../core/process_group.ts";
import { readParams } from "./_params.ts";
import { resolvePath } from "./_paths.ts";
import { fail, type NodeContext, type NodeImpl, type NodeResult, ok } from "./types.ts";

/**
 * What `sh -c` runs: the command (passed as $1, run by eval, so its text is never re-quoted) in a
 * background subshell that keeps stdin, and a TERM trap that passes the signal on to the whole
 * process group. Deno refuses `kill(-pgid)` under an --allow-run allowlist; signalling only `sh`
 * then still ends everything the command started. `wait` returns the command's exit status.
 */
const GROUP_GUARD = [
  "trap 'trap - TERM; kill -TERM 0' TERM",
  "__pflow_command=$1",
  "shift",
  // A background job's stdin is /dev/null unless redirected; dash ignores `<&0`, so use fd 3.
  "exec 3<&0",
  '{ eval "$__pflow_command"',
  "} <&3 3<&- &",
  "exec 3<&-",
  "wait $!",
].join("\n");

/** How long a process group gets to exit after SIGTERM before SIGKILL. */
const KILL_GRACE_MS = 2000;
/** How many trailing stderr lines a failure message quotes. */
const STDERR_TAIL_LINES = 5;

const shellInterface: NodeInterface = {
  type: "shell",
  description:
    "Run a shell command with sh -c. Pipe data in through stdin; read stdout, stderr and exit_code. A non-zero exit ends with the error action unless ignore_errors is true.",
  params: {
    command: { type: "string", required: true, description: "The command line, run by sh -c" },
    stdin: {
      type: "any",
      description: "Data written to the command's stdin: strings as-is, objects and arrays as JSON",
    },
    cwd: {
      type: "string",
      description: "Working directory; relative paths resolve against the current directory",
    },
    env: {
      type: "object",
      description: "Extra environment variables; they override inherited ones",
    },
    timeout: {
      type: "number",
      default: 30,
      description: "Seconds before the command and everything it started are killed",
    },
    ignore_errors: {
      type: "boolean",
      default: false,
      description: "Treat a non-zero exit code as success",
    },
  },
  outputs: {
    stdout: { type: "string", description: "Everything the command wrote to stdout" },
    stderr: { type: "string", description: "Everything the command wrote to stderr" },
    exit_code: { type: "integer", description: "The exit code (128 + signal when killed)" },
  },
  actions: ["default", "error"],
  category: "core",
};

async function runShell(raw: Record<string, unknown>, ctx: NodeContext): Promise<NodeResult> {
  const checked = readParams(shellInterface, raw);
  if (!checked.ok) return fail(checked.error);
  const p = checked.values;
  const command = p.command as string;
  const timeout = p.timeout as number;
  if (timeout <= 0) return fail(`shell: param 'timeout' must be a positive number of seconds`);
  const cwd = p.cwd === undefined ? ctx.cwd : resolvePath(ctx.cwd, p.cwd as string);
  const stdin = toStdinText(p.stdin);
  if (ctx.signal.aborted) return fail("Command was cancelled before it started");

  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command("sh", {
      args: ["-c", GROUP_GUARD, "sh", command],
      cwd,
      env: childEnv(ctx.env, envParam(p.env)),
      clearEnv: true,
      stdin: stdin === undefined ? "null" : "piped",
      stdout: "piped",
      stderr: "piped",
      // A new session (setsid): the child leads its own process group, which we kill as one.
      detached: true,
    }).spawn();
  } catch (err) {
    return spawnFailure(err, cwd);
  }

  const stdoutBytes = collect(child.stdout);
  const stderrBytes = collect(child.stderr);
  if (stdin !== undefined) void feed(child.stdin, stdin);

  let stopReason: "timeout" | "cancelled" | undefined;
  let graceTimer: ReturnType<typeof setTimeout> | undefined;
  const stop = (reason: "timeout" | "cancelled") => {
    if (stopReason) return;
    stopReason = reason;
    signalProcessGroup(child, "SIGTERM");
    graceTimer = setTimeout(() => signalProcessGroup(child, "SIGKILL"), KILL_GRACE_MS);
  };
  const timer = setTimeout(() => stop("timeout"), timeout * 1000);
  const onAbort = () => stop("cancelled");
  ctx.signal.addEventListener("abort", onAbort, { once: true });

  let status: Deno.CommandStatus;
  try {
    status = await child.status;
  } finally {
    clearTimeout(timer);
    ctx.signal.removeEventListener("abort", onAbort);
  }

  // After a kill, a process that escaped the group could keep the pipes open forever:
  // give the streams the grace period to drain, then stop reading.
  const drained = Promise.all([stdoutBytes.done, stderrBytes.done]);
  if (stopReason) {
    let drainTimer: ReturnType<typeof setTimeout> | undefined;
    const gaveUp = new Promise<boolean>((resolve) => {
      drainTimer = setTimeout(() => resolve(false), KILL_GRACE_MS);
    });
    const waited = await Promise.race([drained.then(() => true), gaveUp]);
    clearTimeout(drainTimer);
    if (!waited) {
      stdoutBytes.cancel();
      stderrBytes.cancel();
    }
  } else {
    await drained;
  }
  clearTimeout(graceTimer);

  const outputs = {
    stdout: stdoutBytes.text(),
    stderr: stderrBytes.text(),
    exit_code: status.code,
  };
  if (stopReason === "timeout") {
    return fail(`Command timed out after ${timeout}s: ${brief(command)}`, outputs);
  }
  if (stopReason === "cancelled") return fail("Command was cancelled", outputs);
  if (status.code !== 0 && !p.ignore_errors) {
    const how = status.signal
      ? `was killed by ${status.signal}`
      : `failed with exit code ${status.code}`;
    return fail(
      `Command ${how}: ${brief(command)}\n${
        tail(outputs.stderr)
      }\n(set ignore_errors: true to continue on a non-zero exit)`,
      outputs,
    );
  }
  return ok(outputs);
}

function toStdinText(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string") return value;
  return JSON.stringify(value);
}

function spawnFailure(err: unknown, cwd: string): NodeResult {
  if (err instanceof Deno.errors.NotCapable) return fail(permissionError(err).message);
  if (err instanceof Deno.errors.NotFound && /cwd/i.test(err.message)) {
    return fail(`Working directory ${cwd} does not exist; fix the shell node's cwd param`);
  }
  const message = err instanceof Error ? err.message : String(err);
  return fail(`Could not start sh: ${message}`);
}

async function feed(stream: WritableStream<Uint8Array>, text: string): Promise<void> {
  const writer = stream.getWriter();
  try {
    await writer.write(new TextEncoder().encode(text));
    await writer.close();
  } catch {
    // The command exited or closed stdin without reading it all: not our failure to report.
  }
}

interface Collected {
  done: Promise<void>;
  cancel(): void;
  text(): string;
}

/** Reads a stream to its end concurrently with the others, so a full pipe never blocks the child. */
function collect(stream: ReadableStream<Uint8Array>): Collected {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  const done = (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        chunks.push(value);
      }
    } catch {
      // Cancelled or broken pipe: keep what arrived.
    }
  })();
  return {
    done,
    cancel: () => void reader.cancel().catch(() => {}),
    text: () => {
      const size = chunks.reduce((n, c) => n + c.length, 0);
      const all = new Uint8Array(size);
      let at = 0;
      for (const c of chunks) {
        all.set(c, at);
        at += c.length;
      }
      return new TextDecoder().decode(all);
    },
  };
}

function brief(command: string): string {
  const line = command.trim().split("\n")[0];
  return line.length > 80 || command.trim().includes("\n") ? `${line.slice(0, 77)}...` : line;
}

function tail(stderr: string): string {
  const lines = stderr.trimEnd().split("\n").filter((l) => l.trim() !== "");
  if (lines.length === 0) return "(no stderr output)";
  return lines.slice(-STDERR_TAIL_LINES).join("\n");
}

export const shellNode: NodeImpl = { interface: shellInterface, run: runShell };

/** The node's `env` param as strings (objects as JSON); null and undefined are dropped. */
function envParam(env: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries((env ?? {}) as Record<string, unknown>)) {
    if (value === undefined || value === null) continue;
    out[key] = typeof value === "string" ? value : JSON.stringify(value);
  }
  return out;
}
