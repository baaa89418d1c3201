import { createHash } from 'node:crypto';
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync, appendFileSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { systemTool } from '../sandbox/host-commands.js';
import { engineApi } from './engine-api.js';
import { cli, cliEnv } from './runtime.js';
import type { ContainerRuntime } from './runtime.js';
import type { ImageRecipe } from './image-recipes.js';
import { RECIPES, RUNNER_RECIPE } from './image-recipes.js';

export type { ImageRecipe } from './image-recipes.js';
export { POSTGRES_RECIPE, RECIPES, REDIS_RECIPE, RUNNER_RECIPE } from './image-recipes.js';

/** Bumped when the build steps change (the tag changes with it, so old images are not reused). */
const BUILDER_VERSION = 1;

/** `ci-replay/<name>:<first 12 hex of sha256(recipe)>`: a later build of the same recipe is a no-op. */
export function imageTag(recipe: ImageRecipe): string {
  const hash = createHash('sha256').update(JSON.stringify({ v: BUILDER_VERSION, ...recipe })).digest('hex').slice(0, 12);
  return `ci-replay/${recipe.name}:${hash}`;
}

export async function imageExists(runtime: ContainerRuntime, image: string): Promise<boolean> {
  const api = engineApi(runtime);
  const answer = api === null ? null : await api.call('GET', `/images/${encodeURIComponent(image)}/json`, undefined, 30_000).catch(() => null);
  if (answer !== null && (answer.status === 200 || answer.status === 404)) return answer.status === 200;
  const r = await cli(runtime, ['image', 'inspect', '--format', '{{.Id}}', image], { timeoutMs: 30_000 });
  return r.code === 0;
}

export interface BuildOptions {
  runtime: ContainerRuntime;
  /** Debian mirror debootstrap downloads from. */
  mirror: string;
  /**
   * Kept .deb files (debootstrap --cache-dir, one folder per recipe: `<cacheDir>/<recipe>`), so rebuilding a changed
   * recipe downloads only what changed, and recipes can be built at the same time without sharing a download folder.
   */
  cacheDir: string;
  /** Scratch space for the root file system (removed afterwards). */
  workDir: string;
  /** Progress lines. */
  onLine?: (line: string) => void;
  force?: boolean;
}

function run(file: string, args: string[], onLine: (line: string) => void, stdoutTo?: NodeJS.WritableStream): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(file, args, { env: cliEnv({ daemonEnv: {} }), stdio: ['ignore', stdoutTo === undefined ? 'pipe' : 'pipe', 'pipe'] });
    let tail = '';
    const feed = (chunk: Buffer): void => {
      const text = tail + chunk.toString('utf8');
      const lines = text.split('\n');
      tail = lines.pop() ?? '';
      for (const l of lines) onLine(l);
    };
    if (stdoutTo !== undefined) child.stdout?.pipe(stdoutTo);
    else child.stdout?.on('data', feed);
    child.stderr?.on('data', feed);
    child.on('error', (e) => {
      onLine(e.message);
      resolve(127);
    });
    child.on('close', (code) => resolve(code ?? 1));
  });
}

/** Post-debootstrap touches made from the host (never apt-get inside a container): a `runner` user, /__e, no caches. */
function finishRootfs(root: string, recipe: ImageRecipe): void {
  appendFileSync(join(root, 'etc', 'passwd'), 'runner:x:1001:1001:runner:/home/runner:/bin/bash\n');
  appendFileSync(join(root, 'etc', 'group'), 'runner:x:1001:\n');
  mkdirSync(join(root, 'home', 'runner'), { recursive: true, mode: 0o755 });
  mkdirSync(join(root, '__e'), { recursive: true, mode: 0o755 });
  for (const dir of [join(root, 'var', 'cache', 'apt', 'archives'), join(root, 'var', 'lib', 'apt', 'lists')]) {
    if (!existsSync(dir)) continue;
    for (const entry of readdirSync(dir)) if (entry.endsWith('.deb') || entry.endsWith('_Packages') || entry.endsWith('Release')) rmSync(join(dir, entry), { force: true });
  }
  if (!existsSync(join(root, 'usr', 'bin', 'python')) && existsSync(join(root, 'usr', 'bin', 'python3'))) symlinkSync('python3', join(root, 'usr', 'bin', 'python'));
  for (const path of recipe.remove ?? []) rmSync(join(root, path), { recursive: true, force: true });
  for (const [path, file] of Object.entries(recipe.files ?? {})) {
    mkdirSync(dirname(join(root, path)), { recursive: true, mode: 0o755 });
    writeFileSync(join(root, path), file.content, { mode: file.mode });
    chmodSync(join(root, path), file.mode);
  }
  writeFileSync(join(root, 'etc', 'ci-replay-image'), 'built by ci-replay images build (debootstrap + docker import)\n');
}

/**
 * Builds a recipe's image unless its tag exists: debootstrap (minbase + the recipe's packages) into a scratch
 * directory on the host, small touches from the host, then `tar | docker import` with the recipe's Env/Cmd.
 * Returns the tag and whether it was built now.
 */
export async function buildImage(recipe: ImageRecipe, options: BuildOptions): Promise<{ tag: string; built: boolean; seconds: number }> {
  const tag = imageTag(recipe);
  const started = Date.now();
  const say = options.onLine ?? (() => undefined);
  if (!options.force && (await imageExists(options.runtime, tag))) return { tag, built: false, seconds: 0 };
  const debootstrap = systemTool('debootstrap');
  if (debootstrap === null) throw new Error('debootstrap is not installed (apt-get install debootstrap; scripts/setup-machine installs it)');
  const tar = systemTool('tar');
  if (tar === null) throw new Error('tar is not installed');
  const cacheDir = join(options.cacheDir, recipe.name);
  mkdirSync(cacheDir, { recursive: true });
  mkdirSync(options.workDir, { recursive: true });
  const scratch = mkdtempSync(join(options.workDir, `${recipe.name}-`));
  const root = join(scratch, 'root');
  try {
    say(`debootstrap ${recipe.suite} (${recipe.packages.length} packages) from ${options.mirror}`);
    const code = await run(
      debootstrap,
      ['--variant=minbase', `--cache-dir=${cacheDir}`, `--include=${recipe.packages.join(',')}`, recipe.suite, root, options.mirror],
      (line) => {
        if (/^[EW]:/.test(line)) say(line);
      },
    );
    if (code !== 0) throw new Error(`debootstrap failed with exit code ${code} (see ${join(root, 'debootstrap', 'debootstrap.log')})`);
    finishRootfs(root, recipe);
    say(`docker import ${tag}`);
    const importArgs = ['import', ...recipe.changes.flatMap((c) => ['--change', c]), '-', tag];
    const importer = spawn(options.runtime.bin, importArgs, { env: cliEnv(options.runtime), stdio: ['pipe', 'pipe', 'pipe'] });
    // an import that fails closes its stdin: report its message, not tar's EPIPE
    importer.stdin.on('error', () => undefined);
    let importErr = '';
    importer.stderr.on('data', (c: Buffer) => {
      importErr += c.toString('utf8');
    });
    const imported = new Promise<number>((resolve) => importer.on('close', (c) => resolve(c ?? 1)));
    const tarCode = await run(tar, ['-C', root, '--numeric-owner', '--xattrs', '-c', '.'], say, importer.stdin);
    const importCode = await imported;
    if (tarCode !== 0 || importCode !== 0) throw new Error(`docker import failed (tar ${tarCode}, import ${importCode}): ${importErr.trim()}`);
    return { tag, built: true, seconds: (Date.now() - started) / 1000 };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

export interface ListedImage {
  repository: string;
  tag: string;
  id: string;
  size: string;
  created: string;
  /** The recipe whose current tag this is, when it is one. */
  current: string | null;
}

/** The project's images (`ci-replay/*`), marking which are the current recipes' tags. */
export async function listImages(runtime: ContainerRuntime): Promise<ListedImage[]> {
  const r = await cli(runtime, ['image', 'ls', '--format', '{{json .}}', 'ci-replay/*'], { timeoutMs: 30_000 });
  if (r.code !== 0) throw new Error(`${runtime.kind} image ls failed: ${r.stderr.trim()}`);
  const current = new Map(RECIPES.map((recipe) => [imageTag(recipe), recipe.name]));
  return r.stdout
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as { Repository: string; Tag: string; ID: string; Size: string; CreatedSince: string })
    .map((i) => ({ repository: i.Repository, tag: i.Tag, id: i.ID, size: i.Size, created: i.CreatedSince, current: current.get(`${i.Repository}:${i.Tag}`) ?? null }));
}

/**
 * Pulls an image from its registry, anonymously (registry credentials are never passed). Fails with the runtime's
 * message when no registry is reachable (an offline machine: build the runner image instead).
 */
export async function pullImage(runtime: ContainerRuntime, image: string, timeoutMs = 600_000): Promise<{ ok: true } | { ok: false; message: string }> {
  const r = await cli(runtime, ['pull', '--quiet', image], { timeoutMs });
  if (r.code === 0) return { ok: true };
  const detail = (r.stderr.trim().split('\n').pop() ?? '').slice(0, 300);
  return { ok: false, message: `cannot pull ${image}: ${detail || `${runtime.kind} pull exited ${r.code}`} (no registry reachable? build images with \`ci-replay images build\`)` };
}

/** The image a job runs in: `container.image`, else a label override, else LOCAL_RUNNER_IMAGE, else the built runner. */
export function runnerImageFor(labels: string[], settings: { runnerImage: string; labelImages: Record<string, string> }): string {
  for (const label of labels) {
    const image = settings.labelImages[label];
    if (image !== undefined) return image;
  }
  return settings.runnerImage !== '' ? settings.runnerImage : imageTag(RUNNER_RECIPE);
}
