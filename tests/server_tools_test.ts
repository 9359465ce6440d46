/**
 * Every tool of `pflow mcp serve`, success and failure, over real stdio with the SDK client
 * (which validates each structuredContent against the tool's output schema).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { errorOf, HELLO, putWorkflow, serve, textOf } from "./_server_harness.ts";

type Result = { isError?: boolean; structuredContent?: Record<string, unknown> };
const FAILING = HELLO.replace('echo "hello ${who}"', 'echo "hello ${who}" && exit 3')
  .replace("# Hello", "# Hello fails");

Deno.test("standard profile: each tool answers with structure and the CLI's text, or a structured error", async (t) => {
  const s = await serve();
  await putWorkflow(s.home, "say-hello", HELLO);
  const call = async (name: string, args: Record<string, unknown>) =>
    await s.client.callTool({ name, arguments: args }) as Result;
  try {
    await t.step("workflow_discover ranks a strong match first", async () => {
      const r = await call("workflow_discover", { query: "greet someone hello" });
      const m =
        (r.structuredContent!.matches as { name: string; strong: boolean; confidence: number }[])[
          0
        ];
      assert.equal(m.name, "say-hello");
      assert.ok(m.confidence > 0 && m.confidence <= 1);
      assert.match(textOf(r), /say-hello/);
    });
    await t.step("workflow_discover with no match returns an empty list", async () => {
      const r = await call("workflow_discover", { query: "kubernetes helm chart" });
      assert.deepEqual(r.structuredContent!.matches, []);
    });
    await t.step(
      "workflow_discover with an empty query is invalid_params naming the field",
      async () => {
        const e = errorOf(await call("workflow_discover", { query: "" }));
        assert.equal(e.type, "invalid_params");
        assert.equal(e.details.param, "query");
      },
    );
    await t.step("registry_discover finds the shell node", async () => {
      const r = await call("registry_discover", { task: "run a shell command" });
      const names = (r.structuredContent!.matches as { name: string }[]).map((m) => m.name);
      assert.equal(names[0], "shell");
    });
    await t.step("registry_discover without task is invalid_params", async () => {
      assert.equal(errorOf(await call("registry_discover", {})).type, "invalid_params");
    });
    let executionId = "";
    await t.step("registry_run runs one node and returns its fields", async () => {
      const r = await call("registry_run", {
        node_type: "shell",
        parameters: { command: "echo hi" },
      });
      executionId = String(r.structuredContent!.execution_id);
      assert.equal(r.structuredContent!.success, true);
      assert.match(textOf(r), /node\.stdout/);
    });
    await t.step("registry_run of an unknown node is not_found with close names", async () => {
      const e = errorOf(await call("registry_run", { node_type: "shel", parameters: {} }));
      assert.equal(e.type, "not_found");
      assert.match(e.suggestions.join(" "), /shell/);
    });
    await t.step("registry_run of a failing command is an execution error", async () => {
      const e = errorOf(
        await call("registry_run", { node_type: "shell", parameters: { command: "exit 4" } }),
      );
      assert.equal(e.type, "execution");
    });
    await t.step(
      "workflow_execute runs content and returns outputs and a relative trace path",
      async () => {
        const r = await call("workflow_execute", { workflow: HELLO, parameters: { who: "ada" } });
        assert.equal(r.structuredContent!.success, true);
        assert.match(
          String((r.structuredContent!.outputs as { greeting: string }).greeting),
          /hello ada/,
        );
        const trace = String(r.structuredContent!.trace_path);
        assert.ok(trace.startsWith("debug/"), trace);
        await Deno.stat(join(s.home, trace));
      },
    );
    await t.step("workflow_execute runs a saved workflow by name", async () => {
      const r = await call("workflow_execute", {
        workflow: "say-hello",
        parameters: { who: "bo" },
      });
      assert.match(textOf(r), /hello bo/);
    });
    await t.step("workflow_execute failure names the node and carries the checkpoint", async () => {
      const e = errorOf(
        await call("workflow_execute", { workflow: FAILING, parameters: { who: "x" } }),
      );
      assert.equal(e.type, "execution");
      assert.equal(e.details.node, "greet");
      assert.equal((e.details.checkpoint as { failed_node: string }).failed_node, "greet");
      assert.ok(String(e.details.trace_path).startsWith("debug/"));
    });
    await t.step("workflow_execute with a missing input names it", async () => {
      const e = errorOf(await call("workflow_execute", { workflow: "say-hello", parameters: {} }));
      assert.match(e.message, /who/);
    });
    await t.step(
      "workflow_execute of an unknown name is not_found listing close names",
      async () => {
        const e = errorOf(await call("workflow_execute", { workflow: "say-helo" }));
        assert.equal(e.type, "not_found");
        assert.match(e.suggestions.join(" "), /say-hello/);
      },
    );
    await t.step("workflow_validate says valid", async () => {
      const r = await call("workflow_validate", { workflow: HELLO });
      assert.equal(r.structuredContent!.valid, true);
      assert.match(textOf(r), /valid/);
    });
    await t.step("workflow_validate reports an unknown node type as invalid", async () => {
      const r = await call("workflow_validate", {
        workflow: HELLO.replace("type: shell", "type: shel"),
      });
      assert.equal(r.structuredContent!.valid, false);
      assert.ok((r.structuredContent!.errors as unknown[]).length > 0);
    });
    await t.step("workflow_validate of a missing workflow is not_found", async () => {
      assert.equal(
        errorOf(await call("workflow_validate", { workflow: "no-such-flow" })).type,
        "not_found",
      );
    });
    await t.step("workflow_save saves with a description", async () => {
      const r = await call("workflow_save", {
        workflow: HELLO,
        name: "greeter",
        description: "Says hi",
      });
      assert.equal(r.structuredContent!.path, join("workflows", "greeter.pflow.md"));
      assert.match(
        await Deno.readTextFile(join(s.home, "workflows", "greeter.pflow.md")),
        /Says hi/,
      );
    });
    await t.step("workflow_save over an existing name is exists", async () => {
      assert.equal(
        errorOf(await call("workflow_save", { workflow: HELLO, name: "greeter" })).type,
        "exists",
      );
    });
    await t.step("workflow_save with force replaces", async () => {
      const r = await call("workflow_save", { workflow: HELLO, name: "greeter", force: true });
      assert.equal(r.structuredContent!.replaced, true);
    });
    await t.step("registry_describe gives the interface and an example", async () => {
      const r = await call("registry_describe", { nodes: ["shell"] });
      const n = (r.structuredContent!.nodes as { type: string; example: string }[])[0];
      assert.equal(n.type, "shell");
      assert.match(n.example, /type: shell/);
    });
    await t.step("registry_describe of an unknown node is not_found", async () => {
      assert.equal(
        errorOf(await call("registry_describe", { nodes: ["nope-node"] })).type,
        "not_found",
      );
    });
    await t.step("registry_search finds file nodes", async () => {
      const r = await call("registry_search", { pattern: "file" });
      assert.ok((r.structuredContent!.results as unknown[]).length > 0);
    });
    await t.step("registry_search with an empty pattern is invalid_params", async () => {
      assert.equal(errorOf(await call("registry_search", { pattern: "" })).type, "invalid_params");
    });
    await t.step("registry_list lists the core nodes", async () => {
      const r = await call("registry_list", {});
      assert.ok(Number(r.structuredContent!.total) >= 8);
    });
    await t.step("registry_list with a wrongly typed filter is invalid_params", async () => {
      const e = errorOf(await call("registry_list", { filter: 42 }));
      assert.equal(e.details.param, "filter");
    });
    await t.step("workflow_list lists saved workflows", async () => {
      const r = await call("workflow_list", {});
      const names = (r.structuredContent!.workflows as { name: string }[]).map((w) => w.name);
      assert.deepEqual(names.sort(), ["greeter", "say-hello"]);
    });
    await t.step("workflow_list with a non-string filter is invalid_params", async () => {
      assert.equal(errorOf(await call("workflow_list", { filter: ["x"] })).type, "invalid_params");
    });
    await t.step(
      "workflow_describe shows inputs and the run count (one success, one failure so far)",
      async () => {
        const r = await call("workflow_describe", { name: "say-hello" });
        assert.equal((r.structuredContent!.inputs as { name: string }[])[0].name, "who");
        assert.equal(
          (r.structuredContent!.stats as { execution_count: number }).execution_count,
          2,
        );
      },
    );
    await t.step("workflow_describe of a missing name is not_found", async () => {
      assert.equal(
        errorOf(await call("workflow_describe", { name: "missing-one" })).type,
        "not_found",
      );
    });
    await t.step("arguments over 1 MB are invalid_params", async () => {
      const e = errorOf(
        await call("workflow_validate", { workflow: "x\n" + "a".repeat(1_100_000) }),
      );
      assert.equal(e.type, "invalid_params");
    });
    await t.step("concurrent executions are isolated", async () => {
      const rs = await Promise.all(
        ["a", "b", "c", "d"].map((who) =>
          call("workflow_execute", { workflow: HELLO, parameters: { who } })
        ),
      );
      rs.forEach((r, i) =>
        assert.match(
          String((r.structuredContent!.outputs as { greeting: string }).greeting),
          new RegExp(`hello ${"abcd"[i]}`),
        )
      );
      assert.equal(new Set(rs.map((r) => r.structuredContent!.trace_path)).size, 4);
    });
    await t.step("an edit between calls is seen by the next call", async () => {
      await putWorkflow(s.home, "say-hello", HELLO.replace('echo "hello', 'echo "howdy'));
      const r = await call("workflow_execute", { workflow: "say-hello", parameters: { who: "z" } });
      assert.match(textOf(r), /howdy z/);
    });
    await t.step("a stored secret never appears in a response", async () => {
      await Deno.writeTextFile(
        join(s.home, "settings.json"),
        JSON.stringify({ env: { API_KEY: "sekrit-value-123" } }),
      );
      const r = await call("workflow_execute", {
        workflow: HELLO,
        parameters: { who: "sekrit-value-123" },
      });
      assert.doesNotMatch(JSON.stringify(r), /sekrit-value-123/);
    });
    await t.step("resume: true re-runs only from the failed step after a fix", async () => {
      const steps = HELLO.replace(
        "## Outputs",
        `### second

Fails until fixed.

- type: shell

\`\`\`shell command
test -f ${join(s.home, "fixed")}
\`\`\`

## Outputs`,
      );
      await putWorkflow(s.home, "two-steps", steps);
      const e = errorOf(
        await call("workflow_execute", { workflow: "two-steps", parameters: { who: "q" } }),
      );
      assert.equal((e.details.checkpoint as { failed_node: string }).failed_node, "second");
      await Deno.writeTextFile(join(s.home, "fixed"), "");
      const r = await call("workflow_execute", {
        workflow: "two-steps",
        parameters: { who: "q" },
        resume: true,
      });
      assert.equal(r.structuredContent!.success, true);
      const nodes = r.structuredContent!.nodes as { id: string; status: string }[];
      assert.equal(nodes.find((n) => n.id === "greet")!.status, "cached");
    });
    await t.step("registry_run's execution id works in later calls of the same session", () => {
      assert.match(executionId, /^[A-Za-z0-9-]+$/);
    });
  } finally {
    await s.close();
  }
});

Deno.test("compact profile: each tool answers or fails with a structured error", async (t) => {
  const s = await serve({ args: ["--profile", "compact"] });
  await putWorkflow(s.home, "say-hello", HELLO);
  await putWorkflow(s.home, "greet-draft", HELLO, "drafts");
  const call = async (name: string, args: Record<string, unknown>) =>
    await s.client.callTool({ name, arguments: args }) as Result;
  try {
    await t.step("browse_components returns nodes with inputs/outputs and workflows", async () => {
      const r = await call("browse_components", { query: "shell" });
      const nodes = r.structuredContent!.nodes as { type: string; inputs: object }[];
      assert.ok(nodes.some((n) => n.type === "shell" && "command" in n.inputs));
      assert.ok(Array.isArray(r.structuredContent!.workflows));
    });
    await t.step("browse_components omits workflows when include_workflows is false", async () => {
      const r = await call("browse_components", { query: "", include_workflows: false });
      assert.equal(r.structuredContent!.workflows, undefined);
    });
    await t.step("browse_components without query is invalid_params", async () => {
      assert.equal(errorOf(await call("browse_components", {})).type, "invalid_params");
    });
    await t.step("list_library lists and filters", async () => {
      const all = await call("list_library", {});
      assert.equal((all.structuredContent!.workflows as unknown[]).length, 1);
      const none = await call("list_library", { pattern: "zzz" });
      assert.equal((none.structuredContent!.workflows as unknown[]).length, 0);
    });
    await t.step("list_library with a bad pattern type is invalid_params", async () => {
      assert.equal(errorOf(await call("list_library", { pattern: 1 })).type, "invalid_params");
    });
    await t.step("describe_workflow gives inputs, outputs and template variables", async () => {
      const r = await call("describe_workflow", { name: "say-hello" });
      assert.deepEqual(r.structuredContent!.template_variables, ["greet.stdout", "who"]);
    });
    await t.step("describe_workflow of a missing name is not_found", async () => {
      assert.equal(errorOf(await call("describe_workflow", { name: "nope" })).type, "not_found");
    });
    await t.step("execute runs the library workflow, then drafts", async () => {
      const r = await call("execute", { name: "say-hello", inputs: { who: "lib" } });
      assert.equal(r.structuredContent!.success, true);
      const d = await call("execute", { name: "greet-draft", inputs: { who: "draft" } });
      assert.match(textOf(d), /hello draft/);
    });
    await t.step("execute takes only names: a path is a security error", async () => {
      assert.equal(
        errorOf(await call("execute", { name: "../workflows/say-hello" })).type,
        "security",
      );
    });
    await t.step("save_to_library moves the draft and removes it", async () => {
      const r = await call("save_to_library", {
        draft_name: "greet-draft",
        final_name: "greeter",
        description: "Greets",
      });
      assert.deepEqual(r.structuredContent, {
        success: true,
        name: "greeter",
        path: join("workflows", "greeter.pflow.md"),
        replaced: false,
        draft_deleted: "greet-draft",
      });
      await assert.rejects(Deno.stat(join(s.home, "drafts", "greet-draft.pflow.md")));
    });
    await t.step(
      "save_to_library over an existing workflow is exists, naming it, draft kept",
      async () => {
        await putWorkflow(s.home, "another", HELLO, "drafts");
        const e = errorOf(
          await call("save_to_library", {
            draft_name: "another",
            final_name: "say-hello",
            description: "x",
          }),
        );
        assert.equal(e.type, "exists");
        assert.match(e.message, /say-hello/);
        await Deno.stat(join(s.home, "drafts", "another.pflow.md"));
      },
    );
    await t.step("save_to_library of a missing draft is not_found", async () => {
      const e = errorOf(
        await call("save_to_library", { draft_name: "ghost", final_name: "g", description: "" }),
      );
      assert.equal(e.type, "not_found");
    });
  } finally {
    await s.close();
  }
});

Deno.test("full profile: read_fields, trace_read, settings_get and settings_set", async (t) => {
  const s = await serve({ args: ["--profile", "full"] });
  const call = async (name: string, args: Record<string, unknown>) =>
    await s.client.callTool({ name, arguments: args }) as Result;
  try {
    await t.step("read_fields reads a value of a registry_run", async () => {
      const run = await call("registry_run", {
        node_type: "shell",
        parameters: { command: "printf abc" },
      });
      const r = await call("read_fields", {
        execution_id: run.structuredContent!.execution_id,
        paths: ["node.stdout"],
      });
      assert.equal((r.structuredContent!.fields as { value: string }[])[0].value, "abc");
    });
    await t.step("read_fields of an unknown id is not_found", async () => {
      assert.equal(
        errorOf(await call("read_fields", { execution_id: "nope", paths: ["node.x"] })).type,
        "not_found",
      );
    });
    await t.step("trace_read summarises the latest trace, failed node included", async () => {
      await call("workflow_execute", { workflow: FAILING, parameters: { who: "t" } });
      const r = await call("trace_read", {});
      assert.equal(r.structuredContent!.failed_node, "greet");
      assert.equal(r.structuredContent!.status, "failed");
    });
    await t.step("trace_read of a missing trace is not_found", async () => {
      const e = errorOf(await call("trace_read", { trace: "workflow-trace-none-1.json" }));
      assert.equal(e.type, "not_found");
    });
    await t.step("settings_set stores a secret; settings_get masks it", async () => {
      const set = await call("settings_set", { key: "env.GITHUB_TOKEN", value: "ghp_very_secret" });
      assert.equal(set.structuredContent!.action, "set");
      const got = await call("settings_get", { key: "env.GITHUB_TOKEN" });
      assert.notEqual(got.structuredContent!.value, "ghp_very_secret");
      assert.doesNotMatch(JSON.stringify(got), /ghp_very_secret/);
      const all = await call("settings_get", { key: "env" });
      assert.doesNotMatch(JSON.stringify(all), /ghp_very_secret/);
    });
    await t.step("settings_get of an unknown key is not_found", async () => {
      assert.equal(errorOf(await call("settings_get", { key: "env.NOPE" })).type, "not_found");
    });
    await t.step("settings_set with a bad key is invalid_params", async () => {
      assert.equal(
        errorOf(await call("settings_set", { key: "a b", value: "x" })).type,
        "invalid_params",
      );
    });
  } finally {
    await s.close();
  }
});
