import type { Readable } from 'node:stream';
import type { InstanceInput, InstanceRepository } from '../db/index.js';
import { invalidInput } from '../errors.js';
import { readLines } from '../util/read-lines.js';
import { createSpool } from '../util/spool.js';
import { parseInstanceLine, parseInstanceObject, type ParseOptions, type ParseResult, type RowError } from './parse-instance.js';

export interface ImportSummary {
  created: number;
  updated: number;
  unchanged: number;
  failed: number;
  errors: RowError[];
}

export interface ImportOptions extends ParseOptions {
  /** Any rejected row refuses the whole import (422 `rows_rejected`, nothing written); default: valid rows are imported. */
  atomic?: boolean;
  /** Called with the id of every valid row (e.g. to check the imported instances afterwards). */
  onValid?: (id: string) => void;
}

export interface JsonlImportOptions extends ImportOptions {
  maxLineBytes?: number;
  maxTotalBytes?: number;
  /** See ReadLinesOptions.drainBytes (an HTTP body). */
  drainBytes?: number;
}

const MAX_REPORTED_ERRORS = 1000;

/**
 * Imports a JSONL stream: every line is parsed and checked (and the stream's size with it) before anything is
 * written, then the valid rows are upserted by instance id in one transaction (re-import is idempotent); malformed
 * rows are reported and skipped. Memory holds one row: parsed rows wait in a spool on disk.
 */
export async function importInstances(input: Readable, repository: InstanceRepository, options: JsonlImportOptions = {}): Promise<ImportSummary> {
  const limits = {
    maxLineBytes: options.maxLineBytes ?? 256 * 1024 * 1024,
    ...(options.maxTotalBytes !== undefined ? { maxTotalBytes: options.maxTotalBytes } : {}),
    ...(options.drainBytes !== undefined ? { drainBytes: options.drainBytes } : {}),
  };
  async function* parsed(): AsyncGenerator<ParseResult> {
    for await (const { line, number } of readLines(input, limits)) {
      if (line.trim() !== '') yield parseInstanceLine(line, number, options);
    }
  }
  return importParsed(parsed(), repository, options);
}

/** Imports parsed rows (e.g. from a Parquet file); same checks first, same transaction, same reporting. */
export async function importInstanceRows(rows: AsyncIterable<unknown>, repository: InstanceRepository, options: ImportOptions = {}): Promise<ImportSummary> {
  async function* parsed(): AsyncGenerator<ParseResult> {
    let number = 0;
    for await (const row of rows) {
      number += 1;
      yield parseInstanceObject(row, number, options);
    }
  }
  return importParsed(parsed(), repository, options);
}

async function importParsed(results: AsyncIterable<ParseResult>, repository: InstanceRepository, options: ImportOptions): Promise<ImportSummary> {
  const summary: ImportSummary = { created: 0, updated: 0, unchanged: 0, failed: 0, errors: [] };
  const spool = await createSpool<InstanceInput>();
  try {
    for await (const result of results) {
      if (result.ok) {
        await spool.write(result.instance);
        options.onValid?.(result.instance.id);
        continue;
      }
      summary.failed += 1;
      if (summary.errors.length < MAX_REPORTED_ERRORS) summary.errors.push(result.error);
    }
    if (options.atomic === true && summary.failed > 0) {
      throw invalidInput('rows_rejected', `${summary.failed} of ${summary.failed + spool.count} rows were rejected and the import asked for all or nothing (atomic=true): nothing was imported; see details.errors`, summary, 422);
    }
    if (spool.count === 0) return summary;
    const counts = await repository.upsertMany(spool.chunks({ maxRecords: 100, maxBytes: 16 * 1024 * 1024 }));
    return { ...summary, ...counts };
  } finally {
    await spool.dispose();
  }
}
