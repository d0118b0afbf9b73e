/** What --help prints: the usage, the flags and the exit codes (errors.ts). */
export function helpText(frameworks: readonly string[]): string {
  return `Usage: create-dcbkit-app <folder> [--framework ${frameworks.join('|')}] [--force] [--name NAME]
       npm create dcbkit-app <folder> -- --framework ${frameworks[0] ?? 'express'}   (once published)

Writes a standalone shop that sells subscriptions, passes and unlocks through carrier billing with
dcbkit: its pages, languages, tests (npm test), .env.example, Dockerfile and health checks. Run
from a clone of the dcbkit repository, it packs the repository's packages into the app's
dcbkit-packages/ (file: dependencies, installs offline); installed from the registry, it uses the
registry's.
  --framework  the web framework (default express): ${frameworks.join(', ')}
  --force      write into a folder that has files (the app's files are overwritten, others kept)
  --name       the package name (default: the folder's name)
  --workspace  workspace:^ dependencies, for an app inside the dcbkit repository
  --version    print the version
Exit codes: 0 written, 1 failure, 2 usage error, 3 folder not empty, 4 packing the repository's packages failed.`;
}
