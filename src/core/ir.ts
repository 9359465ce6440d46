/**
 * The workflow IR: the one internal form every workflow takes, whether it was written as
 * `.pflow.md`, sent as JSON by an agent, or stored as a `.json` file. Types are inferred from
 * the zod schema, never written twice.
 */
import { z } from "zod";

export const IR_VERSION = "0.1.0";

/** Node and input ids: start with a letter, then letters, digits, `-` or `_`. */
export const ID_PATTERN = /^[a-zA-Z][a-zA-Z0-9_-]*$/;

export const ValueTypeSchema = z.enum([
  "string",
  "number",
  "integer",
  "boolean",
  "object",
  "array",
  "any",
]);
export type ValueType = z.infer<typeof ValueTypeSchema>;

export const NodeSchema = z.object({
  id: z.string().regex(ID_PATTERN, "ids start with a letter and use letters, digits, - or _"),
  type: z.string().min(1),
  purpose: z.string().optional(),
  params: z.record(z.string(), z.unknown()).default({}),
  batch: z.record(z.string(), z.unknown()).optional(),
});
export type WorkflowNode = z.infer<typeof NodeSchema>;

export const EdgeSchema = z.object({
  from: z.string(),
  to: z.string(),
  action: z.string().default("default"),
});
export type WorkflowEdge = z.infer<typeof EdgeSchema>;

export const InputSchema = z.object({
  type: ValueTypeSchema.default("string"),
  required: z.boolean().default(true),
  default: z.unknown().optional(),
  description: z.string().default(""),
  stdin: z.boolean().optional(),
});
export type WorkflowInput = z.infer<typeof InputSchema>;

export const OutputSchema = z.object({
  source: z.string(),
  description: z.string().default(""),
  type: ValueTypeSchema.optional(),
});
export type WorkflowOutput = z.infer<typeof OutputSchema>;

export const WorkflowIRSchema = z.object({
  ir_version: z.string().default(IR_VERSION),
  title: z.string().optional(),
  description: z.string().optional(),
  nodes: z.array(NodeSchema).min(1, "a workflow needs at least one node"),
  edges: z.array(EdgeSchema).default([]),
  inputs: z.record(z.string(), InputSchema).default({}),
  outputs: z.record(z.string(), OutputSchema).default({}),
  start_node: z.string().optional(),
});
export type WorkflowIR = z.infer<typeof WorkflowIRSchema>;
/** What a caller may hand in: defaults not yet applied. */
export type WorkflowIRInput = z.input<typeof WorkflowIRSchema>;

/** Where each part of a markdown workflow came from, so errors can name a line. */
export interface SourceMap {
  nodes: Record<string, { line: number; params: Record<string, number> }>;
  inputs: Record<string, number>;
  outputs: Record<string, number>;
}

/** A workflow ready for validation: the IR plus what the source told us about it. */
export interface ParsedWorkflow {
  ir: WorkflowIR;
  /** Present for markdown sources. */
  sourceMap?: SourceMap;
  /** YAML frontmatter: metadata only, never part of the workflow. */
  metadata: Record<string, unknown>;
  /** The markdown body after the frontmatter, byte for byte (markdown sources only). */
  body?: string;
}
