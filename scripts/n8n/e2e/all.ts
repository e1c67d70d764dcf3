/**
 * `npm run test:e2e:all`: every e2e suite, as CI runs them. Builds, packs and checks the tarball once, then runs
 * the suites as child processes with E2E_TARBALL set (each still in its own n8n home, ports and test server):
 * queue mode alone first (its main and workers must start before its fixed schedules), then the others
 * `--parallel` at a time (default 2: most of a suite's time is spent waiting for n8n's schedules). Each suite's
 * output is printed whole when it ends; then a table of wall times and counts. Exit 1 on any failure.
 *
 * Usage: npm run test:e2e:all [-- --parallel 1] [-- package monitor …]   (names: see SUITES; package@<oldest>
 * runs the package suite on N8N_OLDEST_VERSION, default 2.0.0, the oldest n8n 2.x)
 */
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

import { buildAndPack } from '../checks';
import { Suite } from '../suite';

interface Entry {
	name: string;
	file: string;
	env?: Record<string, string>;
	/** runs with no other suite beside it: its timing needs the machine (queue mode's start before its schedules) */
	alone?: boolean;
}
const OLDEST = process.env.N8N_OLDEST_VERSION || '2.0.0';
/** Longest first, so that the short ones fill the gaps. */
const SUITES: Entry[] = [
	{ name: 'queue', file: 'queue.e2e.ts', alone: true },
	{ name: 'package', file: 'package.e2e.ts' },
	{ name: `package@${OLDEST}`, file: 'package.e2e.ts', env: { N8N_VERSION: OLDEST } },
	{ name: 'ui', file: 'ui.e2e.ts' },
	{ name: 'agency', file: 'agency.e2e.ts' },
	{ name: 'table-history', file: 'tableHistory.e2e.ts' },
	{ name: 'monitor', file: 'monitor.e2e.ts' },
	{ name: 'sitemap', file: 'sitemap.e2e.ts' },
	{ name: 'digest', file: 'digest.e2e.ts' },
	{ name: 'deploy-gate', file: 'deployGate.e2e.ts' },
	{ name: 'form', file: 'form.e2e.ts' },
	{ name: 'ai', file: 'ai.e2e.ts' },
	{ name: 'history', file: 'history.e2e.ts' },
];

interface Outcome {
	name: string;
	code: number | null;
	seconds: number;
	counts: string;
}

const suite = new Suite('e2e-all');

function options(argv: string[]): { parallel: number; entries: Entry[] } {
	let parallel = Number(process.env.E2E_PARALLEL ?? 2);
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

/** One suite in a child process, its output in a log file printed whole at the end. */
async function runOne(entry: Entry, tarball: string): Promise<Outcome> {
	const log = path.join(suite.work, `${entry.name.replace(/[^\w.-]/g, '_')}.log`);
	const out = fs.openSync(log, 'w');
	const started = Date.now();
	const child = spawn(
		process.execPath,
		['-r', 'ts-node/register/transpile-only', path.join(__dirname, entry.file)],
		{
			stdio: ['ignore', out, out],
			env: { ...process.env, ...entry.env, E2E_TARBALL: tarball, CI: 'true' },
		},
	);
	const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
	fs.closeSync(out);
	const seconds = (Date.now() - started) / 1000;
	const text = fs.readFileSync(log, 'utf8');
	console.log(`\n########## ${entry.name}: exit ${code}, ${seconds.toFixed(0)} s\n${text}`);
	const counts = /(\d+) passed, (\d+) failed\s*$/.exec(text)?.[0].trim() ?? 'no result line';
	return { name: entry.name, code, seconds, counts };
}

async function main(): Promise<void> {
	const { parallel, entries } = options(process.argv.slice(2));
	const tarball = await buildAndPack(suite.report, suite.work);
	suite.section(`${entries.length} suites, ${parallel} at a time`);
	const outcomes: Outcome[] = [];
	for (const entry of entries.filter((e) => e.alone)) outcomes.push(await runOne(entry, tarball));
	const queue = entries.filter((e) => !e.alone);
	const worker = async (): Promise<void> => {
		for (let next = queue.shift(); next; next = queue.shift())
			outcomes.push(await runOne(next, tarball));
	};
	await Promise.all(Array.from({ length: parallel }, worker));
	suite.section('suites');
	for (const o of entries.map((e) => outcomes.find((x) => x.name === e.name) as Outcome))
		suite.check(
			`${o.name.padEnd(14)} ${o.seconds.toFixed(0).padStart(5)} s  ${o.counts}`,
			o.code === 0,
		);
}

suite.run(main);
