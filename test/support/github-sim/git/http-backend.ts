import { spawn } from 'node:child_process';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createGunzip } from 'node:zlib';
import type { Readable } from 'node:stream';
import { dirname, basename } from 'node:path';

const BACKEND = '/usr/lib/git-core/git-http-backend';

export interface CgiOptions {
  gitDir: string;
  /** Path after the repository directory, e.g. `/info/refs` or `/git-receive-pack`. */
  subPath: string;
  query: string;
  remoteUser: string;
  extraEnv: Record<string, string>;
  /** Awaited before the response ends (e.g. to create runs before `git push` returns). */
  beforeEnd?: (() => Promise<void>) | undefined;
}

/** Serves one smart-HTTP request through `git http-backend` (CGI), decompressing gzip request bodies. */
export function serveGitCgi(req: IncomingMessage, res: ServerResponse, options: CgiOptions): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(BACKEND, [], {
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        GIT_CONFIG_GLOBAL: '/dev/null',
        GIT_CONFIG_NOSYSTEM: '1',
        GIT_PROJECT_ROOT: dirname(options.gitDir),
        GIT_HTTP_EXPORT_ALL: '1',
        PATH_INFO: `/${basename(options.gitDir)}${options.subPath}`,
        REMOTE_USER: options.remoteUser,
        REMOTE_ADDR: req.socket.remoteAddress ?? '127.0.0.1',
        QUERY_STRING: options.query,
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        REQUEST_METHOD: req.method ?? 'GET',
        GIT_PROTOCOL: String(req.headers['git-protocol'] ?? ''),
        ...options.extraEnv,
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const body: Readable = req.headers['content-encoding'] === 'gzip' ? req.pipe(createGunzip()) : req;
    body.pipe(child.stdin);
    child.stdin.on('error', () => undefined);
    let headerBuffer = Buffer.alloc(0);
    let headersDone = false;
    let status = 200;
    child.stdout.on('data', (chunk: Buffer) => {
      if (headersDone) {
        res.write(chunk);
        return;
      }
      headerBuffer = Buffer.concat([headerBuffer, chunk]);
      const end = findHeaderEnd(headerBuffer);
      if (!end) return;
      headersDone = true;
      const lines = headerBuffer.subarray(0, end.index).toString('latin1').split(/\r?\n/);
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        if (colon < 0) continue;
        const name = line.slice(0, colon).trim();
        const value = line.slice(colon + 1).trim();
        if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10) || 200;
        else headers[name] = value;
      }
      res.writeHead(status, headers);
      res.write(headerBuffer.subarray(end.index + end.length));
    });
    child.stderr.on('data', () => undefined);
    child.on('error', reject);
    child.on('close', () => {
      if (!headersDone) {
        res.writeHead(500, { 'content-type': 'text/plain' });
        status = 500;
      }
      const finish = options.beforeEnd ? options.beforeEnd().catch((error: unknown) => console.error('github-sim: processing a git request failed', error)) : Promise.resolve();
      void finish.then(() => {
        res.end();
        resolve(status);
      });
    });
  });
}

function findHeaderEnd(buffer: Buffer): { index: number; length: number } | null {
  const crlf = buffer.indexOf('\r\n\r\n');
  const lf = buffer.indexOf('\n\n');
  if (crlf >= 0 && (lf < 0 || crlf <= lf)) return { index: crlf, length: 4 };
  if (lf >= 0) return { index: lf, length: 2 };
  return null;
}
