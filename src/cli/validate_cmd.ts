/** `pflow validate FILE [--json]`: every problem, or `✓ Workflow is valid`. */
import { type Command, UsageError } from "./io.ts";
import { parseFlags } from "./_flags.ts";
import { formatValidation, validateService } from "../services/validate.ts";

export const validateCommand: Command = async (args, io) => {
  const usage = "Usage: pflow validate FILE|NAME [--json]";
  const flags = parseFlags(args, { bools: ["--json"] }, usage);
  if (flags.positional.length !== 1) throw new UsageError("validate takes one workflow", usage);
  const report = await validateService(flags.positional[0], { home: io.home, cwd: io.cwd });
  const { workflow: _w, ...body } = report;
  if (flags.bools.has("--json")) io.stdout(JSON.stringify(body, null, 2));
  else (report.valid ? io.stdout : io.stderr)(formatValidation(report));
  return report.valid ? 0 : 1;
};
