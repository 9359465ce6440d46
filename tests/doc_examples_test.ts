/** The docs teach by example: the example workflows in the agent guide and the README must work. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { INSTRUCTIONS_GUIDE } from "../src/server/instructions/instructions.ts";
import { parseMarkdownWorkflow } from "../src/core/markdown.ts";
import { validateWorkflow } from "../src/core/validator.ts";
import { Registry } from "../src/registry/registry.ts";
import { runWorkflow } from "../src/runtime/run.ts";

const example = () => {
  const m = /````markdown\n([\s\S]*?)\n````/.exec(INSTRUCTIONS_GUIDE);
  assert.ok(m, "the guide holds a ````markdown example");
  return parseMarkdownWorkflow(m[1]);
};

Deno.test("the guide's example workflow validates with no errors or warnings", () => {
  const report = validateWorkflow(example(), new Registry().lookup);
  assert.deepEqual(report.errors, []);
  assert.deepEqual(report.warnings, []);
});

Deno.test("the guide's example workflow runs and gives the documented output", async () => {
  const home = await Deno.makeTempDir();
  try {
    const file = join(home, "text.txt");
    await Deno.writeTextFile(file, "one two three\n");
    const r = await runWorkflow(example(), { home, secrets: {}, params: { path: file } });
    assert.equal(r.status, "success", JSON.stringify(r.errors));
    assert.equal(String(r.outputs.words).trim(), "3");
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("the README's format example is a valid workflow", async () => {
  const readme = await Deno.readTextFile(new URL("../README.md", import.meta.url));
  const m = /````markdown\n([\s\S]*?)\n````/.exec(readme);
  assert.ok(m, "the README holds a ````markdown example");
  const report = validateWorkflow(parseMarkdownWorkflow(m[1]), new Registry().lookup);
  assert.deepEqual(report.errors, []);
  assert.deepEqual(report.warnings, []);
});
