import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import packageJson from '../../package.json';
import { EXIT_CODES } from './exit-codes.js';
import { type CliResult, runCli } from './run-cli.js';

const running: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((thing) => thing.close()));
});

async function run(argv: string[], env: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const result: CliResult = await runCli({
    argv,
    env,
    out: (text) => out.push(text),
    err: (text) => err.push(text),
  });
  if ('sandbox' in result) running.push(result.sandbox);
  return { result, out: out.join('\n'), err: err.join('\n') };
}

async function occupiedPort(): Promise<number> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  running.push({ close: () => new Promise((resolve) => server.close(() => resolve())) });
  return (server.address() as AddressInfo).port;
}

describe('runCli', () => {
  it('prints --version and --help and exits 0', async () => {
    expect(await run(['--version'])).toMatchObject({ result: { exitCode: 0 }, out: packageJson.version });
    const help = await run(['--help']);
    expect(help.result).toEqual({ exitCode: EXIT_CODES.OK });
    expect(help.out).toContain('Exit codes: 0 stopped cleanly, 1 failure, 2 usage error, 3 port in use');
  });

  it('answers a usage error with one line and exit code 2', async () => {
    const { result, err } = await run(['--verbose']);
    expect(result).toEqual({ exitCode: EXIT_CODES.USAGE });
    expect(err.split('\n')).toHaveLength(1);
    expect(err).toMatch(/^dcbkit-sandbox: Unknown option '--verbose'.*\(see --help\)$/);
  });

  it('answers a port in use with one line and exit code 3, for either environment', async () => {
    const port = await occupiedPort();
    const taken = await run(['--port', String(port)]);
    expect(taken.result).toEqual({ exitCode: EXIT_CODES.PORT_IN_USE });
    expect(taken.err).toBe(
      `dcbkit-sandbox: Port ${port} on 127.0.0.1 is already in use; choose another with --port or PORT (0 picks a free one).`,
    );
    const productionTaken = await run(['--port', '0', '--production-port', String(port)]);
    expect(productionTaken.result).toEqual({ exitCode: EXIT_CODES.PORT_IN_USE });
  });

  it('answers a broken config with its position and exit code 4', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dcbkit-cli-'));
    const path = join(dir, 'broken.json');
    writeFileSync(path, '{\n  "applications": [\n}');
    const { result, err } = await run(['--port', '0', '--config', path]);
    expect(result).toEqual({ exitCode: EXIT_CODES.CONFIG });
    expect(err).toBe(`dcbkit-sandbox: Sandbox config ${path}:3:1 is not valid JSON: unexpected "}".`);
  });

  it('starts on PORT with both environments and prints the banner', async () => {
    const { result, out } = await run([], { PORT: '0' });
    expect('sandbox' in result).toBe(true);
    expect(out).toContain('Sandbox environment');
    expect(out).toContain('Production environment');
  });
});

describe('the dcbkit-sandbox process', () => {
  it('exits with the code runCli chose', async () => {
    const cli = fileURLToPath(new URL('./main.ts', import.meta.url));
    const tsx = fileURLToPath(new URL('../../../../node_modules/.bin/tsx', import.meta.url));
    const exit = (argv: string[]) =>
      new Promise<{ code: number | null; stderr: string; stdout: string }>((resolve) => {
        execFile(tsx, [cli, ...argv], { timeout: 15_000 }, (error, stdout, stderr) =>
          resolve({ code: error ? (error.code as number) : 0, stdout, stderr }),
        );
      });
    const [version, usage] = await Promise.all([exit(['--version']), exit(['--port', 'x'])]);
    expect(version).toMatchObject({ code: 0, stdout: `${packageJson.version}\n` });
    expect(usage.code).toBe(EXIT_CODES.USAGE);
    expect(usage.stderr).toBe(
      'dcbkit-sandbox: --port must be a whole number from 0 to 65535, not "x". (see --help)\n',
    );
  });
});
