/**
 * The stdio transport pflow's MCP client uses instead of the SDK's: it starts the server in its
 * own process group (so closing kills everything an `npx`/`sh` wrapper started), skips stdout
 * lines that are not JSON (servers that log to stdout) and records them, fails at once on a line
 * that is JSON but not JSON-RPC, keeps the server's last stderr lines for error messages, and
 * reports an unexpected exit with those lines. Replies of any size up to `maxLineBytes` are read.
 * Started with Deno.Command, like every child pflow runs (no node:child_process, which reads
 * NODE_V8_COVERAGE and so needs one more --allow-env in a sandbox).
 * Needs --allow-run for the server's command (unrestricted --allow-run to kill its whole group).
 */
import process from "node:process";
import { permissionError, PflowError } from "../core/errors.ts";
import { signalProcessGroup } from "../core/process_group.ts";
import {
  type JSONRPCMessage,
  JSONRPCMessageSchema,
  serializeMessage,
  type Transport,
} from "./sdk_client.ts";

/** How many trailing stderr lines an error message quotes. */
export const STDERR_TAIL_LINES = 10;
/** After stdin closes, how long a well-behaved server gets to exit on its own. */
const STDIN_GRACE_MS = 300;
const DEFAULT_KILL_GRACE_MS = 2000;
const DEFAULT_MAX_LINE_BYTES = 256 * 1024 * 1024;

export interface ProcessTransportOptions {
  server: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
  /** Each stderr line and each skipped stdout noise line, as it arrives. */
  onLine?: (kind: "stderr" | "stdout", line: string) => void;
  /** After SIGTERM, how long the group gets before SIGKILL. */
  killGraceMs?: number;
  maxLineBytes?: number;
}

/** Why the connection ended badly; set once, read by the error mapping. */
export interface TransportFailure {
  kind: "exited" | "invalid_json" | "too_large" | "spawn";
  error: PflowError;
}

export class ProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;

  readonly #opts: ProcessTransportOptions;
  #child?: Deno.ChildProcess;
  #stdin?: WritableStreamDefaultWriter<Uint8Array>;
  #readers: ReadableStreamDefaultReader<Uint8Array>[] = [];
  #exited?: Promise<void>;
  #hasExited = false;
  #closing = false;
  #closedNotified = false;
  #pending: Uint8Array[] = [];
  #pendingBytes = 0;
  #stderrTail: string[] = [];
  #stderrPartial = "";
  readonly #stderrDecoder = new TextDecoder();
  failure?: TransportFailure;

  constructor(opts: ProcessTransportOptions) {
    this.#opts = opts;
  }

  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** The server's last stderr lines. */
  stderrTail(): string[] {
    const partial = this.#stderrPartial.trim() ? [this.#stderrPartial] : [];
    return [...this.#stderrTail, ...partial].slice(-STDERR_TAIL_LINES);
  }

  start(): Promise<void> {
    const { command, args, env, cwd } = this.#opts;
    let child: Deno.ChildProcess;
    try {
      child = new Deno.Command(command, {
        args,
        env,
        cwd,
        clearEnv: true,
        stdin: "piped",
        stdout: "piped",
        stderr: "piped",
        // A new session: the child leads its own process group, which close() signals as one.
        detached: true,
      }).spawn();
    } catch (err) {
      this.#hasExited = true;
      const error = this.#spawnError(err);
      this.failure = { kind: "spawn", error };
      return Promise.reject(error);
    }
    this.#child = child;
    this.#stdin = child.stdin.getWriter();
    const stdoutDone = this.#pump(child.stdout, (chunk) => this.#onStdout(chunk));
    void this.#pump(child.stderr, (chunk) => this.#onStderr(chunk));
    this.#exited = child.status.then(async (status) => {
      // The last reply may still be in the pipe when the exit is seen: read it first (briefly:
      // a grandchild holding the pipe open must not hide the exit).
      await Promise.race([stdoutDone, delay(100)]);
      this.#hasExited = true;
      this.#onExit(status.code, status.signal);
    });
    return Promise.resolve();
  }

  /** Feeds a pipe to `onChunk` until it ends or close() cancels it. */
  async #pump(stream: ReadableStream<Uint8Array>, onChunk: (c: Uint8Array) => void) {
    const reader = stream.getReader();
    this.#readers.push(reader);
    try {
      while (true) {
        const { value, done } = await reader.read();
        if (done) return;
        onChunk(value);
      }
    } catch {
      // Cancelled by close(), or the pipe broke: the exit handler reports what matters.
    }
  }

  #spawnError(err: unknown): PflowError {
    const { command, server } = this.#opts;
    if (err instanceof Deno.errors.NotCapable) {
      const e = permissionError(err);
      return new PflowError("permission", `MCP server '${server}': ${e.message}`, {
        suggestion: e.suggestion,
        details: { server, ...e.details },
      });
    }
    if (err instanceof Deno.errors.NotFound) {
      return new PflowError("not_found", `Command not found: ${command}`, {
        suggestion:
          `Install '${command}' or fix the command of MCP server '${server}' (pflow mcp add ${server} -- <command> …)`,
        details: { server, command },
      });
    }
    if (err instanceof Deno.errors.PermissionDenied) {
      return new PflowError("execution", `Command is not executable: ${command}`, {
        details: { server, command },
      });
    }
    const message = err instanceof Error ? err.message : String(err);
    return new PflowError("execution", `Could not start MCP server '${server}': ${message}`, {
      details: { server, command },
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (!this.#stdin || this.#hasExited || this.#closing) {
      return Promise.reject(
        this.failure?.error ?? new Error(`MCP server '${this.#opts.server}' is not running`),
      );
    }
    return this.#stdin.write(ENCODER.encode(serializeMessage(message)));
  }

  #onStdout(chunk: Uint8Array): void {
    let start = 0;
    while (start < chunk.length) {
      const nl = chunk.indexOf(10, start);
      if (nl === -1) {
        this.#pending.push(chunk.subarray(start));
        this.#pendingBytes += chunk.length - start;
        if (this.#pendingBytes > (this.#opts.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES)) {
          const mib = Math.round((this.#opts.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES) / 1048576);
          this.#fail(
            "too_large",
            `Reply from MCP server '${this.#opts.server}' exceeds ${mib} MiB`,
          );
        }
        return;
      }
      const part = chunk.subarray(start, nl);
      // Lines end at byte 10, which never occurs inside a UTF-8 sequence: decode whole lines.
      const line = DECODER.decode(
        this.#pending.length === 0 ? part : concat([...this.#pending, part]),
      );
      this.#pending = [];
      this.#pendingBytes = 0;
      start = nl + 1;
      this.#onLine(line.endsWith("\r") ? line.slice(0, -1) : line);
      if (this.failure) return;
    }
  }

  #onLine(line: string): void {
    if (line.trim() === "") return;
    let data: unknown;
    try {
      data = JSON.parse(line);
    } catch {
      // A server logging to stdout: not protocol, skip it but keep it for the trace.
      this.#opts.onLine?.("stdout", line);
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(data);
    if (!parsed.success) {
      const shown = line.length > 200 ? `${line.slice(0, 200)}…` : line;
      this.#fail(
        "invalid_json",
        `Invalid JSON response from server '${this.#opts.server}': ${shown}`,
      );
      return;
    }
    try {
      this.onmessage?.(parsed.data as JSONRPCMessage);
    } catch (err) {
      this.onerror?.(err as Error);
    }
  }

  #onStderr(chunk: Uint8Array): void {
    const text = this.#stderrPartial + this.#stderrDecoder.decode(chunk, { stream: true });
    const lines = text.split("\n");
    this.#stderrPartial = lines.pop() ?? "";
    for (const raw of lines) {
      const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
      if (line.trim() === "") continue;
      this.#stderrTail.push(line);
      if (this.#stderrTail.length > STDERR_TAIL_LINES) this.#stderrTail.shift();
      this.#opts.onLine?.("stderr", line);
    }
  }

  /** A fatal protocol problem: remember why, stop the server, close (pending calls reject now). */
  #fail(kind: TransportFailure["kind"], message: string): void {
    if (this.failure) return;
    this.failure = {
      kind,
      error: new PflowError("execution", withStderr(message, this.stderrTail()), {
        details: { server: this.#opts.server, stderr: this.stderrTail() },
      }),
    };
    this.onerror?.(this.failure.error);
    void this.close();
  }

  #onExit(code: number, signal: Deno.Signal | null): void {
    if (!this.#closing && !this.failure) {
      const how = signal ? `killed by ${signal}` : `exit code ${code}`;
      this.failure = {
        kind: "exited",
        error: new PflowError(
          "execution",
          withStderr(
            `MCP server process terminated unexpectedly (server '${this.#opts.server}', ${how})`,
            this.stderrTail(),
          ),
          {
            details: {
              server: this.#opts.server,
              exit_code: code,
              signal,
              stderr: this.stderrTail(),
            },
          },
        ),
      };
      this.onerror?.(this.failure.error);
      // Take the rest of the group down too, then tell the client (pending calls reject).
      void this.close();
      return;
    }
    if (!this.#closing) this.#notifyClosed();
  }

  #notifyClosed(): void {
    if (this.#closedNotified) return;
    this.#closedNotified = true;
    this.onclose?.();
  }

  #closePromise?: Promise<void>;

  /** stdin closed, a short wait, SIGTERM to the group, SIGKILL after the grace period. */
  close(): Promise<void> {
    this.#closePromise ??= this.#shutdown();
    return this.#closePromise;
  }

  async #shutdown(): Promise<void> {
    this.#closing = true;
    const child = this.#child;
    try {
      if (!child) return;
      const pgid = child.pid;
      // Not awaited: a server that stopped reading would keep a pending write (and close) open.
      this.#stdin?.close().catch(() => {});
      await this.#waitExit(STDIN_GRACE_MS);
      // The leader may be gone while others in its group live on (an npx wrapper's child).
      if (!this.#hasExited || groupAlive(pgid)) {
        signalProcessGroup(child, "SIGTERM");
        const grace = this.#opts.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
        const deadline = Date.now() + grace;
        await this.#waitExit(grace);
        while (groupAlive(pgid) && Date.now() < deadline) await delay(20);
        if (!this.#hasExited || groupAlive(pgid)) {
          signalProcessGroup(child, "SIGKILL");
          // SIGKILL cannot be ignored; orphaned members linger only as zombies until init reaps them.
          await this.#waitExit(1000);
        }
      }
      for (const reader of this.#readers) reader.cancel().catch(() => {});
    } finally {
      this.#notifyClosed();
    }
  }

  async #waitExit(ms: number): Promise<void> {
    if (this.#hasExited || !this.#exited) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([this.#exited, new Promise((r) => (timer = setTimeout(r, ms)))]);
    clearTimeout(timer);
  }
}

const ENCODER = new TextEncoder();
const DECODER = new TextDecoder();

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function delay(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Whether any process of the group is left (a reaped leader's group answers ESRCH). */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (err) {
    // EPERM means it exists but is not ours to signal (or Deno refused): assume it lives on
    // only when the error is not "no such process".
    return (err as { code?: string }).code !== "ESRCH" &&
      !(err instanceof Deno.errors.NotCapable) && !(err instanceof Deno.errors.PermissionDenied);
  }
}

export function withStderr(message: string, lines: string[]): string {
  if (lines.length === 0) return message;
  return `${message}\nServer stderr (last ${lines.length} lines):\n${
    lines.map((l) => `  ${l}`).join("\n")
  }`;
}
