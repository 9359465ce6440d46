/** Placeholder until this command group lands. */
import type { Command } from "./io.ts";

export const command: Command = (_args, io) => {
  io.stderr("Not implemented yet");
  return Promise.resolve(1);
};
