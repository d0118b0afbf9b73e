import { jsonSyntaxErrorOffset, positionAt } from './json-position.js';
import { SandboxConfigError } from './sandbox-config-error.js';

/** Which file is read, for the message and the code of its error. */
export interface JsonFileKind {
  /** `Sandbox config`, `Sandbox state`: how the message names the file. */
  what: string;
  code: 'config_not_json' | 'state_not_json';
  /** Said after the message: what the reader can do about it. */
  hint?: string;
}

/**
 * JSON.parse, or a SandboxConfigError that names `file:line:column` of a syntax error and what was
 * found there, for the config file and the state file alike.
 */
export function parseJsonFile(text: string, path: string, kind: JsonFileKind): unknown {
  try {
    return JSON.parse(text);
  } catch (cause) {
    const offset = jsonSyntaxErrorOffset(text);
    const position = offset === undefined ? undefined : positionAt(text, offset);
    const where = position ? `${path}:${position.line}:${position.column}` : path;
    const found =
      offset === undefined
        ? ''
        : offset >= text.length
          ? ': unexpected end of file'
          : `: unexpected ${JSON.stringify(text[offset])}`;
    throw new SandboxConfigError(
      kind.code,
      `${kind.what} ${where} is not valid JSON${found}.${kind.hint ?? ''}`,
      {
        ...(position ? { position } : {}),
        cause,
      },
    );
  }
}
