import { stat } from 'node:fs/promises';
import type { Command } from 'commander';
import { classifyJob, openLogFile, type Label } from '../classify/index.js';
import { invalidInput } from '../errors.js';
import type { Io } from './context.js';

/** `ci-replay classify <logfile> [--json]`: why a job log failed, in the 12 CI error types, with evidence. */
export function registerClassifyCommand(program: Command, io: Io): void {
  program
    .command('classify')
    .description('classify a job log on disk (GitHub raw log, gh run view --log output, or plain tool output) into the 12 CI error types')
    .argument('<logfile>', 'the log file')
    .option('--json', 'print the labels, evidence and findings as JSON')
    .option('--conclusion <conclusion>', "the job's conclusion, when known: success gives no labels; failure also lets the learned fallback label output no rule explains (shown as learned)")
    .action(async (file: string, options: { json?: boolean; conclusion?: string }) => {
      const info = await stat(file).catch(() => null);
      if (info === null || !info.isFile()) throw invalidInput('file_not_found', `no log file at ${file}`);
      const result = await classifyJob({ log: openLogFile(file), ...(options.conclusion !== undefined ? { jobConclusion: options.conclusion } : {}) });
      if (options.json === true) {
        io.out(JSON.stringify({ labels: result.labels, failedSteps: result.failedSteps, errorLines: result.errorLines.slice(0, 50) }, null, 2));
        return;
      }
      if (result.labels.length === 0) {
        io.out(result.failedSteps.length === 0 ? 'no failure found' : `failed steps: ${result.failedSteps.join(', ')} (no known error type)`);
        return;
      }
      io.out(`failed steps: ${result.failedSteps.join(', ')}`);
      for (const label of result.labels) {
        io.out(`\n${label.type}${labelSource(label)}${label.stepName === undefined ? '' : ` in "${label.stepName}"`}`);
        for (const evidence of label.evidence.slice(0, 3)) io.out(`  lines ${evidence.startLine}-${evidence.endLine}: ${evidence.text.split('\n')[0]?.slice(0, 160) ?? ''}`);
        for (const finding of label.findings.slice(0, 10)) io.out(`  ${finding.path}:${finding.line}: ${finding.message}`);
      }
    });
}

/** What gave a label: ` (ruff)`, or ` (learned, p=0.62)` for the learned fallback. */
function labelSource(label: Label): string {
  if (label.learned !== undefined) return ` (learned, p=${label.learned.probability})`;
  return label.tool === undefined ? '' : ` (${label.tool})`;
}
