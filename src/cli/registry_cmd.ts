/**
 * `pflow registry list [keywords] | describe NODE… | search KEYWORDS… | run NODE key=value…`,
 * each with `--json`. Thin: parsing here, everything else in services/registry.ts and
 * services/node_runs.ts.
 */
import { type Command, printResult, UsageError, usageOrUnknown } from "./io.ts";
import { parseFlags, parseKeyValueArgs } from "./_flags.ts";
import {
  describeNodesService,
  formatNodeDescription,
  formatNodeList,
  formatNodeSearch,
  listNodesService,
  searchNodesService,
} from "../services/registry.ts";
import { formatNodeRun, runNodeService } from "../services/node_runs.ts";

const USAGE = "Usage: pflow registry list [KEYWORDS…] | describe NODE… | search KEYWORDS… | " +
  "run NODE [key=value…]";

export const command: Command = async (args, io) => {
  const [sub, ...rest] = args;
  switch (sub) {
    case "list":
    case "ls": {
      const f = parseFlags(rest, { bools: ["--json"] }, "Usage: pflow registry list [KEYWORDS…]");
      const r = await listNodesService(io.home, { keywords: f.positional });
      return printResult(io, f.bools.has("--json"), r, formatNodeList);
    }
    case "describe": {
      const usage = "Usage: pflow registry describe NODE…";
      const f = parseFlags(rest, { bools: ["--json"] }, usage);
      if (!f.positional.length) throw new UsageError("Name at least one node type", usage);
      const r = await describeNodesService(io.home, f.positional);
      return printResult(io, f.bools.has("--json"), r, formatNodeDescription);
    }
    case "search": {
      const usage = "Usage: pflow registry search KEYWORDS…";
      const f = parseFlags(rest, { bools: ["--json"], values: ["--limit"] }, usage);
      if (!f.positional.length) throw new UsageError("Search needs at least one keyword", usage);
      const limitText = f.values.get("--limit");
      const limit = limitText === undefined ? undefined : Number(limitText);
      if (limit !== undefined && !(Number.isInteger(limit) && limit > 0)) {
        throw new UsageError(`--limit must be a positive integer, got '${limitText}'`, usage);
      }
      const r = await searchNodesService(io.home, f.positional, { limit });
      return printResult(io, f.bools.has("--json"), r, formatNodeSearch);
    }
    case "run": {
      const usage = "Usage: pflow registry run NODE [key=value…]";
      const f = parseFlags(rest, { bools: ["--json"] }, usage);
      const [type, ...kv] = f.positional;
      if (!type) throw new UsageError("Name the node type to run", usage);
      const r = await runNodeService(io.home, io.cwd, type, parseKeyValueArgs(kv), {
        signal: io.signal,
        fromText: true,
      });
      printResult(io, f.bools.has("--json"), r, formatNodeRun);
      return r.success ? 0 : 1;
    }
    default:
      return usageOrUnknown(io, "registry", sub, USAGE);
  }
};
