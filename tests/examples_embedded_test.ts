/**
 * The example workflows built into pflow (src/examples.ts) are exactly the files in examples/,
 * the source of truth: a stale copy would ship old examples inside the binary.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { EXAMPLES } from "../src/examples.ts";
import { readExampleFiles, renderExamplesModule } from "../scripts/embed_examples.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

Deno.test("the embedded examples equal examples/*.pflow.md", async () => {
  assert.deepEqual({ ...EXAMPLES }, await readExampleFiles());
});

Deno.test("src/examples.ts is what scripts/embed_examples.ts generates", async () => {
  const expected = renderExamplesModule(await readExampleFiles());
  const actual = await Deno.readTextFile(join(ROOT, "src", "examples.ts"));
  assert.equal(
    actual,
    expected,
    "run: deno run --allow-read --allow-write scripts/embed_examples.ts",
  );
});
