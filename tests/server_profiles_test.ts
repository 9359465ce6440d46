/** `pflow mcp serve` profiles, tool narrowing, instructions and resources, over real stdio. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { serve, tempHome } from "./_server_harness.ts";

const resourceText = (r: { contents: unknown[] }) => (r.contents[0] as { text?: string }).text;

const STANDARD = [
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
];
const COMPACT = [
  "browse_components",
  "list_library",
  "describe_workflow",
  "execute",
  "save_to_library",
];
const FULL = [...STANDARD, "read_fields", "trace_read", "settings_get", "settings_set"];

async function toolNames(args: string[]): Promise<string[]> {
  const s = await serve({ args });
  try {
    const { tools } = await s.client.listTools();
    for (const t of tools) {
      assert.ok(t.inputSchema, `${t.name} has an input schema`);
      assert.ok(t.outputSchema, `${t.name} has an output schema`);
      assert.ok(t.description, `${t.name} has a description`);
    }
    return tools.map((t) => t.name).sort();
  } finally {
    await s.close();
  }
}

Deno.test("standard profile (the default) lists exactly its 11 tools", async () => {
  const names = await toolNames([]);
  assert.equal(names.length, 11);
  assert.deepEqual(names, [...STANDARD].sort());
});

Deno.test("compact profile lists exactly its 5 tools", async () => {
  assert.deepEqual(await toolNames(["--profile", "compact"]), [...COMPACT].sort());
});

Deno.test("full profile lists standard plus read_fields, trace_read, settings_get, settings_set", async () => {
  const names = await toolNames(["--profile", "full"]);
  assert.equal(names.length, 15);
  assert.deepEqual(names, [...FULL].sort());
});

Deno.test("--tools narrows the profile to the named tools", async () => {
  assert.deepEqual(await toolNames(["--tools", "workflow_list,workflow_execute"]), [
    "workflow_execute",
    "workflow_list",
  ]);
});

Deno.test("--tools with a tool outside the profile exits 2 and names it", async () => {
  const home = await tempHome();
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "main.ts",
      "mcp",
      "serve",
      "--profile",
      "compact",
      "--tools",
      "workflow_list",
    ],
    env: { PFLOW_HOME: home },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 2);
  assert.equal(new TextDecoder().decode(out.stdout), "");
  assert.match(new TextDecoder().decode(out.stderr), /workflow_list/);
});

Deno.test("initialize carries instructions that say discover first and validate before executing", async () => {
  const s = await serve();
  try {
    const text = s.client.getInstructions() ?? "";
    assert.match(text, /workflow_discover/);
    assert.match(text, /pflow:\/\/instructions/);
    assert.match(text, /[Vv]alidate before execut/);
  } finally {
    await s.close();
  }
});

Deno.test("each profile's instructions name only tools that profile has", async () => {
  for (const [profile, tools] of [["standard", STANDARD], ["compact", COMPACT], ["full", FULL]]) {
    const s = await serve({ args: ["--profile", profile as string] });
    try {
      const text = s.client.getInstructions() ?? "";
      const named = [...new Set(text.match(/\b[a-z]+_[a-z_]+(?=\()/g) ?? [])];
      assert.ok(named.length > 0, `${profile}: the instructions name tools`);
      for (const name of named) {
        assert.ok((tools as string[]).includes(name), `${profile} instructions name ${name}`);
      }
    } finally {
      await s.close();
    }
  }
});

Deno.test("both guide resources are listed and readable", async () => {
  const s = await serve();
  try {
    const { resources } = await s.client.listResources();
    assert.deepEqual(resources.map((r) => r.uri).sort(), [
      "pflow://instructions",
      "pflow://instructions/sandbox",
    ]);
    const guide = await s.client.readResource({ uri: "pflow://instructions" });
    assert.match(String(resourceText(guide)), /## Templates/);
    const sandbox = await s.client.readResource({ uri: "pflow://instructions/sandbox" });
    assert.match(String(resourceText(sandbox)), /credentials as inputs/i);
  } finally {
    await s.close();
  }
});

Deno.test("a file in PFLOW_HOME/instructions overrides its guide", async () => {
  const home = await tempHome();
  await Deno.mkdir(join(home, "instructions"));
  await Deno.writeTextFile(join(home, "instructions", "sandbox.md"), "Our own sandbox rules.");
  const s = await serve({ home });
  try {
    const sandbox = await s.client.readResource({ uri: "pflow://instructions/sandbox" });
    assert.equal(resourceText(sandbox), "Our own sandbox rules.");
    const guide = await s.client.readResource({ uri: "pflow://instructions" });
    assert.match(String(resourceText(guide)), /## Templates/);
  } finally {
    await s.close();
  }
});
