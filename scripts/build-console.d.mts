/** Types of scripts/build-console.mjs, for the tests that build the console before they load it. */
export interface ConsoleManifest {
  script: string;
  style: string;
}
/** Builds dist/console unless it is up to date; answers the names of its files. */
export function buildConsole(): Promise<ConsoleManifest>;
