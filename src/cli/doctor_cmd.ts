/**
 * `pflow doctor [--json]`: what pflow can do here and what is broken (see services/doctor.ts).
 * Exits 1 when something configured cannot work, so scripts and CI can gate on it.
 */
import { doctorService, formatDoctorReport } from "../services/doctor.ts";
import { type Command, EXIT_FAILURE, EXIT_OK, UsageError } from "./io.ts";
import denoJson from "../../deno.json" with { type: "json" };

export const command: Command = async (args, io) => {
  const unknown = args.find((a) => a !== "--json");
  if (unknown !== undefined) {
    throw new UsageError(`Unknown doctor argument '${unknown}'`, "Usage: pflow doctor [--json]");
  }
  const report = await doctorService({ version: denoJson.version, home: io.home, cwd: io.cwd });
  io.stdout(args.includes("--json") ? JSON.stringify(report, null, 2) : formatDoctorReport(report));
  return report.ok ? EXIT_OK : EXIT_FAILURE;
};
