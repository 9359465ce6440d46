/** The server `instructions` sent at initialize: the loop an agent should follow. */
export const SERVER_INSTRUCTIONS = `pflow builds, validates, runs and saves workflows.
1. Discover first: workflow_discover(query). A strong match already does the task — run it (workflow_execute) instead of rebuilding.
2. Building something new? Read the resource pflow://instructions first (format, nodes, templates, errors); sandboxed agents also read pflow://instructions/sandbox.
3. Validate before executing: workflow_validate, then workflow_execute.
4. On failure, fix the step the error names and re-run with resume: true.
5. Save when it works: workflow_save.`;
