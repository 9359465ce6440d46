/**
 * The command tree: `pflow <command> …`. Each command group lives in its own file; this file only
 * routes, wires the real IO (stdout, stderr, stdin, signals) and turns errors into exit codes.
 */
import { pathToFileURL } from "node:url";
import { pflowHome } from "../core/paths.ts";
import { type CliIO, type Command, EXIT_FAILURE, EXIT_USAGE, reportError } from "./io.ts";
import { formatError, toPflowError } from "../core/errors.ts";
import denoJson from "../../deno.json" with { type: "json" };
import { didYouMean } from "../core/suggest.ts";

export const VERSION: string = denoJson.version;

const HELP = `pflow ${VERSION} — workflows for AI agents

Usage:
  pflow run FILE|NAME [key=value…] [--json] [--resume[=TRACE]]   run a workflow
  pflow FILE [key=value…]                     same as run
  pflow validate FILE [--json]                check a workflow without running it
  pflow workflow list|describe|save|delete|history   the saved-workflow library
  pflow registry list|describe|search|run     node types (built-in and MCP)
  pflow read-fields ID PATH…                  values from a cached node run
  pflow settings show|set-env|unset-env|list-env
  pflow mcp add|list|remove|sync|tools|info   MCP servers whose tools become nodes
  pflow mcp serve [--profile P]               serve pflow to agents over MCP (stdio)
  pflow sync                                  same as mcp sync --all
  pflow doctor [--json]                       what pflow can do here, and what is broken
  pflow examples [show|run NAME [key=value…]] the example workflows built into pflow

Options: --verbose (stack traces, server stderr), --version, --help
Files live under PFLOW_HOME (now: ${"${PFLOW_HOME}"}).`;

/**
 * A command whose module loads when it runs: each command group pulls in its own dependencies
 * (the MCP SDK, YAML, zod…), and `pflow --version` or `pflow run` should not pay for all of them.
 */
const lazy = (load: () => Promise<Command>): Command => async (args, io) =>
  (await load())(args, io);

const runCommand = lazy(async () => (await import("./run_cmd.ts")).runCommand);
const mcpCommand = lazy(async () => (await import("./mcp_cmd.ts")).command);
const serveCommand = lazy(async () => (await import("./serve_cmd.ts")).command);

const COMMANDS: Record<string, Command> = {
  run: runCommand,
  validate: lazy(async () => (await import("./validate_cmd.ts")).validateCommand),
  workflow: lazy(async () => (await import("./workflow_cmd.ts")).command),
  registry: lazy(async () => (await import("./registry_cmd.ts")).command),
  "read-fields": lazy(async () => (await import("./read_fields_cmd.ts")).command),
  settings: lazy(async () => (await import("./settings_cmd.ts")).command),
  mcp: (args, io) => args[0] === "serve" ? serveCommand(args.slice(1), io) : mcpCommand(args, io),
  serve: (args, io) => args[0] === "mcp" ? serveCommand(args.slice(1), io) : serveCommand(args, io),
  sync: (args, io) => mcpCommand(["sync", "--all", ...args], io),
  doctor: lazy(async () => (await import("./doctor_cmd.ts")).command),
  examples: lazy(async () => (await import("./examples_cmd.ts")).command),
};

/** Looks like a workflow file rather than a command: `pflow ./x.pflow.md a=1`. */
function isWorkflowPath(arg: string): boolean {
  return /\.(pflow\.md|md|json)$/.test(arg) || arg.includes("/");
}

/**
 * The directory the user is in. `deno task pflow` runs in the config's folder and says where the
 * user was in INIT_CWD; trusted only when the program runs from source in the current folder
 * (as `deno task` starts it), so a stray INIT_CWD cannot move an installed command or a binary.
 */
function userCwd(): string {
  const cwd = Deno.cwd();
  const fromSource = Deno.mainModule.startsWith(pathToFileURL(cwd).href + "/");
  if (!fromSource) return cwd;
  const granted =
    Deno.permissions.querySync({ name: "env", variable: "INIT_CWD" }).state === "granted";
  return (granted ? Deno.env.get("INIT_CWD") : undefined) || cwd;
}

/** writeSync may write part of a large buffer (a pipe): loop until all of it is out. */
function writeAllSync(out: { writeSync(p: Uint8Array): number }, bytes: Uint8Array): void {
  let written = 0;
  while (written < bytes.length) written += out.writeSync(bytes.subarray(written));
}

export function realIO(verbose: boolean, signal: AbortSignal): CliIO {
  const enc = new TextEncoder();
  return {
    stdout: (text) =>
      writeAllSync(Deno.stdout, enc.encode(text.endsWith("\n") ? text : text + "\n")),
    stderr: (text) =>
      writeAllSync(Deno.stderr, enc.encode(text.endsWith("\n") ? text : text + "\n")),
    home: pflowHome(),
    cwd: userCwd(),
    verbose,
    signal,
    readStdin: async () => {
      if (Deno.stdin.isTerminal()) return undefined;
      const text = await new Response(Deno.stdin.readable).text();
      return text.length > 0 ? text : undefined;
    },
  };
}

/** Runs one command line; returns the exit code. */
export async function main(argv: string[], io?: CliIO): Promise<number> {
  const verbose = argv.includes("--verbose");
  const args = argv.filter((a) => a !== "--verbose");
  const controller = new AbortController();
  let cli: CliIO;
  try {
    cli = io ?? realIO(verbose, controller.signal);
  } catch (err) {
    // e.g. PFLOW_HOME not readable under --allow-env=…: one line, not an uncaught stack.
    console.error(`Error: ${formatError(toPflowError(err))}`);
    return EXIT_FAILURE;
  }
  const [name, ...rest] = args;
  if (name === "--version" || name === "-V") {
    cli.stdout(`pflow ${VERSION}`);
    return 0;
  }
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    cli.stdout(HELP.replace("${PFLOW_HOME}", cli.home));
    return name === undefined ? EXIT_USAGE : 0;
  }
  const command = COMMANDS[name] ?? (isWorkflowPath(name) ? runCommand : undefined);
  if (!command) {
    cli.stderr(`Error: unknown command '${name}'\n  → ${await unknownCommandHint(name, cli.home)}`);
    return EXIT_USAGE;
  }
  const commandArgs = command === runCommand && !(name in COMMANDS) ? args : rest;
  if (io) return await runSafely(command, commandArgs, cli);
  // Real process: SIGINT/SIGTERM abort the run so sessions close before exit.
  // The abort reason is the signal's name: commands choose their exit code from it.
  const signals: Deno.Signal[] = Deno.build.os === "windows" ? ["SIGINT"] : ["SIGINT", "SIGTERM"];
  const listeners = signals.map((s) => [s, () => controller.abort(s)] as const);
  for (const [s, fn] of listeners) Deno.addSignalListener(s, fn);
  try {
    return await runSafely(command, commandArgs, cli);
  } finally {
    for (const [s, fn] of listeners) Deno.removeSignalListener(s, fn);
  }
}

/** A close command, or `pflow run NAME` when a saved workflow has that name. */
async function unknownCommandHint(name: string, home: string): Promise<string> {
  const { isValidName } = await import("../library/names.ts");
  const { workflowExists } = await import("../library/store.ts");
  if (isValidName(name) && await workflowExists(home, name).catch(() => false)) {
    return `To run the saved workflow, use 'pflow run ${name}'`;
  }
  return didYouMean(name, Object.keys(COMMANDS)) ?? "Run 'pflow --help' to see the commands";
}

async function runSafely(command: Command, args: string[], io: CliIO): Promise<number> {
  try {
    return await command(args, io);
  } catch (err) {
    return reportError(err, io, args.includes("--json"));
  }
}
