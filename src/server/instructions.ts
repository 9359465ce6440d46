/**
 * The texts pflow serves to agents: server instructions and the two guide resources. Each guide
 * can be replaced by a file of the same name in `PFLOW_HOME/instructions/` (read per request, so an
 * edit is seen at once). Needs --allow-read on PFLOW_HOME.
 */
import { join } from "node:path";
import { homePaths } from "../core/paths.ts";
import { INSTRUCTIONS_GUIDE } from "./instructions/instructions.ts";
import { SANDBOX_GUIDE } from "./instructions/sandbox.ts";

export { SERVER_INSTRUCTIONS } from "./instructions/server.ts";

export interface GuideResource {
  uri: string;
  name: string;
  title: string;
  description: string;
  /** File name of the override in PFLOW_HOME/instructions/. */
  file: string;
  text: string;
}

export const GUIDES: readonly GuideResource[] = [
  {
    uri: "pflow://instructions",
    name: "instructions",
    title: "Building pflow workflows",
    description:
      "The workflow format, node catalogue, templates, the build-validate-run-fix loop, common errors",
    file: "instructions.md",
    text: INSTRUCTIONS_GUIDE,
  },
  {
    uri: "pflow://instructions/sandbox",
    name: "instructions-sandbox",
    title: "pflow for sandboxed agents",
    description:
      "For agents with no shared filesystem or shell: send content, pass credentials as inputs",
    file: "sandbox.md",
    text: SANDBOX_GUIDE,
  },
];

/** The guide's text: the override file when there is one, else ours. */
export async function guideText(home: string, guide: GuideResource): Promise<string> {
  try {
    return await Deno.readTextFile(join(homePaths(home).instructions, guide.file));
  } catch {
    return guide.text;
  }
}
