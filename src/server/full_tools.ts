/**
 * The extra tools of the full profile: read exact fields of a node run, read a trace, and get or
 * set settings (secret values always masked; a set only stores).
 */
import { z } from "zod";
import { defineTool, type ToolDef } from "./tool.ts";

const readFields = defineTool({
  name: "read_fields",
  description:
    "Exact values from a cached node run (registry_run's execution_id), by template path such as node.result.items[0].title.",
  input: z.object({
    execution_id: z.string().max(100),
    paths: z.array(z.string().max(500)).min(1).max(100),
  }),
  output: z.looseObject({
    execution_id: z.string(),
    node_type: z.string(),
    fields: z.array(z.looseObject({ path: z.string(), found: z.boolean() })),
  }),
  annotations: { readOnlyHint: true },
  async run({ execution_id, paths }, ctx) {
    const { formatReadFields, readFieldsService } = await import("../services/node_runs.ts");
    const r = await readFieldsService(ctx.home, execution_id, paths);
    return { structured: r, text: formatReadFields(r) };
  },
});

const traceRead = defineTool({
  name: "trace_read",
  description:
    "Summary of a run trace (the latest when trace is omitted): status, failed node, errors and each node's outputs.",
  input: z.object({
    trace: z.string().max(300).optional().describe(
      "A trace file name or the trace_path a run returned",
    ),
  }),
  output: z.looseObject({
    trace: z.string(),
    workflow: z.string(),
    status: z.string(),
    errors: z.array(z.unknown()),
    nodes: z.array(z.looseObject({ id: z.string() })),
  }),
  annotations: { readOnlyHint: true },
  async run({ trace }, ctx) {
    const { formatTrace, readTraceService } = await import("../services/traces.ts");
    const r = await readTraceService(ctx.home, trace);
    return { structured: r, text: formatTrace(r) };
  },
});

const settingsGet = defineTool({
  name: "settings_get",
  description:
    "Read a setting: 'env' (secret names, values masked), 'env.NAME', or an option name.",
  input: z.object({ key: z.string().max(200) }),
  output: z.looseObject({ key: z.string(), found: z.boolean(), value: z.unknown().optional() }),
  annotations: { readOnlyHint: true },
  async run({ key }, ctx) {
    const { formatSetting, getSettingService } = await import("../services/settings_key.ts");
    const r = await getSettingService(ctx.home, key);
    return { structured: r, text: formatSetting(r) };
  },
});

const settingsSet = defineTool({
  name: "settings_set",
  description:
    "Store a secret ('env.NAME' or 'NAME') in settings.json (mode 0600); it reaches runs as environment.",
  input: z.object({ key: z.string().max(200), value: z.string().max(100_000) }),
  output: z.looseObject({ key: z.string(), action: z.string(), changed: z.boolean() }),
  async run({ key, value }, ctx) {
    const { setSettingService } = await import("../services/settings_key.ts");
    const { formatEnvChange } = await import("../services/settings.ts");
    const r = await setSettingService(ctx.home, key, value);
    return { structured: r, text: formatEnvChange(r) };
  },
});

export const FULL_EXTRA_TOOLS: ToolDef[] = [readFields, traceRead, settingsGet, settingsSet];
