/**
 * First pass of the `.pflow.md` parser: a line-by-line state machine (the same one the Python
 * pflow uses) that cuts the body into title, description and `### id` entities with their
 * prose, raw `- key: value` items and fenced code blocks. Nothing is interpreted here beyond
 * structure; values are read in `_markdown_build.ts`.
 */
import { PflowError } from "./errors.ts";
import { ID_PATTERN } from "./ir.ts";

export type EntitySection = "inputs" | "steps" | "outputs";
type Section = EntitySection | "none" | "unknown";

export interface RawItem {
  /** The item's lines (first one starts with `- `), trailing blank lines dropped. */
  text: string;
  line: number;
}

export interface RawBlock {
  /** The info string after the fence, trimmed ("" when untagged). */
  info: string;
  content: string;
  /** Line of the opening fence. */
  line: number;
}

export interface RawEntity {
  id: string;
  line: number;
  section: EntitySection;
  prose: string[];
  items: RawItem[];
  blocks: RawBlock[];
}

export interface ScanResult {
  title?: string;
  description?: string;
  entities: RawEntity[];
}

const SECTION_NAMES: Record<string, Section> = {
  inputs: "inputs",
  steps: "steps",
  outputs: "outputs",
};
const NEAR_MISS: Record<string, string> = { input: "Inputs", output: "Outputs", step: "Steps" };
const DISPLAY: Record<EntitySection, string> = {
  inputs: "Inputs",
  steps: "Steps",
  outputs: "Outputs",
};
const ENTITY_EXAMPLE: Record<EntitySection, string> = {
  inputs: "### input-name\n\nWhat the input is.\n\n- type: string\n- required: true",
  steps:
    '### step-name\n\nWhat this step does.\n\n- type: shell\n\n```shell command\necho "hello"\n```',
  outputs: "### output-name\n\nWhat the output is.\n\n- source: ${step-name.stdout}",
};
const ITEM_RE = /^(\s*)- (.+)$/;
const FENCE_OPEN_RE = /^(`{3,}|~{3,})/;

/** A `parse` error at a 1-based file line, with what to do about it. */
export function parseError(
  message: string,
  line: number | undefined,
  suggestion: string,
): PflowError {
  return new PflowError("parse", message, { suggestion, details: line ? { line } : {} });
}

/**
 * Scans `lines` from index `start` (0-based; line numbers reported are index + 1).
 * @throws PflowError `parse` for structural errors, with `details.line`.
 */
export function scanMarkdown(lines: string[], start: number): ScanResult {
  const result: ScanResult = { entities: [] };
  const titleProse: string[] = [];
  const seenSections = new Map<EntitySection, number>();
  const orphans = new Map<EntitySection, number[]>();
  let section: Section = "none";
  let nearMiss: string | undefined;
  let titleFound = false;
  let entity: RawEntity | undefined;

  let fence: { marker: string; info: string; line: number; body: string[] } | undefined;
  let item: { lines: string[]; line: number; indent: number } | undefined;

  const flushItem = () => {
    if (!item) return;
    const itemLines = item.lines;
    while (itemLines.length > 0 && itemLines[itemLines.length - 1].trim() === "") itemLines.pop();
    entity?.items.push({ text: itemLines.join("\n"), line: item.line });
    item = undefined;
  };
  const orphan = (...lineNums: number[]) => {
    if (section === "inputs" || section === "steps" || section === "outputs") {
      orphans.set(section, [...(orphans.get(section) ?? []), ...lineNums]);
    }
  };

  for (let i = start; i < lines.length; i++) {
    const raw = lines[i];
    const lineNum = i + 1;
    const stripped = raw.trim();
    const isFence = stripped.startsWith("```") || stripped.startsWith("~~~");

    // Fences first: nothing inside a code block is structure.
    if (fence) {
      const closes = isFence && stripped[0] === fence.marker[0] &&
        stripped === fence.marker[0].repeat(stripped.length) &&
        stripped.length >= fence.marker.length;
      if (!closes) {
        fence.body.push(raw);
        continue;
      }
      const block = { info: fence.info, content: fence.body.join("\n"), line: fence.line };
      if (entity) entity.blocks.push(block);
      else orphan(fence.line, lineNum);
      fence = undefined;
      continue;
    }
    const open = isFence ? FENCE_OPEN_RE.exec(stripped) : null;
    if (open) {
      flushItem();
      fence = {
        marker: open[1],
        info: stripped.slice(open[1].length).trim(),
        line: lineNum,
        body: [],
      };
      continue;
    }

    // An indented line under an item belongs to its YAML, even when it reads like a heading
    // (`    # Notes` inside `- content: |`); the Python pflow took it for a heading and cut
    // the value short.
    if (item && stripped !== "" && raw.length - raw.trimStart().length >= item.indent) {
      item.lines.push(raw);
      continue;
    }

    if (stripped.startsWith("# ")) {
      flushItem();
      if (!titleFound) {
        titleFound = true;
        result.title = stripped.slice(2).trim();
        entity = undefined;
      }
      continue;
    }

    if (stripped.startsWith("## ")) {
      flushItem();
      entity = undefined;
      const name = stripped.slice(3).trim();
      section = SECTION_NAMES[name.toLowerCase()] ?? "unknown";
      nearMiss = NEAR_MISS[name.toLowerCase()];
      if (section !== "unknown") {
        const known = section as EntitySection;
        const earlier = seenSections.get(known);
        if (earlier !== undefined) {
          throw parseError(
            `Duplicate '## ${DISPLAY[known]}' section`,
            lineNum,
            `Merge it into the '## ${DISPLAY[known]}' section at line ${earlier}.`,
          );
        }
        seenSections.set(known, lineNum);
      }
      continue;
    }

    if (stripped.startsWith("### ")) {
      flushItem();
      const id = stripped.slice(4).trim();
      if (section === "none" || (section === "unknown" && nearMiss)) {
        throw parseError(
          `'### ${id}' is outside the Inputs, Steps and Outputs sections`,
          lineNum,
          nearMiss
            ? `Rename the section heading above it to '## ${nearMiss}'.`
            : "Put entity headings under '## Inputs', '## Steps' or '## Outputs'.",
        );
      }
      if (section === "unknown") {
        // Sub-headings of free prose sections (## Notes, ## Usage) are prose, not entities.
        entity = undefined;
        continue;
      }
      if (!ID_PATTERN.test(id)) {
        throw parseError(
          `Invalid id '${id}' in '### ${id}'`,
          lineNum,
          "Ids start with a letter and use only letters, digits, '-' or '_' " +
            `(for example '### ${suggestId(id)}').`,
        );
      }
      const existing = result.entities.find((e) => e.section === section && e.id === id);
      if (existing) {
        throw parseError(
          `Duplicate id '${id}' in '## ${DISPLAY[section]}'`,
          lineNum,
          `'${id}' is already defined at line ${existing.line}; give one of them another id.`,
        );
      }
      entity = { id, line: lineNum, section, prose: [], items: [], blocks: [] };
      result.entities.push(entity);
      continue;
    }

    if (entity) {
      if (item) {
        const indent = raw.length - raw.trimStart().length;
        if (stripped === "" || indent >= item.indent) {
          item.lines.push(raw);
          continue;
        }
        flushItem();
      }
      const m = ITEM_RE.exec(raw);
      if (m) {
        item = { lines: [raw.trimEnd()], line: lineNum, indent: m[1].length + 2 };
        continue;
      }
      if (stripped !== "") entity.prose.push(stripped);
      continue;
    }

    if (titleFound && section === "none") {
      if (stripped !== "") titleProse.push(stripped);
      continue;
    }
    if (stripped !== "") orphan(lineNum);
  }
  flushItem();

  if (fence) {
    throw parseError(
      `Unclosed code block${fence.info ? ` '${fence.info}'` : ""}`,
      fence.line,
      `Add a closing fence (${fence.marker}) after the block that opens at line ${fence.line}.`,
    );
  }
  if (titleProse.length > 0) result.description = titleProse.join("\n");

  for (const [sec, lineNums] of orphans) {
    if (result.entities.some((e) => e.section === sec)) continue; // Python only warns here
    const first = Math.min(...lineNums);
    throw parseError(
      `'## ${DISPLAY[sec]}' has content but no '### id' entities (line ${first})`,
      first,
      `Put each entry under its own heading, for example:\n\n${ENTITY_EXAMPLE[sec]}`,
    );
  }
  if (!seenSections.has("steps")) {
    throw parseError(
      "Missing '## Steps' section",
      start + 1,
      `Every workflow needs a '## Steps' section with at least one step:\n\n## Steps\n\n${ENTITY_EXAMPLE.steps}`,
    );
  }
  if (!result.entities.some((e) => e.section === "steps")) {
    throw parseError(
      "The '## Steps' section has no steps",
      seenSections.get("steps"),
      `Add at least one step with a '### id' heading:\n\n${ENTITY_EXAMPLE.steps}`,
    );
  }
  return result;
}

function suggestId(id: string): string {
  const cleaned = id.toLowerCase().replace(/[^a-z0-9_-]+/g, "-").replace(/^[^a-z]+/, "")
    .replace(/-+$/, "");
  return cleaned || "my-step";
}

/** Section names as written in headings, for messages built in `_markdown_build.ts`. */
export const SECTION_DISPLAY = DISPLAY;
