/**
 * One tool of pflow's MCP server, declared once: zod input and output schemas (the types are
 * inferred from them) and a `run` that calls a service and returns the structured answer plus the
 * text the CLI would print. `callTool` is the one wrapper every call goes through: size limit,
 * argument check naming the field, fresh redactor from settings, errors as structured results.
 */
import type { z } from "zod";
import type { CallToolResult } from "./sdk_server.ts";
import { PflowError } from "../core/errors.ts";
import { Redactor } from "../core/redact.ts";
import { loadSettings } from "../core/settings.ts";
import { errorResult } from "./errors.ts";

/** What a tool call gets: where pflow's files are, and when to stop. */
export interface ToolContext {
  /** PFLOW_HOME. */
  home: string;
  /** Where relative workflow paths resolve. */
  cwd: string;
  /** Aborted when the client cancels, disconnects, or the server is stopping. */
  signal: AbortSignal;
  /** A line for stderr (redacted by the caller's logger). */
  log(line: string): void;
}

export interface ToolAnswer<T> {
  structured: T;
  text: string;
}

// deno-lint-ignore no-explicit-any
type AnyObject = z.ZodObject<any>;

export interface ToolDef<I extends AnyObject = AnyObject, O extends AnyObject = AnyObject> {
  name: string;
  description: string;
  input: I;
  output: O;
  annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean };
  /**
   * The structure is checked against `output` at run time (the SDK validates every answer):
   * service result types are interfaces, which TypeScript will not match to zod's loose objects.
   */
  run(args: z.infer<I>, ctx: ToolContext): Promise<ToolAnswer<object>>;
}

/** Declares a tool; the identity function, there so TypeScript infers the schemas' types. */
export function defineTool<I extends AnyObject, O extends AnyObject>(def: ToolDef<I, O>): ToolDef {
  return def as unknown as ToolDef;
}

/** Arguments above this (as JSON) are refused before anything else happens. */
export const MAX_ARGUMENTS_BYTES = 1_000_000;

function checkArguments<I extends AnyObject>(def: ToolDef<I>, raw: unknown): z.infer<I> {
  let size = 0;
  try {
    size = new TextEncoder().encode(JSON.stringify(raw ?? {})).length;
  } catch {
    throw new PflowError("invalid_params", `The arguments of ${def.name} are not JSON`);
  }
  if (size > MAX_ARGUMENTS_BYTES) {
    throw new PflowError(
      "invalid_params",
      `The arguments of ${def.name} are ${size} bytes; at most ${MAX_ARGUMENTS_BYTES} are allowed`,
      {
        suggestion: "Send less: save large content to a file and pass its path, or split the call",
        details: { size, limit: MAX_ARGUMENTS_BYTES },
      },
    );
  }
  const parsed = def.input.safeParse(raw ?? {});
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((i) => ({
    field: i.path.map(String).join(".") || "(arguments)",
    message: i.message,
  }));
  const first = issues[0];
  throw new PflowError(
    "invalid_params",
    `Invalid argument '${first.field}' for ${def.name}: ${first.message}`,
    {
      suggestion: `Check the input schema of ${def.name} (tools/list)`,
      details: { param: first.field, issues },
    },
  );
}

/** Secrets from settings `env`; a corrupt settings file must not stop errors from being sent. */
export async function redactorFor(home: string): Promise<Redactor> {
  try {
    return Redactor.fromEnv((await loadSettings(home)).env);
  } catch {
    return new Redactor();
  }
}

/** Runs one tool call: never throws, always a result (structured success or structured error). */
export async function callTool(
  def: ToolDef,
  raw: unknown,
  ctx: ToolContext,
): Promise<CallToolResult> {
  const redactor = await redactorFor(ctx.home);
  try {
    const args = checkArguments(def, raw);
    const answer = await def.run(args, ctx);
    const structured = redactor.value(answer.structured) as Record<string, unknown>;
    return {
      content: [{ type: "text", text: redactor.text(answer.text) }],
      structuredContent: structured,
    };
  } catch (err) {
    const result = errorResult(err, redactor);
    ctx.log(`${def.name}: ${(result.content[0] as { text: string }).text.split("\n")[0]}`);
    return result;
  }
}
