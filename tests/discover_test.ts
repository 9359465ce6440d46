/** Offline discovery: ranking by name, description and fields, and edits seen at once. */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  discoverWorkflowsService,
  rankCandidates,
  STRONG_CONFIDENCE,
} from "../src/services/discover.ts";
import { HELLO_MD, withHome } from "./_cli.ts";

Deno.test("a candidate matching every keyword in its name outranks one matching its description", () => {
  const r = rankCandidates("fetch issues", [
    { name: "notes", description: "Fetch the issues of a repository", fields: [] },
    { name: "fetch-issues", description: "Gets things", fields: [] },
  ]);
  assert.deepEqual(r.matches.map((m) => m.name), ["fetch-issues", "notes"]);
  for (const m of r.matches) assert.ok(m.confidence >= 0 && m.confidence <= 1);
  assert.ok(r.matches[0].confidence >= STRONG_CONFIDENCE && r.matches[0].strong);
  assert.match(r.matches[0].reason, /name/);
});

Deno.test("nothing related gives no matches", () => {
  const r = rankCandidates("quantum chromodynamics", [
    { name: "hello", description: "Says hello", fields: ["who"] },
  ]);
  assert.deepEqual(r.matches, []);
});

Deno.test("discovery sees a workflow's inputs, and an edit to them at the next call", () =>
  withHome(async (home) => {
    const dir = join(home, "workflows");
    await Deno.mkdir(dir, { recursive: true });
    const path = join(dir, "hello.pflow.md");
    await Deno.writeTextFile(path, HELLO_MD);
    const first = await discoverWorkflowsService(home, "recipient");
    assert.deepEqual(first.matches, []);
    // Rename the input `who` to `recipient` in place (an agent's file edit).
    await Deno.writeTextFile(path, HELLO_MD.replaceAll("who", "recipient"));
    const second = await discoverWorkflowsService(home, "recipient");
    assert.deepEqual(second.matches.map((m) => m.name), ["hello"]);
    assert.match(second.matches[0].reason, /inputs\/outputs/);
  }));
