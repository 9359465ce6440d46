/**
 * The validator, one test per kind of issue: each names where it is (node, param and, for
 * markdown, the line) and says how to fix it.
 */
import assert from "node:assert/strict";
import { parseMarkdownWorkflow } from "../src/core/markdown.ts";
import { type ParsedWorkflow, type WorkflowIRInput, WorkflowIRSchema } from "../src/core/ir.ts";
import { type Issue, validateWorkflow, type ValidationReport } from "../src/core/validator.ts";
import { Registry } from "../src/registry/registry.ts";

const registry = new Registry();

/** Lines joined with "\n": a line number in a test is the index + 1. */
const md = (...lines: string[]) => lines.join("\n") + "\n";

const validateMd = (text: string): ValidationReport =>
  validateWorkflow(parseMarkdownWorkflow(text), registry.lookup);

const fromIR = (ir: WorkflowIRInput): ParsedWorkflow => ({
  ir: WorkflowIRSchema.parse(ir),
  metadata: {},
});

const validateIR = (ir: WorkflowIRInput): ValidationReport =>
  validateWorkflow(fromIR(ir), registry.lookup);

/** The one issue with `code`, failing with the whole report when there is not exactly one. */
function only(issues: Issue[], code: string): Issue {
  const found = issues.filter((i) => i.code === code);
  assert.equal(found.length, 1, `expected one '${code}' in ${JSON.stringify(issues, null, 1)}`);
  return found[0];
}

/** A step in markdown: heading, prose, params; `code` is an optional ```shell command block. */
const step = (id: string, type: string, params: string[] = [], code?: string) => [
  `### ${id}`,
  "",
  `Step ${id}.`,
  "",
  `- type: ${type}`,
  ...params,
  "",
  ...(code === undefined ? [] : ["```shell command", code, "```", ""]),
];

Deno.test("a valid workflow has no errors and no warnings", () => {
  const report = validateMd(md(
    "# T",
    "",
    "## Inputs",
    "",
    "### who",
    "",
    "Who to greet.",
    "",
    "- type: string",
    "",
    "## Steps",
    "",
    ...step("greet", "echo", ["- message: hi ${who}"]),
    ...step("shout", "shell", [], "echo ${greet.echo}"),
    "## Outputs",
    "",
    "### text",
    "",
    "What was said.",
    "",
    "- source: ${shout.stdout}",
  ));
  assert.deepEqual(report, { valid: true, errors: [], warnings: [] });
});

Deno.test("duplicate_id: two nodes with one id name the node and ask for unique ids", () => {
  // The markdown parser refuses duplicate headings itself, so this reaches the validator as IR.
  const report = validateIR({
    nodes: [
      { id: "a", type: "echo", params: { message: 1 } },
      { id: "a", type: "echo", params: { message: 2 } },
    ],
  });
  const issue = only(report.errors, "duplicate_id");
  assert.equal(issue.node, "a");
  assert.match(issue.suggestion ?? "", /unique id/);
});

Deno.test("id_conflict: a step named like an input is reported at the step's heading", () => {
  const report = validateMd(md(
    "# T",
    "",
    "## Inputs",
    "",
    "### data",
    "",
    "Some data.",
    "",
    "- type: string",
    "",
    "## Steps",
    "",
    ...step("data", "echo", ["- message: ${data}"]),
  ));
  const issue = only(report.errors, "id_conflict");
  assert.equal(issue.node, "data");
  assert.equal(issue.line, 13);
  assert.match(issue.suggestion ?? "", /Rename/);
});

Deno.test("bad_edge: an edge to a missing node suggests the closest id", () => {
  const report = validateIR({
    nodes: [
      { id: "fetch", type: "echo", params: { message: 1 } },
      { id: "store", type: "echo", params: { message: 2 } },
    ],
    edges: [{ from: "fetch", to: "stor" }],
  });
  const issue = only(report.errors, "bad_edge");
  assert.match(issue.message, /unknown node 'stor'/);
  assert.equal(issue.suggestion, "Did you mean 'store'?");
});

Deno.test("bad_start_node: a start_node that is not a node suggests the closest id", () => {
  const report = validateIR({
    nodes: [{ id: "begin", type: "echo", params: { message: 1 } }],
    start_node: "begn",
  });
  const issue = only(report.errors, "bad_start_node");
  assert.equal(issue.suggestion, "Did you mean 'begin'?");
});

Deno.test("cycle: a step routing back to an earlier one names the loop and its first line", () => {
  const report = validateMd(md(
    "# T",
    "",
    "## Steps",
    "",
    ...step("a", "echo", ["- message: 1"]),
    ...step("b", "echo", ["- message: 2", "- next: a"]),
  ));
  const issue = only(report.errors, "cycle");
  assert.match(issue.message, /a → b → a/);
  assert.equal(issue.node, "a");
  assert.equal(issue.line, 5);
  assert.match(issue.suggestion ?? "", /Remove one of the edges/);
});

Deno.test("unknown_node_type: a misspelt built-in type suggests the real one from the registry", () => {
  const report = validateMd(md("# T", "", "## Steps", "", ...step("a", "shel", ["- command: ls"])));
  const issue = only(report.errors, "unknown_node_type");
  assert.equal(issue.node, "a");
  assert.equal(issue.param, "type");
  assert.equal(issue.line, 9);
  assert.equal(issue.suggestion, "Did you mean 'shell'?");
});

Deno.test("unknown_node_type: an unknown MCP node tells how to add and sync the server", () => {
  const report = validateIR({ nodes: [{ id: "a", type: "mcp-github-create-issue" }] });
  const issue = only(report.errors, "unknown_node_type");
  assert.match(issue.suggestion ?? "", /pflow mcp add/);
  assert.match(issue.suggestion ?? "", /pflow mcp sync/);
});

Deno.test("missing_param: a required param left out names it and its description", () => {
  const report = validateMd(md("# T", "", "## Steps", "", ...step("get", "http")));
  const issue = only(report.errors, "missing_param");
  assert.equal(issue.node, "get");
  assert.equal(issue.param, "url");
  assert.equal(issue.line, 9);
  assert.match(issue.message, /needs param 'url'/);
  assert.match(issue.suggestion ?? "", /- url: /);
});

Deno.test("unknown_param: a misspelt param is a warning with did-you-mean, not an error", () => {
  const report = validateMd(md(
    "# T",
    "",
    "## Steps",
    "",
    ...step("run", "shell", ["- comand: ls", "- command: ls"]),
  ));
  assert.equal(report.valid, true);
  const issue = only(report.warnings, "unknown_param");
  assert.equal(issue.node, "run");
  assert.equal(issue.param, "comand");
  assert.equal(issue.line, 10);
  assert.equal(issue.suggestion, "Did you mean 'command'?");
});

Deno.test("type_mismatch: a literal of the wrong type names the param, its line and the type", () => {
  const report = validateMd(md(
    "# T",
    "",
    "## Steps",
    "",
    ...step("a", "echo", ["- message: x", "- count: many"]),
  ));
  const issue = only(report.errors, "type_mismatch");
  assert.equal(issue.node, "a");
  assert.equal(issue.param, "count");
  assert.equal(issue.line, 11);
  assert.match(issue.message, /should be integer/);
  assert.match(issue.suggestion ?? "", /integer value/);
});

Deno.test("type_mismatch: a value outside an enum lists the allowed values", () => {
  const report = validateIR({
    nodes: [{ id: "a", type: "http", params: { url: "http://x", method: "FETCH" } }],
  });
  const issue = only(report.errors, "type_mismatch");
  assert.equal(issue.param, "method");
  assert.match(issue.suggestion ?? "", /Use one of: .*"GET"/);
});

Deno.test("type_mismatch: a template is not judged before run time", () => {
  const report = validateIR({
    nodes: [
      { id: "a", type: "echo", params: { message: 2 } },
      { id: "b", type: "echo", params: { message: "x", count: "${a.echo}" } },
    ],
    edges: [{ from: "a", to: "b" }],
  });
  assert.deepEqual(report.errors, []);
});

Deno.test("unknown_template_variable: a misspelt input suggests the declared one", () => {
  const report = validateMd(md(
    "# T",
    "",
    "## Inputs",
    "",
    "### name",
    "",
    "Who.",
    "",
    "- type: string",
    "",
    "## Steps",
    "",
    ...step("say", "shell", [], "echo ${nme} ${name}"),
  ));
  const issue = only(report.errors, "unknown_template_variable");
  assert.equal(issue.node, "say");
  assert.equal(issue.param, "command");
  assert.equal(issue.line, 19, "the line of the fence that names the param");
  assert.equal(issue.suggestion, "Did you mean 'name'?");
});

Deno.test("forward_reference: a step reading a later step's output is refused", () => {
  const report = validateMd(md(
    "# T",
    "",
    "## Steps",
    "",
    ...step("first", "echo", ["- message: ${second.echo}"]),
    ...step("second", "echo", ["- message: 2"]),
  ));
  const issue = only(report.errors, "forward_reference");
  assert.equal(issue.node, "first");
  assert.equal(issue.param, "message");
  assert.equal(issue.line, 10);
  assert.match(issue.suggestion ?? "", /earlier/);
});

Deno.test("unknown_output: a misspelt output suggests the declared one and lists them", () => {
  const report = validateMd(md(
    "# T",
    "",
    "## Steps",
    "",
    ...step("run", "shell", ["- command: ls"]),
    ...step("show", "echo", ["- message: ${run.stdot}"]),
  ));
  const issue = only(report.errors, "unknown_output");
  assert.equal(issue.node, "show");
  assert.equal(issue.param, "message");
  assert.equal(issue.line, 17);
  assert.match(issue.suggestion ?? "", /Did you mean 'stdout'\?/);
  assert.match(issue.suggestion ?? "", /Available: stdout, stderr, exit_code/);
});

Deno.test("unknown_output: paths into an `any` output or a JSON string are allowed", () => {
  const report = validateIR({
    nodes: [
      { id: "get", type: "http", params: { url: "http://x" } },
      { id: "run", type: "shell", params: { command: "ls" } },
      {
        id: "use",
        type: "echo",
        params: { message: "${get.response.items[0].name} ${run.stdout.field}" },
      },
    ],
    edges: [{ from: "get", to: "run" }, { from: "run", to: "use" }],
  });
  assert.deepEqual(report.errors, []);
});

Deno.test("unknown_output: a path into a number output is refused", () => {
  const report = validateIR({
    nodes: [
      { id: "run", type: "shell", params: { command: "ls" } },
      { id: "use", type: "echo", params: { message: "${run.exit_code.value}" } },
    ],
    edges: [{ from: "run", to: "use" }],
  });
  const issue = only(report.errors, "unknown_output");
  assert.equal(issue.node, "use");
  assert.match(issue.message, /exit_code/);
  assert.match(issue.suggestion ?? "", /'exit_code' itself/);
});

Deno.test("unknown_output: an index into a string-typed output is allowed, into a number refused", () => {
  const ok = validateIR({
    nodes: [
      { id: "run", type: "shell", params: { command: "ls" } },
      { id: "use", type: "echo", params: { message: "${run.stdout[0]}" } },
    ],
    edges: [{ from: "run", to: "use" }],
  });
  assert.deepEqual(ok.errors, []);
  const bad = validateIR({
    nodes: [
      { id: "run", type: "shell", params: { command: "ls" } },
      { id: "use", type: "echo", params: { message: "${run.exit_code[0]}" } },
    ],
    edges: [{ from: "run", to: "use" }],
  });
  assert.match(only(bad.errors, "unknown_output").suggestion ?? "", /Drop the \[0\]/);
});

Deno.test("an error handler may read the failed step's error output", () => {
  const report = validateIR({
    nodes: [
      { id: "a", type: "shell", params: { command: "false" } },
      { id: "handler", type: "echo", params: { message: "${a.error}" } },
    ],
    edges: [{ from: "a", to: "handler", action: "error" }],
  });
  assert.deepEqual(report.errors, []);
});

Deno.test("unknown_output: with nothing close, the suggestion lists the outputs alone", () => {
  const report = validateIR({
    nodes: [
      { id: "run", type: "shell", params: { command: "ls" } },
      { id: "use", type: "echo", params: { message: "${run.zzzzzzzz}" } },
    ],
    edges: [{ from: "run", to: "use" }],
  });
  assert.match(only(report.errors, "unknown_output").suggestion ?? "", /^Available: stdout, /);
});

Deno.test("unused_input: a declared input no step uses is an error at its heading", () => {
  const report = validateMd(md(
    "# T",
    "",
    "## Inputs",
    "",
    "### extra",
    "",
    "Never used.",
    "",
    "- type: string",
    "",
    "## Steps",
    "",
    ...step("a", "echo", ["- message: 1"]),
  ));
  const issue = only(report.errors, "unused_input");
  assert.equal(issue.line, 5);
  assert.match(issue.message, /'extra'/);
  assert.match(issue.suggestion ?? "", /\$\{extra\}/);
});

Deno.test("unused_input: an input read only by an output, or fed by stdin, is not unused", () => {
  const report = validateIR({
    inputs: { a: { type: "string" }, piped: { type: "string", stdin: true } },
    nodes: [{ id: "n", type: "echo", params: { message: 1 } }],
    outputs: { out: { source: "${a}" } },
  });
  assert.deepEqual(report.errors, []);
});

Deno.test("bad_output_source: a source that is neither a template nor a node id is refused", () => {
  const report = validateMd(md(
    "# T",
    "",
    "## Steps",
    "",
    ...step("a", "echo", ["- message: 1"]),
    "## Outputs",
    "",
    "### out",
    "",
    "The result.",
    "",
    "- source: a.echo",
  ));
  const issue = only(report.errors, "bad_output_source");
  assert.equal(issue.param, "source");
  assert.equal(issue.line, 14, "the output's heading");
  assert.match(issue.suggestion ?? "", /\$\{step\.stdout\}/);
});

Deno.test("an output naming a bare node id is accepted as shorthand", () => {
  const report = validateIR({
    nodes: [{ id: "a", type: "echo", params: { message: 1 } }],
    outputs: { out: { source: "a" } },
  });
  assert.deepEqual(report.errors, []);
});

Deno.test("every issue of a broken workflow is reported at once, not only the first", () => {
  const report = validateMd(md(
    "# T",
    "",
    "## Steps",
    "",
    ...step("a", "shel", ["- command: ls"]),
    ...step("b", "echo", ["- message: ${zz}", "- count: x"]),
  ));
  assert.deepEqual(
    report.errors.map((e) => e.code).sort(),
    ["type_mismatch", "unknown_node_type", "unknown_template_variable"],
  );
});
