/**
 * Interrupting a real `pflow run` (SIGINT) while an MCP tool call hangs: pflow exits 130 and
 * no process of the MCP server's group outlives it.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { saveServersConfig } from "../src/mcp/config.ts";
import { syncServers } from "../src/services/mcp.ts";
import { fixtureServer, groupGone, tempHome } from "./fixtures/mcp/helpers.ts";
import { PFLOW_FLAGS } from "../scripts/permission_flags.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;

/** Pids of live processes whose command line holds `marker`. */
function pidsWith(marker: string): number[] {
  const out = new Deno.Command("ps", { args: ["-eo", "pid=,stat=,args="] }).outputSync();
  return new TextDecoder().decode(out.stdout).split("\n")
    .filter((l) => l.includes(marker) && !/^\s*\d+\s+Z/.test(l))
    .map((l) => Number(l.trim().split(/\s+/)[0]));
}

async function waitFor<T>(probe: () => T | undefined, what: string): Promise<T> {
  for (let i = 0; i < 300; i++) {
    const v = probe();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

Deno.test("SIGINT during a hanging MCP call exits 130 and leaves no server process", async () => {
  const home = await tempHome();
  const marker = `pflow-sigint-${crypto.randomUUID()}`;
  try {
    await saveServersConfig(home, { hang: fixtureServer("hang_server.mjs", marker) });
    const sync = await syncServers(home, ["hang"]);
    assert.equal(sync.tools_registered, 1, JSON.stringify(sync));
    // Discovery's own server must be gone before the run starts, so the next pid is the run's.
    await waitFor(() => (pidsWith(marker).length === 0 ? true : undefined), "sync server exit");
    const wf = join(home, "hang.pflow.md");
    await Deno.writeTextFile(
      wf,
      "# Hang\n\nCalls a tool that never answers.\n\n## Steps\n\n### wait\n\nWait forever.\n\n" +
        "- type: mcp-hang-echo\n- message: hi\n",
    );
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", ...PFLOW_FLAGS, MAIN, "run", wf],
      env: { PFLOW_HOME: home },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const serverPid = await waitFor(() => pidsWith(marker)[0], "the MCP server to start");
    child.kill("SIGINT");
    // A pflow that ignores SIGINT fails the test (killed, code 137) instead of hanging it.
    const guard = setTimeout(() => child.kill("SIGKILL"), 20_000);
    const { code, stderr } = await child.output();
    clearTimeout(guard);
    assert.equal(code, 130, new TextDecoder().decode(stderr));
    await waitFor(() => (groupGone(serverPid) ? true : undefined), "the server group to end");
    assert.deepEqual(pidsWith(marker), []);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
