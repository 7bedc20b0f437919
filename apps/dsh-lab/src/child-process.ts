/**
 * Runs the external commands provisioning and sessions need (npm/pnpm installs, the dsh CLI, Node 24 helpers)
 * with a hard timeout each, so a missing registry or a stuck host becomes a clear error naming the step
 * instead of a hang. On timeout the whole process group is killed.
 */
import { spawn } from 'node:child_process';

/** A failure of one named lab step (provisioning, booting DSH, ...). */
export class LabStepError extends Error {
  override name = 'LabStepError';
  constructor(
    readonly step: string,
    message: string,
    readonly output = '',
  ) {
    super(`dsh-lab: ${step} failed: ${message}${output ? `\n--- last output ---\n${output}` : ''}`);
  }
}

export interface CommandOptions {
  /** Human name of the step, used in errors ("install @deepseek-ai/dsh@0.1.0-rc.8"). */
  step: string;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs: number;
  /** Text written to stdin, then closed. Without it stdin is empty. */
  input?: string;
}

export interface CommandResult {
  exitCode: number;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  wallMs: number;
  timedOut: boolean;
}

const OUTPUT_CAP = 4 * 1024 * 1024;

/** Runs a command to completion (or to its timeout); never throws for a non-zero exit. */
export function runCommand(command: string, args: readonly string[], options: CommandOptions): Promise<CommandResult> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.on('data', (d: Buffer) => {
      if (stdout.length < OUTPUT_CAP) stdout += d.toString('utf8');
    });
    child.stderr.on('data', (d: Buffer) => {
      if (stderr.length < OUTPUT_CAP) stderr += d.toString('utf8');
    });
    child.stdin.on('error', () => {});
    child.stdin.end(options.input ?? '');
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
    }, options.timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new LabStepError(options.step, `cannot start ${command}: ${error.message}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ exitCode: code ?? (signal ? 128 : 1), signal, stdout, stderr, wallMs: Date.now() - started, timedOut });
    });
  });
}

/** Like {@link runCommand} but a timeout or a non-zero exit throws a {@link LabStepError}. */
export async function runStep(
  command: string,
  args: readonly string[],
  options: CommandOptions,
): Promise<CommandResult> {
  const result = await runCommand(command, args, options);
  const tail = lastLines(`${result.stdout}\n${result.stderr}`, 25);
  if (result.timedOut)
    throw new LabStepError(options.step, `timed out after ${Math.round(options.timeoutMs / 1000)} s`, tail);
  if (result.exitCode !== 0) throw new LabStepError(options.step, `exit code ${result.exitCode}`, tail);
  return result;
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/** The last `count` non-empty lines of a text (for error messages). */
export function lastLines(text: string, count: number): string {
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .slice(-count)
    .join('\n');
}
