import packageJson from '../../package.json';

/** The published package's version, for --version and the banner. */
export const SANDBOX_VERSION: string = packageJson.version;
