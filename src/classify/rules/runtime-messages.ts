import type { Rule } from './rule.js';

/**
 * Runtime failures printed without the usual exception header: glibc's heap checks abort a native program, and an
 * action's `##[error]` that is a JavaScript TypeError's message without its name.
 */
export const RUNTIME_MESSAGE_RULES: Rule[] = [
  {
    id: 'glibc-heap-abort',
    type: 'Runtime Error',
    tool: 'glibc',
    linePattern: /^(?:free\(\): (?:invalid (?:pointer|size|next size \(\w+\))|double free detected in tcache 2)|double free or corruption \([!\w]+\)|munmap_chunk\(\): invalid pointer|malloc\(\): (?:corrupted top size|memory corruption|unaligned tcache chunk detected)|corrupted size vs\. prev_size|\*\*\* stack smashing detected \*\*\*: (?:\S+ )?terminated)$/,
    example: { command: './run-tests.sh', lines: ['free(): invalid pointer'] },
  },
  {
    id: 'js-property-of-undefined',
    type: 'Runtime Error',
    tool: 'node',
    linePattern: /^Cannot read propert(?:y '[^']+'|ies) of (?:undefined|null)/,
    example: { command: 'pavi2410/html-preview-action@v1', lines: ["##[error]Cannot read property 'number' of undefined"] },
  },
];
