/** What the CLI gets from its process: the arguments, the environment, and where to write. */
export interface CliIo {
  argv: string[];
  env: Record<string, string | undefined>;
  out: (text: string) => void;
  err: (text: string) => void;
}
