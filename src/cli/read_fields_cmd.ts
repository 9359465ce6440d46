/**
 * `pflow read-fields ID PATH… [--json]`: chosen values from a cached single-node run
 * (`pflow registry run`). The id is validated before it touches a path.
 */
import { type Command, printResult, UsageError } from "./io.ts";
import { parseFlags } from "./_flags.ts";
import { formatReadFields, readFieldsService } from "../services/node_runs.ts";

const USAGE = "Usage: pflow read-fields ID PATH… (e.g. node.result.items[0].title)";

export const command: Command = async (args, io) => {
  const f = parseFlags(args, { bools: ["--json"] }, USAGE);
  const [id, ...paths] = f.positional;
  if (!id) throw new UsageError("read-fields needs an execution id", USAGE);
  if (!paths.length) throw new UsageError("read-fields needs at least one PATH", USAGE);
  const r = await readFieldsService(io.home, id, paths);
  printResult(io, f.bools.has("--json"), r, formatReadFields);
  return r.fields.every((x) => x.found) ? 0 : 1;
};
