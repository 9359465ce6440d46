/**
 * The per-run MCP session pool against real processes over real pipes: session reuse, results,
 * and every fault fixture ending with the right error and no process of its group left alive.
 */
import assert from "node:assert/strict";
import { createMcpSessions, McpSessionPool } from "../src/mcp/sessions.ts";
import type { McpServersConfig } from "../src/mcp/config.ts";
import { PflowError } from "../src/core/errors.ts";
import { fixtureServer, groupGone, pidGone, tempHome } from "./fixtures/mcp/helpers.ts";

function pool(servers: McpServersConfig, extra: { killGraceMs?: number; log?: string[] } = {}) {
  return new McpSessionPool({
    home: "/nonexistent-pflow-home",
    secrets: {},
    servers,
    killGraceMs: extra.killGraceMs ?? 500,
    onLog: (l) => extra.log?.push(l),
  });
}

async function expectError(p: Promise<unknown>): Promise<PflowError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof PflowError, `expected a PflowError, got ${err}`);
    return err;
  }
  assert.fail("expected the call to fail");
}

function assertAllGone(p: McpSessionPool) {
  assert.ok(p.startedPids.length > 0, "a server was started");
  for (const pid of p.startedPids) assert.ok(groupGone(pid), `process group ${pid} still alive`);
}

Deno.test("one session per server is reused within a run: counter answers 1 then 2", async () => {
  const p = pool({ counter: fixtureServer("counter_server.mjs") });
  try {
    const a = await p.callTool("counter", "increment", {});
    const b = await p.callTool("counter", "increment", {});
    assert.deepEqual(a.value, { count: 1 });
    assert.deepEqual(b.value, { count: 2 });
    assert.equal(p.startedPids.length, 1);
  } finally {
    await p.closeAll();
  }
  assertAllGone(p);
});

Deno.test("creating the pool starts nothing and reads no config", async () => {
  const s = createMcpSessions({ home: "/nonexistent-pflow-home", secrets: {} });
  await s.closeAll();
});

Deno.test("an unconfigured server is named in the error", async () => {
  const home = await tempHome();
  const s = createMcpSessions({ home, secrets: {} });
  const e = await expectError(s.callTool("nope", "x", {}));
  assert.equal(e.message, "Server nope not configured");
  await s.closeAll();
});

Deno.test("a missing command is reported as Command not found", async () => {
  const p = pool({ ghost: { command: "pflow-no-such-command-xyz", args: [], env: {} } });
  const e = await expectError(p.callTool("ghost", "echo", {}));
  assert.equal(e.message, "Command not found: pflow-no-such-command-xyz");
  await p.closeAll();
});

Deno.test("a server that crashes mid-call: terminated unexpectedly, with its stderr", async () => {
  const p = pool({ crash: fixtureServer("crash_server.mjs") });
  const e = await expectError(p.callTool("crash", "echo", { message: "hi" }, { timeoutMs: 10000 }));
  assert.match(e.message, /MCP server process terminated unexpectedly/);
  assert.match(e.message, /database connection lost/);
  await p.closeAll();
  assertAllGone(p);
});

Deno.test("a server that hangs: the call times out and the server is stopped", async () => {
  const p = pool({ hang: fixtureServer("hang_server.mjs") });
  const e = await expectError(p.callTool("hang", "echo", { message: "hi" }, { timeoutMs: 1500 }));
  assert.match(e.message, /timed out after 1\.5s/);
  // Stopped at the timeout, before closeAll.
  assertAllGone(p);
  await p.closeAll();
});

Deno.test("a JSON reply that is not JSON-RPC fails at once with Invalid JSON response", async () => {
  const p = pool({ garbage: fixtureServer("garbage_server.mjs") });
  // A long timeout: the failure must come from the reply, not from the clock.
  const started = performance.now();
  const e = await expectError(
    p.callTool("garbage", "echo", { message: "hi" }, { timeoutMs: 60000 }),
  );
  assert.match(e.message, /Invalid JSON response from server/);
  assert.ok(performance.now() - started < 30000, "failed on the reply, not the timeout");
  await p.closeAll();
  assertAllGone(p);
});

Deno.test("stdout noise lines are skipped and recorded for the trace", async () => {
  const log: string[] = [];
  const p = pool({ noisy: fixtureServer("noisy_server.mjs") }, { log });
  try {
    const r = await p.callTool("noisy", "echo", { message: "hi" });
    assert.equal(r.value, "Echo: hi");
    const all = [...log, ...r.log].join("\n");
    assert.match(all, /handling a call \(this line is noise\)/);
  } finally {
    await p.closeAll();
  }
  assertAllGone(p);
});

Deno.test("a slow-starting server is waited for within the timeout", async () => {
  const p = pool({ slow: fixtureServer("slow_start_server.mjs", "800") });
  try {
    const r = await p.callTool("slow", "echo", { message: "late" }, { timeoutMs: 10000 });
    assert.equal(r.value, "Echo: late");
  } finally {
    await p.closeAll();
  }
  assertAllGone(p);
});

Deno.test("a server slower to start than the timeout fails the handshake clearly", async () => {
  const p = pool({ slow: fixtureServer("slow_start_server.mjs", "5000") });
  const e = await expectError(p.callTool("slow", "echo", { message: "x" }, { timeoutMs: 600 }));
  assert.match(e.message, /did not complete the handshake within 0\.6s/);
  await p.closeAll();
});

Deno.test("a reply over 10 MiB is read whole", async () => {
  const size = 11 * 1024 * 1024;
  const p = pool({ big: fixtureServer("big_reply_server.mjs", String(size)) });
  try {
    const r = await p.callTool("big", "big", {}, { timeoutMs: 20000 });
    assert.equal(typeof r.value, "string");
    assert.equal((r.value as string).length, size);
  } finally {
    await p.closeAll();
  }
  assertAllGone(p);
});

Deno.test("a server ignoring SIGTERM is killed with its whole group after the grace period", async () => {
  const log: string[] = [];
  const p = pool({ stubborn: fixtureServer("stubborn_server.mjs") }, { killGraceMs: 300, log });
  const r = await p.callTool("stubborn", "echo", { message: "hi" });
  assert.equal(r.value, "Echo: hi");
  const line = [...log, ...r.log].find((l) => /grandchild \d+/.test(l));
  assert.ok(line, "the fixture reported its grandchild");
  const grandchild = Number(/grandchild (\d+)/.exec(line)![1]);
  await p.closeAll();
  assertAllGone(p);
  assert.ok(pidGone(grandchild), "the grandchild died with the group");
});

Deno.test("a tool's isError result carries the tool's own text", async () => {
  const p = pool({ errs: fixtureServer("error_server.mjs") });
  try {
    const r = await p.callTool("errs", "fail", {});
    assert.equal(r.isError, true);
    assert.equal(r.text, "quota exceeded for today");
  } finally {
    await p.closeAll();
  }
});

Deno.test("a JSON-RPC error code is named: -32602 Invalid params", async () => {
  const p = pool({ errs: fixtureServer("error_server.mjs") });
  try {
    const e = await expectError(p.callTool("errs", "strict", {}));
    assert.match(e.message, /Invalid params \(-32602\): count must be positive/);
  } finally {
    await p.closeAll();
  }
});

Deno.test("a tool gone since sync: Tool <tool> not found on server <server>", async () => {
  const p = pool({ errs: fixtureServer("error_server.mjs") });
  try {
    const e = await expectError(p.callTool("errs", "vanished", {}));
    assert.equal(e.message, "Tool vanished not found on server errs");
  } finally {
    await p.closeAll();
  }
});

Deno.test("after a crash the next call starts a fresh server", async () => {
  const p = pool({
    counter: fixtureServer("counter_server.mjs"),
    crash: fixtureServer("crash_server.mjs"),
  });
  try {
    await expectError(p.callTool("crash", "echo", { message: "x" }));
    await expectError(p.callTool("crash", "echo", { message: "x" }));
    assert.equal(p.startedPids.length, 2);
  } finally {
    await p.closeAll();
  }
  assertAllGone(p);
});

Deno.test("an unset ${VAR} is expanded to empty and repeated in the server's error", async () => {
  const p = pool({
    crash: {
      ...fixtureServer("crash_server.mjs"),
      env: { TOKEN: "${PFLOW_TEST_SURELY_UNSET_VAR}" },
    },
  });
  const e = await expectError(p.callTool("crash", "echo", { message: "x" }));
  assert.match(e.message, /\$\{PFLOW_TEST_SURELY_UNSET_VAR\} is not set/);
  await p.closeAll();
});

Deno.test("under an --allow-run allowlist: allowed servers run, others name the flag to add", async () => {
  const probe = new URL("./fixtures/mcp/allowlist_probe.ts", import.meta.url).pathname;
  const config = new URL("../deno.json", import.meta.url).pathname;
  const env = { ...Deno.env.toObject(), LD_PFLOW_PROBE: "1" };
  const { stdout, stderr, code } = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--quiet",
      `--config=${config}`,
      "--allow-read",
      "--allow-env",
      "--allow-run=node",
      probe,
    ],
    env,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(stdout);
  assert.equal(code, 0, new TextDecoder().decode(stderr));
  const out = JSON.parse(text.trim().split("\n").pop()!);
  assert.deepEqual(out.value, { count: 1 });
  assert.match(out.otherError, /--allow-run=sh/);
  for (const pid of out.pids) assert.ok(groupGone(pid), `process group ${pid} still alive`);
});
