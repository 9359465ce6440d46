/**
 * Registry entries for MCP tools: a tool's inputSchema becomes params (type, required,
 * description, default, enum; unions and nested schemas kept as their JSON Schema), its
 * outputSchema becomes outputs (else `result: any` with open outputs), annotations are kept.
 * Two tools of one server that sanitise to the same node name are refused.
 */
import { PflowError } from "../core/errors.ts";
import { type ValueType, ValueTypeSchema } from "../core/ir.ts";
import type { NodeInterface, OutputSpec, ParamSpec } from "../core/node_interface.ts";
import { mcpNodeType } from "./naming.ts";
import type { Tool } from "./sdk_client.ts";

type Schema = Record<string, unknown>;

/** JSON Schema types pflow has a name for (all of its value types but `any`). */
const SIMPLE: ReadonlySet<string> = new Set(ValueTypeSchema.options.filter((t) => t !== "any"));

/** The pflow type of a JSON Schema, and whether the type alone says too little. */
function schemaType(schema: Schema): { type: ValueType; complex: boolean } {
  const t = schema.type;
  if (typeof t === "string" && SIMPLE.has(t)) {
    const nested = (t === "object" && schema.properties !== undefined) ||
      (t === "array" && schema.items !== undefined);
    return { type: t as ValueType, complex: nested };
  }
  if (Array.isArray(t)) {
    const real = t.filter((x) => x !== "null");
    if (real.length === 1 && SIMPLE.has(String(real[0]))) {
      return { type: real[0] as ValueType, complex: true };
    }
    return { type: "any", complex: true };
  }
  if (Array.isArray(schema.enum) && schema.enum.length) {
    const kinds = new Set(schema.enum.map((v) => typeof v));
    if (kinds.size === 1 && kinds.has("string")) return { type: "string", complex: false };
  }
  const complex = ["anyOf", "oneOf", "allOf", "$ref", "const"].some((k) => k in schema);
  return { type: "any", complex };
}

export function paramsFromSchema(input: Schema | undefined): Record<string, ParamSpec> {
  const props = (input?.properties ?? {}) as Record<string, Schema>;
  const required = new Set(Array.isArray(input?.required) ? input.required as string[] : []);
  const params: Record<string, ParamSpec> = {};
  for (const [name, raw] of Object.entries(props)) {
    const schema = typeof raw === "object" && raw !== null ? raw : {};
    const { type, complex } = schemaType(schema);
    const spec: ParamSpec = {
      type,
      description: String(schema.description ?? schema.title ?? ""),
    };
    if (required.has(name)) spec.required = true;
    if (schema.default !== undefined) spec.default = schema.default;
    if (Array.isArray(schema.enum)) spec.enum = schema.enum;
    if (complex) spec.schema = schema;
    params[name] = spec;
  }
  return params;
}

export function outputFromSchema(schema: Schema, description = ""): OutputSpec {
  const { type } = schemaType(schema);
  const out: OutputSpec = { type, description: String(schema.description ?? description) };
  if (type === "object" && typeof schema.properties === "object" && schema.properties) {
    out.structure = {};
    for (const [k, v] of Object.entries(schema.properties as Record<string, Schema>)) {
      out.structure[k] = outputFromSchema(v ?? {});
    }
  }
  if (type === "array" && typeof schema.items === "object" && schema.items) {
    out.items = outputFromSchema(schema.items as Schema);
  }
  return out;
}

const TIMEOUT_PARAM: ParamSpec = {
  type: "number",
  description:
    "Seconds before the call is abandoned and the server stopped (default: the server's timeout, else 30)",
};

export function toolEntry(server: string, tool: Tool): NodeInterface {
  const params = paramsFromSchema(tool.inputSchema as Schema);
  // pflow's own `timeout` never reaches the tool; declare it unless the tool has one.
  if (!("timeout" in params)) params.timeout = TIMEOUT_PARAM;
  const entry: NodeInterface = {
    type: mcpNodeType(server, tool.name),
    description: tool.description ?? tool.title ?? `MCP tool ${tool.name} of server ${server}`,
    params,
    outputs: {},
    actions: ["default", "error"],
    category: "mcp",
    mcp: { server, tool: tool.name },
  };
  if (tool.annotations) entry.mcp!.annotations = { ...tool.annotations };
  const outSchema = tool.outputSchema as Schema | undefined;
  if (outSchema && outSchema.type === "object") {
    const result = outputFromSchema(outSchema, "The tool's structured result");
    entry.outputs.result = result;
    for (const [k, spec] of Object.entries(result.structure ?? {})) {
      if (k !== "result") entry.outputs[k] = spec;
    }
  } else {
    entry.outputs.result = { type: "any", description: "The tool's result" };
    entry.openOutputs = true;
  }
  return entry;
}

/** Entries for all of a server's tools; refuses two tools that would share a node name. */
export function toolEntries(server: string, tools: Tool[]): Record<string, NodeInterface> {
  const out: Record<string, NodeInterface> = {};
  for (const tool of tools) {
    const entry = toolEntry(server, tool);
    const clash = out[entry.type];
    if (clash) {
      throw new PflowError(
        "validation",
        `MCP server '${server}' offers tools '${
          clash.mcp!.tool
        }' and '${tool.name}', which both become node '${entry.type}'`,
        {
          suggestion: "Rename one of the tools on the server; pflow refuses to pick one silently",
          details: { server, tools: [clash.mcp!.tool, tool.name] },
        },
      );
    }
    if (!/^mcp-[a-z0-9-]+-[a-z0-9]/.test(entry.type)) {
      throw new PflowError(
        "validation",
        `MCP server '${server}': tool name '${tool.name}' has no letters or digits to name a node with`,
        { details: { server, tool: tool.name } },
      );
    }
    out[entry.type] = entry;
  }
  return out;
}
