/**
 * pflow under a sandboxed permission profile, run as a real subprocess: every refused operation
 * (a write outside the allowed folder, a program outside --allow-run, a host outside
 * --allow-net, an unreadable PFLOW_HOME) is exactly one line naming the operation and the flag,
 * with no stack trace and no hang; work the profile allows still succeeds.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const MAIN = join(ROOT, "main.ts");
const CONFIG = join(ROOT, "deno.json");
const MEMORY_SERVER = join(
  ROOT,
  "tests/mcp_servers/node_modules/@modelcontextprotocol/server-memory/dist/index.js",
);

interface Sandbox {
  home: string;
  work: string;
  outside: string;
}

async function sandbox(): Promise<Sandbox> {
  const base = await Deno.makeTempDir({ prefix: "pflow-perm-" });
  const s = { home: join(base, "home"), work: join(base, "work"), outside: join(base, "outside") };
  for (const dir of Object.values(s)) await Deno.mkdir(dir, { recursive: true });
  return s;
}

/** The sandboxed profile of docs/permissions-and-install.md, with extra flags appended. */
function sandboxFlags(s: Sandbox, run: string, extra: string[] = []): string[] {
  return [
    `--allow-read=${s.home},${s.work}`,
    `--allow-write=${s.home},${s.work}`,
    `--allow-env=PFLOW_HOME,HOME,PATH`,
    `--allow-run=${run}`,
    ...extra,
  ];
}

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

async function pflow(s: Sandbox, flags: string[], args: string[]): Promise<Result> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", `--config=${CONFIG}`, ...flags, MAIN, ...args],
    cwd: s.work,
    env: { PFLOW_HOME: s.home, NO_COLOR: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    // A guard against a hang, not a timing assertion: a hung pflow fails the test instead.
    signal: AbortSignal.timeout(120_000),
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

/** Exactly one line of the output is the refusal, it names `flag`, and nothing is a stack. */
function assertOneRefusal(r: Result, operation: RegExp, flag: string): void {
  const text = r.stdout + r.stderr;
  const lines = text.split("\n").filter((l) => /Permission denied|Requires \w+ access/.test(l));
  assert.equal(lines.length, 1, `expected one refusal line, got:\n${text}`);
  assert.match(lines[0], operation);
  assert.ok(lines[0].includes(flag), `refusal should name ${flag}: ${lines[0]}`);
  assert.doesNotMatch(text, /^\s+at /m, `no stack trace expected:\n${text}`);
  assert.doesNotMatch(text, /Uncaught/);
  assert.notEqual(r.code, 0);
}

async function writeWorkflow(dir: string, name: string, steps: string): Promise<string> {
  const path = join(dir, `${name}.pflow.md`);
  await Deno.writeTextFile(
    path,
    `# ${name}\n\nA permissions test workflow.\n\n## Steps\n\n${steps}`,
  );
  return path;
}

Deno.test("a write outside the allowed folder is one line naming --allow-write", async () => {
  const s = await sandbox();
  const target = join(s.outside, "x.txt");
  await writeWorkflow(
    s.work,
    "escape",
    `### out\n\nWrite outside the sandbox.\n\n- type: write-file\n- file_path: ${target}\n- content: hi\n`,
  );
  const r = await pflow(s, sandboxFlags(s, "sh"), ["run", "escape.pflow.md"]);
  assertOneRefusal(r, /writing/, "--allow-write=");
  await assert.rejects(Deno.stat(target), Deno.errors.NotFound);
});

Deno.test("a shell step whose program is outside --allow-run is one line naming --allow-run=sh", async () => {
  const s = await sandbox();
  const r = await pflow(s, sandboxFlags(s, "node"), ["examples", "run", "hello"]);
  assertOneRefusal(r, /running sh/, "--allow-run=sh");
});

Deno.test("an http step to a host outside --allow-net is one line naming --allow-net", async () => {
  const s = await sandbox();
  await writeWorkflow(
    s.work,
    "fetch",
    "### get\n\nFetch from a host the sandbox does not allow.\n\n- type: http\n- url: http://example.com/data\n",
  );
  const r = await pflow(s, sandboxFlags(s, "sh", ["--allow-net=127.0.0.1"]), [
    "run",
    "fetch.pflow.md",
  ]);
  assertOneRefusal(r, /example\.com/, "--allow-net=example.com");
});

Deno.test("an MCP server whose command is outside --allow-run is one line naming --allow-run", async () => {
  const s = await sandbox();
  await Deno.writeTextFile(
    join(s.home, "mcp-servers.json"),
    JSON.stringify({ mcpServers: { mem: { command: "node", args: [MEMORY_SERVER] } } }),
  );
  const r = await pflow(s, sandboxFlags(s, "sh"), ["mcp", "sync", "mem"]);
  assertOneRefusal(r, /node/, "--allow-run");
});

Deno.test("doctor under the sandbox names the MCP server command --allow-run lacks and exits 1", async () => {
  const s = await sandbox();
  await Deno.writeTextFile(
    join(s.home, "mcp-servers.json"),
    JSON.stringify({ mcpServers: { mem: { command: "node", args: [MEMORY_SERVER] } } }),
  );
  const r = await pflow(s, sandboxFlags(s, "sh"), ["doctor", "--json"]);
  assert.equal(r.code, 1, r.stderr);
  const report = JSON.parse(r.stdout);
  assert.equal(report.ok, false);
  assert.equal(report.mcp.servers[0].allowed, false);
  assert.ok(report.problems.some((p: string) => p.includes("--allow-run=node")), r.stdout);
});

Deno.test("an unreadable PFLOW_HOME variable is one line naming --allow-env", async () => {
  const s = await sandbox();
  const r = await pflow(s, [`--allow-read=${s.work}`], ["--version"]);
  assertOneRefusal(r, /env access/, "--allow-env=PFLOW_HOME");
});

Deno.test("allowed work succeeds under the sandbox, with LD_ variables in the environment", async () => {
  const s = await sandbox();
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--quiet",
      `--config=${CONFIG}`,
      ...sandboxFlags(s, "sh"),
      MAIN,
      "examples",
      "run",
      "word-count",
    ],
    cwd: s.work,
    // Deno refuses to spawn a child with LD_* set under an --allow-run allowlist; pflow drops them.
    env: { PFLOW_HOME: s.home, LD_LIBRARY_PATH: "/nonexistent" },
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(120_000),
  }).output();
  const dec = new TextDecoder();
  assert.equal(out.code, 0, dec.decode(out.stderr));
  assert.match(dec.decode(out.stdout), /word-count\.txt has 9 words/);
  // The example's relative file landed in the directory pflow was started in.
  assert.ok((await Deno.stat(join(s.work, "word-count.txt"))).isFile);
});

Deno.test("an MCP workflow runs under the sandbox when its server's command is allowed", async () => {
  const s = await sandbox();
  await Deno.writeTextFile(
    join(s.home, "mcp-servers.json"),
    JSON.stringify({
      mcpServers: {
        mem: {
          command: "node",
          args: [MEMORY_SERVER],
          env: { MEMORY_FILE_PATH: join(s.work, "memory.jsonl") },
        },
      },
    }),
  );
  // The server lives in the source tree: node must read it (the server's own reads are its own).
  const flags = sandboxFlags(s, "node");
  const sync = await pflow(s, flags, ["mcp", "sync", "mem"]);
  assert.equal(sync.code, 0, sync.stdout + sync.stderr);
  const wf = await writeWorkflow(
    s.work,
    "remember",
    "### add\n\nStore an entity.\n\n- type: mcp-mem-create-entities\n" +
      '- entities: [{"name": "ada", "entityType": "person", "observations": ["wrote notes"]}]\n\n' +
      "### find\n\nFind it again.\n\n- type: mcp-mem-search-nodes\n- query: ada\n",
  );
  const r = await pflow(s, flags, ["run", wf, "--json"]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(JSON.stringify(JSON.parse(r.stdout).outputs), /wrote notes/);
});

Deno.test("doctor under full permissions with no servers configured exits 0", async () => {
  const s = await sandbox();
  const r = await pflow(s, ["--allow-read", "--allow-write", "--allow-env", "--allow-run"], [
    "doctor",
  ]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(
    r.stdout,
    new RegExp(`PFLOW_HOME: ${s.home.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`),
  );
  assert.match(r.stdout, /Everything configured can work/);
});
