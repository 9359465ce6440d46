/** Specification of `${...}` templates: tokenizing, path lookup, type-keeping and interpolation. */

import assert from "node:assert/strict";
import {
  findRefs,
  isSingleRef,
  lookupPath,
  parseRef,
  resolveString,
  resolveTemplates,
  stringifyForText,
  TemplateError,
  tokenize,
} from "../src/core/template.ts";
import { PflowError } from "../src/core/errors.ts";

const context: Record<string, unknown> = {
  input: "hello",
  s: "hi",
  "fetch-data": { result: "ok", status_code: 200 },
  node: { a: { b: [{ c: "deep" }, { c: "second" }] } },
  n: {
    stdout: '{"items":[1,{"name":"x"}],"flag":true}',
    text: "plain text",
    obj: { k: 1, list: [1, "two"] },
    arr: [1, 2, 3],
    num: 42,
    float: 1.5,
    yes: true,
    no: false,
    nothing: null,
    str: "a string",
    empty: "",
  },
};

// ---------- parseRef ----------

const parseCases: [string, { root: string; path: (string | number)[] } | undefined][] = [
  ["input", { root: "input", path: [] }],
  ["node.key", { root: "node", path: ["key"] }],
  ["node.a.b[0].c", { root: "node", path: ["a", "b", 0, "c"] }],
  ["fetch-data.result", { root: "fetch-data", path: ["result"] }],
  ["my_node.out-put", { root: "my_node", path: ["out-put"] }],
  ["_private", { root: "_private", path: [] }],
  ["list[0][12]", { root: "list", path: [0, 12] }],
  ["", undefined],
  [" ", undefined],
  ["a..b", undefined],
  ["a.", undefined],
  [".a", undefined],
  ["1abc", undefined],
  ["-a", undefined],
  ["a b", undefined],
  ["a[]", undefined],
  ["a[-1]", undefined],
  ["a[01]", undefined],
  ["a[x]", undefined],
  [" input ", undefined],
];

for (const [raw, expected] of parseCases) {
  Deno.test(`parseRef ${JSON.stringify(raw)} → ${expected ? "ref" : "invalid"}`, () => {
    const ref = parseRef(raw);
    if (expected === undefined) {
      assert.equal(ref, undefined);
    } else {
      assert.deepEqual(ref, { raw, ...expected });
    }
  });
}

// ---------- tokenize ----------

type P = { text: string } | { ref: string };
const tokenCases: [string, P[]][] = [
  ["plain", [{ text: "plain" }]],
  ["", []],
  ["${input}", [{ ref: "input" }]],
  ["a ${x} b ${y.z}", [{ text: "a " }, { ref: "x" }, { text: " b " }, { ref: "y.z" }]],
  ["${a}${b}", [{ ref: "a" }, { ref: "b" }]],
  ["$${s} ${s}", [{ text: "${s} " }, { ref: "s" }]],
  ["$${ }", [{ text: "${ }" }]],
  ["${ }", [{ text: "${ }" }]],
  ["${a..b}", [{ text: "${a..b}" }]],
  ["unclosed ${abc", [{ text: "unclosed ${abc" }]],
  ["${${a}}", [{ text: "${" }, { ref: "a" }, { text: "}" }]],
  ["cost $5 and $$ pid", [{ text: "cost $5 and $$ pid" }]],
  ["echo $HOME", [{ text: "echo $HOME" }]],
  ["${1}", [{ text: "${1}" }]],
  ["${HOME}", [{ ref: "HOME" }]],
];

function simplify(parts: ReturnType<typeof tokenize>): P[] {
  return parts.map((p) => p.kind === "text" ? { text: p.text } : { ref: p.ref.raw });
}

for (const [input, expected] of tokenCases) {
  Deno.test(`tokenize ${JSON.stringify(input)}`, () => {
    assert.deepEqual(simplify(tokenize(input)), expected);
  });
}

Deno.test("tokenize returns the cached parts for the same string", () => {
  const s = "cache check ${node.a.b[0].c} " + crypto.randomUUID();
  const first = tokenize(s);
  assert.equal(tokenize(s), first);
});

Deno.test("tokenize's cached parts are frozen so callers cannot corrupt the cache", () => {
  const parts = tokenize("frozen ${x.y}");
  assert.ok(Object.isFrozen(parts));
  const ref = parts[1];
  assert.equal(ref.kind, "ref");
  if (ref.kind === "ref") assert.ok(Object.isFrozen(ref.ref.path));
});

// ---------- isSingleRef / findRefs ----------

const singleCases: [string, string | undefined][] = [
  ["${node.a}", "node.a"],
  [" ${node.a}", undefined],
  ["${node.a} ", undefined],
  ["${a}${b}", undefined],
  ["$${a}", undefined],
  ["text", undefined],
];

for (const [s, raw] of singleCases) {
  Deno.test(`isSingleRef ${JSON.stringify(s)} → ${raw ?? "no"}`, () => {
    assert.equal(isSingleRef(s)?.raw, raw);
  });
}

Deno.test("findRefs finds every ref in every string, deep through objects and arrays", () => {
  const params = {
    url: "https://x/${input}",
    headers: { auth: "Bearer ${secrets.token}", n: 3 },
    list: ["${a}", ["${b[0]} and ${c.d}"], null, true],
    escaped: "$${not.a.ref}",
  };
  assert.deepEqual(findRefs(params).map((r) => r.raw), [
    "input",
    "secrets.token",
    "a",
    "b[0]",
    "c.d",
  ]);
});

Deno.test("findRefs of a non-string scalar is empty", () => {
  assert.deepEqual(findRefs(42), []);
  assert.deepEqual(findRefs(null), []);
});

// ---------- type preservation ----------

const singleTypeCases: [string, unknown][] = [
  ["${n.obj}", { k: 1, list: [1, "two"] }],
  ["${n.arr}", [1, 2, 3]],
  ["${n.num}", 42],
  ["${n.float}", 1.5],
  ["${n.yes}", true],
  ["${n.no}", false],
  ["${n.nothing}", null],
  ["${n.str}", "a string"],
  ["${n.empty}", ""],
];

for (const [template, expected] of singleTypeCases) {
  Deno.test(`a param that is exactly ${template} keeps the value's type`, () => {
    assert.deepEqual(resolveString(template, context), expected);
  });
}

Deno.test("a single ref returns the very value, not a copy", () => {
  assert.equal(resolveString("${n.obj}", context), (context.n as { obj: unknown }).obj);
});

// ---------- interpolation ----------

const textCases: [string, string][] = [
  ["s=${n.str}", "s=a string"],
  ["o=${n.obj}", 'o={"k":1,"list":[1,"two"]}'],
  ["a=${n.arr}", "a=[1,2,3]"],
  ["i=${n.num} f=${n.float}", "i=42 f=1.5"],
  ["${n.yes}/${n.no}", "true/false"],
  ["x=${n.nothing}", "x=null"],
  ["[${n.empty}]", "[]"],
  ["${input}, ${input}!", "hello, hello!"],
  ["$${s} ${s}", "${s} hi"],
  ["just text", "just text"],
  ["$${HOME}", "${HOME}"],
  ["keep ${ } and ${a..b}", "keep ${ } and ${a..b}"],
];

for (const [template, expected] of textCases) {
  Deno.test(`interpolates ${JSON.stringify(template)} → ${JSON.stringify(expected)}`, () => {
    assert.equal(resolveString(template, context), expected);
  });
}

Deno.test("an interpolated value containing ${...} is not resolved again", () => {
  assert.equal(resolveString("v=${x}", { x: "${y}", y: "no" }), "v=${y}");
  assert.equal(resolveString("${x}", { x: "${y}", y: "no" }), "${y}");
});

const stringifyCases: [unknown, string][] = [
  ["s", "s"],
  [{ a: [1, { b: null }] }, '{"a":[1,{"b":null}]}'],
  [[], "[]"],
  [true, "true"],
  [false, "false"],
  [0, "0"],
  [-2.5, "-2.5"],
  [1e21, "1e+21"],
  [null, "null"],
];

for (const [value, expected] of stringifyCases) {
  Deno.test(`stringifyForText ${JSON.stringify(value)} → ${expected}`, () => {
    assert.equal(stringifyForText(value), expected);
  });
}

// ---------- paths, indices, JSON strings, hyphens ----------

const pathCases: [string, unknown][] = [
  ["${node.a.b[0].c}", "deep"],
  ["${node.a.b[1].c}", "second"],
  ["${n.arr[2]}", 3],
  ["${n.obj.list[1]}", "two"],
  ["${fetch-data.result}", "ok"],
  ["${fetch-data.status_code}", 200],
  ["${n.stdout.items[0]}", 1],
  ["${n.stdout.items[1].name}", "x"],
  ["${n.stdout.flag}", true],
  ["${n.stdout}", '{"items":[1,{"name":"x"}],"flag":true}'],
];

for (const [template, expected] of pathCases) {
  Deno.test(`resolves path ${template}`, () => {
    assert.deepEqual(resolveString(template, context), expected);
  });
}

Deno.test("a JSON string at the end of a path stays a string", () => {
  assert.equal(typeof resolveString("${n.stdout}", context), "string");
});

Deno.test("a JSON string at the root is parsed when the path walks into it", () => {
  assert.equal(resolveString("${raw.a[1]}", { raw: '{"a":[0,7]}' }), 7);
});

Deno.test("lookupPath reports the failing path and the keys available there", () => {
  assert.deepEqual(lookupPath({ a: { b: 1, c: 2 } }, ["a", "x"]), {
    found: false,
    at: "a.x",
    available: ["b", "c"],
  });
});

Deno.test("lookupPath reports array indices as available on an out-of-range index", () => {
  assert.deepEqual(lookupPath({ a: [5, 6] }, ["a", 2]), {
    found: false,
    at: "a[2]",
    available: ["[0]", "[1]"],
  });
});

Deno.test("lookupPath with an empty path returns the root", () => {
  assert.deepEqual(lookupPath(7, []), { found: true, value: 7 });
});

Deno.test("lookupPath does not reach into the prototype", () => {
  assert.equal(lookupPath({}, ["constructor"]).found, false);
  assert.equal(lookupPath({ a: 1 }, ["toString"]).found, false);
});

Deno.test("lookupPath cannot walk into plain (non-JSON) text", () => {
  assert.deepEqual(lookupPath({ t: "plain" }, ["t", "x"]), {
    found: false,
    at: "t.x",
    available: [],
  });
});

// ---------- deep resolution ----------

Deno.test("resolveTemplates resolves strings deep in nested objects and arrays", () => {
  const params = {
    url: "https://api/${fetch-data.result}",
    body: { items: "${n.arr}", meta: { greeting: "${input} world", tags: ["${s}", 1] } },
    count: 3,
    on: true,
    none: null,
  };
  assert.deepEqual(resolveTemplates(params, context), {
    url: "https://api/ok",
    body: { items: [1, 2, 3], meta: { greeting: "hello world", tags: ["hi", 1] } },
    count: 3,
    on: true,
    none: null,
  });
});

Deno.test("resolveTemplates does not mutate its input", () => {
  const params = { a: "${s}", nested: { list: ["${input}"] } };
  const before = structuredClone(params);
  resolveTemplates(params, context);
  assert.deepEqual(params, before);
});

Deno.test("resolveTemplates passes non-strings through unchanged", () => {
  const bytes = new Uint8Array([1, 2]);
  for (const v of [1, true, null, undefined, bytes]) {
    assert.equal(resolveTemplates(v, context), v);
  }
});

// ---------- errors ----------

function catchTemplateError(fn: () => unknown): TemplateError {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof TemplateError, `expected TemplateError, got ${err}`);
    return err;
  }
  assert.fail("expected a TemplateError");
}

Deno.test("an unknown root throws TemplateError with code template_error", () => {
  const err = catchTemplateError(() => resolveString("${missing}", context));
  assert.ok(err instanceof PflowError);
  assert.equal(err.code, "template_error");
  assert.equal(err.name, "TemplateError");
});

const errorCases: {
  name: string;
  template: string;
  variable: string;
  available: string[];
  mentions: string[];
  didYouMean?: string;
}[] = [
  {
    name: "unknown root lists the context keys and suggests the closest",
    template: "${fetch-dta.result}",
    variable: "${fetch-dta.result}",
    available: Object.keys(context),
    mentions: ["'fetch-dta'", "input", "fetch-data"],
    didYouMean: "fetch-data",
  },
  {
    name: "missing key lists the keys of the object where lookup failed",
    template: "url: ${fetch-data.reslt}",
    variable: "${fetch-data.reslt}",
    available: ["result", "status_code"],
    mentions: ["'fetch-data'", "'reslt'", "result, status_code"],
    didYouMean: "result",
  },
  {
    name: "missing nested key names the parent path",
    template: "${node.a.b[0].d}",
    variable: "${node.a.b[0].d}",
    available: ["c"],
    mentions: ["'node.a.b[0]'", "'d'"],
    didYouMean: "c",
  },
  {
    name: "index out of range lists the indices",
    template: "${node.a.b[5]}",
    variable: "${node.a.b[5]}",
    available: ["[0]", "[1]"],
    mentions: ["'node.a.b'", "[5]", "2 item(s)"],
  },
  {
    name: "missing key inside a JSON string lists the parsed keys",
    template: "${n.stdout.itms}",
    variable: "${n.stdout.itms}",
    available: ["items", "flag"],
    mentions: ["'n.stdout'", "'itms'"],
    didYouMean: "items",
  },
  {
    name: "walking into non-JSON text says so",
    template: "${n.text.x}",
    variable: "${n.text.x}",
    available: [],
    mentions: ["'n.text'", "not JSON"],
  },
  {
    name: "walking into a number says so",
    template: "${n.num.x}",
    variable: "${n.num.x}",
    available: [],
    mentions: ["'n.num'", "a number"],
  },
];

for (const c of errorCases) {
  Deno.test(`error: ${c.name}`, () => {
    const err = catchTemplateError(() => resolveString(c.template, context));
    assert.equal(err.variable, c.variable);
    assert.deepEqual(err.available, c.available);
    assert.ok(err.message.includes(c.variable), err.message);
    for (const m of c.mentions) assert.ok(err.message.includes(m), `${m} in: ${err.message}`);
    if (c.didYouMean) {
      assert.ok(err.message.includes(`Did you mean '${c.didYouMean}'?`), err.message);
      assert.ok(err.suggestion?.includes(c.didYouMean));
    } else {
      assert.ok(!err.message.includes("Did you mean"), err.message);
    }
  });
}

Deno.test("resolveTemplates throws on the first unresolved ref deep inside params", () => {
  const err = catchTemplateError(() => resolveTemplates({ a: { b: ["${nope}"] } }, context));
  assert.equal(err.variable, "${nope}");
});

Deno.test("an escaped $${x} never throws even when x is unknown", () => {
  assert.equal(resolveString("$${unknown.thing}", {}), "${unknown.thing}");
});
