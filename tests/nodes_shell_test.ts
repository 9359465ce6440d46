/** The shell node against a real `sh`: exit codes, stdin, env precedence, cwd, timeouts, large output. */
import assert from "node:assert/strict";
import { shellNode } from "../src/nodes/shell.ts";
import { runNodeRestricted, testContext } from "./_node_context.ts";
import { pidGone } from "./fixtures/mcp/helpers.ts";

/** Alive and not a zombie (dead, only waiting to be reaped). */
const processAlive = (pid: number) => !pidGone(pid);

Deno.test("shell: stdout, stderr and exit code 0 end with the default action", async () => {
  const r = await shellNode.run({ command: "echo out; echo err >&2" }, testContext());
  assert.equal(r.action, "default");
  assert.deepEqual(r.outputs, { stdout: "out\n", stderr: "err\n", exit_code: 0 });
});

Deno.test("shell: a non-zero exit ends with error naming the code and the last stderr lines", async () => {
  const r = await shellNode.run(
    { command: "echo first >&2; echo boom >&2; exit 3" },
    testContext(),
  );
  assert.equal(r.action, "error");
  assert.equal(r.outputs.exit_code, 3);
  assert.match(r.error ?? "", /exit code 3/);
  assert.match(r.error ?? "", /boom/);
});

Deno.test("shell: ignore_errors turns a non-zero exit into the default action", async () => {
  const r = await shellNode.run({ command: "exit 4", ignore_errors: true }, testContext());
  assert.equal(r.action, "default");
  assert.equal(r.outputs.exit_code, 4);
});

Deno.test("shell: an object on stdin arrives as JSON", async () => {
  const r = await shellNode.run({ command: "cat", stdin: { a: 1, b: [true] } }, testContext());
  assert.deepEqual(JSON.parse(r.outputs.stdout as string), { a: 1, b: [true] });
});

Deno.test("shell: a string on stdin arrives as-is", async () => {
  const r = await shellNode.run({ command: "cat", stdin: "line 1\nline 2" }, testContext());
  assert.equal(r.outputs.stdout, "line 1\nline 2");
});

Deno.test("shell: a command that ignores stdin still succeeds", async () => {
  const r = await shellNode.run(
    { command: "true", stdin: "x".repeat(1_000_000) },
    testContext(),
  );
  assert.equal(r.action, "default");
});

Deno.test("shell: env param beats the process environment, which beats settings secrets", async () => {
  Deno.env.set("PFLOW_TEST_SET", "from-process");
  try {
    const r = await shellNode.run(
      {
        command: 'echo "$PFLOW_TEST_SET|$PFLOW_TEST_SECRET|$PFLOW_TEST_NODE"',
        env: { PFLOW_TEST_NODE: "from-node" },
      },
      testContext({
        env: { PFLOW_TEST_SET: "from-secret", PFLOW_TEST_SECRET: "secret", PFLOW_TEST_NODE: "x" },
      }),
    );
    assert.equal(r.outputs.stdout, "from-process|secret|from-node\n");
  } finally {
    Deno.env.delete("PFLOW_TEST_SET");
  }
});

Deno.test("shell: the node's env param overrides the process environment", async () => {
  Deno.env.set("PFLOW_TEST_OVERRIDE", "process");
  try {
    const r = await shellNode.run(
      { command: "echo $PFLOW_TEST_OVERRIDE", env: { PFLOW_TEST_OVERRIDE: "node" } },
      testContext(),
    );
    assert.equal(r.outputs.stdout, "node\n");
  } finally {
    Deno.env.delete("PFLOW_TEST_OVERRIDE");
  }
});

Deno.test("shell: runs in ctx.cwd, and a relative cwd param resolves against it", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir());
  try {
    await Deno.mkdir(`${dir}/sub`);
    const inCtx = await shellNode.run({ command: "pwd" }, testContext({ cwd: dir }));
    assert.equal(inCtx.outputs.stdout, `${dir}\n`);
    const inSub = await shellNode.run({ command: "pwd", cwd: "sub" }, testContext({ cwd: dir }));
    assert.equal(inSub.outputs.stdout, `${dir}/sub\n`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("shell: a missing cwd is an error naming the directory", async () => {
  const r = await shellNode.run({ command: "true", cwd: "/nonexistent-pflow-dir" }, testContext());
  assert.equal(r.action, "error");
  assert.match(r.error ?? "", /\/nonexistent-pflow-dir does not exist/);
});

Deno.test("shell: a timeout kills the whole process group, grandchildren included", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const pidFile = `${dir}/pid`;
    const r = await shellNode.run(
      { command: `sleep 300 & echo $! > ${pidFile}; wait`, timeout: 0.5 },
      testContext(),
    );
    assert.equal(r.action, "error");
    assert.match(r.error ?? "", /Command timed out after 0.5s/);
    const grandchild = Number((await Deno.readTextFile(pidFile)).trim());
    assert.ok(grandchild > 0);
    assert.equal(processAlive(grandchild), false);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("shell: aborting ctx.signal stops the command", async () => {
  const controller = new AbortController();
  const running = shellNode.run(
    { command: "echo started; sleep 300" },
    testContext({ signal: controller.signal }),
  );
  controller.abort();
  const r = await running;
  assert.equal(r.action, "error");
  assert.match(r.error ?? "", /cancelled/);
});

Deno.test("shell: more than 1 MB of stdout and stderr is read in full", async () => {
  const r = await shellNode.run(
    {
      command: "head -c 3000000 /dev/zero | tr '\\0' a; head -c 1500000 /dev/zero | tr '\\0' b >&2",
    },
    testContext(),
  );
  assert.equal(r.action, "default");
  assert.equal((r.outputs.stdout as string).length, 3_000_000);
  assert.equal((r.outputs.stderr as string).length, 1_500_000);
});

Deno.test("shell: a string timeout from a template is coerced to a number", async () => {
  const r = await shellNode.run({ command: "echo ok", timeout: "5" }, testContext());
  assert.equal(r.action, "default");
});

Deno.test("shell: a missing command is an error naming the param", async () => {
  const r = await shellNode.run({}, testContext());
  assert.equal(r.action, "error");
  assert.match(r.error ?? "", /missing required param 'command'/);
});

Deno.test("shell: sh refused by Deno permissions names the --allow-run flag", async () => {
  const r = await runNodeRestricted("shell.ts", "shellNode", { command: "true" }, [
    "--allow-read",
    "--allow-env",
    "--allow-run=ls",
  ]);
  assert.equal(r.action, "error");
  assert.match(r.error ?? "", /--allow-run=sh/);
});

Deno.test("shell: under an --allow-run allowlist a timeout still ends grandchildren", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const pidFile = `${dir}/pid`;
    // Deno refuses kill(-pgid) under an allowlist: the shell itself must pass the signal on.
    const r = await runNodeRestricted(
      "shell.ts",
      "shellNode",
      { command: `sleep 300 & echo $! > ${pidFile}; wait`, timeout: 0.5 },
      ["--allow-read", "--allow-env", "--allow-run=sh"],
    );
    assert.match(r.error ?? "", /Command timed out after 0.5s/);
    const grandchild = Number((await Deno.readTextFile(pidFile)).trim());
    assert.ok(grandchild > 0);
    assert.equal(processAlive(grandchild), false);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("shell: the command sees no positional parameters and keeps its own exit code", async () => {
  const r = await shellNode.run(
    { command: 'echo "[$#][$1]"; exit 7', ignore_errors: true },
    testContext(),
  );
  assert.equal(r.outputs.stdout, "[0][]\n");
  assert.equal(r.outputs.exit_code, 7);
});

Deno.test("shell: a syntax error in the command is a non-zero exit with sh's message", async () => {
  const r = await shellNode.run({ command: "if then fi (" }, testContext());
  assert.equal(r.action, "error");
  assert.equal(r.outputs.exit_code, 2);
  assert.match(String(r.outputs.stderr), /[Ss]yntax error/);
});
