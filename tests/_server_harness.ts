/**
 * Test harness for `pflow mcp serve`: starts the real server (`deno run` main.ts with the pflow
 * task's permissions) over real stdio with a temp PFLOW_HOME, and connects the SDK client. Tools
 * are listed on connect, so the client validates every structuredContent against its schema.
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "../src/mcp/sdk_client.ts";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { structuredErrorOf, type ToolError } from "../src/server/errors.ts";
import { PFLOW_FLAGS } from "../scripts/permission_flags.ts";

export const ROOT = fileURLToPath(new URL("..", import.meta.url));
export const MAIN = join(ROOT, "main.ts");
export const DENO_FLAGS = ["run", ...PFLOW_FLAGS];

export interface Served {
  client: Client;
  home: string;
  transport: StdioClientTransport;
  close(): Promise<void>;
}

export async function tempHome(): Promise<string> {
  return await Deno.makeTempDir({ prefix: "pflow-server-test-" });
}

export async function serve(
  opts: { home?: string; args?: string[]; cwd?: string } = {},
): Promise<Served> {
  const home = opts.home ?? await tempHome();
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: [...DENO_FLAGS, MAIN, "mcp", "serve", ...(opts.args ?? [])],
    env: { ...Deno.env.toObject(), PFLOW_HOME: home, NO_COLOR: "1" },
    cwd: opts.cwd ?? home,
    stderr: "pipe",
  });
  const client = new Client({ name: "pflow-test", version: "1.0.0" });
  await client.connect(transport);
  await client.listTools();
  return {
    client,
    home,
    transport,
    close: async () => {
      await client.close();
    },
  };
}

/** The structured error of an isError result (fails the test when there is none). */
export function errorOf(result: unknown): ToolError {
  const r = result as { isError?: boolean; content?: unknown };
  if (!r.isError) throw new Error(`expected an error result, got ${JSON.stringify(result)}`);
  const e = structuredErrorOf(r);
  if (!e) throw new Error(`error result without structure: ${JSON.stringify(result)}`);
  return e;
}

export function textOf(result: unknown): string {
  const blocks = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  return blocks.filter((b) => b.type === "text").map((b) => b.text).join("\n");
}

export const HELLO = `# Hello

Greets someone by name.

## Inputs

### who

Who to greet.

- type: string
- required: true

## Steps

### greet

Say hello.

- type: shell

\`\`\`shell command
echo "hello \${who}"
\`\`\`

## Outputs

### greeting

The greeting.

- source: \${greet.stdout}
`;

/** Writes a draft or saved workflow straight into the temp home. */
export async function putWorkflow(
  home: string,
  name: string,
  text: string,
  kind: "workflows" | "drafts" = "workflows",
): Promise<string> {
  await Deno.mkdir(join(home, kind), { recursive: true });
  const path = join(home, kind, `${name}.pflow.md`);
  await Deno.writeTextFile(path, text);
  return path;
}
