/**
 * One n8n booting at a time across the suites that e2e/all.ts runs side by side. Booting n8n (`n8n start`,
 * `n8n worker`) is the CPU-heavy part of a suite; on 2 cores three boots at once take about three times as long
 * each, and a suite that chose a schedule or a poll second before its start can then miss it. With
 * E2E_BOOT_LOCK set (all.ts sets it to a path in its temp folder), `withBootLock` holds that lock from the spawn
 * until n8n is ready: the boots queue up instead of slowing each other. Without it (a suite run alone) it only
 * runs `fn`.
 *
 * The lock is a directory (mkdir is atomic) holding the owner's pid; a lock whose owner died is taken over.
 * Re-entrant within a process: queue mode's cluster start holds it around the main and its workers, which then
 * boot side by side (queue.ts).
 */
import * as fs from 'fs';
import * as path from 'path';

import { sleep } from './proc';

let depth = 0;

/** Gives up after this long (a boot's own readiness timeout is shorter). */
const WAIT_MAX_MS = 10 * 60_000;

function ownerAlive(dir: string): boolean {
	let pid: number;
	try {
		pid = Number(fs.readFileSync(path.join(dir, 'pid'), 'utf8'));
	} catch {
		return true; // just made, its pid not yet written
	}
	if (!pid) return true;
	try {
		process.kill(pid, 0);
		return true;
	} catch (e) {
		return (e as NodeJS.ErrnoException).code === 'EPERM';
	}
}

async function acquire(dir: string, what: string): Promise<void> {
	const started = Date.now();
	for (;;) {
		try {
			fs.mkdirSync(dir);
			fs.writeFileSync(path.join(dir, 'pid'), String(process.pid));
			break;
		} catch (e) {
			if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
		}
		if (!ownerAlive(dir)) fs.rmSync(dir, { recursive: true, force: true });
		else if (Date.now() - started > WAIT_MAX_MS)
			throw new Error(`${what}: the boot lock ${dir} was held for ${WAIT_MAX_MS / 1000} s`);
		else await sleep(250);
	}
	const waited = (Date.now() - started) / 1000;
	if (waited >= 1)
		console.log(`  (boot lock: ${what} waited ${waited.toFixed(0)} s for another boot)`);
}

/** Runs `fn` (an n8n boot, until ready) holding the boot lock named by E2E_BOOT_LOCK, if any. */
export async function withBootLock<T>(what: string, fn: () => Promise<T>): Promise<T> {
	const dir = process.env.E2E_BOOT_LOCK;
	if (!dir || depth > 0) return await fn();
	await acquire(dir, what);
	depth++;
	try {
		return await fn();
	} finally {
		depth--;
		fs.rmSync(dir, { recursive: true, force: true });
	}
}
