import type { Command } from 'commander';
import { buildImage, detectRuntime, imageTag, listImages, pullImage, RECIPES } from '../executor/container/index.js';
import { invalidInput } from '../errors.js';
import { cliConfig, type Io } from './context.js';

async function runtimeOrFail(): Promise<NonNullable<Awaited<ReturnType<typeof detectRuntime>>['runtime']>> {
  const config = cliConfig();
  const choice = config.executor.container.runtime === 'host' ? 'auto' : config.executor.container.runtime;
  const { runtime, reason } = await detectRuntime(choice, config.executor.container.daemonEnv);
  if (runtime === null) throw invalidInput('no_container_runtime', `no container runtime answers (${reason}): install docker.io and start dockerd (npm run setup does)`);
  return runtime;
}

/** `ci-replay images build|list|pull`: the runner and service images of the container runtime (docs/local-containers.md). */
export function registerImagesCommand(program: Command, io: Io): void {
  const images = program.command('images').description('runner and service images for jobs in containers (built from Debian packages)');
  images
    .command('build')
    .description('build the runner and service images with debootstrap + docker import, tagged by a hash of their recipe (a no-op when built)')
    .option('--only <name>', `one recipe: ${RECIPES.map((r) => r.name).join(', ')}`)
    .option('--force', 'rebuild even when the tag exists')
    .option('--json', 'print JSON')
    .action(async (options: { only?: string; force?: boolean; json?: boolean }) => {
      const config = cliConfig();
      const runtime = await runtimeOrFail();
      const recipes = RECIPES.filter((r) => options.only === undefined || r.name === options.only);
      if (recipes.length === 0) throw invalidInput('unknown_image', `no recipe named '${options.only ?? ''}' (known: ${RECIPES.map((r) => r.name).join(', ')})`);
      const results = [];
      for (const recipe of recipes) {
        if (options.json !== true) io.out(`${recipe.name}: ${imageTag(recipe)} — ${recipe.description}`);
        const result = await buildImage(recipe, {
          runtime, ...config.executor.images, force: options.force === true,
          onLine: (line) => {
            if (options.json !== true) io.out(`  ${line}`);
          },
        });
        results.push({ name: recipe.name, ...result });
        if (options.json !== true) io.out(result.built ? `  built in ${result.seconds.toFixed(1)} s` : '  already built');
      }
      if (options.json === true) io.out(JSON.stringify(results, null, 2));
    });
  images
    .command('list')
    .description("the project's images (ci-replay/*), marking the current recipes' tags")
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      const runtime = await runtimeOrFail();
      const listed = await listImages(runtime);
      if (options.json === true) {
        io.out(JSON.stringify(listed, null, 2));
        return;
      }
      for (const recipe of RECIPES) {
        const tag = imageTag(recipe);
        const present = listed.some((i) => `${i.repository}:${i.tag}` === tag);
        io.out(`${tag}  ${present ? 'built' : 'missing (ci-replay images build)'}  ${recipe.name}: ${recipe.description}`);
      }
      for (const i of listed.filter((l) => l.current === null)) io.out(`${i.repository}:${i.tag}  ${i.size}  ${i.created} (not a current recipe)`);
    });
  images
    .command('pull')
    .description('pull an image anonymously (registry credentials are never used); fails clearly where no registry is reachable')
    .argument('<image>', 'e.g. redis:7')
    .action(async (image: string) => {
      const runtime = await runtimeOrFail();
      const pulled = await pullImage(runtime, image);
      if (!pulled.ok) {
        io.err(pulled.message);
        process.exitCode = 1;
        return;
      }
      io.out(`pulled ${image}`);
    });
}
