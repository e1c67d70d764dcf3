import { Session } from 'node:inspector';
import { relative } from 'node:path';

import type { IDataObject } from 'n8n-workflow';

import { PolledWorkflow } from './harness/poll';
import { reanalyse } from './harness/reanalysis';
import { createOrRerunParameters, useServer } from './harness/setup';
import { read, root } from './repoFiles';

/*
 * ARCHITECTURE.md's paths are a claim; this test holds it. For each path it runs one item through
 * n8n's engine (after one warm-up run, so that loading modules does not count), records with V8's
 * precise coverage which package files (nodes/, credentials/) had a function called while the item
 * ran, and compares that set with the files the map names.
 *
 * The map's format: a section headed exactly `## One item of Report → Get Many` (and the others
 * below) holds a numbered list; each entry starts with a file's path from the repository root in
 * backticks: "1. `nodes/PhpRank/engine/routes.ts`: what the item does there."
 */

const SECTIONS = {
	getMany: '## One item of Report → Get Many',
	create: '## One item of Report → Create',
	createOrRerun: '## One item of Report → Create or Re-Run',
	compare: '## One item of Report → Compare With Competitors',
	scoreChanged: '## One Score Changed poll',
} as const;

/** The files a section of ARCHITECTURE.md names, in its order. */
function mapped(heading: string): string[] {
	const text = read('ARCHITECTURE.md');
	const start = text.split('\n').findIndex((line) => line.trim() === heading);
	if (start === -1) throw new Error(`ARCHITECTURE.md has no section "${heading}"`);
	const lines = text.split('\n').slice(start + 1);
	const end = lines.findIndex((line) => line.startsWith('## '));
	return (end === -1 ? lines : lines.slice(0, end))
		.map((line) => /^\d+\.\s+`([^`]+)`/.exec(line)?.[1])
		.filter((file): file is string => file !== undefined);
}

const session = new Session();
const post = <T>(method: string, params?: object) =>
	new Promise<T>((resolve, reject) =>
		session.post(method, params, (error, result) => (error ? reject(error) : resolve(result as T))),
	);

interface Coverage {
	result: Array<{ url: string; functions: Array<{ ranges: Array<{ count: number }> }> }>;
}

/** The package files with a function called since the last call (V8 resets its counters on each take). */
async function filesRunSinceLastTake(): Promise<Set<string>> {
	const { result } = await post<Coverage>('Profiler.takePreciseCoverage');
	const files = new Set<string>();
	for (const script of result) {
		const path = script.url.startsWith('file://') ? new URL(script.url).pathname : script.url;
		const file = relative(root, path);
		if (!/^(nodes|credentials)\//.test(file)) continue;
		if (script.functions.some((fn) => fn.ranges[0]?.count > 0)) files.add(file);
	}
	return files;
}

/** The package files one run of `item` passes through, after a warm-up run of `warmUp`. */
async function filesOf(
	warmUp: () => Promise<unknown>,
	item: () => Promise<unknown>,
): Promise<string[]> {
	await warmUp();
	await filesRunSinceLastTake();
	await item();
	return [...(await filesRunSinceLastTake())].sort();
}

function expectMap(name: keyof typeof SECTIONS, ran: string[]): void {
	const named = mapped(SECTIONS[name]);
	process.stdout.write(`${SECTIONS[name].replace('## ', '')}: ${ran.length} package files\n`);
	const missing = ran.filter((file) => !named.includes(file));
	const extra = named.filter((file) => !ran.includes(file));
	expect({ missingFromMap: missing, notRunButMapped: extra, ran }).toEqual({
		missingFromMap: [],
		notRunButMapped: [],
		ran,
	});
	expect(new Set(named).size).toBe(named.length);
}

describe('ARCHITECTURE.md names every package file one item passes through', () => {
	const api = useServer();
	beforeAll(async () => {
		session.connect();
		await post('Profiler.enable');
		await post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
	});
	afterAll(async () => {
		await post('Profiler.stopPreciseCoverage');
		session.disconnect();
	});
	beforeEach(() => api.server.deleteAllReports());

	const run = (parameters: IDataObject) => async () => void (await api.ok(parameters));

	it('Report → Get Many', async () => {
		for (let i = 0; i < 3; i++) api.server.addReport({ url: `https://example.com/page-${i}` });
		const getMany = run({ resource: 'report', operation: 'getAll' });
		expectMap('getMany', await filesOf(getMany, getMany));
	});

	it('Report → Create', async () => {
		const create = (url: string) =>
			run({ resource: 'report', operation: 'create', url, privacy: 1 });
		expectMap(
			'create',
			await filesOf(create('https://example.com/a'), create('https://example.com/b')),
		);
	});

	it('Report → Create or Re-Run (a page that has a report: its re-run)', async () => {
		const createOrRerun = run(createOrRerunParameters({ url: 'https://example.com/pricing' }));
		expectMap('createOrRerun', await filesOf(createOrRerun, createOrRerun));
	});

	it('Report → Compare With Competitors (reports reused within the window)', async () => {
		const compare = run({
			resource: 'report',
			operation: 'compare',
			yourUrl: 'https://example.com/pricing',
			competitors: { competitor: [{ url: 'https://rival.example.org/pricing' }] },
		});
		expectMap('compare', await filesOf(compare, compare));
	});

	it('one Score Changed poll that fires', async () => {
		const report = api.server.addReport({ url: 'https://example.com/watched', result: 80 });
		const workflow = new PolledWorkflow({ event: 'scoreChanged', minChange: 5 }, api.credential);
		const moveTo = async (score: number) => void reanalyse(api.server, report.id, { score });
		const ran = await filesOf(
			async () => {
				await workflow.activate();
				await moveTo(60);
				expect((await workflow.poll()).items).toHaveLength(1);
				await moveTo(40);
			},
			async () => expect((await workflow.poll()).items).toHaveLength(1),
		);
		expectMap('scoreChanged', ran);
	});
});
