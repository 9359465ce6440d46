/**
 * One live connection to one configured MCP server: expand its config, build the child's
 * environment, start it with pflow's ProcessTransport and run the MCP handshake. Failures become
 * PflowErrors a user can act on (command not found, permission, handshake, early exit).
 */
import { PflowError, toPflowError } from "../core/errors.ts";
import { childEnv } from "../core/settings.ts";
import type { McpServerConfig } from "./config.ts";
import { expandServerConfig, missingVarsWarning } from "./expand.ts";
import { Client, ErrorCode, McpError } from "./sdk_client.ts";
import { ProcessTransport, withStderr } from "./stdio_transport.ts";

export const CLIENT_INFO = { name: "pflow", version: "0.1.0" };

export interface ConnectOptions {
  secrets: Record<string, string>;
  /** Handshake deadline. */
  timeoutMs: number;
  signal?: AbortSignal;
  killGraceMs?: number;
  onLine?: (kind: "stderr" | "stdout", line: string) => void;
  /** Called with the unset-variable warning, if any. */
  onWarning?: (message: string) => void;
}

export interface McpConnection {
  server: string;
  client: Client;
  transport: ProcessTransport;
  /** Warnings from starting it (unset `${VAR}`s), repeated in its errors. */
  warnings: string[];
  close(): Promise<void>;
}

/**
 * The child's environment: the process env, settings secrets for keys not already set, then
 * the server's own `env`. Inherited `LD_*` variables are dropped: Deno refuses to start a child
 * with any of them under an --allow-run allowlist. Needs --allow-env.
 */
export function serverEnv(
  secrets: Record<string, string>,
  configEnv: Record<string, string>,
): Record<string, string> {
  const env = childEnv(secrets);
  for (const key of Object.keys(env)) if (key.startsWith("LD_")) delete env[key];
  return { ...env, ...configEnv };
}

/** Starts `server` and completes the MCP handshake, or throws a PflowError. */
export async function connectServer(
  server: string,
  cfg: McpServerConfig,
  opts: ConnectOptions,
): Promise<McpConnection> {
  const expanded = expandServerConfig(cfg, opts.secrets);
  const warnings = expanded.missing.length ? [missingVarsWarning(server, expanded.missing)] : [];
  for (const w of warnings) opts.onWarning?.(w);
  const transport = new ProcessTransport({
    server,
    command: expanded.command,
    args: expanded.args,
    env: serverEnv(opts.secrets, expanded.env),
    cwd: cfg.cwd,
    onLine: opts.onLine,
    killGraceMs: opts.killGraceMs,
  });
  const client = new Client(CLIENT_INFO, { capabilities: {} });
  // Protocol noise (e.g. an unknown notification) is not a failure of the call.
  client.onerror = () => {};
  try {
    await client.connect(transport, { timeout: opts.timeoutMs, signal: opts.signal });
  } catch (err) {
    await transport.close();
    throw addWarnings(handshakeError(server, err, transport, opts.timeoutMs), warnings);
  }
  return { server, client, transport, warnings, close: () => transport.close() };
}

function handshakeError(
  server: string,
  err: unknown,
  transport: ProcessTransport,
  timeoutMs: number,
): PflowError {
  if (transport.failure) return transport.failure.error;
  if (err instanceof PflowError) return err;
  if (err instanceof McpError && err.code === ErrorCode.RequestTimeout) {
    return new PflowError(
      "execution",
      withStderr(
        `MCP server '${server}' did not complete the handshake within ${timeoutMs / 1000}s`,
        transport.stderrTail(),
      ),
      {
        suggestion: "Check that the command starts an MCP server on stdio, or raise its timeout",
        details: { server },
      },
    );
  }
  if (err instanceof DOMException && err.name === "AbortError") {
    return new PflowError("execution", `Starting MCP server '${server}' was cancelled`);
  }
  const e = toPflowError(err);
  if (e.code === "permission") return e;
  return new PflowError(
    "execution",
    withStderr(
      `MCP protocol error during handshake with '${server}': ${e.message}`,
      transport.stderrTail(),
    ),
    { details: { server }, cause: err },
  );
}

export function addWarnings(err: PflowError, warnings: string[]): PflowError {
  if (warnings.length === 0) return err;
  return new PflowError(err.code, `${err.message}\nNote: ${warnings.join("\n")}`, {
    suggestion: err.suggestion,
    details: err.details,
    cause: err.cause,
  });
}
