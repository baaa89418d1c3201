import type { Readable } from 'node:stream';
import type { InstanceRepository } from '../db/index.js';
import { readLines } from '../util/read-lines.js';
import { parseInstanceLine, parseInstanceObject, type ParseOptions, type RowError } from './parse-instance.js';

export interface ImportSummary {
  created: number;
  updated: number;
  unchanged: number;
  failed: number;
  errors: RowError[];
}

const MAX_REPORTED_ERRORS = 1000;

/**
 * Imports a JSONL stream line by line (memory bounded by one row): valid rows are upserted by instance id
 * (re-import is idempotent), malformed rows are reported and skipped.
 */
export async function importInstances(
  input: Readable,
  repository: InstanceRepository,
  options: ParseOptions & { maxLineBytes?: number; maxTotalBytes?: number } = {},
): Promise<ImportSummary> {
  const summary: ImportSummary = { created: 0, updated: 0, unchanged: 0, failed: 0, errors: [] };
  const limits = { maxLineBytes: options.maxLineBytes ?? 256 * 1024 * 1024, ...(options.maxTotalBytes !== undefined ? { maxTotalBytes: options.maxTotalBytes } : {}) };
  for await (const { line, number: lineNumber } of readLines(input, limits)) {
    if (line.trim() === '') continue;
    const result = parseInstanceLine(line, lineNumber, options);
    if (!result.ok) {
      summary.failed += 1;
      if (summary.errors.length < MAX_REPORTED_ERRORS) summary.errors.push(result.error);
      continue;
    }
    const outcome = await repository.upsert(result.instance);
    summary[outcome] += 1;
  }
  return summary;
}

/** Imports parsed rows (e.g. from a Parquet file); same reporting and idempotency as the JSONL import. */
export async function importInstanceRows(rows: AsyncIterable<unknown>, repository: InstanceRepository, options: ParseOptions = {}): Promise<ImportSummary> {
  const summary: ImportSummary = { created: 0, updated: 0, unchanged: 0, failed: 0, errors: [] };
  let rowNumber = 0;
  for await (const row of rows) {
    rowNumber += 1;
    const result = parseInstanceObject(row, rowNumber, options);
    if (!result.ok) {
      summary.failed += 1;
      if (summary.errors.length < MAX_REPORTED_ERRORS) summary.errors.push(result.error);
      continue;
    }
    summary[await repository.upsert(result.instance)] += 1;
  }
  return summary;
}
