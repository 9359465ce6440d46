/** pflow entry point: hands the command line to the CLI and exits with its code. */
import { main } from "./src/cli/main.ts";

if (import.meta.main) {
  Deno.exit(await main(Deno.args));
}
