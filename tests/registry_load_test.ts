/** Loading the registry view: built-ins plus registry.json, re-read so edits are always seen. */
import assert from "node:assert/strict";
import { Registry } from "../src/registry/registry.ts";
import { saveRegistryFile } from "../src/registry/store.ts";
import type { NodeInterface } from "../src/core/node_interface.ts";

const entry = (tool: string): NodeInterface => ({
  type: `mcp-srv-${tool}`,
  description: `Tool ${tool}`,
  params: {},
  outputs: {},
  actions: ["default", "error"],
  category: "mcp",
  openOutputs: true,
  mcp: { server: "srv", tool },
});

Deno.test("a second load sees entries written to registry.json after the first", async () => {
  const home = await Deno.makeTempDir();
  try {
    await saveRegistryFile(home, { version: 1, nodes: { "mcp-srv-a": entry("a") }, servers: {} });
    assert.ok((await Registry.load(home)).get("mcp-srv-a"));
    assert.equal((await Registry.load(home)).get("mcp-srv-b"), undefined);
    await saveRegistryFile(home, {
      version: 1,
      nodes: { "mcp-srv-a": entry("a"), "mcp-srv-b": entry("b") },
      servers: {},
    });
    assert.ok((await Registry.load(home)).get("mcp-srv-b"));
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("an unchanged registry.json is not parsed again", async () => {
  const home = await Deno.makeTempDir();
  try {
    await saveRegistryFile(home, { version: 1, nodes: { "mcp-srv-a": entry("a") }, servers: {} });
    assert.equal(await Registry.load(home), await Registry.load(home));
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("a corrupt registry.json is reported with the backup offered, never emptied", async () => {
  const home = await Deno.makeTempDir();
  try {
    await saveRegistryFile(home, { version: 1, nodes: { "mcp-srv-a": entry("a") }, servers: {} });
    await Deno.writeTextFile(`${home}/registry.json`, "{not json");
    await assert.rejects(Registry.load(home), /registry\.json is corrupt.*/);
    await assert.rejects(Registry.load(home), (e: Error & { suggestion?: string }) => {
      assert.match(e.suggestion ?? "", /registry\.json\.bak/);
      return true;
    });
    assert.equal(await Deno.readTextFile(`${home}/registry.json`), "{not json");
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
