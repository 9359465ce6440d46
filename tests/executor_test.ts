/**
 * The executor (runWorkflow): actions and edges, handled and unhandled errors, run-time template
 * errors, checkpoint and resume (observed through a side-effect counter file), traces with
 * secrets redacted, nested workflows, and interruption. Every test has its own PFLOW_HOME.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { type ParsedWorkflow, type WorkflowIRInput, WorkflowIRSchema } from "../src/core/ir.ts";
import { parseMarkdownWorkflow } from "../src/core/markdown.ts";
import { saveSettings } from "../src/core/settings.ts";
import { type RunOptions, type RunResult, runWorkflow } from "../src/runtime/run.ts";
import { runService } from "../src/services/run.ts";
import { withHome } from "./_cli.ts";

const fromIR = (ir: WorkflowIRInput): ParsedWorkflow => ({
  ir: WorkflowIRSchema.parse(ir),
  metadata: {},
});

const run = (parsed: ParsedWorkflow, home: string, opts: Partial<RunOptions> = {}) =>
  runWorkflow(parsed, { home, secrets: {}, cwd: home, ...opts });

const ran = (r: RunResult) => r.nodes.map((n) => `${n.id}:${n.status}`);

async function readTrace(r: RunResult): Promise<Record<string, unknown>> {
  assert.ok(r.trace_path, "the result names its trace");
  return JSON.parse(await Deno.readTextFile(r.trace_path));
}

Deno.test("nodes run along default edges and the last node's outputs are the result", async () => {
  await withHome(async (home) => {
    const r = await run(
      fromIR({
        nodes: [
          { id: "a", type: "echo", params: { message: "hi" } },
          { id: "b", type: "echo", params: { message: "${a.echo} there" } },
        ],
        edges: [{ from: "a", to: "b" }],
      }),
      home,
    );
    assert.equal(r.status, "success");
    assert.equal(r.success, true);
    assert.deepEqual(ran(r), ["a:success", "b:success"]);
    assert.equal(r.outputs.echo, "hi there");
  });
});

Deno.test("a single-template param keeps the value's type from the earlier node", async () => {
  await withHome(async (home) => {
    const r = await run(
      fromIR({
        nodes: [
          { id: "a", type: "echo", params: { message: { n: [1, 2] } } },
          { id: "b", type: "echo", params: { message: "${a.echo.n}" } },
        ],
        edges: [{ from: "a", to: "b" }],
        outputs: { list: { source: "${b.echo}" } },
      }),
      home,
    );
    assert.deepEqual(r.outputs, { list: [1, 2] });
  });
});

Deno.test("the default action never follows an error edge", async () => {
  await withHome(async (home) => {
    const r = await run(
      fromIR({
        nodes: [
          { id: "a", type: "echo", params: { message: 1 } },
          { id: "ok", type: "echo", params: { message: 2 } },
          { id: "handler", type: "echo", params: { message: 3 } },
        ],
        edges: [
          { from: "a", to: "ok", action: "default" },
          { from: "a", to: "handler", action: "error" },
        ],
      }),
      home,
    );
    assert.deepEqual(ran(r), ["a:success", "ok:success"]);
    assert.equal(r.status, "success");
  });
});

Deno.test("an error with an edge for it is handled there and the run is degraded", async () => {
  await withHome(async (home) => {
    const r = await run(
      fromIR({
        nodes: [
          { id: "a", type: "echo", params: { message: 1, fail: true } },
          { id: "ok", type: "echo", params: { message: 2 } },
          { id: "handler", type: "echo", params: { message: "${a.error}" } },
        ],
        edges: [
          { from: "a", to: "ok", action: "default" },
          { from: "a", to: "handler", action: "error" },
        ],
      }),
      home,
    );
    assert.equal(r.status, "degraded");
    assert.equal(r.success, true);
    assert.deepEqual(ran(r), ["a:error", "handler:success"]);
    assert.match(String(r.outputs.echo), /failed on purpose/);
    assert.deepEqual(r.errors, []);
  });
});

Deno.test("an error with no edge fails the run and names the failed node in the checkpoint", async () => {
  await withHome(async (home) => {
    const r = await run(
      fromIR({
        nodes: [
          { id: "a", type: "echo", params: { message: 1 } },
          { id: "b", type: "echo", params: { message: 2, fail: true } },
          { id: "c", type: "echo", params: { message: 3 } },
        ],
        edges: [{ from: "a", to: "b" }, { from: "b", to: "c" }],
      }),
      home,
    );
    assert.equal(r.status, "failed");
    assert.equal(r.success, false);
    assert.deepEqual(ran(r), ["a:success", "b:error"]);
    assert.equal(r.checkpoint.failed_node, "b");
    assert.deepEqual(r.checkpoint.completed_nodes, ["a"]);
    assert.equal(r.errors.length, 1);
    assert.equal(r.errors[0].node, "b");
    assert.match(r.errors[0].message, /failed on purpose/);
  });
});

Deno.test("the failure checkpoint survives a JSON round trip unchanged", async () => {
  await withHome(async (home) => {
    const r = await run(
      fromIR({
        nodes: [
          { id: "a", type: "echo", params: { message: { deep: [1, null, "x"] } } },
          { id: "b", type: "echo", params: { message: 2, fail: true } },
        ],
        edges: [{ from: "a", to: "b" }],
      }),
      home,
    );
    assert.deepEqual(JSON.parse(JSON.stringify(r.checkpoint)), r.checkpoint);
    assert.deepEqual(r.checkpoint.node_outputs.a.echo, { deep: [1, null, "x"] });
  });
});

Deno.test("a template that does not resolve at run time fails naming the variable", async () => {
  await withHome(async (home) => {
    const r = await run(
      fromIR({
        nodes: [
          { id: "a", type: "echo", params: { message: { present: 1 } } },
          { id: "b", type: "echo", params: { message: "${a.echo.absent}" } },
        ],
        edges: [{ from: "a", to: "b" }],
      }),
      home,
    );
    assert.equal(r.status, "failed");
    assert.equal(r.checkpoint.failed_node, "b");
    const [err] = r.errors;
    assert.equal(err.code, "template_error");
    assert.equal(err.node, "b");
    assert.match(err.message, /absent/);
    assert.ok(err.available?.includes("present"), `available: ${err.available}`);
  });
});

Deno.test("an invalid workflow runs no node and returns the validator's errors", async () => {
  await withHome(async (home) => {
    const r = await run(
      fromIR({ nodes: [{ id: "a", type: "echo", params: { message: "${nope}" } }] }),
      home,
    );
    assert.equal(r.status, "failed");
    assert.deepEqual(r.nodes, []);
    assert.equal(r.errors[0].code, "unknown_template_variable");
  });
});

Deno.test("a missing required input fails the run naming the input's description", async () => {
  await withHome(async (home) => {
    const r = await run(
      fromIR({
        inputs: { repo: { type: "string", description: "owner/name of the repo" } },
        nodes: [{ id: "a", type: "echo", params: { message: "${repo}" } }],
      }),
      home,
    );
    assert.equal(r.status, "failed");
    assert.match(r.errors[0].message, /Missing required input 'repo': owner\/name of the repo/);
  });
});

Deno.test("declared outputs are resolved from the shared store", async () => {
  await withHome(async (home) => {
    const r = await run(
      fromIR({
        inputs: { n: { type: "number" } },
        nodes: [{ id: "a", type: "echo", params: { message: "${n}", count: 2 } }],
        outputs: { twice: { source: "${a.messages}" }, whole: { source: "a" } },
      }),
      home,
      { params: { n: "7" } },
    );
    assert.deepEqual(r.outputs.twice, [7, 7]);
    assert.deepEqual((r.outputs.whole as Record<string, unknown>).echo, 7);
  });
});

// --- resume: shell steps append to a counter file, so a re-run step is visible ----------------

/** Three shell steps appending to `counter`; step 3 runs `step3`, step 2 appends `two`. */
const counterWorkflow = (dir: string, two: string, step3: string) =>
  parseMarkdownWorkflow([
    "# Counter",
    "",
    "## Steps",
    "",
    ...[
      ["one", `echo 1 >> '${dir}/counter'`],
      ["two", `echo ${two} >> '${dir}/counter'`],
      ["three", step3],
    ].flatMap((
      [id, cmd],
    ) => [
      `### ${id}`,
      "",
      `Step ${id}.`,
      "",
      "- type: shell",
      "",
      "```shell command",
      cmd,
      "```",
      "",
    ]),
  ].join("\n"));

Deno.test("resume skips completed steps whose params are unchanged", async () => {
  await withHome(async (home) => {
    const first = await run(counterWorkflow(home, "2", "exit 3"), home);
    assert.equal(first.status, "failed");
    assert.equal(first.checkpoint.failed_node, "three");
    assert.equal(await Deno.readTextFile(join(home, "counter")), "1\n2\n");

    const fixed = counterWorkflow(home, "2", `echo 3 >> '${home}/counter'`);
    const second = await run(fixed, home, { resume: first.checkpoint });
    assert.equal(second.status, "success");
    assert.deepEqual(ran(second), ["one:cached", "two:cached", "three:success"]);
    assert.equal(await Deno.readTextFile(join(home, "counter")), "1\n2\n3\n");
  });
});

Deno.test("resume re-runs a completed step whose params changed", async () => {
  await withHome(async (home) => {
    const first = await run(counterWorkflow(home, "2", "exit 3"), home);
    const changed = counterWorkflow(home, "2b", `echo 3 >> '${home}/counter'`);
    const second = await run(changed, home, { resume: first.checkpoint });
    assert.deepEqual(ran(second), ["one:cached", "two:success", "three:success"]);
    assert.equal(await Deno.readTextFile(join(home, "counter")), "1\n2\n2b\n3\n");
  });
});

Deno.test("a resumed step hands its stored outputs to the steps after it", async () => {
  await withHome(async (home) => {
    const wf = (fail: boolean) =>
      fromIR({
        nodes: [
          { id: "a", type: "shell", params: { command: "echo first-run" } },
          { id: "b", type: "echo", params: { message: "${a.stdout}", fail } },
        ],
        edges: [{ from: "a", to: "b" }],
      });
    const first = await run(wf(true), home);
    const second = await run(wf(false), home, { resume: first.checkpoint });
    assert.deepEqual(ran(second), ["a:cached", "b:success"]);
    assert.equal(second.outputs.echo, "first-run\n");
  });
});

Deno.test("a resumed run's checkpoint still lists the skipped steps as completed", async () => {
  await withHome(async (home) => {
    const first = await run(counterWorkflow(home, "2", "exit 3"), home);
    const second = await run(counterWorkflow(home, "2", "exit 4"), home, {
      resume: first.checkpoint,
    });
    assert.deepEqual(second.checkpoint.completed_nodes, ["one", "two"]);
    assert.equal(second.checkpoint.failed_node, "three");
  });
});

// --- traces ---------------------------------------------------------------------------------

Deno.test("a successful run writes a trace under PFLOW_HOME/debug with every node", async () => {
  await withHome(async (home) => {
    const r = await run(
      fromIR({ nodes: [{ id: "a", type: "echo", params: { message: "traced" } }] }),
      home,
      { name: "my-flow" },
    );
    assert.ok(r.trace_path?.startsWith(join(home, "debug", "workflow-trace-my-flow-")));
    const trace = await readTrace(r);
    assert.equal(trace.status, "success");
    const [node] = trace.nodes as Record<string, unknown>[];
    assert.equal(node.id, "a");
    assert.equal(node.type, "echo");
    assert.deepEqual(node.params, { message: "traced" });
    assert.equal(typeof node.duration_ms, "number");
  });
});

Deno.test("a failed run writes a trace holding the errors and the checkpoint", async () => {
  await withHome(async (home) => {
    const r = await run(
      fromIR({ nodes: [{ id: "a", type: "echo", params: { message: 1, fail: true } }] }),
      home,
    );
    const trace = await readTrace(r);
    assert.equal(trace.status, "failed");
    assert.match(JSON.stringify(trace.errors), /failed on purpose/);
    assert.equal((trace.checkpoint as { failed_node: string }).failed_node, "a");
  });
});

Deno.test("a secret from settings reaches the step but never the trace or the result", async () => {
  await withHome(async (home) => {
    const canary = `canary-${crypto.randomUUID()}`;
    await saveSettings(home, { env: { API_TOKEN: canary } });
    const r = await runWorkflow(
      fromIR({
        nodes: [
          { id: "leak", type: "shell", params: { command: "echo token=$API_TOKEN" } },
          { id: "after", type: "echo", params: { message: "${leak.stdout}", fail: true } },
        ],
        edges: [{ from: "leak", to: "after" }],
      }),
      { home, cwd: home },
    );
    assert.equal(r.status, "failed");
    const traceText = await Deno.readTextFile(r.trace_path!);
    assert.match(traceText, /token=<redacted>/, "the step did see a value");
    assert.ok(!traceText.includes(canary), "the trace holds the secret");
    assert.ok(!JSON.stringify(r).includes(canary), "the result holds the secret");
  });
});

Deno.test("long strings are truncated in the trace but whole in the checkpoint", async () => {
  await withHome(async (home) => {
    const long = "x".repeat(5000);
    const r = await run(
      fromIR({
        nodes: [
          { id: "a", type: "echo", params: { message: long } },
          { id: "b", type: "echo", params: { message: 1, fail: true } },
        ],
        edges: [{ from: "a", to: "b" }],
      }),
      home,
    );
    const trace = await readTrace(r);
    const [a] = trace.nodes as { outputs: { echo: string } }[];
    assert.match(a.outputs.echo, /more chars\]$/);
    const checkpoint = trace.checkpoint as { node_outputs: Record<string, { echo: string }> };
    assert.equal(checkpoint.node_outputs.a.echo, long);
  });
});

// --- nested workflows -------------------------------------------------------------------------

const greeterChild = [
  "# Greeter",
  "",
  "Says hello.",
  "",
  "## Inputs",
  "",
  "### who",
  "",
  "Who to greet.",
  "",
  "- type: string",
  "",
  "## Steps",
  "",
  "### greet",
  "",
  "Greets.",
  "",
  "- type: echo",
  "- message: hello ${who}",
  "",
  "## Outputs",
  "",
  "### text",
  "",
  "The greeting.",
  "",
  "- source: ${greet.echo}",
  "",
].join("\n");

/** A workflow whose one step runs `child` (a path) with `params`. */
const callerIR = (child: string, extra: Record<string, unknown> = {}) =>
  fromIR({
    title: "Caller",
    nodes: [{ id: "sub", type: "workflow", params: { workflow: child, ...extra } }],
  });

Deno.test("a workflow node runs a child with mapped params and exposes mapped outputs", async () => {
  await withHome(async (home) => {
    await Deno.writeTextFile(join(home, "greeter.pflow.md"), greeterChild);
    const r = await run(
      fromIR({
        inputs: { name: { type: "string" } },
        nodes: [
          {
            id: "sub",
            type: "workflow",
            params: {
              workflow: "greeter.pflow.md",
              param_mapping: { who: "${name}" },
              output_mapping: { said: "text" },
            },
          },
          { id: "shout", type: "echo", params: { message: "${sub.said}!" } },
        ],
        edges: [{ from: "sub", to: "shout" }],
      }),
      home,
      { params: { name: "Ada" } },
    );
    assert.equal(r.status, "success", JSON.stringify(r.errors));
    assert.equal(r.outputs.echo, "hello Ada!");
  });
});

Deno.test("an inline child workflow keeps its own templates for its own inputs", async () => {
  await withHome(async (home) => {
    const r = await run(
      fromIR({
        inputs: { name: { type: "string" } },
        nodes: [
          {
            id: "sub",
            type: "workflow",
            params: {
              workflow: {
                title: "inline-greeter",
                inputs: { who: { type: "string" } },
                nodes: [{ id: "say", type: "echo", params: { message: "hi ${who}" } }],
                outputs: { text: { source: "${say.echo}" } },
              },
              param_mapping: { who: "${name}" },
            },
          },
        ],
      }),
      home,
      { params: { name: "Ada" } },
    );
    assert.equal(r.status, "success", JSON.stringify(r.errors));
    assert.equal(r.outputs.text, "hi Ada");
  });
});

Deno.test("a failing child fails the workflow node with the child's error", async () => {
  await withHome(async (home) => {
    await Deno.writeTextFile(join(home, "greeter.pflow.md"), greeterChild);
    const r = await run(callerIR("greeter.pflow.md"), home);
    assert.equal(r.status, "failed");
    assert.equal(r.checkpoint.failed_node, "sub");
    assert.match(r.errors[0].message, /Sub-workflow failed: .*Missing required input 'who'/);
  });
});

Deno.test("nesting deeper than the limit fails naming the chain", async () => {
  await withHome(async (home) => {
    for (let i = 0; i < 12; i++) {
      const ir = {
        title: `Level ${i}`,
        nodes: [
          i === 11
            ? { id: "leaf", type: "echo", params: { message: "bottom" } }
            : { id: "down", type: "workflow", params: { workflow: `w${i + 1}.json` } },
        ],
      };
      await Deno.writeTextFile(join(home, `w${i}.json`), JSON.stringify(ir));
    }
    const r = await run(callerIR("w0.json"), home);
    assert.equal(r.status, "failed");
    assert.match(r.errors[0].message, /nest deeper than 10/);
  });
});

Deno.test("a workflow that runs itself through another is refused as a cycle", async () => {
  await withHome(async (home) => {
    const wf = (next: string) => ({
      title: next,
      nodes: [{ id: "down", type: "workflow", params: { workflow: next } }],
    });
    await Deno.writeTextFile(join(home, "a.json"), JSON.stringify(wf("b.json")));
    await Deno.writeTextFile(join(home, "b.json"), JSON.stringify(wf("a.json")));
    const r = await run(callerIR("a.json"), home);
    assert.equal(r.status, "failed");
    assert.match(r.errors[0].message, /Workflow cycle: .*a\.json → b\.json → a\.json/);
    assert.doesNotMatch(r.errors[0].message, /nest deeper/);
  });
});

Deno.test("two different child workflows with the same title nest without a false cycle", async () => {
  await withHome(async (home) => {
    const outer = {
      title: "Helper",
      nodes: [{ id: "down", type: "workflow", params: { workflow: "inner.json" } }],
    };
    const inner = {
      title: "Helper",
      nodes: [{ id: "leaf", type: "echo", params: { message: 1 } }],
    };
    await Deno.writeTextFile(join(home, "outer.json"), JSON.stringify(outer));
    await Deno.writeTextFile(join(home, "inner.json"), JSON.stringify(inner));
    await Deno.writeTextFile(
      join(home, "top.json"),
      JSON.stringify({
        title: "Top",
        nodes: [{ id: "sub", type: "workflow", params: { workflow: "outer.json" } }],
      }),
    );
    const r = await runService({ workflow: "top.json", home, cwd: home });
    assert.equal(r.status, "success", JSON.stringify(r.errors));
  });
});

Deno.test("a cycle between workflow files is caught through the run service", async () => {
  await withHome(async (home) => {
    const wf = (next: string) => ({
      title: "Same",
      nodes: [{ id: "down", type: "workflow", params: { workflow: next } }],
    });
    await Deno.writeTextFile(join(home, "a.json"), JSON.stringify(wf("b.json")));
    await Deno.writeTextFile(join(home, "b.json"), JSON.stringify(wf("a.json")));
    const r = await runService({ workflow: "a.json", home, cwd: home });
    assert.equal(r.status, "failed");
    assert.match(r.errors[0].message, /Workflow cycle: .*a\.json → .*b\.json → .*a\.json$/);
  });
});

Deno.test("a nested workflow's relative path resolves against its parent's folder", async () => {
  await withHome(async (home) => {
    const flows = join(home, "flows");
    await Deno.mkdir(join(flows, "lib"), { recursive: true });
    await Deno.writeTextFile(join(flows, "lib", "greeter.pflow.md"), greeterChild);
    // parent → lib/middle.json → greeter.pflow.md (beside middle.json, not beside parent).
    await Deno.writeTextFile(
      join(flows, "lib", "middle.json"),
      JSON.stringify({
        title: "Middle",
        inputs: { who: { type: "string" } },
        nodes: [{
          id: "inner",
          type: "workflow",
          params: { workflow: "greeter.pflow.md", param_mapping: { who: "${who}" } },
        }],
        outputs: { text: { source: "${inner.text}" } },
      }),
    );
    await Deno.writeTextFile(
      join(flows, "parent.json"),
      JSON.stringify({
        title: "Parent",
        nodes: [{
          id: "outer",
          type: "workflow",
          params: { workflow: "lib/middle.json", param_mapping: { who: "Ada" } },
        }],
        outputs: { text: { source: "${outer.text}" } },
      }),
    );
    // The user is elsewhere: only the parent's own path is relative to the cwd.
    const r = await runService({ workflow: "flows/parent.json", home, cwd: home });
    assert.equal(r.status, "success", JSON.stringify(r.errors));
    assert.equal(r.outputs.text, "hello Ada");
  });
});

// --- interruption ---------------------------------------------------------------------------

Deno.test("an abort before a node starts stops the run with nothing after it run", async () => {
  await withHome(async (home) => {
    const controller = new AbortController();
    const r = await run(
      fromIR({
        nodes: [
          { id: "a", type: "echo", params: { message: 1 } },
          { id: "b", type: "echo", params: { message: 2 } },
        ],
        edges: [{ from: "a", to: "b" }],
      }),
      home,
      { signal: controller.signal, onNode: () => controller.abort() },
    );
    assert.equal(r.status, "failed");
    assert.deepEqual(ran(r), ["a:success"]);
    assert.match(r.errors[0].message, /Interrupted/);
    assert.deepEqual(r.checkpoint.completed_nodes, ["a"]);
    assert.ok(r.trace_path, "an interrupted run still writes its trace");
  });
});

Deno.test("an abort while a node runs cancels that node and fails the run at it", async () => {
  await withHome(async (home) => {
    const controller = new AbortController();
    const r = await run(
      fromIR({
        nodes: [
          { id: "a", type: "echo", params: { message: 1 } },
          // An hour: the run can only end early because the abort reaches the node.
          { id: "slow", type: "echo", params: { message: 2, delay_ms: 3_600_000 } },
        ],
        edges: [{ from: "a", to: "slow" }],
      }),
      home,
      {
        signal: controller.signal,
        // The next macrotask: by then `slow` is inside its delay.
        onNode: (n) => n.id === "a" && setTimeout(() => controller.abort(), 0),
      },
    );
    assert.equal(r.status, "failed");
    assert.equal(r.checkpoint.failed_node, "slow");
    assert.match(r.errors[0].message, /cancelled/);
  });
});

Deno.test("a trace that cannot be written is a warning, not a failed run", async () => {
  await withHome(async (home) => {
    // A file where the debug folder should be: the trace's mkdir fails.
    await Deno.writeTextFile(join(home, "debug"), "not a folder");
    const r = await run(
      fromIR({ nodes: [{ id: "a", type: "echo", params: { message: "hi" } }] }),
      home,
    );
    assert.equal(r.status, "success");
    assert.equal(r.trace_path, undefined);
    assert.equal(r.warnings.at(-1)?.code, "trace_not_written");
  });
});
