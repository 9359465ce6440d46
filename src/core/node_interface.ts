/**
 * What every node type declares about itself: the single source for validation, docs, search
 * and the MCP tools. Built-in nodes declare it in code; MCP tools get one from their schemas.
 */
import type { ValueType } from "./ir.ts";

export interface ParamSpec {
  type: ValueType;
  description: string;
  required?: boolean;
  default?: unknown;
  enum?: unknown[];
  /**
   * An object value is passed as written: templates inside it belong to the node (an inline
   * sub-workflow carries its own `${…}`), so neither the validator nor the executor touch them.
   */
  raw?: boolean;
  /** The full JSON Schema when the type alone says too little (MCP unions, nested objects). */
  schema?: Record<string, unknown>;
}

export interface OutputSpec {
  type: ValueType;
  description: string;
  /** Known keys of an object output, to any depth. */
  structure?: Record<string, OutputSpec>;
  /** The element of an array output. */
  items?: OutputSpec;
}

export interface McpToolRef {
  server: string;
  /** The tool's name as the server spells it: what gets called. */
  tool: string;
  annotations?: Record<string, unknown>;
}

export interface NodeInterface {
  type: string;
  description: string;
  params: Record<string, ParamSpec>;
  outputs: Record<string, OutputSpec>;
  actions: string[];
  category: "core" | "mcp";
  /** Test-only nodes such as `echo`: hidden from listings unless asked. */
  hidden?: boolean;
  /** Outputs are not fully known (e.g. MCP tools without an output schema): any path is allowed. */
  openOutputs?: boolean;
  mcp?: McpToolRef;
}

/** Finds the interface of a node type, or undefined. The validator takes one of these. */
export type InterfaceLookup = (type: string) => NodeInterface | undefined;

/** Whether a param's value is passed as written (see ParamSpec.raw). */
export function isRawParam(spec: ParamSpec | undefined, value: unknown): boolean {
  return spec?.raw === true && typeof value === "object" && value !== null;
}
