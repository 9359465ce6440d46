/**
 * A real third-party client against `pflow mcp serve`: MCP Inspector's CLI
 * (npm:@modelcontextprotocol/inspector@2.12, `--cli`) lists the tools and calls workflow_list,
 * workflow_validate and workflow_execute. Skipped unless tests/mcp_servers has it installed.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DENO_FLAGS, HELLO, MAIN, putWorkflow, ROOT, tempHome } from "./_server_harness.ts";

const INSPECTOR = join(ROOT, "tests", "mcp_servers", "node_modules", ".bin", "mcp-inspector");
const installed = await Deno.stat(INSPECTOR).then(() => true, () => false);
const ignore = !installed;
if (ignore) {
  console.error(
    "server_inspector_test: skipped — add @modelcontextprotocol/inspector@2.12 to tests/mcp_servers/package.json and npm install",
  );
}

async function inspect(home: string, ...args: string[]): Promise<unknown> {
  const out = await new Deno.Command(INSPECTOR, {
    // The Inspector gives the server only a default environment: PFLOW_HOME goes through -e,
    // or the server would use the real ~/.pflow.
    args: [
      "--cli",
      "-e",
      `PFLOW_HOME=${home}`,
      // Deno's own cache, when moved, must follow too (else the server downloads everything).
      ...(Deno.env.get("DENO_DIR") ? ["-e", `DENO_DIR=${Deno.env.get("DENO_DIR")}`] : []),
      Deno.execPath(),
      ...DENO_FLAGS,
      MAIN,
      "mcp",
      "serve",
      ...args,
    ],
    env: { PFLOW_HOME: home },
    cwd: home,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  return JSON.parse(text);
}

Deno.test({
  name: "MCP Inspector lists pflow's tools",
  ignore,
  fn: async () => {
    const r = await inspect(await tempHome(), "--method", "tools/list") as {
      tools: { name: string }[];
    };
    assert.equal(r.tools.length, 11);
  },
});

Deno.test({
  name: "MCP Inspector calls workflow_list, workflow_validate and workflow_execute",
  ignore,
  fn: async () => {
    const home = await tempHome();
    await putWorkflow(home, "say-hello", HELLO);
    const list = await inspect(home, "--method", "tools/call", "--tool-name", "workflow_list") as {
      structuredContent: { workflows: { name: string }[] };
    };
    assert.equal(list.structuredContent.workflows[0].name, "say-hello");
    const valid = await inspect(
      home,
      "--method",
      "tools/call",
      "--tool-name",
      "workflow_validate",
      "--tool-arg",
      "workflow=say-hello",
    ) as { structuredContent: { valid: boolean } };
    assert.equal(valid.structuredContent.valid, true);
    const run = await inspect(
      home,
      "--method",
      "tools/call",
      "--tool-name",
      "workflow_execute",
      "--tool-arg",
      "workflow=say-hello",
      "--tool-arg",
      'parameters={"who":"inspector"}',
    ) as { structuredContent: { outputs: { greeting: string } } };
    assert.match(run.structuredContent.outputs.greeting, /hello inspector/);
  },
});
