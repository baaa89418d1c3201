/**
 * A compiler's `path:line[:col]:` diagnostic behind the `Error: ` that GitHub's web view (and a log copied from it)
 * shows in place of a problem matcher's `##[error]` marker, and the runner's exit-code line it shows the same way. A
 * diagnostic's path (a Windows drive allowed) needs an extension, so a time of day (`Error: 12:34:56 …`) keeps its
 * prefix.
 */
const WEB_VIEW_ERROR = /^Error: (?=(?:[A-Za-z]:)?[^\s:]+\.\w+:\d+(?::\d+)?:? |Process completed with exit code \d+\.$)/;

/**
 * The tool's own line: problem matchers turn tool output into `##[error]<tool line>` (warnings keep their marker, so
 * a tool's warnings are not read as its errors).
 */
export function toolLine(text: string): string {
  if (text.startsWith('##[error]')) return text.slice(9);
  if (text.startsWith('Error: ')) return text.replace(WEB_VIEW_ERROR, '');
  return text;
}
