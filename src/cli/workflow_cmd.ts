/**
 * `pflow workflow list [keywords] | describe NAME|FILE | save FILE --name N [--force]
 * [--delete-draft] | delete NAME [--draft] | history NAME`, each with `--json`. Thin: parsing
 * here, everything else in services/workflows.ts.
 */
import { type Command, printResult, UsageError, usageOrUnknown } from "./io.ts";
import { parseFlags } from "./_flags.ts";
import {
  deleteWorkflowService,
  describeWorkflowService,
  formatWorkflowDelete,
  formatWorkflowDescription,
  formatWorkflowHistory,
  formatWorkflowList,
  formatWorkflowSave,
  listWorkflowsService,
  saveWorkflowService,
  workflowHistoryService,
} from "../services/workflows.ts";

const USAGE = "Usage: pflow workflow list [KEYWORDS…] | describe NAME|FILE | " +
  "save FILE --name NAME [--force] [--delete-draft] | delete NAME [--draft] | history NAME";

function one(positional: string[], what: string, usage: string): string {
  if (positional.length !== 1) {
    throw new UsageError(
      positional.length ? `Expected one ${what}, got ${positional.length}` : `Missing the ${what}`,
      usage,
    );
  }
  return positional[0];
}

export const command: Command = async (args, io) => {
  const [sub, ...rest] = args;
  switch (sub) {
    case "list":
    case "ls": {
      const f = parseFlags(
        rest,
        { bools: ["--json", "--drafts"] },
        "Usage: pflow workflow list [KEYWORDS…] [--drafts]",
      );
      const r = listWorkflowsService(io.home, {
        keywords: f.positional,
        kind: f.bools.has("--drafts") ? "draft" : "workflow",
      });
      return printResult(io, f.bools.has("--json"), r, formatWorkflowList);
    }
    case "describe":
    case "show": {
      const usage = "Usage: pflow workflow describe NAME|FILE";
      const f = parseFlags(rest, { bools: ["--json"] }, usage);
      const r = await describeWorkflowService(
        io.home,
        io.cwd,
        one(f.positional, "workflow name or file", usage),
      );
      return printResult(io, f.bools.has("--json"), r, formatWorkflowDescription);
    }
    case "save": {
      const usage = "Usage: pflow workflow save FILE|DRAFT --name NAME [--force] [--delete-draft]";
      const f = parseFlags(rest, {
        bools: ["--json", "--force", "--delete-draft"],
        values: ["--name"],
      }, usage);
      const source = one(f.positional, "workflow file or draft name", usage);
      const name = f.values.get("--name");
      if (!name) throw new UsageError("save needs --name NAME", usage);
      const r = await saveWorkflowService(io.home, io.cwd, {
        workflow: source,
        name,
        force: f.bools.has("--force"),
        deleteDraft: f.bools.has("--delete-draft"),
      });
      return printResult(io, f.bools.has("--json"), r, formatWorkflowSave);
    }
    case "delete":
    case "rm": {
      const usage = "Usage: pflow workflow delete NAME [--draft]";
      const f = parseFlags(rest, { bools: ["--json", "--draft"] }, usage);
      const r = await deleteWorkflowService(io.home, one(f.positional, "workflow name", usage), {
        kind: f.bools.has("--draft") ? "draft" : "workflow",
      });
      return printResult(io, f.bools.has("--json"), r, formatWorkflowDelete);
    }
    case "history": {
      const usage = "Usage: pflow workflow history NAME";
      const f = parseFlags(rest, { bools: ["--json"] }, usage);
      const r = await workflowHistoryService(io.home, one(f.positional, "workflow name", usage));
      return printResult(io, f.bools.has("--json"), r, formatWorkflowHistory);
    }
    default:
      return usageOrUnknown(io, "workflow", sub, USAGE);
  }
};
