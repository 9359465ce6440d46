/** The library on disk: save (validate first, never overwrite, one winner), drafts, load, list, delete, run statistics. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { PflowError } from "../src/core/errors.ts";
import { parseMarkdownWorkflow, splitFrontmatter } from "../src/core/markdown.ts";
import { Registry } from "../src/registry/registry.ts";
import {
  deleteWorkflow,
  listNames,
  listWorkflows,
  loadWorkflow,
  saveDraft,
  saveDraftToLibrary,
  saveWorkflow,
  workflowPath,
} from "../src/library/store.ts";
import { recordRun, runStatistics } from "../src/library/metadata.ts";
import { describeWorkflow } from "../src/library/describe.ts";
import { resolveWorkflow } from "../src/library/resolve.ts";
import { Redactor } from "../src/core/redact.ts";
import { HELLO_MD, withHome } from "./_cli.ts";

const lookup = new Registry().lookup;
const CONFIG = new URL("../deno.json", import.meta.url).pathname;
const hello = () => parseMarkdownWorkflow(HELLO_MD);
const isCode = (code: string) => (e: unknown) => e instanceof PflowError && e.code === code;

Deno.test("save keeps the author's markdown body byte for byte after the frontmatter", () =>
  withHome(async (home) => {
    const { path } = await saveWorkflow(home, "hello", hello(), { lookup });
    const { metadata, body } = splitFrontmatter(await Deno.readTextFile(path));
    assert.equal(body, HELLO_MD);
    assert.equal(metadata.description, "Says hello to someone.");
  }));

Deno.test("save refuses an invalid workflow and writes nothing", () =>
  withHome(async (home) => {
    const bad = parseMarkdownWorkflow(HELLO_MD.replace("${who}", "${whom}"));
    await assert.rejects(saveWorkflow(home, "hello", bad, { lookup }), isCode("validation"));
    assert.deepEqual(listNames(home), []);
  }));

Deno.test("save without force refuses to overwrite and leaves the file intact", () =>
  withHome(async (home) => {
    const { path } = await saveWorkflow(home, "hello", hello(), { lookup });
    const before = await Deno.readTextFile(path);
    const changed = parseMarkdownWorkflow(HELLO_MD.replace("Says hello", "Greets"));
    await assert.rejects(saveWorkflow(home, "hello", changed, { lookup }), isCode("exists"));
    assert.equal(await Deno.readTextFile(path), before);
  }));

Deno.test("save with force replaces the workflow and keeps created_at", () =>
  withHome(async (home) => {
    const { path } = await saveWorkflow(home, "hello", hello(), { lookup });
    const created = splitFrontmatter(await Deno.readTextFile(path)).metadata.created_at;
    const changed = parseMarkdownWorkflow(HELLO_MD.replace("Says hello", "Greets"));
    await saveWorkflow(home, "hello", changed, { lookup, force: true });
    const { metadata, body } = splitFrontmatter(await Deno.readTextFile(path));
    assert.match(body, /Greets/);
    assert.equal(metadata.created_at, created);
  }));

Deno.test("20 concurrent saves of one name give 1 success and 19 exists errors, file intact", () =>
  withHome(async (home) => {
    const results = await Promise.allSettled(
      Array.from(
        { length: 20 },
        (_, i) =>
          saveWorkflow(
            home,
            "race",
            parseMarkdownWorkflow(HELLO_MD.replace("Says hello", `Writer ${i} says hello`)),
            { lookup },
          ),
      ),
    );
    const ok = results.filter((r) => r.status === "fulfilled");
    const exists = results.filter((r) => r.status === "rejected" && isCode("exists")(r.reason));
    assert.equal(ok.length, 1);
    assert.equal(exists.length, 19);
    const loaded = await loadWorkflow(home, "race");
    assert.match(loaded.parsed.body ?? "", /^# Hello world\n\nWriter \d+ says hello/);
    const stray = [...Deno.readDirSync(join(home, "workflows"))].map((e) => e.name);
    assert.deepEqual(stray, ["race.pflow.md"]);
  }));

Deno.test("an IR without markdown is saved as .pflow.md that parses back to the same IR", () =>
  withHome(async (home) => {
    const { parsed } = await resolveWorkflow({
      nodes: [{
        id: "a",
        type: "shell",
        purpose: "Print it.",
        params: { command: "printf '${who}\\ny'", timeout: 5 },
      }],
      inputs: { who: { type: "string", description: "Someone" } },
      outputs: { out: { source: "${a.stdout}" } },
    }, { home, cwd: home });
    await saveWorkflow(home, "from-ir", parsed, { lookup: (t) => lookup(t) });
    const loaded = await loadWorkflow(home, "from-ir");
    assert.deepEqual(loaded.parsed.ir.nodes, parsed.ir.nodes);
    assert.deepEqual(loaded.parsed.ir.inputs.who.type, "string");
  }));

Deno.test("saving a draft into the library removes the draft only after the library file exists", () =>
  withHome(async (home) => {
    await saveDraft(home, "wip", hello(), { lookup });
    await saveDraftToLibrary(home, "wip", { lookup, name: "done" });
    assert.deepEqual(listNames(home, "draft"), []);
    assert.deepEqual(listNames(home), ["done"]);
  }));

Deno.test("a draft move that cannot save keeps the draft", () =>
  withHome(async (home) => {
    await saveWorkflow(home, "done", hello(), { lookup });
    await saveDraft(home, "wip", hello(), { lookup });
    await assert.rejects(
      saveDraftToLibrary(home, "wip", { lookup, name: "done" }),
      isCode("exists"),
    );
    assert.deepEqual(listNames(home, "draft"), ["wip"]);
  }));

Deno.test("load of a missing workflow is not_found and names close matches", () =>
  withHome(async (home) => {
    await saveWorkflow(home, "hello", hello(), { lookup });
    await assert.rejects(loadWorkflow(home, "helo"), (e) => {
      assert.ok(isCode("not_found")(e));
      assert.match((e as PflowError).suggestion ?? "", /'hello'/);
      return true;
    });
  }));

Deno.test("list ignores temp files, lock files and stray names", () =>
  withHome(async (home) => {
    await saveWorkflow(home, "hello", hello(), { lookup });
    const dir = join(home, "workflows");
    await Deno.writeTextFile(join(dir, ".hello.pflow.md.abcd.tmp"), "partial");
    await Deno.writeTextFile(join(dir, ".hello.lock"), "1");
    await Deno.writeTextFile(join(dir, "Bad_Name.pflow.md"), HELLO_MD);
    const list = listWorkflows(home);
    assert.deepEqual(list.map((w) => w.name), ["hello"]);
    assert.equal(list[0].description, "Says hello to someone.");
  }));

Deno.test("list sees a workflow edited in place between two listings", () =>
  withHome(async (home) => {
    await saveWorkflow(home, "hello", hello(), { lookup });
    const path = workflowPath(home, "hello");
    assert.equal((listWorkflows(home))[0].description, "Says hello to someone.");
    const text = await Deno.readTextFile(path);
    // An in-place write (no rename), as an editor or an agent's file tool may do.
    using file = await Deno.open(path, { write: true, truncate: true });
    await file.write(new TextEncoder().encode(text.replace("Says hello", "Now says hello")));
    assert.equal((listWorkflows(home))[0].description, "Now says hello to someone.");
  }));

Deno.test("delete removes the workflow; deleting again is not_found", () =>
  withHome(async (home) => {
    await saveWorkflow(home, "hello", hello(), { lookup });
    await deleteWorkflow(home, "hello");
    await assert.rejects(deleteWorkflow(home, "hello"), isCode("not_found"));
  }));

Deno.test("recordRun counts runs and keeps a running average duration", () =>
  withHome(async (home) => {
    await saveWorkflow(home, "hello", hello(), { lookup });
    await recordRun(home, "hello", { success: true, duration_ms: 100 }, { who: "a" });
    const stats = await recordRun(home, "hello", {
      success: false,
      status: "failed",
      duration_ms: 300,
    }, { who: "b" });
    assert.equal(stats.execution_count, 2);
    assert.equal(stats.average_execution_duration_ms, 200);
    assert.equal(stats.last_execution_success, false);
    assert.deepEqual(stats.last_execution_params, { who: "b" });
    assert.equal(stats.recent_runs.length, 2);
  }));

Deno.test("recordRun keeps the body byte for byte", () =>
  withHome(async (home) => {
    await saveWorkflow(home, "hello", hello(), { lookup });
    await recordRun(home, "hello", { success: true, duration_ms: 1 });
    assert.equal(
      splitFrontmatter(await Deno.readTextFile(workflowPath(home, "hello"))).body,
      HELLO_MD,
    );
  }));

Deno.test("20 concurrent metadata updates give execution_count exactly 20", () =>
  withHome(async (home) => {
    await saveWorkflow(home, "hello", hello(), { lookup });
    const redactor = new Redactor();
    await Promise.all(
      Array.from(
        { length: 20 },
        (_, i) => recordRun(home, "hello", { success: true, duration_ms: i }, {}, { redactor }),
      ),
    );
    const { parsed } = await loadWorkflow(home, "hello");
    assert.equal(runStatistics(parsed.metadata).execution_count, 20);
  }));

Deno.test("20 concurrent metadata updates from separate processes give execution_count exactly 20", () =>
  withHome(async (home) => {
    await saveWorkflow(home, "hello", hello(), { lookup });
    const script = join(home, "record.ts");
    const metadataModule = new URL("../src/library/metadata.ts", import.meta.url).href;
    await Deno.writeTextFile(
      script,
      `import { recordRun } from "${metadataModule}";\nawait recordRun(Deno.args[0], "hello", { success: true, duration_ms: 5 }, {});\n`,
    );
    const runs = Array.from({ length: 20 }, () =>
      new Deno.Command(Deno.execPath(), {
        args: ["run", "--no-check", "-A", "--config", CONFIG, script, home],
        stdout: "null",
        stderr: "piped",
      }).output());
    for (const r of await Promise.all(runs)) {
      assert.equal(r.code, 0, new TextDecoder().decode(r.stderr));
    }
    const { parsed } = await loadWorkflow(home, "hello");
    assert.equal(runStatistics(parsed.metadata).execution_count, 20);
  }));

Deno.test("recordRun redacts secret keys and settings values in stored params", () =>
  withHome(async (home) => {
    await saveWorkflow(home, "hello", hello(), { lookup });
    await Deno.writeTextFile(
      join(home, "settings.json"),
      JSON.stringify({ env: { MY_KEY: "canary-xyz-987" } }),
    );
    await recordRun(home, "hello", { success: true, duration_ms: 1 }, {
      api_token: "abc12345",
      who: "prefix canary-xyz-987 suffix",
      author: "ann",
    });
    const text = await Deno.readTextFile(workflowPath(home, "hello"));
    assert.ok(!text.includes("canary-xyz-987"));
    assert.ok(!text.includes("abc12345"));
    assert.match(text, /author: ann/);
  }));

Deno.test("describe lists inputs, outputs and template variables nobody declared", () => {
  const parsed = hello();
  parsed.ir.nodes[0].params.command = "echo ${who} ${missing} ${greet.stdout}";
  const d = describeWorkflow(parsed, { name: "hello" });
  assert.deepEqual(d.inputs.map((i) => i.name), ["who"]);
  assert.deepEqual(d.outputs.map((o) => [o.name, o.source]), [["text", "${greet.stdout}"]]);
  assert.deepEqual(d.undeclared, ["missing"]);
  assert.equal(d.stats.execution_count, 0);
});

Deno.test("resolve takes markdown content before paths and names", () =>
  withHome(async (home) => {
    const r = await resolveWorkflow(HELLO_MD, { home, cwd: home });
    assert.equal(r.source, "content");
  }));

Deno.test("resolve reads a relative .pflow.md path against cwd", () =>
  withHome(async (home) => {
    await Deno.writeTextFile(join(home, "x.pflow.md"), HELLO_MD);
    const r = await resolveWorkflow("x.pflow.md", { home: join(home, "h"), cwd: home });
    assert.equal(r.source, "path");
    assert.equal(r.path, join(home, "x.pflow.md"));
  }));

Deno.test("resolve prefers the library over a draft of the same name", () =>
  withHome(async (home) => {
    await saveDraft(home, "hello", hello(), { lookup });
    assert.equal((await resolveWorkflow("hello", { home, cwd: home })).source, "draft");
    await saveWorkflow(home, "hello", hello(), { lookup });
    assert.equal((await resolveWorkflow("hello", { home, cwd: home })).source, "library");
  }));

Deno.test("resolve of an unknown name is not_found listing close names", () =>
  withHome(async (home) => {
    await saveWorkflow(home, "hello", hello(), { lookup });
    await assert.rejects(resolveWorkflow("hallo", { home, cwd: home }), (e) => {
      assert.ok(isCode("not_found")(e));
      assert.deepEqual((e as PflowError).details.similar, ["hello"]);
      return true;
    });
  }));

Deno.test("a description written over several lines is listed and stored on one line", () =>
  withHome(async (home) => {
    const md = HELLO_MD.replace("Says hello to someone.", "Says hello\nto someone.");
    await saveWorkflow(home, "hello", parseMarkdownWorkflow(md), { lookup });
    assert.equal(listWorkflows(home)[0].description, "Says hello to someone.");
    const { metadata } = splitFrontmatter(await Deno.readTextFile(workflowPath(home, "hello")));
    assert.equal(metadata.description, "Says hello to someone.");
  }));
