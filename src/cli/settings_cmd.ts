/**
 * `pflow settings show | set-env KEY VALUE | unset-env KEY | list-env [--show-values]`, each with
 * `--json`. Values are masked unless --show-values. Thin over services/settings.ts.
 */
import { type Command, printResult, UsageError, usageOrUnknown } from "./io.ts";
import { parseFlags } from "./_flags.ts";
import {
  formatEnvChange,
  formatEnvList,
  formatSettingsShow,
  listEnvService,
  setEnvService,
  showSettingsService,
  unsetEnvService,
} from "../services/settings.ts";

const USAGE =
  "Usage: pflow settings show | set-env KEY VALUE | unset-env KEY | list-env [--show-values]";

export const command: Command = async (args, io) => {
  const [sub, ...rest] = args;
  switch (sub) {
    case "show": {
      const f = parseFlags(rest, { bools: ["--json"] }, "Usage: pflow settings show");
      return printResult(
        io,
        f.bools.has("--json"),
        await showSettingsService(io.home),
        formatSettingsShow,
      );
    }
    case "set-env": {
      const usage = "Usage: pflow settings set-env KEY VALUE";
      const f = parseFlags(rest, { bools: ["--json"] }, usage);
      if (f.positional.length !== 2) throw new UsageError("set-env needs KEY and VALUE", usage);
      const [key, value] = f.positional;
      return printResult(
        io,
        f.bools.has("--json"),
        await setEnvService(io.home, key, value),
        formatEnvChange,
      );
    }
    case "unset-env": {
      const usage = "Usage: pflow settings unset-env KEY";
      const f = parseFlags(rest, { bools: ["--json"] }, usage);
      if (f.positional.length !== 1) throw new UsageError("unset-env needs KEY", usage);
      return printResult(
        io,
        f.bools.has("--json"),
        await unsetEnvService(io.home, f.positional[0]),
        formatEnvChange,
      );
    }
    case "list-env": {
      const usage = "Usage: pflow settings list-env [--show-values]";
      const f = parseFlags(rest, { bools: ["--json", "--show-values"] }, usage);
      if (f.positional.length) {
        throw new UsageError(`Unexpected argument '${f.positional[0]}'`, usage);
      }
      const r = await listEnvService(io.home, { showValues: f.bools.has("--show-values") });
      return printResult(io, f.bools.has("--json"), r, formatEnvList);
    }
    default:
      return usageOrUnknown(io, "settings", sub, USAGE);
  }
};
