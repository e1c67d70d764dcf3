/**
 * Processes the harness starts: free ports, long-running daemons (n8n main/worker, Redis, Postgres) with a log
 * file each, and a guarantee that none outlives the script (normal exit, an exception, Ctrl+C or SIGTERM).
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'child_process';
import * as fs from 'fs';
import * as net from 'net';

export async function getFreePort(): Promise<number> {
	return await new Promise((resolve, reject) => {
		const srv = net.createServer();
		srv.unref();
		srv.on('error', reject);
		srv.listen(0, '127.0.0.1', () => {
			const addr = srv.address();
			const port = typeof addr === 'object' && addr ? addr.port : 0;
			srv.close(() => resolve(port));
		});
	});
}

export function tail(s: string, max = 4000): string {
	return s.length > max ? `...${s.slice(-max)}` : s;
}

/** `npm run` passes its own settings on as npm_* variables (prefix, the repo's .npmrc): a user's shell has none. */
export function withoutNpmRunEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
	return Object.fromEntries(Object.entries(env).filter(([k]) => !/^npm_/i.test(k)));
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Polls `probe` every `stepMs` until it returns something, or undefined at the timeout. */
export async function waitFor<T>(
	probe: () => T | undefined | Promise<T | undefined>,
	timeoutMs: number,
	stepMs = 100,
): Promise<T | undefined> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const found = await probe();
		if (found !== undefined || Date.now() >= deadline) return found;
		await sleep(stepMs);
	}
}

/** Signals the child's process group (children are spawned detached), so task runners and forks go too. */
export function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
	if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
	try {
		process.kill(-child.pid, signal);
	} catch {
		try {
			child.kill(signal);
		} catch {
			/* already gone */
		}
	}
}

export interface Daemon {
	name: string;
	pid: number;
	logFile: string;
	/** everything the process printed so far (stdout + stderr) */
	logs(): string;
	/** undefined while running, else "exit code N" / "exit code SIGNAL" */
	exited(): string | undefined;
	/** stop signal, then SIGKILL after 15 s; resolves when the process is gone */
	stop(): Promise<void>;
}

const live = new Set<{ child: ChildProcess; daemon: Daemon }>();
const cleanups = new Set<() => Promise<void>>();
let hooksInstalled = false;

function installExitHooks(): void {
	if (hooksInstalled) return;
	hooksInstalled = true;
	process.once('exit', () => {
		for (const { child } of live) killGroup(child, 'SIGKILL');
	});
	for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
		process.once(signal, () => {
			void (async () => {
				for (const fn of [...cleanups].reverse()) await fn().catch(() => undefined);
				await stopAllDaemons();
			})().finally(() => process.exit(130));
		});
	}
}

/** Runs `fn` (e.g. stop a cluster and delete its folders) if the script is interrupted; returns "unregister". */
export function onInterrupt(fn: () => Promise<void>): () => void {
	installExitHooks();
	cleanups.add(fn);
	return () => cleanups.delete(fn);
}

/** Stops every daemon still running, newest first (workers before main before Redis/Postgres). */
export async function stopAllDaemons(): Promise<void> {
	for (const { daemon } of [...live].reverse()) await daemon.stop();
}

/**
 * Spawns a long-running process detached (its own process group) with stdout+stderr in `logFile`.
 * It is stopped with `stopSignal` (default SIGTERM) and killed if the script exits without stopping it.
 */
export function startDaemon(opts: {
	name: string;
	command: string;
	args: string[];
	logFile: string;
	cwd?: string;
	env?: NodeJS.ProcessEnv;
	uid?: number;
	gid?: number;
	stopSignal?: NodeJS.Signals;
}): Daemon {
	installExitHooks();
	const fd = fs.openSync(opts.logFile, 'w');
	const { cwd, env, uid, gid } = opts;
	const spawnOpts: SpawnOptions = { cwd, env, uid, gid, stdio: ['ignore', fd, fd], detached: true };
	const child = spawn(opts.command, opts.args, spawnOpts);
	fs.closeSync(fd);
	let exitedWith: string | undefined;
	const gone = new Promise<void>((resolve) => {
		child.once('exit', (c, s) => {
			exitedWith = `exit code ${c ?? s}`;
			resolve();
		});
		child.once('error', (e) => {
			exitedWith = `spawn error ${e.message}`;
			resolve();
		});
	});
	const entry = {
		child,
		daemon: {
			name: opts.name,
			pid: child.pid ?? -1,
			logFile: opts.logFile,
			logs: () => (fs.existsSync(opts.logFile) ? fs.readFileSync(opts.logFile, 'utf8') : ''),
			exited: () => exitedWith,
			stop: async () => {
				live.delete(entry);
				if (exitedWith) return;
				killGroup(child, opts.stopSignal ?? 'SIGTERM');
				const timer = setTimeout(() => killGroup(child, 'SIGKILL'), 15_000);
				await gone;
				clearTimeout(timer);
				// the group may still hold children (n8n's task runner) after the leader exited
				try {
					process.kill(-(child.pid ?? 0), 'SIGKILL');
				} catch {
					/* none left */
				}
			},
		} satisfies Daemon,
	};
	live.add(entry);
	return entry.daemon;
}

/** Polls `probe` until it returns true; fails early when the daemon dies. */
export async function waitReady(
	daemon: Daemon,
	probe: () => Promise<boolean>,
	timeoutMs: number,
	what: string,
): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		const exited = daemon.exited();
		if (exited)
			throw new Error(`${daemon.name} died (${exited}) before ${what}:\n${tail(daemon.logs())}`);
		try {
			if (await probe()) return;
		} catch {
			/* not listening yet */
		}
		await sleep(250);
	}
	await daemon.stop();
	throw new Error(
		`${daemon.name}: no ${what} within ${timeoutMs / 1000} s:\n${tail(daemon.logs())}`,
	);
}

/** GET url → status 200 (e.g. n8n's /healthz/readiness). */
export async function httpReady(url: string): Promise<boolean> {
	const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
	await res.arrayBuffer();
	return res.status === 200;
}
