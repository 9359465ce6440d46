/**
 * The CLI's one flag reader: known boolean flags, known value flags (`--name N` or `--name=N`; a
 * flag in both lists takes a value only with `=`, as `--resume[=TRACE]`), everything else
 * positional. An unknown `--flag` is a UsageError that lists the known ones.
 */
import { UsageError } from "./io.ts";

export interface ParsedFlags {
  positional: string[];
  bools: Set<string>;
  values: Map<string, string>;
}

export function parseFlags(
  args: string[],
  spec: { bools?: string[]; values?: string[] },
  usage: string,
): ParsedFlags {
  const bools = new Set(spec.bools ?? []);
  const valued = new Set(spec.values ?? []);
  const out: ParsedFlags = { positional: [], bools: new Set(), values: new Map() };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--") {
      out.positional.push(...args.slice(i + 1));
      break;
    }
    if (!a.startsWith("--")) {
      out.positional.push(a);
      continue;
    }
    const eq = a.indexOf("=");
    const flag = eq > 0 ? a.slice(0, eq) : a;
    if (bools.has(flag) && eq < 0) {
      out.bools.add(flag);
    } else if (valued.has(flag)) {
      const value = eq > 0 ? a.slice(eq + 1) : args[++i];
      if (value === undefined) throw new UsageError(`${flag} needs a value`, usage);
      out.values.set(flag, value);
    } else {
      const known = [...bools, ...[...valued].map((v) => `${v} VALUE`)].join(", ");
      throw new UsageError(
        `Unknown option '${a}'`,
        `${usage}${known ? ` (options: ${known})` : ""}`,
      );
    }
  }
  return out;
}

/** `["a=1", "b=x=y"]` → `{a: "1", b: "x=y"}`; an argument without `=` is a UsageError. */
export function parseKeyValueArgs(args: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const arg of args) {
    const eq = arg.indexOf("=");
    if (eq <= 0) {
      throw new UsageError(
        `Expected key=value, got '${arg}'`,
        "Pass inputs as name=value, e.g. pflow run wf.pflow.md repo=owner/name",
      );
    }
    out[arg.slice(0, eq)] = arg.slice(eq + 1);
  }
  return out;
}
