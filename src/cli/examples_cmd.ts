/**
 * `pflow examples [show NAME | run NAME [key=value…] [--json]]`: the example workflows built into
 * pflow. They are embedded (src/examples.ts), so they list, print and run from any directory with
 * the binary alone; `show` prints the markdown to copy and edit.
 */
import { PflowError } from "../core/errors.ts";
import { closestMatches } from "../core/suggest.ts";
import { EXAMPLES } from "../examples.ts";
import { type Command, UsageError } from "./io.ts";
import { runCommand } from "./run_cmd.ts";
import { descriptionFromBody } from "../library/store.ts";

/** The embedded text of one example. @throws PflowError `not_found` naming the examples. */
export function exampleText(name: string): string {
  const text = Object.hasOwn(EXAMPLES, name) ? EXAMPLES[name] : undefined;
  if (text !== undefined) return text;
  const close = closestMatches(name, new Set(Object.keys(EXAMPLES)));
  throw new PflowError("not_found", `No example workflow named '${name}'`, {
    suggestion: close.length
      ? `Did you mean ${close.map((c) => `'${c}'`).join(", ")}?`
      : `Examples: ${Object.keys(EXAMPLES).join(", ")}`,
    details: { name },
  });
}

/** The first line after the title: what the example does. */
/** The description's first sentence, on one line. */
function summary(text: string): string {
  const description = descriptionFromBody(text);
  return description.match(/^.*?[.!?](?=\s|$)/)?.[0] ?? description;
}

export const command: Command = (args, io) => {
  const [sub, name, ...rest] = args;
  if (sub === undefined || sub === "list") {
    const names = Object.keys(EXAMPLES).sort();
    const width = Math.max(...names.map((n) => n.length));
    io.stdout(names.map((n) => `${n.padEnd(width)}  ${summary(EXAMPLES[n])}`).join("\n"));
    io.stdout(
      "\nRun one with 'pflow examples run NAME [key=value…]'; print it with 'pflow examples show NAME'.",
    );
    return Promise.resolve(0);
  }
  if (sub !== "show" && sub !== "run") {
    throw new UsageError(
      `Unknown examples command '${sub}'`,
      "Usage: pflow examples [list|show NAME|run NAME]",
    );
  }
  if (!name) {
    throw new UsageError(
      `examples ${sub} needs an example name`,
      "Run 'pflow examples' to list them",
    );
  }
  const text = exampleText(name);
  if (sub === "show") {
    io.stdout(text);
    return Promise.resolve(0);
  }
  // Markdown text is a workflow reference of its own: run resolves it like a file's content.
  return runCommand([text, ...rest], io);
};
