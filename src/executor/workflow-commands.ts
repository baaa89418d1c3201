/** A `::name key=value,...::message` workflow command printed by a step. */
export interface WorkflowCommand {
  name: string;
  properties: Record<string, string>;
  message: string;
}

const unescapeData = (s: string): string => s.replace(/%0D/gi, '\r').replace(/%0A/gi, '\n').replace(/%25/g, '%');
const unescapeProperty = (s: string): string =>
  s.replace(/%0D/gi, '\r').replace(/%0A/gi, '\n').replace(/%3A/gi, ':').replace(/%2C/gi, ',').replace(/%25/g, '%');

/** Parses a line as a workflow command (`::cmd props::data`), or returns null. */
export function parseWorkflowCommand(line: string): WorkflowCommand | null {
  const trimmed = line.trimStart();
  if (!trimmed.startsWith('::')) return null;
  const end = trimmed.indexOf('::', 2);
  if (end < 0) return null;
  const head = trimmed.slice(2, end);
  const space = head.indexOf(' ');
  const name = (space < 0 ? head : head.slice(0, space)).trim();
  if (!/^[A-Za-z][\w-]*$/.test(name)) return null;
  const properties: Record<string, string> = {};
  if (space >= 0) {
    for (const pair of head.slice(space + 1).split(',')) {
      const eq = pair.indexOf('=');
      if (eq <= 0) continue;
      properties[pair.slice(0, eq).trim()] = unescapeProperty(pair.slice(eq + 1));
    }
  }
  return { name: name.toLowerCase(), properties, message: unescapeData(trimmed.slice(end + 2)) };
}
