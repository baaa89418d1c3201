/** Column alignment in text and markdown output. */
export type Align = 'left' | 'right';

/** A format-neutral table: header, alignment and string cells. */
export interface TableModel {
  title: string;
  columns: { header: string; align: Align }[];
  rows: string[][];
  /** Lines printed under the table in text and markdown output (not in CSV). */
  notes?: string[];
}
