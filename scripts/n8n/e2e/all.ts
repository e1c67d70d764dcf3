/**
 * `npm run test:e2e:all`: every e2e suite, as CI runs them, in lanes on one tarball: the one E2E_TARBALL names
 * (.ci/run builds and packs once and passes it), else built and packed here; its contents are checked either
 * way. Each suite is a child process with E2E_TARBALL set (each still in its own n8n home, ports and test server).
 * The lanes come from the machine (lanes()); a `first` suite starts alone until it is up; then each lane takes
 * the longest suite left when free (picker()), a `heavy` one only beside fewer than HEAVY_MAX others; one n8n
 * boots at a time (E2E_BOOT_LOCK, bootLock.ts), so boots queue up instead of slowing each other past a schedule.
 * Each suite's output is printed whole when it ends; then one line per suite (lane, start, wall time, counts)
 * and per lane. Exit 1 on any failure. E2E_SUMMARY=<file>: those lines also written there (.ci/run's table).
 *
 * Usage: npm run test:e2e:all [-- --parallel 1] [-- package monitor …]   (names: see SUITES; package@<oldest>
 * runs the package suite on N8N_OLDEST_VERSION, default 2.0.0, the oldest n8n 2.x)
 */
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

import { buildAndPack, checkTarball } from '../checks';
import { sleep } from '../proc';
import { Fatal } from '../report';
import { defaultCacheDir, isRuntimeInstalled } from '../runtime';
import { Suite } from '../suite';

interface Entry {
	name: string;
	file: string;
	env?: Record<string, string>;
	/** its wall time in this runner (.ci/run, 2 cores; README's table): the lanes take the longest first */
	seconds: number;
	/** starts before the others, alone until it calls suite.up() (queue mode: its cluster up, its schedules set) */
	first?: boolean;
	/** computes throughout (Chromium driving the editor, a queue-mode cluster under load): kept apart */
	heavy?: boolean;
	/** whether it can start without waiting (its n8n installed, e.g. by .ci/run in the background); if not, it is taken once nothing else is left */
	ready?: () => boolean;
}
const OLDEST = process.env.N8N_OLDEST_VERSION || '2.0.0';
/** A new suite: one line here, with its wall time as measured in this runner (see `seconds`). */
const SUITES: Entry[] = [
	// 2 × 40 creates against one user's 60 a minute: past the limit, one minute of pacing (100 each: three).
	{
		name: 'queue',
		file: 'queue.e2e.ts',
		seconds: 381,
		first: true,
		env: { E2E_QUEUE_ITEMS: '40' },
	},
	{ name: 'package', file: 'package.e2e.ts', seconds: 282 },
	{
		name: `package@${OLDEST}`,
		file: 'package.e2e.ts',
		seconds: 299,
		env: { N8N_VERSION: OLDEST },
		ready: () => isRuntimeInstalled(defaultCacheDir(OLDEST)),
	},
	{ name: 'ui', file: 'ui.e2e.ts', seconds: 708, heavy: true },
	{ name: 'table-history', file: 'tableHistory.e2e.ts', seconds: 365 },
	{ name: 'monitor', file: 'monitor.e2e.ts', seconds: 157 },
	{ name: 'sitemap', file: 'sitemap.e2e.ts', seconds: 262 },
	{ name: 'digest', file: 'digest.e2e.ts', seconds: 91 },
	{ name: 'findings', file: 'findings.e2e.ts', seconds: 90 },
	{ name: 'deploy-gate', file: 'deployGate.e2e.ts', seconds: 69 },
	{ name: 'agency', file: 'agency.e2e.ts', seconds: 226, heavy: true },
	{ name: 'form', file: 'form.e2e.ts', seconds: 82 },
	{ name: 'ai', file: 'ai.e2e.ts', seconds: 145 },
	{ name: 'history', file: 'history.e2e.ts', seconds: 110, heavy: true },
];

interface Outcome {
	name: string;
	lane: number;
	/** seconds after the first suite started */
	start: number;
	seconds: number;
	/** CPU seconds (user + system) of the suite and its children; NaN when unknown */
	cpu: number;
	code: number | null;
	counts: string;
}

const suite = new Suite('e2e-all');
let t0 = Date.now();
const since = (t: number): number => (t - t0) / 1000;

const CORES = os.cpus().length;
/** What a lane may need at its peak (queue mode: main, 2 workers, PostgreSQL, Redis; or n8n and Chromium). */
const LANE_BYTES = 1.5 * 2 ** 30;
/**
 * One lane a core and two more (the suites mostly wait on schedules, polls and the throttle), at most one a
 * LANE_BYTES of available memory, at least one. Measured on 2 cores, warm caches, fresh clones of one commit:
 * three lanes left the cores idle 142 s of the run (819 s), four 30-51 s (775-856 s), every check passed. Four
 * once reached a load near 12 and n8n's start timed out, before one n8n booted at a time (bootLock.ts) and the
 * suites' polls stopped starting a process each; two left the cores idle while every suite waited.
 */
const lanes = (): number => Math.max(1, Math.min(CORES + 2, Math.floor(os.freemem() / LANE_BYTES)));
/** `heavy` suites at once. */
const HEAVY_MAX = Math.max(1, CORES - 1);

function options(argv: string[]): { parallel: number; entries: Entry[] } {
	let parallel = Number(process.env.E2E_PARALLEL || lanes());
	const names: string[] = [];
	for (let i = 0; i < argv.length; i++) {
		if (argv[i] === '--parallel') parallel = Number(argv[++i]);
		else names.push(argv[i]);
	}
	const unknown = names.filter((n) => !SUITES.some((s) => s.name === n));
	if (unknown.length || !(parallel >= 1))
		throw new Error(
			`unknown suite ${unknown.join(', ')} or --parallel; suites: ${SUITES.map((s) => s.name).join(', ')}`,
		);
	return {
		parallel,
		entries: names.length ? SUITES.filter((s) => names.includes(s.name)) : SUITES,
	};
}

const safeName = (entry: Entry): string => entry.name.replace(/[^\w.-]/g, '_');

/** The children's user + system seconds from sh's `times` output (its second line: "0m12.34s 0m1.20s"). */
function cpuSeconds(file: string): number {
	const line = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n')[1] : '';
	const times = [...(line ?? '').matchAll(/(\d+)m([\d.]+)s/g)];
	return times.length === 2
		? times.reduce((sum, m) => sum + Number(m[1]) * 60 + Number(m[2]), 0)
		: NaN;
}

/**
 * One suite in a child process, its output in a log file printed whole at the end. `up` resolves when a
 * `first` suite writes its E2E_UP_FILE, or when it ends.
 */
function runOne(
	entry: Entry,
	lane: number,
	env: Record<string, string>,
): { up: Promise<void>; done: Promise<Outcome> } {
	const log = path.join(suite.work, `${safeName(entry)}.log`);
	const upFile = path.join(suite.work, `${safeName(entry)}.up`);
	const out = fs.openSync(log, 'w');
	const started = Date.now();
	const cpuFile = path.join(suite.work, `${safeName(entry)}.cpu`);
	const node = [process.execPath, '-r', 'ts-node/register/transpile-only'];
	// `times` (POSIX sh): the CPU seconds of the suite and of every process it waited for (its n8n, Chromium …)
	const child = spawn(
		'/bin/sh',
		['-c', '"$@"; s=$?; times > "$0"; exit $s', cpuFile, ...node, path.join(__dirname, entry.file)],
		{
			stdio: ['ignore', out, out],
			env: { ...process.env, ...entry.env, ...env, E2E_UP_FILE: upFile, CI: 'true' },
		},
	);
	let ended = false;
	const done = new Promise<number | null>((resolve) => child.on('exit', resolve)).then((code) => {
		ended = true;
		fs.closeSync(out);
		const seconds = (Date.now() - started) / 1000;
		const text = fs.readFileSync(log, 'utf8');
		console.log(
			`\n########## ${entry.name} (lane ${lane}): exit ${code}, ${seconds.toFixed(0)} s\n${text}`,
		);
		const counts = /(\d+) passed, (\d+) failed\s*$/.exec(text)?.[0].trim() ?? 'no result line';
		const cpu = cpuSeconds(cpuFile);
		return { name: entry.name, lane, start: since(started), seconds, cpu, code, counts };
	});
	const up = (async () => {
		if (!entry.first) return;
		while (!ended && !fs.existsSync(upFile)) await sleep(500);
		console.log(
			`\n[e2e-all] ${entry.name} ${ended ? 'ended' : 'is up'} after ${((Date.now() - started) / 1000).toFixed(0)} s: the other lanes start`,
		);
	})();
	return { up, done };
}

/**
 * Takes the longest suite left that may start now (a `heavy` one only under HEAVY_MAX), counted from the moment
 * it is taken; waits for one if none may. `done(e)` frees its place.
 */
function picker(entries: Entry[]): { next(): Promise<Entry | undefined>; done(e: Entry): void } {
	const left = entries.filter((e) => !e.first).sort((a, b) => b.seconds - a.seconds);
	let heavy = 0;
	const waiting: Array<() => void> = [];
	return {
		async next() {
			for (;;) {
				const may = (e: Entry) => !e.heavy || heavy < HEAVY_MAX;
				let i = left.findIndex((e) => may(e) && (e.ready?.() ?? true));
				if (i < 0 && left.every((e) => e.ready && !e.ready())) i = left.findIndex(may);
				if (i >= 0) {
					if (left[i].heavy) heavy++;
					return left.splice(i, 1)[0];
				}
				if (!left.length) return undefined;
				// Woken when a suite ends, or to look again for one whose install has finished.
				await Promise.race([new Promise<void>((resolve) => waiting.push(resolve)), sleep(5_000)]);
			}
		},
		done(e) {
			if (e.heavy) heavy--;
			for (const wake of waiting.splice(0)) wake();
		},
	};
}

/** The lanes: the `first` suites each in a lane of their own, alone until up; then every lane longest-first. */
async function runLanes(
	entries: Entry[],
	parallel: number,
	env: Record<string, string>,
): Promise<Outcome[]> {
	const outcomes: Outcome[] = [];
	const pick = picker(entries);
	const drain = async (lane: number): Promise<void> => {
		for (let next = await pick.next(); next; next = await pick.next()) {
			outcomes.push(await runOne(next, lane, env).done);
			pick.done(next);
		}
	};
	t0 = Date.now();
	const lanes: Array<Promise<void>> = [];
	let lane = 1;
	for (const first of entries.filter((e) => e.first)) {
		const run = runOne(first, lane, env);
		const mine = lane++;
		lanes.push(run.done.then(async (o) => (outcomes.push(o), await drain(mine))));
		await run.up;
	}
	for (; lane <= parallel; lane++) lanes.push(drain(lane));
	await Promise.all(lanes);
	return outcomes;
}

async function tarball(): Promise<string> {
	const given = process.env.E2E_TARBALL;
	if (!given) return await buildAndPack(suite.report, suite.work);
	suite.section('the tarball .ci/run built and packed');
	if (!fs.existsSync(given)) throw new Fatal(`E2E_TARBALL ${given} does not exist`);
	checkTarball(suite.report, path.resolve(given));
	return path.resolve(given);
}

function summary(entries: Entry[], outcomes: Outcome[]): void {
	suite.section('suites (lane, started at, wall time)');
	const lines: string[] = [];
	for (const o of entries.map((e) => outcomes.find((x) => x.name === e.name) as Outcome)) {
		const line = `${o.name.padEnd(14)} lane ${o.lane}  from ${o.start.toFixed(0).padStart(4)} s  ${o.seconds.toFixed(0).padStart(5)} s  CPU ${o.cpu.toFixed(0).padStart(4)} s  ${o.counts}`;
		suite.check(line, o.code === 0);
		lines.push(`e2e ${line}`);
	}
	for (const lane of [...new Set(outcomes.map((o) => o.lane))].sort()) {
		const mine = outcomes.filter((o) => o.lane === lane).sort((a, b) => a.start - b.start);
		const end = Math.max(...mine.map((o) => o.start + o.seconds));
		const line = `lane ${lane}: ${mine.map((o) => o.name).join(' → ')}; ended at ${end.toFixed(0)} s`;
		suite.note(line);
		lines.push(`e2e ${line}`);
	}
	const cpu = outcomes.reduce((sum, o) => sum + o.cpu, 0).toFixed(0);
	const wall = Math.max(...outcomes.map((o) => o.start + o.seconds)).toFixed(0);
	suite.note(`CPU of the suites: ${cpu} s in ${wall} s on ${CORES} cores`);
	lines.push(`e2e CPU of the suites: ${cpu} s in ${wall} s on ${CORES} cores`);
	if (process.env.E2E_SUMMARY) fs.writeFileSync(process.env.E2E_SUMMARY, `${lines.join('\n')}\n`);
}

async function main(): Promise<void> {
	const { parallel, entries } = options(process.argv.slice(2));
	const tgz = await tarball();
	suite.section(
		`${entries.length} suites in ${parallel} lane(s) (${CORES} cores, ${(os.freemem() / 2 ** 30).toFixed(1)} GiB available; E2E_PARALLEL overrides), ${HEAVY_MAX} heavy at once`,
	);
	const env: Record<string, string> = { E2E_TARBALL: tgz, E2E_DB_TEMPLATES: suite.work };
	if (parallel > 1) env.E2E_BOOT_LOCK = path.join(suite.work, 'boot.lock');
	const outcomes = await runLanes(entries, parallel, env);
	summary(entries, outcomes);
}

suite.run(main);
