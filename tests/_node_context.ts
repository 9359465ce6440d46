/**
 * A minimal NodeContext for running one node in a test: no MCP servers, no sub-workflows, and a
 * `logs` array that collects what the node logged. Override any field you need.
 */
import type { NodeContext, NodeResult } from "../src/nodes/types.ts";

export type TestContext = NodeContext & { logs: string[] };

export function testContext(overrides: Partial<NodeContext> = {}): TestContext {
  const logs: string[] = [];
  return {
    nodeId: "test-node",
    env: {},
    signal: new AbortController().signal,
    cwd: Deno.cwd(),
    stack: [],
    mcp: {
      callTool: () => Promise.reject(new Error("testContext: no MCP sessions in this test")),
      closeAll: () => Promise.resolve(),
    },
    runWorkflow: () =>
      Promise.reject(new Error("testContext: no sub-workflow runner in this test")),
    log: (line: string) => void logs.push(line),
    ...overrides,
    logs,
  };
}

/**
 * Runs one built-in node in a child Deno under the given permission flags (e.g. an
 * `--allow-run` allowlist), and returns its NodeResult. `module` is the file under src/nodes/,
 * `exported` the node's export name.
 */
export async function runNodeRestricted(
  module: string,
  exported: string,
  params: Record<string, unknown>,
  flags: string[],
): Promise<NodeResult> {
  const url = new URL(`../src/nodes/${module}`, import.meta.url).href;
  const script = `
    import { ${exported} as node } from ${JSON.stringify(url)};
    const r = await node.run(${JSON.stringify(params)}, {
      nodeId: "n", env: {}, signal: new AbortController().signal, cwd: "/", stack: [],
      mcp: {}, runWorkflow: {}, log() {},
    });
    console.log(JSON.stringify(r));
  `;
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-check", ...flags, "-"],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(script));
  await writer.close();
  const { stdout, stderr } = await child.output();
  const text = new TextDecoder().decode(stdout);
  if (!text.trim()) {
    throw new Error(`the node's child Deno failed:\n${new TextDecoder().decode(stderr)}`);
  }
  return JSON.parse(text);
}
