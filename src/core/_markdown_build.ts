/**
 * Second pass of the `.pflow.md` parser: reads the values of each scanned entity (items and
 * code blocks) and builds the IR and its source map, following the Python pflow's rules:
 * `type` and `batch` leave `params`, `next` / `on-error` become edges, prose is the purpose or
 * description.
 */
import type { PflowError } from "./errors.ts";
import type { SourceMap, WorkflowEdge } from "./ir.ts";
import { closestMatches } from "./suggest.ts";
import {
  coerceScalar,
  parseYamlFragment,
  UnterminatedQuoteError,
  YamlFragmentError,
} from "./_markdown_yaml.ts";
import { parseError, type RawEntity, type ScanResult, SECTION_DISPLAY } from "./_markdown_scan.ts";

interface Param {
  key: string;
  value: unknown;
  line: number;
}

/** The IR before schema defaults, plus where every part came from. */
export interface BuiltWorkflow {
  ir: Record<string, unknown>;
  sourceMap: SourceMap;
  /** Line of every param of every input and output too, for schema errors. */
  inputParamLines: Record<string, Record<string, number>>;
  outputParamLines: Record<string, Record<string, number>>;
}

const SINGLE_ITEM_RE = /^\s*-\s+(\S+?):\s*(.*)$/;
const INPUT_KEYS = ["type", "required", "default", "description", "stdin"];
// `stdout` is a Python pflow output flag with no meaning here: accepted so its files parse.
const OUTPUT_KEYS = ["source", "description", "type", "stdout"];
const ITEM_HINT = "Params are '- key: value' items, e.g. '- type: shell'. " +
  "For notes in the prose, use '*' bullets instead of '-'.";

export function buildWorkflow(scan: ScanResult): BuiltWorkflow {
  const sourceMap: SourceMap = { nodes: {}, inputs: {}, outputs: {} };
  const inputParamLines: Record<string, Record<string, number>> = {};
  const outputParamLines: Record<string, Record<string, number>> = {};
  const inputs: Record<string, unknown> = {};
  const outputs: Record<string, unknown> = {};
  const nodes: Record<string, unknown>[] = [];
  const routing: { id: string; next?: Param; onError?: Param }[] = [];

  for (const entity of scan.entities) {
    requireProse(entity);
    const params = readParams(entity);
    const lines = Object.fromEntries(params.map((p) => [p.key, p.line]));
    if (entity.section === "inputs") {
      sourceMap.inputs[entity.id] = entity.line;
      inputParamLines[entity.id] = lines;
      inputs[entity.id] = buildFlat(entity, params, INPUT_KEYS);
    } else if (entity.section === "outputs") {
      sourceMap.outputs[entity.id] = entity.line;
      outputParamLines[entity.id] = lines;
      const output = buildFlat(entity, params, OUTPUT_KEYS);
      if (!("source" in output)) {
        throw parseError(
          `Output '${entity.id}' has no source`,
          entity.line,
          "Say where the value comes from, e.g. '- source: ${step-id.stdout}'.",
        );
      }
      delete output.stdout;
      outputs[entity.id] = output;
    } else {
      sourceMap.nodes[entity.id] = { line: entity.line, params: lines };
      const { node, next, onError } = buildNode(entity, params);
      nodes.push(node);
      routing.push({ id: entity.id, next, onError });
    }
  }

  const ir: Record<string, unknown> = {};
  if (scan.title !== undefined) ir.title = scan.title;
  if (scan.description !== undefined) ir.description = scan.description;
  ir.nodes = nodes;
  ir.edges = buildEdges(routing);
  ir.inputs = inputs;
  ir.outputs = outputs;
  ir.start_node = nodes[0].id;
  return { ir, sourceMap, inputParamLines, outputParamLines };
}

function requireProse(entity: RawEntity): void {
  if (entity.prose.length > 0) return;
  const example = entity.section === "steps" ? "\n\n- type: shell" : "";
  throw parseError(
    `'### ${entity.id}' has no description`,
    entity.line,
    `Add a sentence saying what it is for between the heading and its params:\n\n` +
      `### ${entity.id}\n\nWhat this does and why.${example}`,
  );
}

/** Items first, then code blocks, each checked against the others for duplicates. */
function readParams(entity: RawEntity): Param[] {
  const params: Param[] = [];
  const seen = new Map<string, Param & { kind: string }>();
  const add = (p: Param, kind: "item" | "code block") => {
    const earlier = seen.get(p.key);
    if (earlier) {
      throw parseError(
        `Duplicate param '${p.key}' in '### ${entity.id}'`,
        p.line,
        `'${p.key}' is already set by the ${earlier.kind} at line ${earlier.line}; ` +
          `keep only one of them.`,
      );
    }
    seen.set(p.key, { ...p, kind });
    params.push(p);
  };

  for (const item of entity.items) {
    for (const p of readItem(entity, item.text, item.line)) add(p, "item");
  }
  let lastTagged: { info: string; line: number } | undefined;
  for (const block of entity.blocks) {
    if (!block.info) throw untaggedBlock(block.line, lastTagged);
    lastTagged = block;
    const words = block.info.split(/\s+/);
    const key = words[words.length - 1];
    const isYaml = words.length > 1 && words[0].toLowerCase() === "yaml";
    const value = isYaml
      ? yamlValue(block.content, block.line + 1, `the '${block.info}' block of '${entity.id}'`)
      : block.content;
    add({ key, value, line: block.line }, "code block");
  }
  return params;
}

function untaggedBlock(line: number, lastTagged?: { info: string; line: number }): PflowError {
  if (lastTagged) {
    return parseError(
      `Code block has no tag (probably a nested \`\`\` closed the '${lastTagged.info}' block ` +
        `at line ${lastTagged.line} early)`,
      line,
      `Use a longer fence for the outer block, e.g. \`\`\`\`${lastTagged.info} … \`\`\`\`, ` +
        "so an inner ``` does not close it.",
    );
  }
  return parseError(
    "Code block has no tag",
    line,
    "Name the param the block sets with the last word of its info string, e.g. " +
      "```shell command, ```yaml batch or ```markdown content.",
  );
}

function readItem(entity: RawEntity, text: string, line: number): Param[] {
  if (text.includes("\n")) {
    const parsed = yamlValue(text, line, `the params of '${entity.id}'`);
    const entries = Array.isArray(parsed) ? parsed : [parsed];
    const params: Param[] = [];
    for (const entry of entries) {
      if (!isRecord(entry)) {
        throw parseError(`'${String(entry)}' is not a valid param`, line, ITEM_HINT);
      }
      for (const [key, value] of Object.entries(entry)) params.push({ key, value, line });
    }
    return params;
  }
  const m = SINGLE_ITEM_RE.exec(text);
  if (!m) {
    const content = text.replace(/^\s*-\s*/, "").trim();
    throw parseError(`'${content}' is not a valid param`, line, ITEM_HINT);
  }
  try {
    return [{ key: m[1], value: coerceScalar(m[2]), line }];
  } catch (err) {
    if (err instanceof UnterminatedQuoteError) {
      throw parseError(
        `Param '${m[1]}' of '${entity.id}': ${err.message}`,
        line,
        "Add the missing closing quote.",
      );
    }
    if (err instanceof YamlFragmentError) {
      throw parseError(
        `YAML syntax error in param '${m[1]}' of '${entity.id}': ${err.message}`,
        line,
        "Values starting with '{' or '[' are read as YAML; fix the syntax or quote the whole value.",
      );
    }
    throw err;
  }
}

/** Parses YAML whose first line is file line `firstLine`; errors name the file line. */
function yamlValue(text: string, firstLine: number, what: string): unknown {
  try {
    return parseYamlFragment(text);
  } catch (err) {
    if (!(err instanceof YamlFragmentError)) throw err;
    const line = firstLine + err.fragmentLine - 1;
    const colon = /^\s*-\s+\S+?:\s+(.*:\s.*)$/.exec(text.split("\n")[err.fragmentLine - 1] ?? "");
    throw parseError(
      `YAML syntax error in ${what}: ${err.message}`,
      line,
      colon
        ? `The value contains ': ', which YAML reads as a nested key; wrap the value in quotes.`
        : "Check the indentation and quoting on that line; quote values containing ': ' or '#'.",
    );
  }
}

function buildFlat(
  entity: RawEntity,
  params: Param[],
  allowed: string[],
): Record<string, unknown> {
  const out: Record<string, unknown> = { description: entity.prose.join("\n") };
  for (const p of params) {
    if (!allowed.includes(p.key)) {
      const [close] = closestMatches(p.key, allowed, 1);
      const kind = entity.section === "inputs" ? "an input" : "an output";
      throw parseError(
        `Unknown field '${p.key}' on ${kind} ('### ${entity.id}')`,
        p.line,
        `${close ? `Did you mean '${close}'? ` : ""}${SECTION_DISPLAY[entity.section]} take: ${
          allowed.filter((k) => k !== "stdout").join(", ")
        }.`,
      );
    }
    out[p.key] = p.value;
  }
  return out;
}

function buildNode(
  entity: RawEntity,
  params: Param[],
): { node: Record<string, unknown>; next?: Param; onError?: Param } {
  if (entity.id === "end") {
    throw parseError(
      "'end' is reserved (it means 'stop here' in '- next: end') and cannot be a step id",
      entity.line,
      "Rename the step, e.g. '### finish'.",
    );
  }
  const node: Record<string, unknown> = { id: entity.id, purpose: entity.prose.join("\n") };
  const rest: Record<string, unknown> = {};
  let next: Param | undefined;
  let onError: Param | undefined;
  for (const p of params) {
    if (p.key === "type") {
      if (typeof p.value !== "string" || p.value.trim() === "") {
        throw parseError(
          `Step '${entity.id}' has an invalid type: ${JSON.stringify(p.value)}`,
          p.line,
          "Set the node type as a name, e.g. '- type: shell'.",
        );
      }
      node.type = p.value;
    } else if (p.key === "batch") {
      if (!isRecord(p.value)) {
        throw parseError(
          `The batch of step '${entity.id}' must be a mapping`,
          p.line,
          "Write it as a ```yaml batch block with 'items:' and 'as:' keys.",
        );
      }
      node.batch = p.value;
    } else if (p.key === "next") next = p;
    else if (p.key === "on-error") onError = p;
    else rest[p.key] = p.value;
  }
  if (node.type === undefined) {
    throw parseError(
      `Step '${entity.id}' has no type`,
      entity.line,
      `Every step needs a node type:\n\n### ${entity.id}\n\n${entity.prose[0]}\n\n- type: shell`,
    );
  }
  node.params = rest;
  return { node, next, onError };
}

/**
 * Document order by default; `- next: id` jumps, `- next: a, b` names one action per target
 * (the first is also the default), `- next: end` stops, `- on-error: id` adds an error edge.
 */
function buildEdges(
  routing: { id: string; next?: Param; onError?: Param }[],
): WorkflowEdge[] {
  const ids = routing.map((r) => r.id);
  const edges: WorkflowEdge[] = [];
  const target = (to: string, p: Param, from: string) => {
    if (ids.includes(to)) return to;
    const close = closestMatches(to, ids);
    throw parseError(
      `Step '${from}' routes to unknown step '${to}' ('- ${p.key}')`,
      p.line,
      close.length > 0
        ? `Did you mean ${close.map((c) => `'${c}'`).join(" or ")}?`
        : `Steps: ${ids.join(", ")} (or 'end' to stop).`,
    );
  };
  routing.forEach((r, i) => {
    if (r.next) {
      const targets = String(r.next.value).split(",").map((t) => t.trim()).filter((t) =>
        t !== "" && t !== "end"
      ).map((t) => target(t, r.next as Param, r.id));
      if (targets.length > 1) {
        for (const t of targets) edges.push({ from: r.id, to: t, action: t });
      }
      if (targets.length > 0) edges.push({ from: r.id, to: targets[0], action: "default" });
    } else if (i < routing.length - 1) {
      edges.push({ from: r.id, to: routing[i + 1].id, action: "default" });
    }
    if (r.onError && r.onError.value !== null && r.onError.value !== "") {
      edges.push({
        from: r.id,
        to: target(String(r.onError.value), r.onError, r.id),
        action: "error",
      });
    }
  });
  return edges;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
