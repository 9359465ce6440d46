/**
 * Workflow inputs: `key=value` strings (from the CLI) coerced to the declared type (JSON for objects and
 * arrays), then defaults; piped stdin goes to the input marked `stdin: true`.
 */
import type { ValueType, WorkflowInput } from "../core/ir.ts";
import { PflowError } from "../core/errors.ts";
import { didYouMean } from "../core/suggest.ts";

export function coerceValue(name: string, value: unknown, type: ValueType): unknown {
  if (typeof value !== "string" || type === "string" || type === "any") return value;
  const bad = (what: string) =>
    new PflowError("invalid_params", `Input '${name}' should be ${what}, got '${value}'`, {
      details: { param: name },
      suggestion: `Pass ${name}=<${type}>`,
    });
  switch (type) {
    case "number":
    case "integer": {
      const n = Number(value.trim());
      if (value.trim() === "" || isNaN(n) || (type === "integer" && !Number.isInteger(n))) {
        throw bad(`a${type === "integer" ? "n integer" : " number"}`);
      }
      return n;
    }
    case "boolean":
      if (/^(true|1|yes)$/i.test(value)) return true;
      if (/^(false|0|no)$/i.test(value)) return false;
      throw bad("true or false");
    case "object":
    case "array": {
      let parsed: unknown;
      try {
        parsed = JSON.parse(value);
      } catch {
        throw bad(`JSON ${type}`);
      }
      const isArray = Array.isArray(parsed);
      if ((type === "array") !== isArray || typeof parsed !== "object" || parsed === null) {
        throw bad(`a JSON ${type}`);
      }
      return parsed;
    }
  }
}

/**
 * The input values a run starts with. Unknown names are refused with a "did you mean"; a missing
 * required input is an error naming it and its description.
 */
export function resolveInputs(
  declared: Record<string, WorkflowInput>,
  given: Record<string, unknown>,
  stdin?: string,
): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const name of Object.keys(given)) {
    if (!(name in declared)) {
      const names = Object.keys(declared);
      throw new PflowError("invalid_params", `Unknown input '${name}'`, {
        details: { param: name },
        suggestion: didYouMean(name, names) ??
          (names.length ? `The inputs are: ${names.join(", ")}` : "This workflow takes no inputs"),
      });
    }
  }
  for (const [name, spec] of Object.entries(declared)) {
    if (name in given) values[name] = coerceValue(name, given[name], spec.type);
    else if (spec.stdin && stdin !== undefined) values[name] = coerceValue(name, stdin, spec.type);
    else if (spec.default !== undefined) values[name] = spec.default;
    else if (spec.required) {
      throw new PflowError(
        "invalid_params",
        `Missing required input '${name}'${spec.description ? `: ${spec.description}` : ""}`,
        { details: { param: name }, suggestion: `Pass ${name}=<${spec.type}>` },
      );
    }
  }
  return values;
}
