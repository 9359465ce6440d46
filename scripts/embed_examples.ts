/**
 * Writes src/examples.ts from examples/*.pflow.md, so the example workflows travel inside the
 * compiled binary and the bundle (no source tree needed at run time). The files in examples/ are
 * the source of truth; tests/examples_embedded_test.ts fails when this has not been re-run.
 *
 * Usage: deno run --allow-read=examples --allow-write=src/examples.ts scripts/embed_examples.ts
 */
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));

/** The text of src/examples.ts for the given name → markdown pairs (sorted by name). */
export function renderExamplesModule(examples: Record<string, string>): string {
  const entries = Object.keys(examples).sort().map((name) =>
    // Name and text on separate lines: the form `deno fmt` gives long entries.
    `  ${JSON.stringify(name)}:\n    ${JSON.stringify(examples[name])},`
  );
  return [
    "/**",
    " * The example workflows built into pflow (`pflow examples`), embedded so they work from any",
    " * directory. GENERATED from examples/*.pflow.md by scripts/embed_examples.ts — edit those",
    " * files and re-run the script; do not edit this one.",
    " */",
    "export const EXAMPLES: Readonly<Record<string, string>> = {",
    ...entries,
    "};",
    "",
  ].join("\n");
}

/** Reads examples/*.pflow.md: name (file name without `.pflow.md`) → markdown. */
export async function readExampleFiles(
  dir = join(root, "examples"),
): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for await (const entry of Deno.readDir(dir)) {
    if (!entry.isFile || !entry.name.endsWith(".pflow.md")) continue;
    out[basename(entry.name, ".pflow.md")] = await Deno.readTextFile(join(dir, entry.name));
  }
  return out;
}

if (import.meta.main) {
  const target = join(root, "src", "examples.ts");
  await Deno.writeTextFile(target, renderExamplesModule(await readExampleFiles()));
  console.log(`wrote ${target}`);
}
