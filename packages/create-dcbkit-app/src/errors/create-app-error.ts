/**
 * Why create-dcbkit-app stopped, as a stable code a script may test, with its exit code:
 * - `invalid_command_line` (2): an unknown flag, a missing folder, an unknown framework;
 * - `folder_not_empty` (3): the target folder has files and `--force` was not given;
 * - `packing_failed` (4): building or packing this repository's packages failed;
 * - `template_broken` (1): the templates shipped with the generator are incomplete (a bug).
 */
export const CREATE_APP_ERROR_CODES = {
  invalid_command_line: 2,
  folder_not_empty: 3,
  packing_failed: 4,
  template_broken: 1,
} as const;

export type CreateAppErrorCode = keyof typeof CREATE_APP_ERROR_CODES;

/** Every refusal of the generator: one message saying what to do, and a stable `code`. */
export class CreateAppError extends Error {
  override readonly name = 'CreateAppError';

  constructor(
    readonly code: CreateAppErrorCode,
    message: string,
  ) {
    super(message);
  }

  /** The process exit code for this refusal. */
  get exitCode(): number {
    return CREATE_APP_ERROR_CODES[this.code];
  }
}
