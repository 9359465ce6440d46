/** `pflow workflow …` in-process and as a real process, and crash safety of saves under SIGKILL. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { splitFrontmatter } from "../src/core/markdown.ts";
import { HELLO_MD, runCli } from "./_cli.ts";
import { PFLOW_FLAGS } from "../scripts/permission_flags.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;
const CONFIG = new URL("../deno.json", import.meta.url).pathname;

async function withDirs(fn: (home: string, cwd: string) => Promise<void>) {
  const root = await Deno.makeTempDir();
  const home = join(root, "home");
  const cwd = join(root, "cwd");
  await Deno.mkdir(cwd, { recursive: true });
  await Deno.writeTextFile(join(cwd, "hello.pflow.md"), HELLO_MD);
  try {
    await fn(home, cwd);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

const pflow = (home: string, cwd: string, ...argv: string[]) => runCli(argv, home, cwd);

Deno.test("workflow save then list shows the saved workflow with its description", () =>
  withDirs(async (home, cwd) => {
    const saved = await pflow(home, cwd, "workflow", "save", "hello.pflow.md", "--name", "hello");
    assert.equal(saved.code, 0, saved.err);
    assert.match(saved.out, /Saved workflow 'hello'/);
    const list = await pflow(home, cwd, "workflow", "list");
    assert.match(list.out, /hello\s+Says hello to someone\./);
  }));

Deno.test("workflow save of an existing name fails with exit 1 and says --force", () =>
  withDirs(async (home, cwd) => {
    await pflow(home, cwd, "workflow", "save", "hello.pflow.md", "--name", "hello");
    const again = await pflow(home, cwd, "workflow", "save", "hello.pflow.md", "--name", "hello");
    assert.equal(again.code, 1);
    assert.match(again.err, /already exists[\s\S]*--force/);
  }));

Deno.test("workflow save without --name is a usage error (exit 2)", () =>
  withDirs(async (home, cwd) => {
    const r = await pflow(home, cwd, "workflow", "save", "hello.pflow.md");
    assert.equal(r.code, 2);
    assert.match(r.err, /--name/);
  }));

Deno.test("workflow list --json gives the structured result", () =>
  withDirs(async (home, cwd) => {
    await pflow(home, cwd, "workflow", "save", "hello.pflow.md", "--name", "hello");
    const r = await pflow(home, cwd, "workflow", "list", "--json");
    const data = JSON.parse(r.out);
    assert.equal(data.success, true);
    assert.deepEqual(data.workflows.map((w: { name: string }) => w.name), ["hello"]);
  }));

Deno.test("workflow list keywords must all match name or description, best match first", () =>
  withDirs(async (home, cwd) => {
    for (const name of ["greet", "say-hello", "hello", "other"]) {
      await pflow(home, cwd, "workflow", "save", "hello.pflow.md", "--name", name);
    }
    const r = JSON.parse((await pflow(home, cwd, "workflow", "list", "hello", "--json")).out);
    // Every copy says "hello" in its description; name matches rank first.
    assert.deepEqual(r.workflows.map((w: { name: string }) => w.name), [
      "hello",
      "say-hello",
      "greet",
      "other",
    ]);
    const prefix = JSON.parse((await pflow(home, cwd, "workflow", "list", "gr", "--json")).out);
    assert.deepEqual(prefix.workflows.map((w: { name: string }) => w.name), ["greet"]);
    const none = JSON.parse(
      (await pflow(home, cwd, "workflow", "list", "hello", "zebra", "--json")).out,
    );
    assert.deepEqual(none.workflows, []);
  }));

Deno.test("workflow describe shows inputs, outputs and the run command", () =>
  withDirs(async (home, cwd) => {
    await pflow(home, cwd, "workflow", "save", "hello.pflow.md", "--name", "hello");
    const r = await pflow(home, cwd, "workflow", "describe", "hello");
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /who \(string, required\) — The person to greet\./);
    assert.match(r.out, /text ← \$\{greet\.stdout\}/);
    assert.match(r.out, /pflow run hello who=…/);
  }));

Deno.test("running a saved workflow shows up in workflow history", () =>
  withDirs(async (home, cwd) => {
    await pflow(home, cwd, "workflow", "save", "hello.pflow.md", "--name", "hello");
    const run = await pflow(home, cwd, "run", "hello", "who=bob");
    assert.equal(run.code, 0, run.err);
    const h = JSON.parse((await pflow(home, cwd, "workflow", "history", "hello", "--json")).out);
    assert.equal(h.stats.execution_count, 1);
    assert.deepEqual(h.stats.last_execution_params, { who: "bob" });
  }));

Deno.test("workflow save of a draft with --delete-draft moves it into the library", () =>
  withDirs(async (home, cwd) => {
    await Deno.mkdir(join(home, "drafts"), { recursive: true });
    await Deno.writeTextFile(join(home, "drafts", "wip.pflow.md"), HELLO_MD);
    const r = await pflow(home, cwd, "workflow", "save", "wip", "--name", "done", "--delete-draft");
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /Removed draft 'wip'/);
    assert.equal(
      await Deno.stat(join(home, "drafts", "wip.pflow.md")).then(() => true, () => false),
      false,
    );
  }));

Deno.test("workflow delete removes it; a second delete names the problem", () =>
  withDirs(async (home, cwd) => {
    await pflow(home, cwd, "workflow", "save", "hello.pflow.md", "--name", "hello");
    assert.equal((await pflow(home, cwd, "workflow", "delete", "hello")).code, 0);
    const again = await pflow(home, cwd, "workflow", "delete", "hello");
    assert.equal(again.code, 1);
    assert.match(again.err, /No workflow named 'hello'/);
  }));

Deno.test("a real pflow process saves and lists a workflow (round trip)", () =>
  withDirs(async (home, cwd) => {
    const run = (...args: string[]) =>
      new Deno.Command(Deno.execPath(), {
        args: ["run", "--config", CONFIG, ...PFLOW_FLAGS, MAIN, ...args],
        cwd,
        env: { PFLOW_HOME: home },
        stdout: "piped",
        stderr: "piped",
      }).output();
    const save = await run("workflow", "save", "hello.pflow.md", "--name", "hello", "--json");
    assert.equal(save.code, 0, new TextDecoder().decode(save.stderr));
    assert.equal(JSON.parse(new TextDecoder().decode(save.stdout)).name, "hello");
    const list = await run("workflow", "list");
    assert.match(new TextDecoder().decode(list.stdout), /hello\s+Says hello to someone\./);
  }));

Deno.test("a save killed with SIGKILL at a random instant leaves the old file or the new one, never a partial", () =>
  withDirs(async (home, cwd) => {
    const script = join(cwd, "save_loop.ts");
    const storeModule = new URL("../src/library/store.ts", import.meta.url).href;
    const mdModule = new URL("../src/core/markdown.ts", import.meta.url).href;
    const regModule = new URL("../src/registry/registry.ts", import.meta.url).href;
    // Forced saves in a loop, each with a large body, so a kill lands mid-write often.
    await Deno.writeTextFile(
      script,
      `
import { saveWorkflow } from "${storeModule}";
import { parseMarkdownWorkflow } from "${mdModule}";
import { Registry } from "${regModule}";
const base = await Deno.readTextFile(Deno.args[1]);
const lookup = new Registry().lookup;
console.log("ready");
for (let i = 0; ; i++) {
  const md = base.replace("Says hello to someone.", "Version " + i + " " + "x".repeat(200000) + " end.");
  await saveWorkflow(Deno.args[0], "hello", parseMarkdownWorkflow(md), { lookup, force: true });
}
`,
    );
    for (let round = 0; round < 6; round++) {
      const child = new Deno.Command(Deno.execPath(), {
        args: [
          "run",
          "--no-check",
          "-A",
          "--config",
          CONFIG,
          script,
          home,
          join(cwd, "hello.pflow.md"),
        ],
        stdout: "piped",
        stderr: "null",
      }).spawn();
      const reader = child.stdout.getReader();
      await reader.read(); // "ready"
      // A random number of event-loop turns of our own, then the kill: no wall-clock assertion.
      const turns = 1 + Math.floor(Math.random() * 200);
      for (let i = 0; i < turns; i++) await new Promise((r) => setTimeout(r, 1));
      child.kill("SIGKILL");
      await child.status;
      reader.releaseLock();
      await child.stdout.cancel();
      await Deno.remove(join(home, "workflows", ".hello.lock")).catch(() => {});
      const path = join(home, "workflows", "hello.pflow.md");
      const text = await Deno.readTextFile(path).catch(() => undefined);
      if (text === undefined) continue; // killed before the first save landed
      const { metadata, body } = splitFrontmatter(text);
      assert.match(String(metadata.description), /^Version \d+ x{200000} end\.$/);
      assert.match(body, / end\.\n\n## Inputs[\s\S]*- source: \$\{greet\.stdout\}\n$/);
    }
  }));
