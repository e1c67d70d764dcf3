import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { changesBetween } from '../../nodes/PhpRank/operations/changes';
import { baselineRecord, decodeBaseline, encodeBaseline } from '../../nodes/PhpRankTrigger/baseline';
import type { RecordedRequest, ReportRecord } from '../server';
import { PolledWorkflow, runManually, type PollOutcome } from '../harness/poll';
import { locator, useServer } from '../harness/setup';

const fixture = useServer();

beforeEach(() => fixture.server.deleteAllReports());

let pages = 0;
function addReports(count: number, result?: number): ReportRecord[] {
	return Array.from({ length: count }, (_, i) =>
		fixture.server.addReport({ url: `https://site${i % 3}.example.com/score-${++pages}`, result }),
	);
}

const passing = (report: ReportRecord) => Object.keys(report.results).filter((check) => report.results[check].passed);
const failing = (report: ReportRecord) => Object.keys(report.results).filter((check) => !report.results[check].passed);

/**
 * A new analysis of a report, as phpRank's database would hold it after a re-run: the score given,
 * the checks in `fail` failing and those in `pass` passing, generated an hour later.
 */
function reanalyse(id: number, change: { score: number; fail?: string[]; pass?: string[] }): ReportRecord {
	const report = fixture.server.getReport(id)!;
	const results = structuredClone(report.results);
	for (const check of change.fail ?? []) results[check] = { ...results[check], passed: false };
	for (const check of change.pass ?? []) results[check] = { ...results[check], passed: true };
	const generated = new Date(Date.parse(report.generated_at) + 3_600_000).toISOString();
	fixture.server.deleteReport(id);
	return fixture.server.addReport({ ...report, result: change.score, results, generated_at: generated, updated_at: generated });
}
const setScore = (id: number, score: number) => reanalyse(id, { score });

async function polled(run: () => Promise<PollOutcome>): Promise<PollOutcome & { requests: RecordedRequest[] }> {
	fixture.server.clearRequests();
	const outcome = await run();
	return { ...outcome, requests: fixture.apiRequests() };
}

const scoreChanged = (extra: INodeParameters = {}, options: { durable?: boolean } = {}) =>
	new PolledWorkflow({ event: 'scoreChanged', ...extra }, fixture.credential, options);
const ids = (outcome: PollOutcome) => outcome.items?.map((item) => item.json.id) ?? null;
const summary = (outcome: PollOutcome) =>
	outcome.items?.map((item) => {
		const changes = item.json.changes as IDataObject;
		return [item.json.id, item.json.reason, (changes.previous as IDataObject).result, item.json.score];
	}) ?? null;
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('Score Changed', () => {
	it('notes a baseline for every report on activation without firing, in a few bytes each', async () => {
		const reports = addReports(3, 70);
		const workflow = scoreChanged();

		const activation = await polled(() => workflow.activate());

		expect(activation.items).toBeNull();
		expect(activation.requests.map((r) => r.query)).toEqual([{ sort_by: 'id', sort: 'desc', per_page: '100', page: '1' }]);
		const state = workflow.savedState;
		expect(state).toEqual({
			version: 1,
			watch: '["scoreChanged","","",0]',
			checks: expect.arrayContaining(Object.keys(reports[0].results)),
			baselines: Object.fromEntries(reports.map((report) => [report.id, expect.stringMatching(/^[0-9a-z]+,[0-9a-z]+,[0-9a-z]+,[0-9a-z]+$/)])),
		});
	});

	it('fires once when the score drops by Minimum Change or more, with the changes since the baseline', async () => {
		const [report, other] = addReports(2, 70);
		const workflow = scoreChanged({ minChange: 5 });
		await workflow.activate();
		const fail = passing(report).slice(0, 2);
		const pass = failing(report).slice(0, 1);
		const after = reanalyse(report.id, { score: 58, fail, pass });

		const poll = await workflow.poll();
		const again = await workflow.poll();

		expect(poll.items).toHaveLength(1);
		const item = poll.items![0].json;
		expect(item).toMatchObject({ event: 'scoreChanged', id: report.id, url: report.url, score: 58, result_class: 'decent', reason: 'moved' });
		expect(item.changes).toEqual({
			previous: { result: 70, class: 'decent', generated_at: report.generated_at },
			scoreDelta: -12,
			failed: expect.arrayContaining(fail.map((check) => ({ check, importance: report.results[check].importance }))),
			fixed: pass.map((check) => ({ check, importance: report.results[check].importance })),
		});
		expect((item.changes as IDataObject).failed).toHaveLength(fail.length);
		// The very object the action node's re-runs output for these two analyses.
		expect(item.changes).toEqual(changesBetween(report, after));
		expect(Object.keys(item).slice(0, 2)).toEqual(['event', 'reason']);
		expect(item).toMatchObject({ previous_score: report.result, score_change: (item.changes as IDataObject).scoreDelta });
		expect(Object.keys(item).slice(-1)).toEqual(['changes']);
		expect(again.items).toBeNull();

		// The event is the new baseline: 58 → 55 is 3 points from it.
		setScore(report.id, 55);
		expect((await workflow.poll()).items).toBeNull();
		expect(other.id).toBeGreaterThan(report.id);
	});

	it('fires on a rise too, and outputs the whole report without Simplify', async () => {
		const [report] = addReports(1, 60);
		const workflow = scoreChanged({ simplify: false });
		await workflow.activate();
		setScore(report.id, 66);

		const poll = await workflow.poll();

		expect(summary(poll)).toEqual([[report.id, 'moved', 60, 66]]);
		expect(poll.items![0].json).toMatchObject({ result: 66, results: expect.any(Object), score: 66 });
	});

	it('ignores noise below Minimum Change', async () => {
		const [report] = addReports(1, 80);
		const workflow = scoreChanged({ minChange: 5 });
		await workflow.activate();

		const outcomes = [];
		for (const score of [77, 83, 76, 84]) {
			setScore(report.id, score);
			outcomes.push(await workflow.poll());
		}

		expect(outcomes.map(ids)).toEqual([null, null, null, null]);
	});

	it('adds up a slow drift and fires once it reaches Minimum Change', async () => {
		const [report] = addReports(1, 90);
		const workflow = scoreChanged({ minChange: 5 });
		await workflow.activate();

		const outcomes = [];
		for (const score of [88, 87, 86, 84, 83, 82]) {
			setScore(report.id, score);
			outcomes.push(await workflow.poll());
		}

		expect(outcomes.map(summary)).toEqual([null, null, null, [[report.id, 'moved', 90, 84]], null, null]);
		expect((outcomes[3].items![0].json.changes as IDataObject).scoreDelta).toBe(-6);
	});

	it('with Only When Worse, ignores rises and measures a later drop from the higher score', async () => {
		const [rising, falling] = addReports(2, 50);
		const workflow = scoreChanged({ onlyWorse: true });
		await workflow.activate();
		setScore(rising.id, 70);
		setScore(falling.id, 40);

		const first = await workflow.poll();
		setScore(rising.id, 64);
		const second = await workflow.poll();

		expect(summary(first)).toEqual([[falling.id, 'moved', 50, 40]]);
		expect(summary(second)).toEqual([[rising.id, 'moved', 70, 64]]);
	});

	it('with Below Score, fires once on falling below, not again while below, and again after recovering', async () => {
		const [report, alreadyLow] = [...addReports(1, 60), ...addReports(1, 30)];
		const workflow = scoreChanged({ minChange: 0, belowScore: 50 });
		await workflow.activate();

		const outcomes = [];
		for (const score of [45, 40, 35, 55, 48, 47]) {
			setScore(report.id, score);
			outcomes.push(await workflow.poll());
		}

		expect(outcomes.map(summary)).toEqual([
			[[report.id, 'belowScore', 60, 45]],
			null,
			null,
			null,
			// Measured from the last event's reading: 45.
			[[report.id, 'belowScore', 45, 48]],
			null,
		]);
		// A report first seen below the score did not fall while watched.
		expect(outcomes.flatMap((outcome) => ids(outcome) ?? [])).not.toContain(alreadyLow.id);
	});

	it('fires when either Minimum Change or Below Score holds, the reason saying which', async () => {
		const [crossesSlightly, dropsAbove, both] = [...addReports(1, 52), ...addReports(1, 90), ...addReports(1, 70)];
		const workflow = scoreChanged({ minChange: 10, belowScore: 50 });
		await workflow.activate();
		setScore(crossesSlightly.id, 49);
		setScore(dropsAbove.id, 75);
		setScore(both.id, 30);

		const poll = await workflow.poll();

		expect(summary(poll)).toEqual([
			[crossesSlightly.id, 'belowScore', 52, 49],
			[dropsAbove.id, 'moved', 90, 75],
			[both.id, 'belowScore', 70, 30],
		]);
	});

	it('with a Result filter, fires only for reports now in that class, measured from the last event', async () => {
		const [report] = addReports(1, 90);
		const workflow = scoreChanged({ filters: { result: 'bad' } });
		await workflow.activate();
		setScore(report.id, 70);

		const first = await polled(() => workflow.poll());
		setScore(report.id, 40);
		const second = await workflow.poll();

		expect(first.requests.map((r) => r.query.result)).toEqual([undefined]);
		expect(first.items).toBeNull();
		expect(summary(second)).toEqual([[report.id, 'moved', 90, 40]]);
	});

	it('treats a Result filter added without a value as no filter, for every event', async () => {
		const [report] = addReports(1, 90);
		const workflow = scoreChanged({ filters: { result: '' } });
		await workflow.activate();
		setScore(report.id, 70);
		const newReport = new PolledWorkflow({ event: 'newReport', filters: { result: '' } }, fixture.credential);
		await newReport.activate();
		const created = addReports(1, 60)[0];

		expect(summary(await workflow.poll())).toEqual([[report.id, 'moved', 90, 70]]);
		const poll = await polled(() => newReport.poll());
		expect(ids(poll)).toEqual([created.id]);
		expect(poll.requests[0].query.result).toBeUndefined();
		expect(newReport.savedState.watch).toBe('["newReport","",""]');
	});

	it('forgets deleted reports and learns new ones without firing', async () => {
		const [kept, deleted] = addReports(2, 90);
		const workflow = scoreChanged({}, { durable: true });
		await workflow.activate();
		expect((await workflow.poll()).items).toBeNull();
		fixture.server.deleteReport(deleted.id);
		const [created] = addReports(1, 10);

		const poll = await workflow.poll();

		expect(poll.items).toBeNull();
		expect(Object.keys(workflow.cursor?.baselines as IDataObject).map(Number).sort()).toEqual([kept.id, created.id]);
		setScore(created.id, 30);
		expect(summary(await workflow.poll())).toEqual([[created.id, 'moved', 10, 30]]);
	});

	it('keeps its baselines when Minimum Change is edited, and starts over quietly when Below Score is', async () => {
		const [report] = addReports(1, 90);
		const workflow = scoreChanged({ minChange: 5 });
		await workflow.activate();
		const baselines = workflow.savedState.baselines;

		// The user edits Minimum Change and activates again: same state, the same baseline (90).
		const edited = new PolledWorkflow({ event: 'scoreChanged', minChange: 8 }, fixture.credential, { id: workflow.id });
		edited.stored = workflow.stored;
		expect((await edited.activate()).items).toBeNull();
		expect(edited.savedState.baselines).toEqual(baselines);
		setScore(report.id, 82);
		expect(summary(await edited.poll())).toEqual([[report.id, 'moved', 90, 82]]);

		// Below Score edited: its flags held for another score, so the trigger starts over.
		setScore(report.id, 40);
		const below = new PolledWorkflow({ event: 'scoreChanged', minChange: 8, belowScore: 50 }, fixture.credential, { id: workflow.id });
		below.stored = edited.stored;
		expect((await below.activate()).items).toBeNull();
		expect(below.savedState.watch).toBe('["scoreChanged","","",50]');
		expect((await below.poll()).items).toBeNull();
	});

	it('reads watched reports in the rounds of Report Result Changed: 2,500 over 3 polls of at most 10 requests', async () => {
		const reports = addReports(2500, 90);
		const workflow = scoreChanged({ filters: { project: locator('name', '') } });

		const activation = await polled(() => workflow.activate());
		setScore(reports[2400].id, 70);
		const second = await polled(() => workflow.poll());
		const third = await polled(() => workflow.poll());
		const nextRound = await polled(() => workflow.poll());

		expect([activation, second, third, nextRound].map((poll) => poll.requests.map((r) => Number(r.query.page)))).toEqual([
			range(1, 10),
			range(11, 20),
			range(21, 25),
			range(1, 10),
		]);
		expect([activation, second, third].map((poll) => poll.items)).toEqual([null, null, null]);
		expect(summary(nextRound)).toEqual([[reports[2400].id, 'moved', 90, 70]]);
	});
});

describe('Score Changed state size', () => {
	it('keeps under 40 bytes of static data per watched report at 10,000 reports', async () => {
		// Varied reports as phpRank holds them: 6 sites, full results, scores of every class.
		const reports = fixture.server.seedReports(10_000);
		const workflow = scoreChanged({ belowScore: 50 }, { durable: true });

		await workflow.activate();
		for (let poll = 0; poll < 9; poll++) await workflow.poll();

		const state = workflow.cursor!;
		expect(state.scan).toBeUndefined();
		expect(Object.keys(state.baselines as IDataObject)).toHaveLength(10_000);
		const bytes = Buffer.byteLength(JSON.stringify(state), 'utf8');
		const perReport = bytes / reports.length;
		process.stdout.write(
			`Score Changed static data at ${reports.length.toLocaleString('en-US')} watched reports: ${bytes.toLocaleString('en-US')} bytes, ${perReport.toFixed(1)} bytes a report\n`,
		);
		expect(perReport).toBeLessThan(40);

		// What is kept gives the same changes as the full records would.
		const checks = state.checks as string[];
		for (const report of reports.filter((_, index) => index % 500 === 0)) {
			const baseline = decodeBaseline((state.baselines as Record<string, string>)[report.id], checks)!;
			const after = { ...report, result: 12, results: Object.fromEntries(Object.entries(report.results).map(([name, check], i) => [name, { ...check, passed: i % 2 === 0 ? !check.passed : check.passed }])) };
			expect(changesBetween(baselineRecord(baseline), after)).toEqual(changesBetween(report, after));
		}
	}, 120_000);

	it('round-trips the odd record: no score, no results, a date in another format, checks missing or new', () => {
		const table: string[] = [];
		const odd = { result: null, results: null, generated_at: '2026-01-31 09:15:02' };
		const full = { result: 72.5, generated_at: '2026-01-31T09:15:02.000000Z', results: { title: { passed: false }, favicon: { passed: true } } };
		const partial = { result: 40, generated_at: null, results: { favicon: { passed: false }, robots: { passed: true } } };

		const encoded = [encodeBaseline(odd, table, false), encodeBaseline(full, table, true), encodeBaseline(partial, table, false)];
		table.push('a_check_phprank_adds_later');

		expect(table).toEqual(['title', 'favicon', 'robots', 'a_check_phprank_adds_later']);
		expect(encoded.map((text) => decodeBaseline(text, table))).toEqual([
			{ score: null, generatedAt: '2026-01-31 09:15:02', passed: new Map(), below: false },
			{ score: 72.5, generatedAt: '2026-01-31T09:15:02.000000Z', passed: new Map([['title', false], ['favicon', true]]), below: true },
			{ score: 40, generatedAt: null, passed: new Map([['favicon', false], ['robots', true]]), below: false },
		]);
		expect(decodeBaseline('not a baseline', table)).toBeUndefined();
	});
});

describe('Score Changed input checks', () => {
	it.each([
		[{ minChange: -1 }, 'Minimum Change must be a number from 0 to 100, not -1', /^Enter how many points/],
		[{ minChange: 101 }, 'Minimum Change must be a number from 0 to 100, not 101', /^Enter how many points/],
		[{ minChange: 'five' }, 'Minimum Change must be a number from 0 to 100, not "five"', /^Enter how many points/],
		[{ belowScore: 120 }, 'Below Score must be a number from 0 to 100, not 120', /^Enter the score \(1 to 100\)/],
		[{ belowScore: -5 }, 'Below Score must be a number from 0 to 100, not -5', /^Enter the score \(1 to 100\)/],
		[{ minChange: 0, belowScore: 0 }, 'Minimum Change and Below Score are both 0, so Score Changed would never fire', /^Enter a Minimum Change/],
	])('refuses %j before any request, on activation and in Fetch Test Event', async (parameters, message, description) => {
		addReports(1, 70);
		const workflow = scoreChanged(parameters as INodeParameters);

		await expect(workflow.activate()).rejects.toMatchObject({ message, description: expect.stringMatching(description) });
		const manual = await runManually({ event: 'scoreChanged', ...parameters } as INodeParameters, fixture.credential);

		expect(manual.error?.message).toBe(message);
		expect(fixture.apiRequests()).toEqual([]);
	});
});

describe('Fetch Test Event for Score Changed', () => {
	it('builds a sample from the newest report with reason and changes filled, marked as a sample', async () => {
		const newest = addReports(2, 70)[1];

		const run = await runManually({ event: 'scoreChanged', minChange: 8 }, fixture.credential);

		expect(run.error).toBeUndefined();
		expect(run.items).toHaveLength(1);
		const item = run.items[0].json;
		expect(item).toMatchObject({
			sample: true,
			note: `Sample event built from report #${newest.id}: the previous values are made up so you can map them`,
			event: 'scoreChanged',
			id: newest.id,
			score: 70,
			reason: 'moved',
		});
		const changes = item.changes as IDataObject;
		expect(changes).toMatchObject({
			previous: { result: 78, class: 'decent', generated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000000Z$/) },
			scoreDelta: -8,
		});
		expect((changes.failed as IDataObject[]).length).toBeGreaterThan(0);
		expect((changes.fixed as IDataObject[]).length).toBeGreaterThan(0);
		for (const { check } of changes.failed as Array<{ check: string }>) expect(newest.results[check].passed).toBe(false);
		for (const { check } of changes.fixed as Array<{ check: string }>) expect(newest.results[check].passed).toBe(true);
	});

	it('says the reason is Below Score when only Below Score is on', async () => {
		addReports(1, 40);

		const run = await runManually({ event: 'scoreChanged', minChange: 0, belowScore: 50 }, fixture.credential);

		expect(run.items[0].json).toMatchObject({ reason: 'belowScore', changes: { previous: { result: 50 } } });
	});
});
