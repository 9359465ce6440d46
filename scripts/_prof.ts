import { callTool } from "../src/server/tool.ts";
import { WORKFLOW_TOOLS } from "../src/server/workflow_tools.ts";
const home = Deno.args[0];
const def = WORKFLOW_TOOLS.find((t) => t.name === "workflow_list")!;
const ctx = { home, cwd: home, signal: new AbortController().signal, log() {} };
for (let r = 0; r < 8; r++) {
  const t = performance.now();
  const res = await callTool(def, {}, ctx);
  const a = performance.now() - t;
  const t2 = performance.now();
  def.output.parse(res.structuredContent);
  const b = performance.now() - t2;
  const t3 = performance.now();
  JSON.stringify(res);
  const c = performance.now() - t3;
  console.log({ call: a.toFixed(1), zodOut: b.toFixed(1), json: c.toFixed(1) });
}
