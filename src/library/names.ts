/**
 * Workflow and draft names: the one gate every entry point passes a name through before it may
 * become a path. Hostile names (separators, `..`, `~`, NUL, percent-encoding, look-alikes) are a
 * SecurityError and are never resolved; merely malformed ones are an `invalid_params` PflowError.
 */
import { PflowError, SecurityError } from "../core/errors.ts";

export const MAX_NAME_LENGTH = 50;
export const RESERVED_NAMES: ReadonlySet<string> = new Set([
  "null",
  "undefined",
  "none",
  "test",
  "settings",
  "registry",
  "workflow",
  "mcp",
]);

const VALID_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const PERCENT_ENCODED = /%[0-9a-fA-F]{2}/;

/** Why `name` is hostile, or undefined when it is merely a name (good or bad). */
function hostileReason(name: string): string | undefined {
  if (CONTROL.test(name)) return "contains a control character";
  if (PERCENT_ENCODED.test(name)) return "contains percent-encoding";
  // NFKC folds look-alikes (fullwidth solidus, one-dot leader…) onto the characters they mimic.
  const folded = name.normalize("NFKC");
  for (const candidate of [name, folded]) {
    if (candidate.includes("/") || candidate.includes("\\")) return "contains a path separator";
    if (candidate.includes("..")) return "contains '..'";
    if (candidate.startsWith("~")) return "starts with '~'";
    if (candidate === ".") return "is '.'";
  }
  if (/[\u2215\u2044\u29f8\u29f9\ufe68\u2216\u2024\u2025\u2026\u00b7]/.test(name)) {
    return "contains a look-alike of a path character";
  }
  return undefined;
}

/**
 * Returns `name` when it is a valid workflow name: lowercase letters, digits and single hyphens,
 * at most 50 characters, not a reserved word.
 * @throws SecurityError for a name that looks like a path (never resolved to one)
 * @throws PflowError `invalid_params` for any other invalid name
 */
export function validateName(name: unknown, what = "workflow name"): string {
  if (typeof name !== "string") {
    throw new PflowError("invalid_params", `The ${what} must be a string`);
  }
  const shown = JSON.stringify(name.length > 60 ? name.slice(0, 60) + "…" : name);
  const hostile = hostileReason(name);
  if (hostile) {
    throw new SecurityError(
      `Refused ${what} ${shown}: it ${hostile}`,
      "Use a plain name: lowercase letters, digits and single hyphens (e.g. 'fetch-issues')",
    );
  }
  if (name.length === 0) {
    throw new PflowError("invalid_params", `The ${what} is empty`, {
      suggestion: "Give a name such as 'fetch-issues'",
    });
  }
  if (name.length > MAX_NAME_LENGTH) {
    throw new PflowError(
      "invalid_params",
      `The ${what} ${shown} is ${name.length} characters long; at most ${MAX_NAME_LENGTH} are allowed`,
      { suggestion: "Choose a shorter name" },
    );
  }
  if (!VALID_NAME.test(name)) {
    const hint = name.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
    throw new PflowError(
      "invalid_params",
      `Invalid ${what} ${shown}: use lowercase letters, digits and single hyphens`,
      {
        suggestion: VALID_NAME.test(hint) && hint.length <= MAX_NAME_LENGTH
          ? `Try '${hint}'`
          : "Use a name such as 'fetch-issues'",
      },
    );
  }
  if (RESERVED_NAMES.has(name)) {
    throw new PflowError("invalid_params", `'${name}' is a reserved word and cannot be a ${what}`, {
      suggestion: `Choose another name, e.g. '${name}-flow'`,
    });
  }
  return name;
}

/** True when `name` passes validateName. */
export function isValidName(name: string): boolean {
  try {
    validateName(name);
    return true;
  } catch {
    return false;
  }
}
