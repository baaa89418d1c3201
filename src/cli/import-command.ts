import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { importInstanceRows, importInstances, type ImportSummary } from '../catalog/import-instances.js';
import { parseOwnerMap } from '../catalog/owner-map.js';
import { parquetFile, readParquetRows } from '../catalog/read-parquet.js';
import { invalidInput, isAppError } from '../errors.js';
import { checkInstances, renderCheckTable, selectInstances, summarizeChecks } from '../instances-check/index.js';
import { pipelineDeps } from '../workers.js';
import { withDeps, type Io } from './context.js';
import { checkBackend } from './instances-command.js';

interface ImportCliOptions {
  upstreamOwner?: string;
  ownerMap?: string;
  dataset?: string;
  skipInvalid?: boolean;
  check?: boolean;
  backend?: string;
  json?: boolean;
}

/**
 * `ci-replay import <file>`: all or nothing by default (a file with a rejected row imports nothing, and every
 * rejected row is listed with its line and reason); `--skip-invalid` imports the valid rows; `--check` then checks
 * the imported instances as `instances check` does.
 */
export function registerImportCommand(program: Command, io: Io): void {
  program
    .command('import')
    .description('import instances from a CI-Repair-Bench-style JSONL or Parquet file (re-import is idempotent by id; a file with a rejected row imports nothing unless --skip-invalid)')
    .argument('<file>', 'JSONL file (one instance per line) or the released .parquet file')
    .option('--upstream-owner <owner>', 'override repo_owner with the upstream owner (every row)')
    .option('--owner-map <file>', 'JSON object mapping dataset owners to upstream owners, per repository: {"fork-owner/repo": "upstream-owner", "fork-owner": "upstream-owner"}')
    .option('--dataset <name>', 'dataset name recorded with each instance')
    .option('--skip-invalid', 'import the valid rows even when some rows are rejected')
    .option('--check', 'check the imported instances afterwards (commits, ground truth, workflow, preflight)')
    .option('--backend <backend>', 'with --check: whose preflight (local or github; default CI_BACKEND)')
    .option('--json', 'print the summary (and the check) as JSON')
    .action(async (file: string, options: ImportCliOptions) => {
      const backend = options.backend === undefined ? undefined : checkBackend(options.backend);
      if (backend !== undefined && options.check !== true) throw invalidInput('invalid_arguments', '--backend goes with --check');
      const ownerMap = options.ownerMap === undefined ? undefined : parseOwnerMap(await readMapFile(options.ownerMap), options.ownerMap);
      const ids: string[] = [];
      const parseOptions = {
        ...(options.upstreamOwner !== undefined ? { upstreamOwner: options.upstreamOwner } : {}),
        ...(ownerMap !== undefined ? { ownerMap } : {}),
        ...(options.dataset !== undefined ? { dataset: options.dataset } : {}),
        atomic: options.skipInvalid !== true,
        onValid: (id: string) => ids.push(id),
      };
      await withDeps(async (deps) => {
        let summary: ImportSummary;
        try {
          summary = file.endsWith('.parquet')
            ? await importInstanceRows(readParquetRows(await parquetFile(file)), deps.repos.instances, parseOptions)
            : await importInstances(createReadStream(file), deps.repos.instances, parseOptions);
        } catch (error) {
          if (!isAppError(error) || error.code !== 'rows_rejected') throw error;
          const rejected = error.details as ImportSummary;
          if (options.json === true) io.out(JSON.stringify({ imported: false, ...rejected }, null, 2));
          printRejected(io, rejected);
          io.err(`nothing was imported: ${rejected.failed} of ${rejected.failed + ids.length} row(s) were rejected; fix them, or pass --skip-invalid to import the ${ids.length} valid row(s)`);
          process.exitCode = 2;
          return;
        }
        if (options.json !== true) {
          io.out(`created ${summary.created}, updated ${summary.updated}, unchanged ${summary.unchanged}, failed ${summary.failed}`);
          printRejected(io, summary);
        }
        if (summary.failed > 0 && summary.created + summary.updated + summary.unchanged === 0) process.exitCode = 2;
        if (options.check !== true) {
          if (options.json === true) io.out(JSON.stringify(summary, null, 2));
          return;
        }
        const pipeline = await pipelineDeps(deps);
        const instances = await selectInstances(deps.repos.instances, { instanceIds: ids });
        const results = await checkInstances(pipeline, instances, backend === undefined ? {} : { backend });
        if (options.json === true) io.out(JSON.stringify({ ...summary, check: { summary: summarizeChecks(results), results } }, null, 2));
        else for (const line of ['', ...renderCheckTable(results)]) io.out(line);
        if (results.some((result) => !result.ok) && process.exitCode === undefined) process.exitCode = 1;
      });
    });
}

function printRejected(io: Io, summary: ImportSummary): void {
  for (const error of summary.errors) io.err(`line ${error.line}${error.id === null ? '' : ` (id ${error.id})`}: ${error.code}: ${error.message}`);
  if (summary.failed > summary.errors.length) io.err(`… and ${summary.failed - summary.errors.length} more rejected row(s)`);
}

async function readMapFile(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw invalidInput('file_not_found', `cannot read the owner map ${file}: ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}`);
  }
}
