/**
 * `pflow mcp serve [--profile standard|compact|full] [--tools a,b] [--debug]` (also
 * `pflow serve mcp`): pflow's MCP server over stdio. stdout carries only protocol; logs go to
 * stderr. Stops on stdin EOF (exit 0), SIGTERM (0) or SIGINT (130), cancelling the runs in flight
 * first so no child process outlives the server.
 */
import process from "node:process";
import { type Command, UsageError } from "./io.ts";
import { parseFlags } from "./_flags.ts";
import { buildServer, type Profile, PROFILES } from "../server/server.ts";
import { StdioServerTransport } from "../server/sdk_server.ts";
import { redactorFor } from "../server/tool.ts";
import { VERSION } from "./main.ts";

const USAGE = "Usage: pflow mcp serve [--profile standard|compact|full] [--tools a,b] [--debug]";
/** How long runs in flight get to wind down after cancellation (a shell group gets 2 s). */
const DRAIN_MS = 5000;

export const command: Command = async (args, io) => {
  const flags = parseFlags(args, { bools: ["--debug"], values: ["--profile", "--tools"] }, USAGE);
  if (flags.positional.length) {
    throw new UsageError(`Unexpected argument '${flags.positional[0]}'`, USAGE);
  }
  const profile = (flags.values.get("--profile") ?? "standard") as Profile;
  if (!PROFILES.includes(profile)) {
    throw new UsageError(`Unknown profile '${profile}'`, `Profiles: ${PROFILES.join(", ")}`);
  }
  const tools = flags.values.get("--tools")?.split(",").map((t) => t.trim()).filter(Boolean);
  const debug = flags.bools.has("--debug") || io.verbose;

  // Anything printed by accident must not corrupt the protocol stream.
  console.log = console.info = console.debug = console.error;

  const redactor = await redactorFor(io.home);
  const log = (line: string) => io.stderr(redactor.text(`[pflow mcp] ${line}`));
  const stop = new AbortController();
  const inFlight = new Set<Promise<unknown>>();
  let server;
  try {
    server = buildServer({
      profile,
      tools,
      home: io.home,
      cwd: io.cwd,
      version: VERSION,
      signal: stop.signal,
      log,
      debug,
      track: (call) => {
        inFlight.add(call);
        call.finally(() => inFlight.delete(call));
      },
    });
  } catch (err) {
    throw new UsageError((err as Error).message, USAGE);
  }

  const stdinClosed = new Promise<string>((resolve) => {
    process.stdin.once("end", () => resolve("EOF"));
    process.stdin.once("close", () => resolve("EOF"));
  });
  const signalled = new Promise<string>((resolve) => {
    if (io.signal.aborted) resolve(String(io.signal.reason));
    io.signal.addEventListener("abort", () => resolve(String(io.signal.reason)), { once: true });
  });
  await server.connect(new StdioServerTransport());
  if (debug) log(`serving profile '${profile}' (PFLOW_HOME ${io.home})`);

  const why = await Promise.race([stdinClosed, signalled]);
  if (debug) log(`stopping (${why})`);
  // Cancel every run in flight: shell groups and MCP server sessions are killed, traces written.
  stop.abort(why);
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    Promise.allSettled([...inFlight]),
    new Promise((r) => timer = setTimeout(r, DRAIN_MS)),
  ]);
  clearTimeout(timer);
  await server.close().catch(() => undefined);
  return why === "SIGINT" ? 130 : 0;
};
