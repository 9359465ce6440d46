/** `pflow validate FILE [--json]`: every problem, or `✓ Workflow is valid`. */
import { parseArgs } from "node:util";
import { type Command, UsageError } from "./io.ts";
import { formatValidation, validateService } from "../services/validate.ts";

export const validateCommand: Command = async (args, io) => {
  const { values, positionals } = parseArgs({
    args,
    options: { json: { type: "boolean" } },
    allowPositionals: true,
  });
  if (positionals.length !== 1) {
    throw new UsageError("validate takes one workflow", "Usage: pflow validate FILE|NAME [--json]");
  }
  const report = await validateService(positionals[0], { home: io.home, cwd: io.cwd });
  const { workflow: _w, ...body } = report;
  if (values.json) io.stdout(JSON.stringify(body, null, 2));
  else (report.valid ? io.stdout : io.stderr)(formatValidation(report));
  return report.valid ? 0 : 1;
};
