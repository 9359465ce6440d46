/**
 * YAML frontmatter of a `.pflow.md` file: `---` on the first line, YAML, `---`. It holds
 * metadata only (saved-workflow statistics and the like); the body after it is the author's
 * markdown and is kept byte for byte.
 */
import { stringify as stringifyYaml } from "yaml";
import { PflowError } from "./errors.ts";
import { parseYamlFragment, YAML_STRINGIFY_OPTIONS, YamlFragmentError } from "./_markdown_yaml.ts";

export interface SplitFrontmatter {
  metadata: Record<string, unknown>;
  body: string;
  /** How many lines the frontmatter took (0 when there is none): body line 1 is file line this+1. */
  bodyLineOffset: number;
}

/** One line with its terminator, so the body can be cut out byte for byte. */
function* linesWithEnds(
  text: string,
): Generator<{ line: string; start: number; end: number }> {
  const re = /\r\n|\r|\n/g;
  let start = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    yield { line: text.slice(start, m.index), start, end: m.index + m[0].length };
    start = m.index + m[0].length;
  }
  if (start < text.length) yield { line: text.slice(start), start, end: text.length };
}

/**
 * Splits a file into its frontmatter metadata and its body. A first line `---` without a
 * closing `---` is not frontmatter (the whole text is body). Frontmatter that is valid YAML but
 * not a mapping is consumed and gives `{}`, as the Python pflow does.
 *
 * @throws PflowError `parse` when the frontmatter is not valid YAML.
 */
export function splitFrontmatterWithOffset(text: string): SplitFrontmatter {
  const lines = linesWithEnds(text);
  const first = lines.next();
  if (first.done || first.value.line.trimEnd() !== "---") {
    return { metadata: {}, body: text, bodyLineOffset: 0 };
  }
  const yamlStart = first.value.end;
  let count = 1;
  for (const { line, start, end } of lines) {
    count++;
    if (line.trimEnd() !== "---") continue;
    const metadata = parseFrontmatterYaml(text.slice(yamlStart, start));
    return { metadata, body: text.slice(end), bodyLineOffset: count };
  }
  return { metadata: {}, body: text, bodyLineOffset: 0 };
}

function parseFrontmatterYaml(yamlText: string): Record<string, unknown> {
  let data: unknown;
  try {
    data = parseYamlFragment(yamlText);
  } catch (err) {
    if (!(err instanceof YamlFragmentError)) throw err;
    throw new PflowError("parse", `Invalid YAML in frontmatter: ${err.message}`, {
      suggestion: "Fix the YAML between the two '---' lines at the top of the file, " +
        "or remove the frontmatter (it holds metadata only).",
      details: { line: 1 + err.fragmentLine },
    });
  }
  return isRecord(data) ? data : {};
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Frontmatter metadata and the body after it (byte for byte). */
export function splitFrontmatter(
  text: string,
): { metadata: Record<string, unknown>; body: string } {
  const { metadata, body } = splitFrontmatterWithOffset(text);
  return { metadata, body };
}

/**
 * The file text for `metadata` + `body`; `splitFrontmatter` of the result gives both back.
 * Empty metadata writes no frontmatter, unless the body itself would read as frontmatter.
 */
export function serializeFrontmatter(metadata: Record<string, unknown>, body: string): string {
  if (Object.keys(metadata).length === 0 && splitFrontmatterWithOffset(body).bodyLineOffset === 0) {
    return body;
  }
  return `---\n${stringifyYaml(metadata, YAML_STRINGIFY_OPTIONS)}---\n${body}`;
}
