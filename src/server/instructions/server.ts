/**
 * The server `instructions` sent at initialize: the loop an agent should follow, in the tool
 * names of its profile (a compact agent has no workflow_discover to call).
 */
const STANDARD = `pflow builds, validates, runs and saves workflows.
1. Discover first: workflow_discover(query). A strong match already does the task — run it (workflow_execute) instead of rebuilding.
2. Building something new? Read the resource pflow://instructions first (format, nodes, templates, errors); sandboxed agents also read pflow://instructions/sandbox.
3. Validate before executing: workflow_validate, then workflow_execute.
4. On failure, fix the step the error names and re-run with resume: true.
5. Save when it works: workflow_save.`;

const COMPACT = `pflow runs and saves workflows.
1. Discover first: browse_components(query) lists matching nodes and saved workflows; describe_workflow(name) shows one's inputs. Run a match with execute(name, inputs) instead of rebuilding.
2. Building something new? Read the resource pflow://instructions first (format, nodes, templates, errors), then write it as a draft: PFLOW_HOME/drafts/<name>.pflow.md. execute(name) runs a saved workflow, else the draft of that name.
3. On failure, fix the step the error names and run it again.
4. Save when it works: save_to_library(draft_name, final_name, description).`;

const FULL = `${STANDARD}
6. Debug with trace_read() (the latest run: failed node, errors, outputs per step) and read_fields(execution_id, paths) after registry_run.`;

export const SERVER_INSTRUCTIONS: Record<"standard" | "compact" | "full", string> = {
  standard: STANDARD,
  compact: COMPACT,
  full: FULL,
};
