/**
 * The text of the `pflow://instructions/sandbox` resource, for agents that share no filesystem
 * or shell with pflow. `PFLOW_HOME/instructions/sandbox.md` replaces it when present.
 */
export const SANDBOX_GUIDE = `# pflow for sandboxed agents

You cannot read or write pflow's files, and you have no shell. Everything goes through tools:

- **Send workflow content, not paths.** Pass the whole \`.pflow.md\` text (or an IR object) as
  \`workflow\`; paths on your side mean nothing to pflow.
- **Pass credentials as inputs.** Declare an input (e.g. \`api_token\`) and give its value in
  \`parameters\`; never write secrets into the workflow text. Values that match stored secrets are
  redacted from every response.
- **Read results from the response.** Outputs, errors and the checkpoint come back in the
  structured result; file-writing steps write on pflow's machine, not yours.
- **Save what works** with \`workflow_save(workflow, name)\` so it can be run by name later.
- The loop is the same: discover → validate → execute → fix with \`resume: true\` → save.
  Read \`pflow://instructions\` for the format and the nodes.
`;
