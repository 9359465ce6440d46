/**
 * The text of the `pflow://instructions` resource: the full guide an agent reads before building
 * a workflow. `PFLOW_HOME/instructions/instructions.md` replaces it when present.
 */
export const INSTRUCTIONS_GUIDE = `# Building pflow workflows

A workflow is a markdown file of steps run in document order. Data flows between steps through
\`\${...}\` templates. pflow validates before anything runs, records a trace, and keeps a library.

## The loop
1. **Discover first.** \`workflow_discover(query)\`: a match marked strong already does the task —
   run it with \`workflow_execute\` instead of building a new one.
2. **Pick nodes.** \`registry_discover(task)\` / \`registry_search(pattern)\`, then
   \`registry_describe(nodes)\` for exact params and outputs. \`registry_run(node_type, parameters)\`
   runs one node for real and shows its output paths.
3. **Write** the workflow (format below) and **validate** it: \`workflow_validate(workflow)\`.
4. **Run** it: \`workflow_execute(workflow, parameters)\`. On failure, fix the step the error names
   and call again with \`resume: true\`: completed steps are not re-run.
5. **Save** it when it works: \`workflow_save(workflow, name, description)\`.

With the compact tool set: \`browse_components\` discovers nodes and workflows, \`describe_workflow\`
shows one, \`execute(name, inputs)\` runs a saved workflow or a draft
(\`PFLOW_HOME/drafts/<name>.pflow.md\`), \`save_to_library\` moves a working draft into the library.

## The format (.pflow.md)
\`\`\`\`markdown
# Word count

Counts the words of a file.

## Inputs

### path

The file to count.

- type: string
- required: true

## Steps

### read

Read the file.

- type: read-file
- file_path: \${path}

### count

Count its words.

- type: shell
- stdin: \${read.content}

\`\`\`shell command
wc -w
\`\`\`

## Outputs

### words

The word count.

- source: \${count.stdout}
\`\`\`\`
- \`### id\` per input, step and output, each with a sentence of prose (mandatory).
- \`- key: value\` items are YAML; \`- type:\` is required for steps.
- A fenced block's info string's last word names the param (\`\`\`shell command\`).
- Send the markdown itself as \`workflow\` (it contains a newline), or a path, or a saved name.
  An IR object (\`{ir_version, nodes, edges, inputs, outputs}\`) works too.

## Nodes
Core: \`shell\` (command, stdin → stdout, stderr, exit_code), \`read-file\`, \`write-file\`,
\`copy-file\`, \`move-file\`, \`delete-file\`, \`http\` (url, method, body → response),
\`workflow\` (run a saved workflow). MCP tools appear as \`mcp-<server>-<tool>\`.
\`registry_list\` shows every node; \`registry_describe\` shows each one's interface.

## Templates
- \`\${input}\` a declared input; \`\${step.key}\`, \`\${step.a.b[0].c}\` a step's output.
- A param that is exactly one template keeps the value's type; otherwise it is interpolated
  (objects as JSON). A JSON string is parsed when a path walks into it. \`$\${x}\` is literal.
- Only earlier steps and declared inputs can be referenced.

## Common errors
- **template_error** "unresolved \${x}": declare \`x\` under Inputs, or fix the step id / output
  key (the error lists what is available).
- **validation** unknown node type or param: check \`registry_describe\`.
- **execution** a step failed: read its message (stderr tail, HTTP status), fix, \`resume: true\`.
- **not_found** a workflow name: the error lists close names; \`workflow_list\` shows all.
- **security** a name with \`/\`, \`..\` or \`~\`: use plain names (lowercase, digits, hyphens).
- **exists** a save would overwrite: choose another name or pass \`force: true\`.
- Traces: \`trace_read()\` (full profile) or the trace_path a run returned.
`;
