/**
 * How `pflow mcp serve` stops: SIGINT → 130, SIGTERM → 0, stdin EOF → 0, and a client that
 * disconnects mid-execution leaves no child process behind.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DENO_FLAGS, MAIN, tempHome } from "./_server_harness.ts";

const enc = new TextEncoder();
const INIT = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "t", version: "1" },
  },
};

async function start(home: string) {
  const child = new Deno.Command(Deno.execPath(), {
    args: [...DENO_FLAGS, MAIN, "mcp", "serve"],
    env: { PFLOW_HOME: home },
    cwd: home,
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const writer = child.stdin.getWriter();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  const send = (msg: unknown) => writer.write(enc.encode(JSON.stringify(msg) + "\n"));
  const next = async (): Promise<Record<string, unknown>> => {
    while (!buffer.includes("\n")) {
      const { value, done } = await lines.read();
      if (done) throw new Error("server closed stdout");
      buffer += value;
    }
    const i = buffer.indexOf("\n");
    const line = buffer.slice(0, i);
    buffer = buffer.slice(i + 1);
    return JSON.parse(line);
  };
  await send(INIT);
  const reply = await next();
  assert.equal(reply.id, 1);
  await send({ jsonrpc: "2.0", method: "notifications/initialized" });
  const drain = async () => {
    lines.releaseLock();
    await child.stdout.cancel().catch(() => {});
  };
  return { child, writer, send, next, drain };
}

Deno.test("SIGINT stops the server with exit code 130", async () => {
  const s = await start(await tempHome());
  s.child.kill("SIGINT");
  const status = await s.child.status;
  await s.writer.close().catch(() => {});
  await s.drain();
  assert.equal(status.code, 130);
});

Deno.test("SIGTERM stops the server with exit code 0", async () => {
  const s = await start(await tempHome());
  s.child.kill("SIGTERM");
  const status = await s.child.status;
  await s.writer.close().catch(() => {});
  await s.drain();
  assert.equal(status.code, 0);
});

Deno.test("stdin EOF stops the server with exit code 0", async () => {
  const s = await start(await tempHome());
  await s.writer.close();
  const status = await s.child.status;
  await s.drain();
  assert.equal(status.code, 0);
});

function alive(pid: number): boolean {
  try {
    Deno.kill(pid, "SIGCONT");
    return true;
  } catch {
    return false;
  }
}

Deno.test("a client disconnecting mid-execution leaves no child process", async () => {
  const home = await tempHome();
  const pidFile = join(home, "sleep.pid");
  const workflow = `# Sleeper

Sleeps for a long time.

## Steps

### nap

Record our pid, then sleep.

- type: shell
- timeout: 60

\`\`\`shell command
echo $$ > ${pidFile}; exec sleep 30
\`\`\`
`;
  const s = await start(home);
  await s.send({
    jsonrpc: "2.0",
    id: 2,
    method: "tools/call",
    params: { name: "workflow_execute", arguments: { workflow } },
  });
  // The step has started once its pid is on disk.
  let pid = 0;
  for (let i = 0; i < 400 && !pid; i++) {
    pid = Number((await Deno.readTextFile(pidFile).catch(() => "")).trim()) || 0;
    if (!pid) await new Promise((r) => setTimeout(r, 25));
  }
  assert.ok(pid > 0, "the sleep step started");
  assert.ok(alive(pid));
  await s.writer.close();
  const status = await s.child.status;
  await s.drain();
  assert.equal(status.code, 0);
  assert.equal(alive(pid), false, `sleep (pid ${pid}) outlived the server`);
});
