/**
 * YAML as the `.pflow.md` parser reads it: the Python pflow uses PyYAML (YAML 1.1) for
 * multi-line items, flow collections, `yaml` code blocks and frontmatter, and its own scalar
 * rules for single-line `- key: value` items. Both are reproduced here so a file written for
 * the Python pflow yields the same values.
 */
import process from "node:process";
import { parse as parseYaml, type ScalarTag, type Tags, YAMLParseError } from "yaml";

/** A YAML fragment that failed to parse, with the 1-based line inside the fragment. */
export class YamlFragmentError extends Error {
  constructor(message: string, readonly fragmentLine: number) {
    super(message);
    this.name = "YamlFragmentError";
  }
}

const TIMESTAMP_TAG = "tag:yaml.org,2002:timestamp";
const BOOL_TAG = "tag:yaml.org,2002:bool";

/** PyYAML's booleans: YAML 1.1 without `y`/`n` (so `N: 5` in an env map keeps its key). */
function boolTag(value: boolean, test: RegExp): ScalarTag {
  return {
    tag: BOOL_TAG,
    default: true,
    identify: (v) => v === value,
    test,
    resolve: () => value,
    stringify: () => String(value),
  };
}
const PYYAML_BOOLS = [
  boolTag(true, /^(?:[Yy]es|YES|[Tt]rue|TRUE|[Oo]n|ON)$/),
  boolTag(false, /^(?:[Nn]o|NO|[Ff]alse|FALSE|[Oo]ff|OFF)$/),
];

/**
 * PyYAML-compatible options. Timestamps stay strings because the IR is JSON (a Date would not
 * survive a trace or a response); duplicate keys keep the last value as PyYAML does.
 */
const YAML_OPTIONS = {
  version: "1.1" as const,
  uniqueKeys: false,
  logLevel: "error" as const,
  customTags: (tags: Tags) => [
    ...PYYAML_BOOLS,
    ...tags.filter((t) => typeof t === "string" || (t.tag !== TIMESTAMP_TAG && t.tag !== BOOL_TAG)),
  ],
};

/**
 * `process.env` as the yaml package may read it: the parser looks up its debug switches
 * (`LOG_TOKENS`, `LOG_STREAM`) on every token, and under a scoped `--allow-env` Deno throws for a
 * variable not granted. Unreadable variables read as unset, which is what they are to pflow.
 */
const QUIET_ENV = new Proxy({} as Record<string, string | undefined>, {
  get: (_target, key) => typeof key === "string" ? readEnv(key) : undefined,
  has: (_target, key) => typeof key === "string" && readEnv(key) !== undefined,
});

function readEnv(name: string): string | undefined {
  try {
    return Deno.env.get(name);
  } catch {
    return undefined;
  }
}

/** Runs a synchronous parse with QUIET_ENV as process.env, restoring the real one after. */
function withQuietEnv<T>(parse: () => T): T {
  const descriptor = Object.getOwnPropertyDescriptor(process, "env");
  Object.defineProperty(process, "env", { value: QUIET_ENV, configurable: true, writable: true });
  try {
    return parse();
  } finally {
    if (descriptor) Object.defineProperty(process, "env", descriptor);
    else delete (process as { env?: unknown }).env;
  }
}

/** Parses a YAML fragment; throws YamlFragmentError naming the line inside the fragment. */
export function parseYamlFragment(text: string): unknown {
  try {
    return withQuietEnv(() => parseYaml(text, YAML_OPTIONS));
  } catch (err) {
    if (err instanceof YAMLParseError) {
      const firstLine = err.message.split("\n")[0].replace(/ at line \d+, column \d+:?$/, "");
      throw new YamlFragmentError(firstLine, err.linePos?.[0].line ?? 1);
    }
    throw err;
  }
}

/** The options, for callers that stringify YAML the parser must read back unchanged. */
export const YAML_STRINGIFY_OPTIONS = {
  version: "1.1" as const,
  customTags: YAML_OPTIONS.customTags,
  lineWidth: 0,
};

const NULLS = new Set(["null", "Null", "NULL", "~"]);
const TRUES = new Set(["true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON"]);
const FALSES = new Set(["false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF"]);
const INT_RE = /^[+-]?\d+$/;
// Floats need a dot: "1e5" stays a string, as in the Python pflow.
const FLOAT_RE = /^[+-]?(\d+\.\d*|\.\d+)([eE][+-]?\d+)?$/;
const DOUBLE_QUOTE_ESCAPES: Record<string, string> = {
  "\\": "\\",
  '"': '"',
  n: "\n",
  t: "\t",
  r: "\r",
  "0": "\0",
  "/": "/",
  " ": " ",
};

/** Thrown for a value that opens a quote and never closes it. */
export class UnterminatedQuoteError extends Error {}

/**
 * The value of a single-line `- key: value` item. Not structural YAML on purpose: `: ` and `#`
 * inside a value stay text (`- command: echo a: b # not a comment`), which is what authors mean.
 */
export function coerceScalar(value: string): unknown {
  if (value === "") return null;
  const first = value[0];
  const last = value[value.length - 1];
  if (value.length >= 2 && first === '"' && last === '"') return unescapeDouble(value.slice(1, -1));
  if (value.length >= 2 && first === "'" && last === "'") {
    return value.slice(1, -1).replaceAll("''", "'");
  }
  if (first === '"' || first === "'") {
    const kind = first === '"' ? "double" : "single";
    throw new UnterminatedQuoteError(`Unterminated ${kind}-quoted string: ${value}`);
  }
  if (first === "{" || first === "[") return parseYamlFragment(value);
  if (NULLS.has(value)) return null;
  if (TRUES.has(value)) return true;
  if (FALSES.has(value)) return false;
  if (INT_RE.test(value) || FLOAT_RE.test(value)) return Number(value);
  return value;
}

function unescapeDouble(s: string): string {
  let out = "";
  for (let i = 0; i < s.length; i++) {
    const next = s[i + 1];
    if (s[i] === "\\" && next !== undefined && next in DOUBLE_QUOTE_ESCAPES) {
      out += DOUBLE_QUOTE_ESCAPES[next];
      i++;
    } else {
      out += s[i];
    }
  }
  return out;
}
