/**
 * The `.pflow.md` parser and the workflow file loader: every construct of the format, every
 * parse error (with its line), frontmatter round trips, JSON IR files, and the shipped
 * examples and fixtures.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import process from "node:process";
import fc from "fast-check";
import { PflowError } from "../src/core/errors.ts";
import {
  loadWorkflowFile,
  parseMarkdownWorkflow,
  serializeFrontmatter,
  splitFrontmatter,
} from "../src/core/markdown.ts";

const FIXTURES = new URL("./fixtures/workflows/", import.meta.url).pathname;
const EXAMPLES = new URL("../examples/", import.meta.url).pathname;

/** Lines joined with "\n": line numbers in the tests are indexes + 1. */
const md = (...lines: string[]) => lines.join("\n") + "\n";

/** A minimal valid document with one step, for tests that vary one part. */
const oneStep = (...stepLines: string[]) =>
  md("# T", "", "## Steps", "", "### a", "", "Does a.", "", ...stepLines);

function parseError(text: string, code = "parse"): PflowError {
  try {
    parseMarkdownWorkflow(text);
  } catch (err) {
    assert.ok(err instanceof PflowError, `expected a PflowError, got ${err}`);
    assert.equal(err.code, code, err.message);
    return err;
  }
  assert.fail("expected the parse to fail");
}

function assertParseError(text: string, line: number, message: RegExp, suggestion?: RegExp) {
  const err = parseError(text);
  assert.match(err.message, message);
  assert.equal(err.details.line, line, `line for: ${err.message}`);
  assert.ok(err.suggestion, "a parse error says how to fix it");
  if (suggestion) assert.match(err.suggestion, suggestion);
}

// --- valid constructs -------------------------------------------------------------------

Deno.test("title and description come from the H1 and its prose, lines joined by newlines", () => {
  const { ir } = parseMarkdownWorkflow(
    md("# My Flow", "", "First line", "second line.", "", "Next paragraph.", "", "## Steps") +
      md("", "### a", "", "Does a.", "", "- type: echo"),
  );
  assert.equal(ir.title, "My Flow");
  assert.equal(ir.description, "First line\nsecond line.\nNext paragraph.");
});

Deno.test("a workflow without an H1 has no title or description", () => {
  const { ir } = parseMarkdownWorkflow(md("## Steps", "", "### a", "", "Does a.", "- type: echo"));
  assert.equal(ir.title, undefined);
  assert.equal(ir.description, undefined);
});

Deno.test("steps are chained in document order and the first one starts", () => {
  const { ir } = parseMarkdownWorkflow(
    md("## Steps", "", "### a", "A.", "- type: echo", "", "### b", "B.", "- type: echo") +
      md("", "### c", "C.", "- type: echo"),
  );
  assert.deepEqual(ir.nodes.map((n) => n.id), ["a", "b", "c"]);
  assert.deepEqual(ir.edges, [
    { from: "a", to: "b", action: "default" },
    { from: "b", to: "c", action: "default" },
  ]);
  assert.equal(ir.start_node, "a");
});

Deno.test("a step's prose is its purpose and its items other than type are params", () => {
  const { ir } = parseMarkdownWorkflow(
    oneStep("More about a.", "", "- type: shell", "- command: echo hi", "- timeout: 5"),
  );
  assert.deepEqual(ir.nodes[0], {
    id: "a",
    type: "shell",
    purpose: "Does a.\nMore about a.",
    params: { command: "echo hi", timeout: 5 },
  });
});

Deno.test("single-line item values follow the Python pflow's scalar rules", () => {
  const { ir } = parseMarkdownWorkflow(oneStep(
    "- type: echo",
    "- int: 42",
    "- neg: -3",
    "- float: 2.5",
    "- sci: 1e5",
    "- yes_: yes",
    "- off_: Off",
    "- nul: ~",
    "- empty:",
    '- dq: "a\\tb\\n"',
    "- sq: 'it''s'",
    "- colon: echo a: b # not a comment",
    "- list: [1, two]",
    "- map: {k: v}",
    "- url: https://example.com/x?a=1",
  ));
  assert.deepEqual(ir.nodes[0].params, {
    int: 42,
    neg: -3,
    float: 2.5,
    sci: "1e5",
    yes_: true,
    off_: false,
    nul: null,
    empty: null,
    dq: "a\tb\n",
    sq: "it's",
    colon: "echo a: b # not a comment",
    list: [1, "two"],
    map: { k: "v" },
    url: "https://example.com/x?a=1",
  });
});

Deno.test("an item's indented continuation lines are parsed as YAML", () => {
  const { ir } = parseMarkdownWorkflow(oneStep(
    "- type: shell",
    "- env:",
    "    NAME: ${name}",
    "    N: 5",
    "    DEBUG: on",
    "- content: |",
    "    # Heading inside the value",
    "",
    "    second paragraph",
    "- after: 1",
  ));
  assert.deepEqual(ir.nodes[0].params, {
    env: { NAME: "${name}", N: 5, DEBUG: true },
    content: "# Heading inside the value\n\nsecond paragraph\n",
    after: 1,
  });
});

Deno.test("a code block's last info word names the param and its text is kept raw", () => {
  const { ir } = parseMarkdownWorkflow(oneStep(
    "- type: shell",
    "",
    "```bash command",
    "  if true; then",
    '    echo "a: b"  # kept',
    "  fi",
    "```",
    "",
    "```stdin",
    "plain",
    "```",
  ));
  assert.deepEqual(ir.nodes[0].params, {
    command: '  if true; then\n    echo "a: b"  # kept\n  fi',
    stdin: "plain",
  });
});

Deno.test("a yaml code block is parsed as YAML", () => {
  const { ir } = parseMarkdownWorkflow(
    oneStep("- type: shell", "", "```yaml stdin", "a: 1", "b: [x, y]", "```"),
  );
  assert.deepEqual(ir.nodes[0].params.stdin, { a: 1, b: ["x", "y"] });
});

Deno.test("a yaml batch block becomes the node's batch, not a param", () => {
  const { ir } = parseMarkdownWorkflow(oneStep(
    "- type: shell",
    "- command: echo ${item}",
    "",
    "```yaml batch",
    "items: ${list.stdout}",
    "as: item",
    "parallel: true",
    "```",
  ));
  assert.deepEqual(ir.nodes[0].batch, { items: "${list.stdout}", as: "item", parallel: true });
  assert.deepEqual(ir.nodes[0].params, { command: "echo ${item}" });
});

Deno.test("a batch item mapping becomes the node's batch too", () => {
  const { ir } = parseMarkdownWorkflow(
    oneStep("- type: shell", "- batch:", "    items: [1, 2]", "    as: n"),
  );
  assert.deepEqual(ir.nodes[0].batch, { items: [1, 2], as: "n" });
  assert.deepEqual(ir.nodes[0].params, {});
});

Deno.test("a longer fence can hold a shorter one, and tildes fence too", () => {
  const { ir } = parseMarkdownWorkflow(oneStep(
    "- type: llm",
    "",
    "````markdown prompt",
    "Look:",
    "```json",
    "{}",
    "```",
    "````",
    "",
    "~~~text system",
    "```not a fence here",
    "~~~",
  ));
  assert.equal(ir.nodes[0].params.prompt, "Look:\n```json\n{}\n```");
  assert.equal(ir.nodes[0].params.system, "```not a fence here");
});

Deno.test("inputs take type, required, default and stdin; description defaults to prose", () => {
  const { ir } = parseMarkdownWorkflow(
    md("## Inputs", "", "### name", "", "Who to greet.", "", "- type: string") +
      md("- required: false", "- default: World", "", "### data", "", "Piped data.") +
      md("- stdin: true", "- description: Overrides the prose", "", "### count", "", "N.") +
      md("", "## Steps", "", "### a", "", "Does a.", "- type: echo"),
  );
  assert.deepEqual(ir.inputs, {
    name: { type: "string", required: false, default: "World", description: "Who to greet." },
    data: { type: "string", required: true, stdin: true, description: "Overrides the prose" },
    count: { type: "string", required: true, description: "N." },
  });
});

Deno.test("outputs take a source item or a source code block, described by their prose", () => {
  const { ir } = parseMarkdownWorkflow(
    oneStep("- type: echo") +
      md("", "## Outputs", "", "### one", "", "The first.", "", "- source: ${a.echo}") +
      md("", "### two", "", "The second.", "", "```text source", "${a.echo}", "```"),
  );
  assert.deepEqual(ir.outputs, {
    one: { source: "${a.echo}", description: "The first." },
    two: { source: "${a.echo}", description: "The second." },
  });
});

Deno.test("section headings match case-insensitively, in any order", () => {
  const { ir } = parseMarkdownWorkflow(
    md("## OUTPUTS", "", "### out", "Out.", "- source: ${a.echo}", "", "## steps", "") +
      md("### a", "A.", "- type: echo", "", "## inputs", "", "### x", "X."),
  );
  assert.deepEqual(Object.keys(ir.outputs), ["out"]);
  assert.deepEqual(Object.keys(ir.inputs), ["x"]);
  assert.equal(ir.nodes.length, 1);
});

Deno.test("other ## sections are prose, sub-headings and bullets included", () => {
  const { ir } = parseMarkdownWorkflow(
    md("# T", "", "## Notes", "", "### Some Heading!", "", "- not: a param", "```", "code") +
      md("```", "", "## Steps", "", "### a", "", "Does a.", "- type: echo"),
  );
  assert.deepEqual(ir.nodes.map((n) => n.id), ["a"]);
  assert.deepEqual(ir.nodes[0].params, {});
});

Deno.test("'####' headings and '*' bullets in an entity are prose", () => {
  const { ir } = parseMarkdownWorkflow(oneStep("#### Detail", "* a note", "- type: echo"));
  assert.equal(ir.nodes[0].purpose, "Does a.\n#### Detail\n* a note");
});

Deno.test("'- next' jumps, names one action per target, or ends; '- on-error' adds an error edge", () => {
  const { ir } = parseMarkdownWorkflow(md(
    "## Steps",
    "### check",
    "Check.",
    "- type: shell",
    "- next: yes-path, no-path",
    "- on-error: recover",
    "### yes-path",
    "Yes.",
    "- type: echo",
    "- next: done",
    "### no-path",
    "No.",
    "- type: echo",
    "- next: end",
    "### recover",
    "Recover.",
    "- type: echo",
    "### done",
    "Done.",
    "- type: echo",
  ));
  assert.deepEqual(ir.edges, [
    { from: "check", to: "yes-path", action: "yes-path" },
    { from: "check", to: "no-path", action: "no-path" },
    { from: "check", to: "yes-path", action: "default" },
    { from: "check", to: "recover", action: "error" },
    { from: "yes-path", to: "done", action: "default" },
    { from: "recover", to: "done", action: "default" },
  ]);
  for (const node of ir.nodes) {
    assert.equal("next" in node.params || "on-error" in node.params, false);
  }
});

Deno.test("the source map gives the line of every heading, item and code block", () => {
  const { sourceMap } = parseMarkdownWorkflow(md(
    "## Inputs", // 1
    "### x", // 2
    "X.", // 3
    "## Steps", // 4
    "### a", // 5
    "Does a.", // 6
    "- type: shell", // 7
    "- env:", // 8
    "    A: 1", // 9
    "```shell command", // 10
    "echo", // 11
    "```", // 12
    "## Outputs", // 13
    "### out", // 14
    "Out.", // 15
    "- source: ${a.stdout}", // 16
  ));
  assert.deepEqual(sourceMap, {
    nodes: { a: { line: 5, params: { type: 7, env: 8, command: 10 } } },
    inputs: { x: 2 },
    outputs: { out: 14 },
  });
});

Deno.test("CRLF line endings parse like LF", () => {
  const text = oneStep("- type: shell", "```shell command", "echo hi", "```").replaceAll(
    "\n",
    "\r\n",
  );
  const { ir, sourceMap } = parseMarkdownWorkflow(text);
  assert.equal(ir.nodes[0].params.command, "echo hi");
  assert.equal(sourceMap?.nodes.a.params.command, 10);
});

Deno.test("frontmatter is metadata only; the body after it is kept byte for byte", () => {
  const body = oneStep("- type: echo");
  const text = `---\nrating: 5\ntags: [a, b]\n---\n${body}`;
  const parsed = parseMarkdownWorkflow(text);
  assert.deepEqual(parsed.metadata, { rating: 5, tags: ["a", "b"] });
  assert.equal(parsed.body, body);
  assert.equal("rating" in parsed.ir, false);
});

Deno.test("line numbers count the frontmatter lines", () => {
  const { sourceMap } = parseMarkdownWorkflow(`---\na: 1\n---\n${oneStep("- type: echo")}`);
  assert.equal(sourceMap?.nodes.a.line, 5 + 3);
});

Deno.test("without frontmatter the metadata is empty and the body is the whole text", () => {
  const text = oneStep("- type: echo");
  const parsed = parseMarkdownWorkflow(text);
  assert.deepEqual(parsed.metadata, {});
  assert.equal(parsed.body, text);
});

Deno.test("frontmatter that is not a mapping is dropped, as in the Python pflow", () => {
  const parsed = parseMarkdownWorkflow(`---\n- a\n- b\n---\n${oneStep("- type: echo")}`);
  assert.deepEqual(parsed.metadata, {});
  assert.equal(parsed.body, oneStep("- type: echo"));
});

Deno.test("a leading '---' without a closing one is not frontmatter", () => {
  const text = `---\n${oneStep("- type: echo")}`;
  const parsed = parseMarkdownWorkflow(text);
  assert.equal(parsed.body, text);
  assert.deepEqual(parsed.metadata, {});
});

Deno.test("the same id may name an input and a step", () => {
  const { ir } = parseMarkdownWorkflow(
    md("## Inputs", "### a", "Input a.", "## Steps", "### a", "Step a.", "- type: echo"),
  );
  assert.ok(ir.inputs.a);
  assert.equal(ir.nodes[0].id, "a");
});

// --- parse errors ------------------------------------------------------------------------

Deno.test("error: no '## Steps' section", () => {
  assertParseError(md("# T", "", "Prose."), 1, /Missing '## Steps' section/, /## Steps/);
});

Deno.test("error: a '## Steps' section without steps", () => {
  assertParseError(md("# T", "", "## Steps", "", "## Notes"), 3, /has no steps/, /### /);
});

Deno.test("error: content in Steps but no '### id' headings", () => {
  assertParseError(
    md("# T", "", "## Steps", "", "- type: shell"),
    5,
    /'## Steps' has content but no '### id' entities/,
    /### step-name/,
  );
});

Deno.test("error: an entity without prose", () => {
  assertParseError(
    md("## Steps", "", "### a", "", "- type: echo"),
    3,
    /'### a' has no description/,
    /What this does/,
  );
});

Deno.test("error: an input without prose", () => {
  assertParseError(
    md("## Inputs", "### x", "- type: string", "## Steps", "### a", "A.", "- type: echo"),
    2,
    /'### x' has no description/,
  );
});

Deno.test("error: a step without a type", () => {
  assertParseError(oneStep("- command: echo"), 5, /Step 'a' has no type/, /- type: shell/);
});

Deno.test("error: a step whose type is not a name", () => {
  assertParseError(oneStep("- type: 5"), 9, /invalid type: 5/, /- type: shell/);
});

Deno.test("error: an id that breaks the id pattern", () => {
  assertParseError(
    md("## Steps", "", "### Fetch Data!", "Fetch.", "- type: echo"),
    3,
    /Invalid id 'Fetch Data!'/,
    /### fetch-data/,
  );
});

Deno.test("error: two steps with the same id", () => {
  assertParseError(
    md("## Steps", "### a", "A.", "- type: echo", "### a", "Again.", "- type: echo"),
    5,
    /Duplicate id 'a' in '## Steps'/,
    /line 2/,
  );
});

Deno.test("error: two inputs with the same id", () => {
  assertParseError(
    md("## Inputs", "### x", "X.", "### x", "X again.", "## Steps", "### a", "A.", "- type: echo"),
    4,
    /Duplicate id 'x' in '## Inputs'/,
  );
});

Deno.test("error: two outputs with the same id", () => {
  assertParseError(
    oneStep("- type: echo") + md("## Outputs", "### o", "O.", "- source: x", "### o", "O."),
    14,
    /Duplicate id 'o' in '## Outputs'/,
  );
});

Deno.test("error: the same param twice as items", () => {
  assertParseError(
    oneStep("- type: shell", "- command: a", "- command: b"),
    11,
    /Duplicate param 'command' in '### a'/,
    /item at line 10/,
  );
});

Deno.test("error: the same param as an item and a code block", () => {
  assertParseError(
    oneStep("- type: shell", "- command: a", "```shell command", "b", "```"),
    11,
    /Duplicate param 'command'/,
    /item at line 10/,
  );
});

Deno.test("error: the same param as two code blocks", () => {
  assertParseError(
    oneStep("- type: shell", "```shell command", "a", "```", "```sh command", "b", "```"),
    13,
    /Duplicate param 'command'/,
    /code block at line 10/,
  );
});

Deno.test("error: a code block that is never closed names its opening line", () => {
  assertParseError(
    oneStep("- type: shell", "```shell command", "echo", "", "## Outputs"),
    10,
    /Unclosed code block 'shell command'/,
    /closing fence \(```\)/,
  );
});

Deno.test("error: a code block without an info string", () => {
  assertParseError(
    oneStep("- type: shell", "```", "echo", "```"),
    10,
    /Code block has no tag/,
    /```shell command/,
  );
});

Deno.test("error: an untagged block after a tagged one points at nested fences", () => {
  assertParseError(
    oneStep("- type: llm", "```markdown prompt", "```json", "{}", "```", "```", "```"),
    14,
    /nested ``` closed the 'markdown prompt' block at line 10/,
    /````markdown prompt/,
  );
});

Deno.test("error: YAML syntax in a multi-line item names the file line of the error", () => {
  assertParseError(
    oneStep("- type: shell", "- env:", "    A: [1,", "    B: 2", "- next_item: x"),
    12,
    /YAML syntax error in the params of 'a'/,
  );
});

Deno.test("error: YAML syntax in a yaml code block names the file line of the error", () => {
  assertParseError(
    oneStep("- type: shell", "", "```yaml stdin", "a: 1", "b: : c", "```"),
    13,
    /YAML syntax error in the 'yaml stdin' block of 'a'/,
  );
});

Deno.test("error: a broken flow collection on a single-line item", () => {
  assertParseError(
    oneStep("- type: shell", "- list: [1, 2"),
    10,
    /YAML syntax error in param 'list'/,
  );
});

Deno.test("error: an unterminated quote on a single-line item", () => {
  assertParseError(
    oneStep("- type: shell", '- command: "echo hi'),
    10,
    /Unterminated double-quoted string/,
    /closing quote/,
  );
});

Deno.test("error: a '- ' line in an entity that is not a key: value item", () => {
  assertParseError(
    oneStep("- type: shell", "- just a note"),
    10,
    /'just a note' is not a valid param/,
    /'\*' bullets/,
  );
});

Deno.test("error: a '### ' heading before any section", () => {
  assertParseError(
    md("# T", "", "### a", "A.", "## Steps", "### b", "B.", "- type: echo"),
    3,
    /'### a' is outside the Inputs, Steps and Outputs sections/,
    /## Steps/,
  );
});

Deno.test("error: a '### ' heading under a near-miss section name", () => {
  assertParseError(
    md("## Step", "", "### a", "A.", "- type: echo"),
    3,
    /outside the Inputs, Steps and Outputs/,
    /Rename .* to '## Steps'/,
  );
});

Deno.test("error: a section given twice", () => {
  assertParseError(
    oneStep("- type: echo") + md("## Steps", "### b", "B.", "- type: echo"),
    10,
    /Duplicate '## Steps' section/,
    /line 3/,
  );
});

Deno.test("error: a route to a step that does not exist suggests the closest", () => {
  assertParseError(
    md(
      "## Steps",
      "### a",
      "A.",
      "- type: echo",
      "- next: finsh",
      "### finish",
      "F.",
      "- type: echo",
    ),
    5,
    /routes to unknown step 'finsh'/,
    /Did you mean 'finish'/,
  );
});

Deno.test("error: 'end' cannot be a step id", () => {
  assertParseError(md("## Steps", "### end", "E.", "- type: echo"), 2, /'end' is reserved/);
});

Deno.test("error: an unknown input field suggests the closest", () => {
  assertParseError(
    md("## Inputs", "### x", "X.", "- requried: true", "## Steps", "### a", "A.", "- type: echo"),
    4,
    /Unknown field 'requried' on an input/,
    /Did you mean 'required'/,
  );
});

Deno.test("error: an output without a source", () => {
  assertParseError(
    oneStep("- type: echo") + md("## Outputs", "### o", "The o."),
    11,
    /Output 'o' has no source/,
    /- source:/,
  );
});

Deno.test("error: frontmatter that is not valid YAML names its line", () => {
  assertParseError(
    `---\na: 1\nb: [\n---\n${oneStep("- type: echo")}`,
    4,
    /Invalid YAML in frontmatter/,
  );
});

Deno.test("a value the IR schema refuses is a validation error naming field and line", () => {
  const err = parseError(
    md("## Inputs", "### x", "X.", "- type: strin", "## Steps", "### a", "A.", "- type: echo"),
    "validation",
  );
  assert.equal(err.details.field, "inputs.x.type");
  assert.equal(err.details.line, 4);
  assert.match(err.message, /inputs\.x\.type/);
});

Deno.test("errors name the file given in opts.path", () => {
  try {
    parseMarkdownWorkflow(md("# T"), { path: "flows/x.pflow.md" });
    assert.fail("expected an error");
  } catch (err) {
    assert.ok(err instanceof PflowError);
    assert.equal(err.details.path, "flows/x.pflow.md");
  }
});

// --- frontmatter helpers -----------------------------------------------------------------

Deno.test("splitFrontmatter returns the metadata and the body verbatim", () => {
  assert.deepEqual(splitFrontmatter("---\nname: x\n---\r\n# Body\r\n"), {
    metadata: { name: "x" },
    body: "# Body\r\n",
  });
});

Deno.test("serializeFrontmatter writes no frontmatter for empty metadata", () => {
  assert.equal(serializeFrontmatter({}, "# Body\n"), "# Body\n");
});

Deno.test("serializeFrontmatter keeps a body that itself starts like frontmatter", () => {
  const body = "---\nnot: meta\n---\n# Body\n";
  const text = serializeFrontmatter({}, body);
  assert.deepEqual(splitFrontmatter(text), { metadata: {}, body });
});

Deno.test("serializeFrontmatter quotes strings YAML 1.1 would read as other types", () => {
  const metadata = { a: "yes", b: "012", c: "2024-01-01", d: "null", e: "1:30" };
  assert.deepEqual(splitFrontmatter(serializeFrontmatter(metadata, "")).metadata, metadata);
});

Deno.test("splitFrontmatter gives back what serializeFrontmatter was given", () => {
  const json = fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null));
  const metadataArb = fc.dictionary(
    fc.string({ minLength: 1 }).filter((k) => k !== "__proto__"),
    fc.oneof(json, fc.array(json, { maxLength: 3 })),
    { maxKeys: 5 },
  );
  fc.assert(
    fc.property(metadataArb, fc.string(), (generated, body) => {
      const metadata = { ...generated }; // fast-check builds null-prototype objects
      assert.deepEqual(splitFrontmatter(serializeFrontmatter(metadata, body)), { metadata, body });
    }),
    { numRuns: 300 },
  );
});

// --- files -------------------------------------------------------------------------------

Deno.test("examples/hello.pflow.md has an optional name input and an output", async () => {
  const { ir } = await loadWorkflowFile(join(EXAMPLES, "hello.pflow.md"));
  assert.equal(ir.inputs.name.required, false);
  assert.equal(ir.inputs.name.default, "World");
  assert.deepEqual(Object.keys(ir.outputs), ["greeting"]);
  const types = new Set(ir.nodes.map((n) => n.type));
  assert.ok([...types].every((t) => ["shell", "echo", "write-file", "read-file"].includes(t)));
});

Deno.test("examples/word-count.pflow.md parses into a four-step pipeline", async () => {
  const { ir } = await loadWorkflowFile(join(EXAMPLES, "word-count.pflow.md"));
  assert.deepEqual(ir.nodes.map((n) => n.type), ["write-file", "read-file", "shell", "echo"]);
  assert.deepEqual(Object.keys(ir.outputs), ["words", "summary"]);
});

Deno.test("a workflow in the Python pflow's conventions parses to the expected IR", async () => {
  const parsed = await loadWorkflowFile(join(FIXTURES, "python-style.pflow.md"));
  assert.deepEqual(parsed.metadata, {
    created_at: "2025-01-15T10:30:00",
    execution_count: 3,
    last_execution_success: true,
  });
  assert.deepEqual(parsed.ir, {
    ir_version: "0.1.0",
    title: "Release Notes",
    description: "Collect commits since the last tag and turn them into release notes.\n" +
      "Written in the conventions of the Python pflow.",
    nodes: [
      {
        id: "get-commits",
        type: "shell",
        purpose: "List recent commits as JSON lines.",
        params: {
          timeout: 30,
          ignore_errors: false,
          command: "git log -n ${limit} --format='%h|%s' | jq -R 'split(\"|\")'",
        },
      },
      {
        id: "enrich",
        type: "shell",
        purpose: "Look up each commit, several at a time.",
        params: {
          env: { REPO: "${get-commits.stdout}", VERBOSE: true },
          command: 'echo "${commit}: $REPO"',
        },
        batch: { items: "${get-commits.stdout}", as: "commit", parallel: true, max_concurrent: 4 },
      },
      {
        id: "draft",
        type: "llm",
        purpose: "Draft the notes with a prompt that itself shows a code fence.",
        params: {
          model: "gpt-4o-mini",
          temperature: 0.2,
          prompt: "Write release notes for:\n\n```json\n${enrich.results}\n```",
          stdin: { commits: "${enrich.results}", extra: "${data}" },
        },
      },
      {
        id: "save",
        type: "write-file",
        purpose: "Save the notes next to the changelog.",
        params: { file_path: "releases/notes.md", content: "# Notes\n\n${draft.response}\n" },
      },
      {
        id: "fallback",
        type: "write-file",
        purpose: "Write placeholder notes when git is unavailable.",
        params: {
          file_path: "releases/notes.md",
          content: "No commits found - using default notes",
        },
      },
    ],
    edges: [
      { from: "get-commits", to: "enrich", action: "default" },
      { from: "get-commits", to: "fallback", action: "error" },
      { from: "enrich", to: "draft", action: "default" },
      { from: "draft", to: "save", action: "default" },
    ],
    inputs: {
      data: {
        type: "string",
        required: false,
        stdin: true,
        description: "Extra notes piped in on stdin.",
      },
      limit: {
        type: "number",
        required: false,
        default: 20,
        description: "How many commits to read at most.",
      },
    },
    outputs: { notes: { source: "${draft.response}", description: "The drafted release notes." } },
    start_node: "get-commits",
  });
  assert.equal(parsed.sourceMap?.nodes.enrich.params.batch, 53);
});

const ERROR_FIXTURES: [string, number, RegExp][] = [
  ["missing-steps", 1, /Missing '## Steps'/],
  ["unclosed-fence", 13, /Unclosed code block/],
  ["duplicate-param", 14, /Duplicate param 'command'/],
  ["yaml-syntax-error", 16, /YAML syntax error in the 'yaml batch' block/],
  ["missing-type", 7, /Step 'run' has no type/],
  ["missing-description", 7, /'### run' has no description/],
];
for (const [name, line, message] of ERROR_FIXTURES) {
  Deno.test(`fixture ${name}.pflow.md fails at line ${line} naming the file`, async () => {
    const path = join(FIXTURES, `${name}.pflow.md`);
    await assert.rejects(loadWorkflowFile(path), (err: unknown) => {
      assert.ok(err instanceof PflowError);
      assert.equal(err.code, "parse");
      assert.match(err.message, message);
      assert.equal(err.details.line, line);
      assert.equal(err.details.path, path);
      return true;
    });
  });
}

Deno.test("loading a missing file is not_found naming the path", async () => {
  const path = join(FIXTURES, "no-such-workflow.pflow.md");
  await assert.rejects(loadWorkflowFile(path), (err: unknown) => {
    assert.ok(err instanceof PflowError);
    assert.equal(err.code, "not_found");
    assert.ok(err.message.includes(path));
    return true;
  });
});

Deno.test("loading a file that is not UTF-8 is a parse error", async () => {
  await assert.rejects(loadWorkflowFile(join(FIXTURES, "not-utf8.pflow.md")), (err: unknown) => {
    assert.ok(err instanceof PflowError);
    assert.equal(err.code, "parse");
    assert.match(err.message, /not UTF-8/);
    return true;
  });
});

async function withJsonFile(text: string, fn: (path: string) => Promise<void>) {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "workflow.json");
    await Deno.writeTextFile(path, text);
    await fn(path);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("a .json file is read as an IR with schema defaults", async () => {
  const ir = { nodes: [{ id: "hello", type: "echo", params: { message: "hi" } }] };
  await withJsonFile(JSON.stringify(ir), async (path) => {
    const parsed = await loadWorkflowFile(path);
    assert.deepEqual(parsed.ir.nodes, ir.nodes);
    assert.deepEqual(parsed.ir.edges, []);
    assert.equal(parsed.ir.ir_version, "0.1.0");
    assert.deepEqual(parsed.metadata, {});
    assert.equal(parsed.sourceMap, undefined);
  });
});

Deno.test("a .json file wrapping the IR under 'ir' is unwrapped", async () => {
  const ir = { nodes: [{ id: "hello", type: "echo" }] };
  await withJsonFile(JSON.stringify({ ir, rating: 1 }), async (path) => {
    assert.equal((await loadWorkflowFile(path)).ir.nodes[0].id, "hello");
  });
});

Deno.test("broken JSON is a parse error with the line and column", async () => {
  await withJsonFile('{\n  "nodes": [\n    { "id": "a", "type": }\n  ]\n}\n', async (path) => {
    await assert.rejects(loadWorkflowFile(path), (err: unknown) => {
      assert.ok(err instanceof PflowError);
      assert.equal(err.code, "parse");
      assert.equal(err.details.line, 3);
      assert.equal(err.details.column, 26);
      assert.match(err.message, /line 3, column 26/);
      return true;
    });
  });
});

Deno.test("JSON that does not fit the IR schema is a validation error naming the field", async () => {
  await withJsonFile('{"nodes": [{"id": "a", "type": 5}]}', async (path) => {
    await assert.rejects(loadWorkflowFile(path), (err: unknown) => {
      assert.ok(err instanceof PflowError);
      assert.equal(err.code, "validation");
      assert.equal(err.details.field, "nodes[0].type");
      assert.match(err.message, /nodes\[0\]\.type/);
      assert.ok(err.message.includes(path));
      return true;
    });
  });
});

Deno.test("parsing YAML leaves process.env as it was: writes still reach the environment", () => {
  parseMarkdownWorkflow(
    "# T\n\nx\n\n## Steps\n\n### a\n\nDo.\n\n- type: echo\n- message: [1, {a: 2}]\n",
  );
  process.env.PFLOW_TEST_ENV_PROBE = "1";
  try {
    assert.equal(Deno.env.get("PFLOW_TEST_ENV_PROBE"), "1");
  } finally {
    Deno.env.delete("PFLOW_TEST_ENV_PROBE");
  }
});
