/**
 * Reads DSH's own session log. rc.8 stores it zstd-compressed (`sessions/<cwd-slug>/<id>/session.jsonl.zstd`)
 * and Node 20's zlib has no zstd, so the decompression runs in the Node >= 22.15 binary the lab already has
 * (its built-in `zlib.zstdDecompressSync`) instead of adding a dependency.
 */
import fs from 'node:fs';
import path from 'node:path';
import { runStep } from './child-process.js';

/** One durable session event (`tool/call`, `tool/result`, `tool/code-dispatch`, `assistant/message`, ...). */
export interface SessionEvent {
  type: string;
  seq?: number;
  data?: unknown;
  [key: string]: unknown;
}

const DECOMPRESS =
  "const z=require('node:zlib'),f=require('node:fs');process.stdout.write(z.zstdDecompressSync(f.readFileSync(process.argv[1])))";

/** Every `session.jsonl.zstd` under `$DSH_HOME/sessions` written at or after `sinceMs`. */
export function findSessionLogs(dshHome: string, sinceMs: number): string[] {
  const root = path.join(dshHome, 'sessions');
  const found: string[] = [];
  const walk = (dir: string, depth: number) => {
    if (depth > 4 || !fs.existsSync(dir)) return;
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full, depth + 1);
      else if (entry.name === 'session.jsonl.zstd' && fs.statSync(full).mtimeMs >= sinceMs - 1000) found.push(full);
    }
  };
  walk(root, 0);
  return found.sort();
}

/** Decompresses one session log with Node >= 22.15 and parses its JSON lines (bad lines are skipped). */
export async function readSessionLog(nodeBin: string, file: string): Promise<{ text: string; events: SessionEvent[] }> {
  const { stdout } = await runStep(nodeBin, ['-e', DECOMPRESS, file], {
    step: `decompress ${file}`,
    timeoutMs: 30_000,
  });
  const events: SessionEvent[] = [];
  for (const line of stdout.split('\n')) {
    if (!line.trim()) continue;
    try {
      events.push(JSON.parse(line) as SessionEvent);
    } catch {
      // a torn last line of a killed run: ignore
    }
  }
  return { text: stdout, events };
}

/** A top-level tool result as DSH recorded it in the session log. */
export interface SessionToolResult {
  callId: string;
  isError: boolean;
  /** `error.code` (e.g. INVALID_ARGS), when the host error had one. */
  code: string | undefined;
  text: string;
}

/** The `tool/result` events of a session, by call id (the first result per id). */
export function sessionToolResults(events: readonly SessionEvent[]): Map<string, SessionToolResult> {
  const results = new Map<string, SessionToolResult>();
  for (const event of events) {
    if (event.type !== 'tool/result') continue;
    const data = event.data as
      | {
          message?: { source?: { callId?: string }; content?: { isError?: boolean; content?: { text?: string }[] }[] };
          error?: { code?: string };
        }
      | undefined;
    const callId = data?.message?.source?.callId;
    const block = data?.message?.content?.[0];
    if (!callId || !block || results.has(callId)) continue;
    results.set(callId, {
      callId,
      isError: block.isError === true,
      code: data?.error?.code,
      text: (block.content ?? []).map((part) => part.text ?? '').join(''),
    });
  }
  return results;
}
