/** Node search ranking: every keyword must match; exact > prefix > contains > description > fields; ties by name. */
import assert from "node:assert/strict";
import type { NodeInterface } from "../src/core/node_interface.ts";
import { SCORE, searchNodes } from "../src/registry/search.ts";

const node = (
  type: string,
  description = "",
  params: string[] = [],
  outputs: string[] = [],
): NodeInterface => ({
  type,
  description,
  params: Object.fromEntries(params.map((p) => [p, { type: "string", description: "" }])),
  outputs: Object.fromEntries(outputs.map((o) => [o, { type: "string", description: "" }])),
  actions: ["default"],
  category: "core",
});

const NODES = [
  node("shell-tools", "misc"),
  node("shell", "run a command"),
  node("my-shell", "wraps things"),
  node("runner", "uses a shell inside"),
  node("fetch", "download", ["shell_path"]),
  node("other", "nothing"),
];

Deno.test("search ranks exact name over prefix over contains over description over params", () => {
  const r = searchNodes(NODES, "shell");
  assert.deepEqual(r.map((x) => x.node.type), [
    "shell",
    "shell-tools",
    "my-shell",
    "runner",
    "fetch",
  ]);
  assert.deepEqual(r.map((x) => x.score), [
    SCORE.exact,
    SCORE.prefix,
    SCORE.contains,
    SCORE.description,
    SCORE.field,
  ]);
});

Deno.test("search requires every keyword to match", () => {
  assert.deepEqual(searchNodes(NODES, "shell command").map((x) => x.node.type), ["shell"]);
  assert.deepEqual(searchNodes(NODES, "shell zebra"), []);
});

Deno.test("search breaks ties by name", () => {
  const r = searchNodes(
    [node("b-x", "alpha"), node("a-x", "alpha"), node("c-x", "alpha")],
    "alpha",
  );
  assert.deepEqual(r.map((x) => x.node.type), ["a-x", "b-x", "c-x"]);
});

Deno.test("search is case-insensitive and matches output names", () => {
  assert.deepEqual(searchNodes([node("q", "", [], ["Stdout"])], "STDOUT").map((x) => x.node.type), [
    "q",
  ]);
});

Deno.test("search matches an MCP tool's original spelling", () => {
  const entry = {
    ...node("mcp-gh-create-issue", "Create"),
    category: "mcp" as const,
    mcp: { server: "gh", tool: "create_issue" },
  };
  assert.equal(searchNodes([entry], "create_issue")[0].score, SCORE.exact);
});

Deno.test("search results are sorted for any input (property)", async () => {
  const fc = (await import("fast-check")).default;
  fc.assert(
    fc.property(
      fc.array(fc.string({ minLength: 1, maxLength: 8 }), { maxLength: 30 }),
      fc.string({ minLength: 1, maxLength: 3 }),
      (names: string[], q: string) => {
        const r = searchNodes(names.map((n) => node(n, n)), q);
        for (let i = 1; i < r.length; i++) {
          assert.ok(
            r[i - 1].score > r[i].score ||
              (r[i - 1].score === r[i].score && r[i - 1].node.type <= r[i].node.type),
          );
        }
      },
    ),
  );
});
