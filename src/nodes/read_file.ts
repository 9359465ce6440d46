/**
 * The `read-file` node: reads a whole file as UTF-8 text or base64. Needs --allow-read on the path.
 */
import { encodeBase64 } from "./_base64.ts";
import { fsErrorMessage } from "./_fs_errors.ts";
import { readParams } from "./_params.ts";
import { resolvePath } from "./_paths.ts";
import type { NodeInterface } from "../core/node_interface.ts";
import { fail, type NodeContext, type NodeImpl, type NodeResult, ok } from "./types.ts";

const readFileInterface: NodeInterface = {
  type: "read-file",
  description:
    "Read a file's content as text (utf8) or base64. Relative paths resolve against the current directory.",
  params: {
    file_path: { type: "string", required: true, description: "The file to read" },
    encoding: {
      type: "string",
      default: "utf8",
      enum: ["utf8", "utf-8", "base64"],
      description: "utf8 for text; base64 for binary files",
    },
  },
  outputs: {
    content: { type: "string", description: "The file's content" },
    path: { type: "string", description: "The absolute path that was read" },
    size: { type: "integer", description: "The file's size in bytes" },
  },
  actions: ["default", "error"],
  category: "core",
};

async function readFile(raw: Record<string, unknown>, ctx: NodeContext): Promise<NodeResult> {
  const checked = readParams(readFileInterface, raw);
  if (!checked.ok) return fail(checked.error);
  const path = resolvePath(ctx.cwd, checked.values.file_path as string);
  let bytes: Uint8Array;
  try {
    bytes = await Deno.readFile(path);
  } catch (err) {
    return fail(fsErrorMessage(err, "read", path));
  }
  if (checked.values.encoding === "base64") {
    return ok({ content: encodeBase64(bytes), path, size: bytes.length });
  }
  let content: string;
  try {
    content = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return fail(`${path} is not valid UTF-8 text; read it with encoding: base64`);
  }
  return ok({ content, path, size: bytes.length });
}

export const readFileNode: NodeImpl = { interface: readFileInterface, run: readFile };
