import type { Config } from '../config.js';
import type { InstanceRow } from '../db/index.js';
import { renderTemplate, standardizeWorkflowText } from '../workflows/index.js';
import { countWorkflowJobs, type JobCount } from './job-count.js';

/**
 * Jobs the instance's standardized workflow will start, matrix expanded: the instance's workflow (or its template)
 * standardized with the options the prepare step uses, then counted. A workflow the standardizer rejects counts as
 * the raw workflow does (the prepare step then ends the submission anyway).
 */
export async function standardizedJobCount(instance: InstanceRow, config: Pick<Config, 'standardize'>): Promise<JobCount> {
  try {
    const metadata = (instance.metadata ?? {}) as { workflowTemplate?: string; templateValues?: Record<string, string> };
    if (metadata.workflowTemplate !== undefined) {
      const values: Record<string, string> = {
        ...(instance.pythonVersion === null ? {} : { python_version: instance.pythonVersion }),
        ...(instance.installCommand === null ? {} : { install_command: instance.installCommand }),
        ...metadata.templateValues,
      };
      return countWorkflowJobs(await renderTemplate(metadata.workflowTemplate, values));
    }
    const logs = Array.isArray(instance.logs) ? (instance.logs as { step_name?: unknown }[]) : [];
    const result = standardizeWorkflowText({
      text: instance.workflow,
      path: instance.workflowPath,
      options: {
        upstreamRepository: `${instance.repoOwner}/${instance.repoName}`,
        matrixStrategy: config.standardize.matrixStrategy,
        failedJobNames: logs.map((log) => String(log.step_name ?? '')).filter(Boolean),
      },
    });
    return countWorkflowJobs(result.text);
  } catch {
    return countWorkflowJobs(instance.workflow);
  }
}
