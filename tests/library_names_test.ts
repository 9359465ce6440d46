/** Workflow names: the traversal corpus through every entry point, and plain invalid names. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { PflowError, SecurityError } from "../src/core/errors.ts";
import { validateName } from "../src/library/names.ts";
import { main } from "../src/cli/main.ts";
import { resolveWorkflow } from "../src/library/resolve.ts";
import { deleteWorkflow, loadWorkflow, saveWorkflow } from "../src/library/store.ts";
import { recordRun } from "../src/library/metadata.ts";
import { parseMarkdownWorkflow } from "../src/core/markdown.ts";
import { Registry } from "../src/registry/registry.ts";
import { readFieldsService } from "../src/services/node_runs.ts";
import { captureIO, filesUnder, HELLO_MD } from "./_cli.ts";

/** Names that look like paths: each must be a SecurityError, never resolved. */
export const HOSTILE_NAMES: string[] = [
  "../x",
  "..",
  ".",
  "../../etc/passwd",
  "..%2fx",
  "..%2Fx",
  "%2e%2e%2fx",
  "%2e%2e",
  "a%00b",
  "/etc/passwd",
  "/tmp/x",
  "a/b",
  "a/../b",
  "x/..",
  "a\\b",
  "..\\x",
  "\\\\server\\share",
  "C:\\Windows\\x",
  "~root",
  "~",
  "~/x",
  "~user/.ssh",
  "x\u0000y",
  "\u0000",
  "x\ny",
  "x\ry",
  "x\ty",
  "a\u007fb",
  "a\u0085b",
  "a\u2215b",
  "a\u2044b",
  "a\uff0fb",
  "\uff0e\uff0e\uff0fx",
  "\uff0e\uff0e",
  "a\uff3cb",
  "a\u29f8b",
  "a\ufe68b",
  "a\u2024\u2024b",
  "\u2025x",
  "..x",
  "x..",
  "a..b",
  "./x",
  "x/",
  "/",
  "//",
  "...",
  "%5c",
  "a%5cb",
  "%2f",
  "name%20x",
  "workflows/../../x",
  "drafts/../x",
  "\u2024\u2024/x",
  "x\u0000.pflow.md",
];

Deno.test("the hostile-name corpus holds at least 50 names", () => {
  assert.ok(HOSTILE_NAMES.length >= 50, `${HOSTILE_NAMES.length}`);
});

Deno.test("validateName refuses every hostile name with a SecurityError", () => {
  for (const name of HOSTILE_NAMES) {
    assert.throws(() => validateName(name), SecurityError, JSON.stringify(name));
  }
});

Deno.test("validateName refuses bad-but-harmless names with invalid_params", () => {
  for (
    const name of [
      "",
      "Hello",
      "a_b",
      "a--b",
      "-a",
      "a-",
      "a b",
      "x".repeat(51),
      "test",
      "mcp",
      "null",
      "café",
    ]
  ) {
    assert.throws(
      () => validateName(name),
      (e) =>
        e instanceof PflowError && !(e instanceof SecurityError) && e.code === "invalid_params",
      JSON.stringify(name),
    );
  }
});

Deno.test("validateName accepts lowercase names with single hyphens up to 50 characters", () => {
  for (const name of ["a", "hello", "fetch-issues-2", "x".repeat(50), "tests", "my-mcp"]) {
    assert.equal(validateName(name), name);
  }
});

Deno.test("every entry point refuses every hostile name and creates nothing outside PFLOW_HOME", async () => {
  const root = await Deno.makeTempDir();
  const home = join(root, "home");
  const cwd = join(root, "cwd");
  await Deno.mkdir(home);
  await Deno.mkdir(cwd);
  await Deno.writeTextFile(join(cwd, "hello.pflow.md"), HELLO_MD);
  const parsed = parseMarkdownWorkflow(HELLO_MD);
  const lookup = new Registry().lookup;
  try {
    for (const name of HOSTILE_NAMES) {
      const label = JSON.stringify(name);
      await assert.rejects(saveWorkflow(home, name, parsed, { lookup }), SecurityError, label);
      await assert.rejects(
        saveWorkflow(home, name, parsed, { lookup, kind: "draft" }),
        SecurityError,
        label,
      );
      await assert.rejects(loadWorkflow(home, name), SecurityError, label);
      await assert.rejects(deleteWorkflow(home, name), SecurityError, label);
      await assert.rejects(
        recordRun(home, name, { success: true, duration_ms: 1 }),
        SecurityError,
        label,
      );
      if (!name.includes("\n")) {
        await assert.rejects(resolveWorkflow(name, { home, cwd }), SecurityError, label);
      }
      await assert.rejects(readFieldsService(home, name, ["node.stdout"]), SecurityError, label);
      for (
        const argv of [
          ["workflow", "save", "hello.pflow.md", "--name", name],
          [
            "workflow",
            "describe",
            ...(name.includes("\n") || name.endsWith(".pflow.md") ? [] : [name]),
          ],
          ["workflow", "delete", name],
          ["workflow", "history", name],
          ["read-fields", name, "node.stdout"],
        ]
      ) {
        if (argv.length === 2) continue;
        const c = captureIO(home, cwd);
        const code = await main(argv, c.io);
        assert.notEqual(code, 0, `${argv.join(" ")} ${label}`);
        assert.match(c.err(), /Refused/, `${argv.join(" ")} ${label}`);
      }
    }
    assert.deepEqual(await filesUnder(cwd), ["hello.pflow.md"]);
    assert.deepEqual(
      await filesUnder(root).then((f) =>
        f.filter((p) => !p.startsWith("home/") && !p.startsWith("cwd/"))
      ),
      [],
    );
    const inHome = await filesUnder(home);
    assert.ok(inHome.every((p) => !p.endsWith(".pflow.md")), inHome.join(","));
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
