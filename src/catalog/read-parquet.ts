import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects, type AsyncBuffer } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';

const ROWS_PER_READ = 32;

/** An AsyncBuffer over bytes already in memory (an uploaded file). */
export function asyncBufferFromBytes(bytes: Buffer): AsyncBuffer {
  const view = new Uint8Array(bytes).buffer;
  return { byteLength: view.byteLength, slice: (start, end) => view.slice(start, end) };
}

export const parquetFile = (path: string): Promise<AsyncBuffer> => asyncBufferFromFile(path);

/**
 * Rows of a Parquet file (CI-Repair-Bench is released as `ci_repair_dataset.parquet`), read a few at a time so
 * memory holds only those rows. Values are made JSON-like: 64-bit integers become numbers (or strings when too
 * large), dates ISO strings.
 */
export async function* readParquetRows(file: AsyncBuffer): AsyncGenerator<Record<string, unknown>> {
  const metadata = await parquetMetadataAsync(file);
  const total = Number(metadata.num_rows);
  for (let start = 0; start < total; start += ROWS_PER_READ) {
    const rows = await parquetReadObjects({ file, metadata, rowStart: start, rowEnd: Math.min(total, start + ROWS_PER_READ), compressors });
    for (const row of rows) yield plain(row) as Record<string, unknown>;
  }
}

function plain(value: unknown): unknown {
  if (typeof value === 'bigint') return value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= BigInt(Number.MIN_SAFE_INTEGER) ? Number(value) : value.toString();
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(plain);
  if (value !== null && typeof value === 'object' && !(value instanceof Uint8Array)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, plain(item)]));
  return value;
}
