/**
 * Builds pflow's MCP server for a profile: `standard` (11 tools), `compact` (5) or `full`
 * (standard + 4), optionally narrowed with `tools`. Every tool call goes through callTool with a
 * signal tied to the request and to the server's lifetime; every request reads fresh from disk.
 */
import { McpServer } from "./sdk_server.ts";
import { PflowError } from "../core/errors.ts";
import { callTool, redactorFor, type ToolContext, type ToolDef } from "./tool.ts";
import { WORKFLOW_TOOLS } from "./workflow_tools.ts";
import { REGISTRY_TOOLS } from "./registry_tools.ts";
import { COMPACT_TOOLS } from "./compact_tools.ts";
import { FULL_EXTRA_TOOLS } from "./full_tools.ts";
import { GUIDES, guideText, SERVER_INSTRUCTIONS } from "./instructions.ts";

export type Profile = "standard" | "compact" | "full";
export const PROFILES: readonly Profile[] = ["standard", "compact", "full"];

const byName = new Map([...WORKFLOW_TOOLS, ...REGISTRY_TOOLS, ...COMPACT_TOOLS, ...FULL_EXTRA_TOOLS]
  .map((t) => [t.name, t]));

/** The tool names of each profile, in the order tools/list gives them. */
export const PROFILE_TOOLS: Record<Profile, readonly string[]> = {
  standard: [
    "workflow_discover",
    "registry_discover",
    "registry_run",
    "workflow_execute",
    "workflow_validate",
    "workflow_save",
    "registry_describe",
    "registry_search",
    "registry_list",
    "workflow_list",
    "workflow_describe",
  ],
  compact: ["browse_components", "list_library", "describe_workflow", "execute", "save_to_library"],
  full: [] as string[],
};
PROFILE_TOOLS.full = [
  ...PROFILE_TOOLS.standard,
  "read_fields",
  "trace_read",
  "settings_get",
  "settings_set",
];

export interface ServerOptions {
  profile?: Profile;
  /** Narrows the profile to these tools. @throws PflowError `invalid_params` for an unknown one */
  tools?: string[];
  home: string;
  cwd: string;
  version: string;
  /** Aborted when the server stops: every run in flight is cancelled. */
  signal: AbortSignal;
  /** One line for stderr; already redacted by the caller or here. */
  log(line: string): void;
  debug?: boolean;
  /** Told of every tool call in flight, so the server can wait for them when it stops. */
  track?: (call: Promise<unknown>) => void;
}

/** The tools a profile and `--tools` select. */
export function selectTools(profile: Profile, only?: string[]): ToolDef[] {
  const names = PROFILE_TOOLS[profile];
  if (only && only.length) {
    const unknown = only.filter((n) => !names.includes(n));
    if (unknown.length) {
      throw new PflowError(
        "invalid_params",
        `Unknown tool${unknown.length > 1 ? "s" : ""} for profile '${profile}': ${
          unknown.join(", ")
        }`,
        { suggestion: `Tools of '${profile}': ${names.join(", ")}` },
      );
    }
    return names.filter((n) => only.includes(n)).map((n) => byName.get(n)!);
  }
  return names.map((n) => byName.get(n)!);
}

export function buildServer(opts: ServerOptions): McpServer {
  const profile = opts.profile ?? "standard";
  const tools = selectTools(profile, opts.tools);
  const server = new McpServer(
    { name: "pflow", version: opts.version },
    {
      instructions: SERVER_INSTRUCTIONS[profile],
      capabilities: { tools: {}, resources: {}, logging: {} },
    },
  );
  // The SDK would answer bad arguments with a bare text error; callTool checks them against the
  // same schema and answers with a structured `invalid_params` naming the field instead.
  Object.assign(server, {
    validateToolInput: (_tool: unknown, args: unknown) => Promise.resolve(args),
  });
  for (const tool of tools) {
    server.registerTool(
      tool.name,
      {
        description: tool.description,
        inputSchema: tool.input,
        outputSchema: tool.output,
        annotations: tool.annotations,
      },
      // The SDK types the handler by the schema; callTool checks the arguments itself.
      (async (args: unknown, extra: { signal: AbortSignal }) => {
        const started = performance.now();
        const ctx: ToolContext = {
          home: opts.home,
          cwd: opts.cwd,
          signal: AbortSignal.any([opts.signal, extra.signal]),
          log: opts.log,
        };
        const call = callTool(tool, args, ctx);
        opts.track?.(call);
        const result = await call;
        if (opts.debug) {
          opts.log(
            `${tool.name} ${result.isError ? "failed" : "ok"} in ${
              (performance.now() - started).toFixed(1)
            } ms`,
          );
        }
        return result;
        // deno-lint-ignore no-explicit-any
      }) as any,
    );
  }
  for (const guide of GUIDES) {
    server.registerResource(
      guide.name,
      guide.uri,
      { title: guide.title, description: guide.description, mimeType: "text/markdown" },
      async (uri: URL) => {
        const redactor = await redactorFor(opts.home);
        return {
          contents: [{
            uri: uri.href,
            mimeType: "text/markdown",
            text: redactor.text(await guideText(opts.home, guide)),
          }],
        };
      },
    );
  }
  return server;
}
