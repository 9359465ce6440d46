/**
 * `pflow run` and `pflow validate` end to end: a handful of cases as a real subprocess (with the
 * permission flags of the `pflow` task), the rest in-process through `main(args, io)` with a
 * captured CliIO. Every test has its own PFLOW_HOME.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { main } from "../src/cli/main.ts";
import { captureIO, HELLO_MD, withHome } from "./_cli.ts";
import { PFLOW_FLAGS } from "../scripts/permission_flags.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const MAIN = join(ROOT, "main.ts");
const FIXTURES = join(ROOT, "tests", "fixtures", "workflows");

/** `pflow ARGS` as a subprocess, cwd `home`, PFLOW_HOME `home`, optional piped stdin. */
async function pflow(home: string, args: string[], stdin?: string) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", `--config=${join(ROOT, "deno.json")}`, ...PFLOW_FLAGS, MAIN, ...args],
    cwd: home,
    env: { PFLOW_HOME: home, NO_COLOR: "1" },
    stdin: stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (stdin !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(stdin));
    await writer.close();
  }
  const { code, stdout, stderr } = await child.output();
  const dec = new TextDecoder();
  return { code, stdout: dec.decode(stdout), stderr: dec.decode(stderr) };
}

/** `main(args)` in-process with captured output; `stdin` is what a pipe would hold. */
async function pflowIn(
  home: string,
  args: string[],
  opts: { stdin?: string; verbose?: boolean } = {},
) {
  const cap = captureIO(home, home, opts.stdin);
  cap.io.verbose = opts.verbose ?? false;
  const code = await main(args, cap.io);
  return { code, stdout: cap.out(), stderr: cap.err() };
}

const write = async (home: string, name: string, text: string) => {
  const path = join(home, name);
  await Deno.writeTextFile(path, text);
  return path;
};

/** One-step markdown workflow around a shell command. */
const shellMd = (command: string, extra = "") =>
  `# Shell\n\nRuns a command.\n\n${extra}## Steps\n\n### run\n\nRuns it.\n\n- type: shell\n\n\`\`\`shell command\n${command}\n\`\`\`\n`;

// --- as a subprocess --------------------------------------------------------------------------

Deno.test("subprocess: a successful run exits 0, output on stdout, progress on stderr", async () => {
  await withHome(async (home) => {
    await write(home, "hello.pflow.md", HELLO_MD);
    const r = await pflow(home, ["run", "hello.pflow.md", "who=Ada"]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, "hello Ada\n");
    assert.match(r.stderr, /^✓ greet \d+\.\d\ds$/m);
  });
});

Deno.test("subprocess: a failed run exits 1 with the error on stderr and no stack", async () => {
  await withHome(async (home) => {
    await write(home, "fail.pflow.md", shellMd("echo broken >&2; exit 3"));
    const r = await pflow(home, ["fail.pflow.md"]);
    assert.equal(r.code, 1);
    assert.equal(r.stdout, "");
    assert.match(r.stderr, /✗ Workflow 'fail' failed/);
    assert.match(r.stderr, /node 'run'.*exit code 3/);
    assert.match(r.stderr, /Trace: debug\/workflow-trace-fail-/);
    assert.doesNotMatch(r.stderr, /\n\s+at /);
  });
});

Deno.test("subprocess: a usage error exits 2", async () => {
  await withHome(async (home) => {
    const r = await pflow(home, ["run"]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /run needs a workflow/);
    assert.match(r.stderr, /Usage: pflow run/);
  });
});

Deno.test("subprocess: --json prints one envelope with the result keys", async () => {
  await withHome(async (home) => {
    await write(home, "hello.pflow.md", HELLO_MD);
    const r = await pflow(home, ["run", "hello.pflow.md", "who=Bo", "--json"]);
    assert.equal(r.code, 0, r.stderr);
    const env = JSON.parse(r.stdout);
    assert.deepEqual(Object.keys(env).sort(), [
      "checkpoint",
      "duration_ms",
      "errors",
      "nodes",
      "outputs",
      "status",
      "success",
      "trace_path",
    ]);
    assert.equal(env.success, true);
    assert.equal(env.status, "success");
    assert.deepEqual(env.outputs, { text: "hello Bo\n" });
    assert.equal(env.nodes[0].id, "greet");
    assert.equal(r.stderr, "", "no progress lines in --json mode");
  });
});

Deno.test("subprocess: piped stdin reaches the input marked stdin: true", async () => {
  await withHome(async (home) => {
    const inputs = "## Inputs\n\n### data\n\nPiped text.\n\n- type: string\n- stdin: true\n\n";
    await write(home, "upper.pflow.md", shellMd("echo '${data}' | tr a-z A-Z", inputs));
    const r = await pflow(home, ["upper.pflow.md"], "piped words");
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^stdout: PIPED WORDS$/m);
  });
});

Deno.test("subprocess: a non-UTF-8 file is one clear error line, exit 1, no stack", async () => {
  await withHome(async (home) => {
    const r = await pflow(home, ["run", join(FIXTURES, "not-utf8.pflow.md")]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^Error: .*not-utf8\.pflow\.md is not UTF-8 text/);
    assert.match(r.stderr, /→ Save the workflow file with UTF-8 encoding/);
    assert.doesNotMatch(r.stderr, /\n\s+at /);
  });
});

// --- in-process: run ----------------------------------------------------------------------------

Deno.test("`pflow FILE` is the same as `pflow run FILE`", async () => {
  await withHome(async (home) => {
    await write(home, "hello.pflow.md", HELLO_MD);
    const r = await pflowIn(home, ["./hello.pflow.md", "who=Cy"]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, "hello Cy\n");
  });
});

Deno.test("run: a missing file is not_found with a hint, exit 1", async () => {
  await withHome(async (home) => {
    const r = await pflowIn(home, ["run", "nowhere.pflow.md"]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /Error: Workflow file not found: .*nowhere\.pflow\.md/);
    assert.match(r.stderr, /→ Check the path/);
  });
});

Deno.test("run: broken YAML in a code block names the line", async () => {
  await withHome(async (home) => {
    const r = await pflowIn(home, ["run", join(FIXTURES, "yaml-syntax-error.pflow.md")]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^Error: /);
    assert.match(r.stderr, /line \d+/);
    assert.match(r.stderr, /YAML/i);
  });
});

Deno.test("run: an unknown node type fails validation with did-you-mean", async () => {
  await withHome(async (home) => {
    await write(home, "typo.pflow.md", HELLO_MD.replace("type: shell", "type: shel"));
    const r = await pflowIn(home, ["run", "typo.pflow.md", "who=x"]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /node 'greet', param 'type', line \d+: Unknown node type 'shel'/);
    assert.match(r.stderr, /→ Did you mean 'shell'\?/);
  });
});

Deno.test("run: a missing required input names it and its description", async () => {
  await withHome(async (home) => {
    await write(home, "hello.pflow.md", HELLO_MD);
    const r = await pflowIn(home, ["run", "hello.pflow.md"]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /Missing required input 'who': The person to greet/);
    assert.match(r.stderr, /→ Pass who=<string>/);
  });
});

Deno.test("run: an argument without '=' is a usage error, exit 2", async () => {
  await withHome(async (home) => {
    await write(home, "hello.pflow.md", HELLO_MD);
    const r = await pflowIn(home, ["run", "hello.pflow.md", "Ada"]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /Expected key=value, got 'Ada'/);
  });
});

Deno.test("run: an unknown option is a usage error, exit 2", async () => {
  await withHome(async (home) => {
    const r = await pflowIn(home, ["run", "x.pflow.md", "--fast"]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /Unknown option '--fast'/);
  });
});

Deno.test("run: without --verbose an unexpected error shows no stack; with it, it does", async () => {
  await withHome(async (home) => {
    // A corrupt settings.json: the run cannot even start.
    await write(home, "hello.pflow.md", HELLO_MD);
    await Deno.writeTextFile(join(home, "settings.json"), "{not json");
    const quiet = await pflowIn(home, ["run", "hello.pflow.md", "who=x"]);
    assert.equal(quiet.code, 1);
    assert.match(quiet.stderr, /^Error: settings\.json is not valid JSON/m);
    assert.doesNotMatch(quiet.stderr, /\n\s+at /);
    const loud = await pflowIn(home, ["run", "hello.pflow.md", "who=x"], { verbose: true });
    assert.match(loud.stderr, /\n\s+at /);
  });
});

Deno.test("run --json: a failure is still one envelope, with the checkpoint's failed node", async () => {
  await withHome(async (home) => {
    await write(home, "fail.pflow.md", shellMd("exit 5"));
    const r = await pflowIn(home, ["run", "fail.pflow.md", "--json"]);
    assert.equal(r.code, 1);
    const env = JSON.parse(r.stdout);
    assert.equal(env.success, false);
    assert.equal(env.status, "failed");
    assert.equal(env.checkpoint.failed_node, "run");
    assert.equal(env.errors[0].node, "run");
    assert.ok(env.trace_path.startsWith(join(home, "debug")));
  });
});

Deno.test("run --resume: the latest trace's checkpoint skips the steps that succeeded", async () => {
  await withHome(async (home) => {
    const wf = (third: string) =>
      [
        "# Steps",
        "",
        "## Steps",
        "",
        ...[["one", "echo 1 >> counter"], ["two", "echo 2 >> counter"], ["three", third]]
          .flatMap((
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
      ].join("\n");
    await write(home, "steps.pflow.md", wf("exit 1"));
    const first = await pflowIn(home, ["run", "steps.pflow.md"]);
    assert.equal(first.code, 1);
    assert.match(first.stderr, /Completed: one, two — fix and re-run with --resume/);

    await write(home, "steps.pflow.md", wf("echo 3 >> counter"));
    const second = await pflowIn(home, ["run", "steps.pflow.md", "--resume"]);
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stderr, /↺ one .*\(cached\)/);
    assert.match(second.stderr, /✓ three /);
    assert.equal(await Deno.readTextFile(join(home, "counter")), "1\n2\n3\n");
  });
});

Deno.test("run --resume=TRACE resumes from the given trace file", async () => {
  await withHome(async (home) => {
    await write(home, "fail.pflow.md", shellMd("echo ran >> counter; exit 1"));
    const first = await pflowIn(home, ["run", "fail.pflow.md", "--json"]);
    const trace = JSON.parse(first.stdout).trace_path;
    const r = await pflowIn(home, ["run", "fail.pflow.md", `--resume=${trace}`, "--json"]);
    const env = JSON.parse(r.stdout);
    assert.equal(env.nodes[0].status, "error", "the failed step runs again");
    assert.equal(await Deno.readTextFile(join(home, "counter")), "ran\nran\n");
  });
});

Deno.test("run --resume with no earlier run says so and how to start", async () => {
  await withHome(async (home) => {
    await write(home, "hello.pflow.md", HELLO_MD);
    const r = await pflowIn(home, ["run", "hello.pflow.md", "who=x", "--resume"]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /No earlier run of 'hello' to resume/);
    assert.match(r.stderr, /→ Run it once without --resume/);
  });
});

// --- in-process: validate ---------------------------------------------------------------------

Deno.test("validate: a valid workflow prints ✓ Workflow is valid, exit 0", async () => {
  await withHome(async (home) => {
    await write(home, "hello.pflow.md", HELLO_MD);
    const r = await pflowIn(home, ["validate", "hello.pflow.md"]);
    assert.equal(r.code, 0);
    assert.equal(r.stdout, "✓ Workflow is valid\n");
  });
});

Deno.test("validate: problems go to stderr with where and the fix, exit 1", async () => {
  await withHome(async (home) => {
    await write(home, "typo.pflow.md", HELLO_MD.replace("type: shell", "type: shel"));
    const r = await pflowIn(home, ["validate", "typo.pflow.md"]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /✗ Workflow is invalid \(1 error\)/);
    assert.match(r.stderr, /\[node 'greet', param 'type', line 19\] Unknown node type 'shel'/);
    assert.match(r.stderr, /→ Did you mean 'shell'\?/);
  });
});

Deno.test("validate --json: {valid, errors:[{code,message,node,param,line,suggestion}], warnings}", async () => {
  await withHome(async (home) => {
    await write(home, "typo.pflow.md", HELLO_MD.replace("type: shell", "type: shel"));
    const r = await pflowIn(home, ["validate", "typo.pflow.md", "--json"]);
    assert.equal(r.code, 1);
    const report = JSON.parse(r.stdout);
    assert.deepEqual(Object.keys(report).sort(), ["errors", "valid", "warnings"]);
    assert.equal(report.valid, false);
    assert.deepEqual(report.errors, [{
      code: "unknown_node_type",
      message: "Unknown node type 'shel'",
      node: "greet",
      param: "type",
      line: 19,
      suggestion: "Did you mean 'shell'?",
    }]);
    assert.deepEqual(report.warnings, []);
  });
});

Deno.test("validate --json: a parse error is a report, not a crash", async () => {
  await withHome(async (home) => {
    const r = await pflowIn(home, ["validate", join(FIXTURES, "missing-steps.pflow.md"), "--json"]);
    assert.equal(r.code, 1);
    const report = JSON.parse(r.stdout);
    assert.equal(report.valid, false);
    assert.equal(report.errors[0].code, "parse_error");
    assert.equal(typeof report.errors[0].suggestion, "string");
  });
});

Deno.test("validate: no file is a usage error, exit 2", async () => {
  await withHome(async (home) => {
    const r = await pflowIn(home, ["validate"]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /Usage: pflow validate/);
  });
});

Deno.test("an unknown command that is a saved workflow's name points to pflow run", () =>
  withHome(async (home) => {
    const path = await write(home, "hello.pflow.md", HELLO_MD);
    assert.equal((await pflowIn(home, ["workflow", "save", path, "--name", "hello"])).code, 0);
    const r = await pflowIn(home, ["hello"]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /use 'pflow run hello'/);
  }));

Deno.test("a misspelt command suggests the close one", () =>
  withHome(async (home) => {
    const r = await pflowIn(home, ["valdate", "x.pflow.md"]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /Did you mean 'validate'\?/);
  }));

Deno.test("run prints validation warnings on stderr, output still on stdout", () =>
  withHome(async (home) => {
    const path = await write(
      home,
      "w.pflow.md",
      "# W\n\nWarns.\n\n## Steps\n\n### a\n\nSays hi.\n\n- type: echo\n- message: hi\n- mesage: typo\n",
    );
    const r = await pflowIn(home, ["run", path]);
    assert.equal(r.code, 0);
    assert.match(r.stderr, /⚠ a: .*no param 'mesage'.*Did you mean 'message'/);
    assert.doesNotMatch(r.stdout, /⚠/);
  }));
