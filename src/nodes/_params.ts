/**
 * Param handling shared by the built-in nodes: defaults from the declared interface, and a
 * light run-time type check (the validator has already checked types it could see statically;
 * this catches values that only became wrong once templates were resolved).
 */
import type { NodeInterface, ParamSpec } from "../core/node_interface.ts";

/** The params with every declared default filled in where the value is absent (or null for a typed param). */
export function withDefaults(
  iface: NodeInterface,
  params: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...params };
  for (const [name, spec] of Object.entries(iface.params)) {
    if (spec.default === undefined) continue;
    const value = out[name];
    if (value === undefined || (value === null && spec.type !== "any")) out[name] = spec.default;
  }
  return out;
}

export type ParamCheck =
  | { ok: true; values: Record<string, unknown> }
  | { ok: false; error: string };

/**
 * Defaults applied, then every declared param checked against its type. Numeric and boolean
 * strings are coerced (a template interpolated into a string yields "30", not 30); anything
 * else of the wrong type is an error naming the node type, the param and what was given.
 */
export function readParams(iface: NodeInterface, params: Record<string, unknown>): ParamCheck {
  const values = withDefaults(iface, params);
  for (const [name, spec] of Object.entries(iface.params)) {
    const value = values[name];
    if (value === undefined || (value === null && spec.type !== "any")) {
      if (spec.required) {
        return {
          ok: false,
          error: `${iface.type}: missing required param '${name}' (${spec.description})`,
        };
      }
      delete values[name];
      continue;
    }
    const coerced = coerce(spec, value);
    if (coerced === INVALID) {
      return {
        ok: false,
        error: `${iface.type}: param '${name}' must be ${article(spec.type)}, got ${
          describe(value)
        }`,
      };
    }
    if (spec.enum && !spec.enum.includes(coerced)) {
      return {
        ok: false,
        error: `${iface.type}: param '${name}' must be one of ${
          spec.enum.map((v) => JSON.stringify(v)).join(", ")
        }, got ${describe(value)}`,
      };
    }
    values[name] = coerced;
  }
  return { ok: true, values };
}

const INVALID = Symbol("invalid");

function coerce(spec: ParamSpec, value: unknown): unknown {
  switch (spec.type) {
    case "any":
      return value;
    case "string":
      return typeof value === "string" ? value : INVALID;
    case "number":
    case "integer": {
      const n = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
      if (typeof n !== "number" || !Number.isFinite(n)) return INVALID;
      return spec.type === "integer" && !Number.isInteger(n) ? INVALID : n;
    }
    case "boolean":
      if (typeof value === "boolean") return value;
      if (value === "true") return true;
      if (value === "false") return false;
      return INVALID;
    case "object":
      return typeof value === "object" && value !== null && !Array.isArray(value) ? value : INVALID;
    case "array":
      return Array.isArray(value) ? value : INVALID;
  }
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function describe(value: unknown): string {
  const kind = value === null ? "null" : Array.isArray(value) ? "array" : typeof value;
  let shown: string;
  try {
    shown = JSON.stringify(value) ?? String(value);
  } catch {
    shown = String(value);
  }
  if (shown.length > 60) shown = `${shown.slice(0, 57)}...`;
  return `${kind} ${shown}`;
}
