/**
 * A minimal NodeContext for running one node in a test: no MCP servers, no sub-workflows, and a
 * `logs` array that collects what the node logged. Override any field you need.
 */
import type { NodeContext } from "../src/nodes/types.ts";

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
