/**
 * Workflow inputs: `key=value` parsing, coercion to the declared type, defaults, stdin, and the
 * errors a user meets when an input is missing, unknown or of the wrong type.
 */
import assert from "node:assert/strict";
import { PflowError } from "../src/core/errors.ts";
import { InputSchema, type WorkflowInput } from "../src/core/ir.ts";
import { coerceValue, resolveInputs } from "../src/runtime/inputs.ts";
import { parseKeyValueArgs } from "../src/cli/_flags.ts";

const input = (spec: Partial<WorkflowInput> = {}): WorkflowInput => InputSchema.parse(spec);

function thrown(fn: () => unknown): PflowError {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof PflowError, `expected a PflowError, got ${err}`);
    return err;
  }
  assert.fail("expected an error");
}

Deno.test("key=value args split at the first '=' only", () => {
  assert.deepEqual(parseKeyValueArgs(["a=1", "url=http://x?q=1", "empty="]), {
    a: "1",
    url: "http://x?q=1",
    empty: "",
  });
});

Deno.test("an arg without '=' is refused with an example of the right form", () => {
  const err = thrown(() => parseKeyValueArgs(["oops"]));
  assert.equal(err.code, "invalid_params");
  assert.match(err.message, /'oops'/);
  assert.match(err.suggestion ?? "", /name=value/);
});

Deno.test("an arg starting with '=' has no name and is refused", () => {
  assert.equal(thrown(() => parseKeyValueArgs(["=x"])).code, "invalid_params");
});

const coercions: [string, WorkflowInput["type"], unknown][] = [
  ["42", "number", 42],
  [" 2.5 ", "number", 2.5],
  ["-7", "integer", -7],
  ["true", "boolean", true],
  ["YES", "boolean", true],
  ["0", "boolean", false],
  ['{"a":[1]}', "object", { a: [1] }],
  ["[1,2]", "array", [1, 2]],
  ["42", "string", "42"],
  ["[1", "any", "[1"],
];
for (const [raw, type, expected] of coercions) {
  Deno.test(`'${raw}' as ${type} becomes ${JSON.stringify(expected)}`, () => {
    assert.deepEqual(coerceValue("x", raw, type), expected);
  });
}

const refusals: [string, WorkflowInput["type"]][] = [
  ["abc", "number"],
  ["", "number"],
  ["1.5", "integer"],
  ["maybe", "boolean"],
  ["{bad", "object"],
  ["[1]", "object"],
  ['{"a":1}', "array"],
  ["null", "object"],
];
for (const [raw, type] of refusals) {
  Deno.test(`'${raw}' is refused as ${type}, naming the input and the expected type`, () => {
    const err = thrown(() => coerceValue("limit", raw, type));
    assert.equal(err.code, "invalid_params");
    assert.match(err.message, /Input 'limit' should be/);
    assert.equal(err.details.param, "limit");
    assert.equal(err.suggestion, `Pass limit=<${type}>`);
  });
}

Deno.test("a value that is already typed (from an agent's JSON) is kept as it is", () => {
  assert.deepEqual(coerceValue("x", { a: 1 }, "object"), { a: 1 });
  assert.equal(coerceValue("x", 3, "number"), 3);
});

Deno.test("given values win over defaults, and defaults fill the rest", () => {
  const values = resolveInputs(
    { a: input({ type: "number", default: 1 }), b: input({ default: "dflt" }) },
    { a: "5" },
  );
  assert.deepEqual(values, { a: 5, b: "dflt" });
});

Deno.test("an optional input without a default is left out", () => {
  assert.deepEqual(resolveInputs({ maybe: input({ required: false }) }, {}), {});
});

Deno.test("a missing required input is named with its description", () => {
  const err = thrown(() =>
    resolveInputs({ repo: input({ description: "The GitHub repo, owner/name" }) }, {})
  );
  assert.equal(err.code, "invalid_params");
  assert.equal(err.message, "Missing required input 'repo': The GitHub repo, owner/name");
  assert.equal(err.suggestion, "Pass repo=<string>");
});

Deno.test("an unknown input name is refused with did-you-mean", () => {
  const err = thrown(() => resolveInputs({ limit: input({ default: 1 }) }, { limt: "3" }));
  assert.match(err.message, /Unknown input 'limt'/);
  assert.equal(err.suggestion, "Did you mean 'limit'?");
});

Deno.test("any input name is refused by a workflow that takes none", () => {
  const err = thrown(() => resolveInputs({}, { x: "1" }));
  assert.equal(err.suggestion, "This workflow takes no inputs");
});

Deno.test("piped stdin fills the input marked stdin: true, coerced to its type", () => {
  const values = resolveInputs(
    { data: input({ type: "object", stdin: true }), other: input({ default: "o" }) },
    {},
    '{"rows":[1,2]}',
  );
  assert.deepEqual(values, { data: { rows: [1, 2] }, other: "o" });
});

Deno.test("an explicit key=value beats piped stdin for the stdin input", () => {
  const values = resolveInputs({ data: input({ stdin: true }) }, { data: "arg" }, "piped");
  assert.deepEqual(values, { data: "arg" });
});

Deno.test("a required stdin input with nothing piped is reported missing", () => {
  const err = thrown(() =>
    resolveInputs({ data: input({ stdin: true, description: "Text" }) }, {})
  );
  assert.match(err.message, /Missing required input 'data': Text/);
});
