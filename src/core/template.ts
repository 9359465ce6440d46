/**
 * `${...}` templates: the one tokenizer and the one resolver that the validator and the executor
 * share. A ref is `${root}` or `${root.key[0].key}`; a param that is exactly one ref keeps the
 * value's type, refs inside text are interpolated, and `$${x}` is the literal text `${x}`.
 *
 * Syntax choices, decided here once:
 * - root: a letter or `_`, then letters, digits, `_` or `-` (so `${fetch-data.result}` works);
 *   keys after `.`: letters, digits, `_` or `-`; indices: `[N]` with N a non-negative integer.
 *   No spaces anywhere inside the braces.
 * - A `${` whose inside is not a valid path (`${ }`, `${a..b}`, `${1}`, an unclosed `${abc`) is
 *   left as literal text rather than rejected, so most shell and JS snippets pass through. Note
 *   `${HOME}` IS a valid ref; the validator reports it as unknown, and shell users write `$HOME`
 *   or `$${HOME}`.
 * - `$${` always becomes the literal `${` and starts no ref, whatever follows.
 */

import { PflowError } from "./errors.ts";
import { closestMatches } from "./suggest.ts";

export type PathSegment = string | number;

export interface TemplateRef {
  /** The text inside the braces, e.g. `node.a.b[0]`. */
  raw: string;
  /** The first name: a workflow input or a node id. */
  root: string;
  /** Everything after the root: keys as strings, `[N]` indices as numbers. */
  path: PathSegment[];
}

export type TemplatePart = { kind: "text"; text: string } | { kind: "ref"; ref: TemplateRef };

/** An unresolved `${...}`: names the variable and what was available where the lookup failed. */
export class TemplateError extends PflowError {
  readonly variable: string;
  readonly available: string[];

  constructor(
    variable: string,
    available: string[],
    message: string,
    opts: { suggestion?: string; details?: Record<string, unknown> } = {},
  ) {
    super("template_error", message, {
      suggestion: opts.suggestion,
      details: { variable, available, ...opts.details },
    });
    this.name = "TemplateError";
    this.variable = variable;
    this.available = available;
  }
}

const ROOT = /^[A-Za-z_][A-Za-z0-9_-]*/;
const KEY = /^[A-Za-z0-9_-]+/;
const INDEX = /^\[(0|[1-9][0-9]*)\]/;

/** The ref for the inside of `${...}`, or undefined when it is not a valid path. */
export function parseRef(raw: string): TemplateRef | undefined {
  const rootMatch = ROOT.exec(raw);
  if (!rootMatch) return undefined;
  const root = rootMatch[0];
  const path: PathSegment[] = [];
  let rest = raw.slice(root.length);
  while (rest.length > 0) {
    if (rest[0] === ".") {
      const key = KEY.exec(rest.slice(1));
      if (!key) return undefined;
      path.push(key[0]);
      rest = rest.slice(1 + key[0].length);
    } else {
      const index = INDEX.exec(rest);
      if (!index) return undefined;
      const n = Number(index[1]);
      if (!Number.isSafeInteger(n)) return undefined;
      path.push(n);
      rest = rest.slice(index[0].length);
    }
  }
  return { raw, root, path };
}

// The executor tokenizes every param string of every node on every run; workflows hold few
// distinct strings, so a small cache turns that into one parse per string. Bounded so a
// long-lived server fed many workflows cannot grow without limit (oldest entry goes first).
const CACHE_LIMIT = 2000;
const tokenCache = new Map<string, TemplatePart[]>();

/**
 * Splits a string into literal text and refs. Adjacent text is merged; `$${` yields `${`.
 * The returned parts are cached and frozen: the same string gives the same array.
 */
export function tokenize(s: string): TemplatePart[] {
  const cached = tokenCache.get(s);
  if (cached) return cached;
  const parts = freezeParts(scan(s));
  if (tokenCache.size >= CACHE_LIMIT) {
    const oldest = tokenCache.keys().next().value;
    if (oldest !== undefined) tokenCache.delete(oldest);
  }
  tokenCache.set(s, parts);
  return parts;
}

function scan(s: string): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let text = "";
  let i = 0;
  while (i < s.length) {
    const dollar = s.indexOf("$", i);
    if (dollar === -1) {
      text += s.slice(i);
      break;
    }
    text += s.slice(i, dollar);
    if (s.startsWith("$${", dollar)) {
      text += "${";
      i = dollar + 3;
      continue;
    }
    if (s.startsWith("${", dollar)) {
      const close = s.indexOf("}", dollar + 2);
      const ref = close === -1 ? undefined : parseRef(s.slice(dollar + 2, close));
      if (ref) {
        if (text) parts.push({ kind: "text", text });
        text = "";
        parts.push({ kind: "ref", ref });
        i = close + 1;
        continue;
      }
      // Not a ref: keep `${` as text and rescan what follows, so `${${a}}` still finds `${a}`.
      text += "${";
      i = dollar + 2;
      continue;
    }
    text += "$";
    i = dollar + 1;
  }
  if (text) parts.push({ kind: "text", text });
  return parts;
}

function freezeParts(parts: TemplatePart[]): TemplatePart[] {
  for (const part of parts) {
    if (part.kind === "ref") {
      Object.freeze(part.ref.path);
      Object.freeze(part.ref);
    }
    Object.freeze(part);
  }
  return Object.freeze(parts) as TemplatePart[];
}

/** The ref when the whole string is exactly one `${...}`, else undefined. */
export function isSingleRef(s: string): TemplateRef | undefined {
  const parts = tokenize(s);
  return parts.length === 1 && parts[0].kind === "ref" ? parts[0].ref : undefined;
}

/** Every ref in every string of `value`, searched deep through arrays and plain objects. */
export function findRefs(value: unknown): TemplateRef[] {
  const refs: TemplateRef[] = [];
  const visit = (v: unknown): void => {
    if (typeof v === "string") {
      for (const part of tokenize(v)) if (part.kind === "ref") refs.push(part.ref);
    } else if (Array.isArray(v)) {
      v.forEach(visit);
    } else if (isPlainObject(v)) {
      Object.values(v).forEach(visit);
    }
  };
  visit(value);
  return refs;
}

/** `a.b[0]` for a path; segments after the root, no leading dot. */
function formatPath(path: readonly PathSegment[]): string {
  let out = "";
  for (const seg of path) {
    out += typeof seg === "number" ? `[${seg}]` : out ? `.${seg}` : seg;
  }
  return out;
}

type Miss = {
  found: false;
  /** The path (after the root) up to and including the segment that was not found. */
  at: string;
  /** Keys (or `[i]` indices) of the value where the lookup failed. */
  available: string[];
  /** Why, for the error message: what the parent was. */
  reason: string;
  /** The failing segment. */
  segment: PathSegment;
  /** The path of the parent (after the root). */
  parent: string;
};

// Arrays can be long; listing a few indices says enough about their shape.
const MAX_LISTED_INDICES = 10;

function indicesOf(arr: readonly unknown[]): string[] {
  const n = Math.min(arr.length, MAX_LISTED_INDICES);
  return Array.from({ length: n }, (_, i) => `[${i}]`);
}

function walk(root: unknown, path: readonly PathSegment[]): { found: true; value: unknown } | Miss {
  let current = root;
  for (let i = 0; i < path.length; i++) {
    const seg = path[i];
    const parent = formatPath(path.slice(0, i));
    const miss = (available: string[], reason: string): Miss => ({
      found: false,
      at: formatPath(path.slice(0, i + 1)),
      available,
      reason,
      segment: seg,
      parent,
    });
    // A node's output is often JSON text (a shell's stdout, an HTTP body); walking into it
    // means the author wants the parsed structure.
    if (typeof current === "string") {
      try {
        current = JSON.parse(current);
      } catch {
        return miss([], "is a string that is not JSON");
      }
    }
    if (Array.isArray(current)) {
      const index = typeof seg === "number"
        ? seg
        : /^(0|[1-9][0-9]*)$/.test(seg)
        ? Number(seg)
        : -1;
      if (index < 0) return miss(indicesOf(current), `is an array (use an index like [0])`);
      if (index >= current.length || current[index] === undefined) {
        return miss(indicesOf(current), `has ${current.length} item(s), no index [${index}]`);
      }
      current = current[index];
    } else if (current !== null && typeof current === "object") {
      const obj = current as Record<string, unknown>;
      const key = String(seg);
      // Own properties only: `${n.constructor}` must not reach into the prototype.
      if (!Object.hasOwn(obj, key) || obj[key] === undefined) {
        return miss(Object.keys(obj), `has no key '${key}'`);
      }
      current = obj[key];
    } else {
      return miss([], `is ${describe(current)}, not an object or array`);
    }
  }
  return { found: true, value: current };
}

function describe(v: unknown): string {
  if (v === null) return "null";
  if (v === undefined) return "undefined";
  return `a ${typeof v}`;
}

/**
 * Follows `path` from `root`. A string met with path still to walk is parsed as JSON first.
 * On a miss, `at` is the path (after the root) up to the segment not found, e.g. `a.b[3]`, and
 * `available` lists the keys (or `[i]` indices) of the value where the lookup failed.
 */
export function lookupPath(
  root: unknown,
  path: PathSegment[],
): { found: true; value: unknown } | { found: false; at: string; available: string[] } {
  const result = walk(root, path);
  return result.found ? result : { found: false, at: result.at, available: result.available };
}

/** How a value reads inside text: strings as-is, everything else as compact JSON. */
export function stringifyForText(v: unknown): string {
  if (typeof v === "string") return v;
  if (v === undefined) return "";
  if (typeof v === "number" || typeof v === "bigint" || typeof v === "boolean") return String(v);
  if (v === null) return "null";
  return JSON.stringify(v) ?? String(v);
}

function resolveRef(ref: TemplateRef, context: Record<string, unknown>): unknown {
  const variable = "${" + ref.raw + "}";
  if (!Object.hasOwn(context, ref.root) || context[ref.root] === undefined) {
    const available = Object.keys(context);
    unresolved(variable, available, ref.root, `'${ref.root}' is not a workflow input or a node`);
  }
  const result = walk(context[ref.root], ref.path);
  if (result.found) return result.value;
  const missing = typeof result.segment === "number" ? `[${result.segment}]` : result.segment;
  const parent = ref.root + (result.parent && !result.parent.startsWith("[") ? "." : "") +
    result.parent;
  unresolved(variable, result.available, missing, `'${parent}' ${result.reason}`);
}

function unresolved(
  variable: string,
  available: string[],
  missing: string,
  why: string,
): never {
  const listed = available.length ? available.join(", ") : "(nothing)";
  // Suggesting `[0]` for `[5]` helps nobody; "did you mean" is for misspelt names.
  const [best] = missing.startsWith("[") ? [] : closestMatches(missing, available, 1);
  let message = `Unresolved template ${variable}: ${why}. Available: ${listed}.`;
  if (best !== undefined) message += ` Did you mean '${best}'?`;
  throw new TemplateError(variable, available, message, {
    suggestion: best !== undefined
      ? `Replace '${missing}' with '${best}'`
      : "Refer to one of the available names, or write $${...} for a literal ${...}",
  });
}

/**
 * Resolves one string: exactly one `${...}` returns the value itself (any JSON type);
 * otherwise refs are interpolated into the text. Throws TemplateError when a ref is unresolved.
 */
export function resolveString(s: string, context: Record<string, unknown>): unknown {
  const parts = tokenize(s);
  if (parts.length === 1 && parts[0].kind === "ref") return resolveRef(parts[0].ref, context);
  let out = "";
  for (const part of parts) {
    out += part.kind === "text" ? part.text : stringifyForText(resolveRef(part.ref, context));
  }
  return out;
}

/**
 * Resolves every string deep inside arrays and plain objects, returning new containers; other
 * values pass through unchanged and the input is never mutated. Throws TemplateError.
 */
export function resolveTemplates(value: unknown, context: Record<string, unknown>): unknown {
  if (typeof value === "string") return resolveString(value, context);
  if (Array.isArray(value)) return value.map((v) => resolveTemplates(v, context));
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = resolveTemplates(v, context);
    return out;
  }
  return value;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== "object") return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}
