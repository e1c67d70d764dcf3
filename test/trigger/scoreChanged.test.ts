import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { changesBetween } from '../../nodes/PhpRank/engine/changes';
import {
	baselineRecord,
	decodeBaseline,
	decodeTrend,
	encodeBaseline,
	encodeTrend,
} from '../../nodes/PhpRankTrigger/events/scoreBaseline';
import { sparkline } from '../../nodes/PhpRank/sparkline';
import type { ReportRecord } from '../server';
import {
	runManually,
	type PolledWorkflow,
	type PolledWorkflowOptions,
	type PollOutcome,
} from '../harness/poll';
import { reanalyse as reanalyseReport } from '../harness/reanalysis';
import { activated, ids, triggerFixture } from './fixture';

const { fixture, addReports, polled, setScore, watch } = triggerFixture('score');

const passing = (report: ReportRecord) =>
	Object.keys(report.results).filter((check) => report.results[check].passed);
const failing = (report: ReportRecord) =>
	Object.keys(report.results).filter((check) => !report.results[check].passed);

/** `checks` as an event's `changes` lists them, and as its text fields name them (sorted). */
const asChanges = (report: ReportRecord, checks: string[]) =>
	checks.map((check) => ({ check, importance: report.results[check].importance }));
const asText = (report: ReportRecord, checks: string[]) =>
	checks.map((check) => `${check} (${report.results[check].importance})`).sort();

const reanalyse = (id: number, change: Parameters<typeof reanalyseReport>[2]) =>
	reanalyseReport(fixture.server, id, change);

const scoreChanged = (extra: INodeParameters = {}, options: PolledWorkflowOptions = {}) =>
	watch({ event: 'scoreChanged', ...extra }, options);
/** Each event as [id, reason, previous score, score]; its scoreDelta is checked to be the difference. */
const summary = (outcome: PollOutcome) =>
	outcome.items?.map(({ json }) => {
		const changes = json.changes as IDataObject;
		const previous = (changes.previous as IDataObject).result as number;
		expect(changes.scoreDelta).toBe((json.score as number) - previous);
		return [json.id, json.reason, previous, json.score];
	}) ?? null;

/** Polls once after each change: a re-analysis at a score (or with checks too), or null: none (a re-read). */
async function pollAfterEach(
	workflow: PolledWorkflow,
	id: number,
	changes: Array<number | Parameters<typeof reanalyse>[1] | null>,
): Promise<PollOutcome[]> {
	const outcomes = [];
	for (const change of changes) {
		if (change !== null) reanalyse(id, typeof change === 'number' ? { score: change } : change);
		outcomes.push(await workflow.poll());
	}
	return outcomes;
}

type Fired = [reason: string, from: number, to: number] | null;

describe('Score Changed', () => {
	it('notes a baseline for every report on activation without firing, in a few bytes each', async () => {
		const reports = addReports(3, 70);
		const workflow = scoreChanged();

		const activation = await polled(() => workflow.activate());

		expect(activation.items).toBeNull();
		expect(activation.requests.map((r) => r.query)).toEqual([
			{ sort_by: 'id', sort: 'desc', per_page: '100', page: '1' },
		]);
		const state = workflow.savedState;
		expect(state).toEqual({
			version: 1,
			watch: '["scoreChanged","","",0]',
			checks: expect.arrayContaining(Object.keys(reports[0].results)),
			baselines: Object.fromEntries(
				reports.map((report) => [
					report.id,
					expect.stringMatching(/^[0-9a-z]+,[0-9a-z]+,[0-9a-z]+,[0-9a-z]+$/),
				]),
			),
		});
	});

	it('fires once when the score drops by Minimum Change or more, with the changes since the baseline', async () => {
		const [report] = addReports(2, 70);
		const workflow = await activated(scoreChanged({ minChange: 5 }));
		const fail = passing(report).slice(0, 2);
		const pass = failing(report).slice(0, 1);
		const after = reanalyse(report.id, { score: 58, fail, pass });

		const poll = await workflow.poll();
		const again = await workflow.poll();

		expect(poll.items).toHaveLength(1);
		const item = poll.items![0].json;
		expect(item).toMatchObject({
			event: 'scoreChanged',
			id: report.id,
			url: report.url,
			score: 58,
			result_class: 'decent',
			reason: 'moved',
		});
		expect(item.changes).toEqual({
			previous: { result: 70, class: 'decent', generated_at: report.generated_at },
			scoreDelta: -12,
			failed: expect.arrayContaining(asChanges(report, fail)),
			fixed: asChanges(report, pass),
		});
		expect((item.changes as IDataObject).failed).toHaveLength(fail.length);
		// The very object the action node's re-runs output for these two analyses.
		expect(item.changes).toEqual(changesBetween(report, after));
		expect(Object.keys(item).slice(0, 2)).toEqual(['event', 'reason']);
		expect(item).toMatchObject({
			previous_score: report.result,
			score_change: (item.changes as IDataObject).scoreDelta,
		});
		expect(Object.keys(item).slice(-1)).toEqual(['changes']);
		expect(again.items).toBeNull();

		// The event is the new baseline: 58 → 55 is 3 points from it.
		setScore(report.id, 55);
		expect((await workflow.poll()).items).toBeNull();
	});

	it('fires on a rise too, and outputs the whole report without Simplify', async () => {
		const [report] = addReports(1, 60);
		const workflow = await activated(scoreChanged({ simplify: false }));
		setScore(report.id, 66);

		const poll = await workflow.poll();

		expect(summary(poll)).toEqual([[report.id, 'moved', 60, 66]]);
		expect(poll.items![0].json).toMatchObject({
			result: 66,
			results: expect.any(Object),
			score: 66,
		});
	});

	it.each<[string, INodeParameters, number[], Fired[]]>([
		[
			'ignores noise below Minimum Change',
			{ minChange: 5 },
			[80, 77, 83, 76, 84],
			[null, null, null, null],
		],
		[
			'adds up a slow drift and fires once it reaches Minimum Change',
			{ minChange: 5 },
			[90, 88, 87, 86, 84, 83, 82],
			[null, null, null, ['moved', 90, 84], null, null],
		],
		[
			// The second event is measured from the reading that re-armed it (55), not from the last event's (45).
			'with Below Score, fires once on falling below, not again while below, and again after recovering',
			{ minChange: 0, belowScore: 50 },
			[60, 45, 40, 35, 55, 48, 47],
			[['belowScore', 60, 45], null, null, null, ['belowScore', 55, 48], null],
		],
		[
			'without Notify on Recovery, stays silent on the way back',
			{ minChange: 0, belowScore: 70 },
			[78, 60, 80, 81],
			[['belowScore', 78, 60], null, null],
		],
	])(
		'%s; a report first seen low never fires',
		async (_title, parameters, [start, ...scores], fired) => {
			const [report] = addReports(1, start);
			addReports(1, 30); // below each Below Score here, but it did not fall while watched
			const workflow = await activated(scoreChanged(parameters));

			const outcomes = await pollAfterEach(workflow, report.id, scores);

			expect(outcomes.map(summary)).toEqual(fired.map((event) => event && [[report.id, ...event]]));
		},
	);

	it('with Only When Worse, ignores rises and measures a later drop from the higher score', async () => {
		const [rising, falling] = addReports(2, 50);
		const workflow = await activated(scoreChanged({ onlyWorse: true }));
		setScore(rising.id, 70);
		setScore(falling.id, 40);

		const first = await workflow.poll();
		setScore(rising.id, 64);
		const second = await workflow.poll();

		expect(summary(first)).toEqual([[falling.id, 'moved', 50, 40]]);
		expect(summary(second)).toEqual([[rising.id, 'moved', 70, 64]]);
	});

	it('with Notify on Recovery, fires "recovered" once when a report that fired Below Score is back at or above it', async () => {
		const [report, firstSeenLow] = [
			...addReports(1, 78),
			...addReports(1, 60),
			...addReports(1, 90),
		];
		const workflow = await activated(
			scoreChanged({ minChange: 0, belowScore: 70, notifyRecovery: true }, { durable: true }),
		);
		const broken = passing(report).slice(0, 2);

		setScore(firstSeenLow.id, 75); // it rises from 60 without having fired: no recovery

		const outcomes = await pollAfterEach(workflow, report.id, [
			{ score: 67, fail: broken },
			59,
			{ score: 70, pass: broken },
			null,
			74,
			{ score: 65, fail: broken },
		]);

		expect(outcomes.map(summary)).toEqual([
			[[report.id, 'belowScore', 78, 67]],
			null,
			// Back at 70 (at Below Score): measured from the event it answers (67), with the checks fixed since.
			[[report.id, 'recovered', 67, 70]],
			// The same analysis read again.
			null,
			null,
			// Below again: measured from the recovery's reading (70), the last reading at or above.
			[[report.id, 'belowScore', 70, 65]],
		]);
		const recovered = outcomes[2].items![0].json;
		expect(recovered).toMatchObject({
			reason: 'recovered',
			score_change: 3,
			trend: [78, 67, 59, 70],
			trend_text: '78 █▄▁▅ 70',
		});
		expect(String(recovered.newly_fixed).split(', ').sort()).toEqual(asText(report, broken));
		// The checks fixed at 70 fail again at 65: the changes are those since the reading at 70.
		const again = outcomes[5].items![0].json;
		expect(String(again.newly_failed).split(', ').sort()).toEqual(asText(report, broken));
		expect((again.changes as IDataObject).failed).toEqual(
			expect.arrayContaining(asChanges(report, broken)),
		);
		expect((again.changes as IDataObject).failed).toHaveLength(broken.length);
		expect((again.changes as IDataObject).previous).toEqual({
			result: 70,
			class: 'decent',
			// The reading at 70 (the third re-analysis, three hours on), in phpRank's date format.
			generated_at: new Date(Date.parse(report.generated_at) + 3 * 3_600_000)
				.toISOString()
				.replace(/Z$/, '000Z'),
		});
	});

	it('with a Result filter and Notify on Recovery, the recovery of an event fires out of that class, one never fired does not', async () => {
		const [fired, filtered] = addReports(2, 60);
		const workflow = await activated(
			scoreChanged({
				minChange: 0,
				belowScore: 50,
				notifyRecovery: true,
				filters: { result: 'bad' },
			}),
		);
		setScore(fired.id, 40);
		// 49 is decent: below 50, but out of the Result filter, so no event and nothing to recover from.
		setScore(filtered.id, 49);

		const drop = await workflow.poll();
		setScore(fired.id, 55);
		setScore(filtered.id, 56);
		const back = await workflow.poll();

		expect(summary(drop)).toEqual([[fired.id, 'belowScore', 60, 40]]);
		expect(summary(back)).toEqual([[fired.id, 'recovered', 40, 55]]);
		expect(back.items![0].json.result_class).toBe('decent');
	});

	it('carries the trend: the last 8 scores seen, oldest first, a re-read or an equal score adding nothing', async () => {
		const [report] = addReports(1, 81);
		const workflow = await activated(scoreChanged({ minChange: 20 }));

		// Each analysis read twice; 80 twice is an equal score.
		const outcomes = await pollAfterEach(workflow, report.id, [
			80,
			null,
			80,
			null,
			72,
			null,
			65,
			null,
			58,
			null,
		]);
		const slide = outcomes[8].items![0].json;
		const later = await pollAfterEach(workflow, report.id, [60, 62, 61, 70, 77, 90]);

		expect(outcomes.map(ids)).toEqual([...Array<null>(8).fill(null), [report.id], null]);
		expect(slide).toMatchObject({
			reason: 'moved',
			previous_score: 81,
			score: 58,
			trend: [81, 80, 72, 65, 58],
			trend_text: '81 ██▅▃▁ 58',
		});
		expect(Object.keys(slide).slice(-3)).toEqual(['trend', 'trend_text', 'changes']);
		expect(summary(later[5])).toEqual([[report.id, 'moved', 58, 90]]);
		expect(later.slice(0, 5).map(ids)).toEqual([null, null, null, null, null]);
		// 81 80 72 65 58 60 62 61 70 77 90: the last 8.
		expect(later[5].items![0].json).toMatchObject({
			trend: [65, 58, 60, 62, 61, 70, 77, 90],
			trend_text: '65 ▃▁▁▂▂▄▅█ 90',
		});
	});

	it('draws trend_text (and history_text) from the lowest to the highest score, at least 10 points apart', () => {
		expect(sparkline([81, 80, 72, 65, 58])).toBe('81 ██▅▃▁ 58');
		expect(sparkline([40, 100])).toBe('40 ▁█ 100');
		// A site's average scores (the action node's history_text) are rounded to whole points.
		expect(sparkline([71.4, 83.2])).toBe('71 ▁█ 83');
		// Noise of a point or two stays flat; one score is a flat bar.
		expect(sparkline([80, 81, 80, 79])).toBe('80 ▅▅▅▄ 79');
		expect(sparkline([72])).toBe('72 ▅ 72');
		expect(sparkline([])).toBe('');
	});

	it('fires when either Minimum Change or Below Score holds, the reason saying which', async () => {
		const [crossesSlightly, dropsAbove, both] = [
			...addReports(1, 52),
			...addReports(1, 90),
			...addReports(1, 70),
		];
		const workflow = await activated(scoreChanged({ minChange: 10, belowScore: 50 }));
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
		const workflow = await activated(scoreChanged({ filters: { result: 'bad' } }));
		setScore(report.id, 70);

		const first = await polled(() => workflow.poll());
		setScore(report.id, 40);
		const second = await workflow.poll();

		expect(first.requests.map((r) => r.query.result)).toEqual([undefined]);
		expect(first.items).toBeNull();
		expect(summary(second)).toEqual([[report.id, 'moved', 90, 40]]);
	});

	it('treats a Result filter added without a value as no filter: none in the request or the watch', async () => {
		// Read once for every event (poll.ts); New Report is the event that sends it.
		const newReport = await activated(watch({ event: 'newReport', filters: { result: '' } }));
		const created = addReports(1, 60)[0];

		const poll = await polled(() => newReport.poll());
		expect(ids(poll)).toEqual([created.id]);
		expect(poll.requests[0].query.result).toBeUndefined();
		expect(newReport.savedState.watch).toBe('["newReport","",""]');
	});

	it('forgets deleted reports and learns new ones without firing', async () => {
		const [kept, deleted] = addReports(2, 90);
		const workflow = await activated(scoreChanged({}, { durable: true }));
		expect((await workflow.poll()).items).toBeNull();
		fixture.server.deleteReport(deleted.id);
		const [created] = addReports(1, 10);

		const poll = await workflow.poll();

		expect(poll.items).toBeNull();
		expect(
			Object.keys(workflow.cursor?.baselines as IDataObject)
				.map(Number)
				.sort(),
		).toEqual([kept.id, created.id]);
		setScore(created.id, 30);
		expect(summary(await workflow.poll())).toEqual([[created.id, 'moved', 10, 30]]);
	});

	it('keeps its baselines when Minimum Change is edited, and starts over quietly when Below Score is', async () => {
		const [report] = addReports(1, 90);
		const workflow = await activated(scoreChanged({ minChange: 5 }));
		const baselines = workflow.savedState.baselines;

		// The user edits Minimum Change and activates again: same state, the same baseline (90).
		const edited = scoreChanged({ minChange: 8 }, { id: workflow.id });
		edited.stored = workflow.stored;
		expect((await edited.activate()).items).toBeNull();
		expect(edited.savedState.baselines).toEqual(baselines);
		setScore(report.id, 82);
		expect(summary(await edited.poll())).toEqual([[report.id, 'moved', 90, 82]]);

		// Below Score edited: its flags held for another score, so the trigger starts over.
		setScore(report.id, 40);
		const below = scoreChanged({ minChange: 8, belowScore: 50 }, { id: workflow.id });
		below.stored = edited.stored;
		expect((await below.activate()).items).toBeNull();
		expect(below.savedState.watch).toBe('["scoreChanged","","",50]');
		expect((await below.poll()).items).toBeNull();
	});
});

describe('Score Changed state size', () => {
	const bytesPerReport = (state: IDataObject, reports: number, what: string): number => {
		const bytes = Buffer.byteLength(JSON.stringify(state), 'utf8');
		process.stdout.write(
			`Score Changed static data at ${reports.toLocaleString('en-US')} watched reports, ${what}: ${bytes.toLocaleString('en-US')} bytes, ${(bytes / reports).toFixed(1)} bytes a report\n`,
		);
		return bytes / reports;
	};

	it('keeps at most 40 bytes of static data per watched report, at 5-digit IDs: with no score changed, and with each re-analysed 7 times and full trends', async () => {
		// IDs past 10,000: each report's key as long as at 10,000 reports, its per-report bytes the same.
		fixture.server.deleteReport(fixture.server.addReport({ url: 'https://x.example', id: 1e4 }).id);
		// Varied reports as phpRank holds them: 6 sites, full results, scores of every class.
		const reports = fixture.server.seedReports(2_000);
		const workflow = await activated(
			scoreChanged({ minChange: 5, belowScore: 50, notifyRecovery: true }, { durable: true }),
		);
		await workflow.poll(); // 20 pages, 10 a poll: the first round is complete

		const quiet = workflow.cursor!;
		expect(quiet.scan).toBeUndefined();
		expect(Object.keys(quiet.baselines as IDataObject)).toHaveLength(2_000);
		expect(bytesPerReport(quiet, reports.length, 'no score changed')).toBeLessThanOrEqual(40);
		// What is kept gives the same changes as the full records would.
		for (const report of reports.filter((_, index) => index % 100 === 0)) {
			const baseline = decodeBaseline(
				(quiet.baselines as Record<string, string>)[report.id],
				quiet.checks as string[],
			)!;
			const after = {
				...report,
				result: 12,
				results: Object.fromEntries(
					Object.entries(report.results).map(([name, check], i) => [
						name,
						{ ...check, passed: i % 2 === 0 ? !check.passed : check.passed },
					]),
				),
			};
			expect(changesBetween(baselineRecord(baseline), after)).toEqual(
				changesBetween(report, after),
			);
		}

		// Each round re-analyses every report (a new date, a score 1-12 points up or down, now and
		// then a check flipped), as phpRank's database would hold them after weekly re-runs.
		let seed = 7;
		const random = (below: number) => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) % below;
		const seen = new Map(reports.map((report) => [report.id, [report.result]]));
		let events = 0;
		for (let week = 1; week <= 7; week++) {
			for (const report of fixture.server.listReports()) {
				const step = (1 + random(12)) * (random(2) === 0 ? -1 : 1);
				const score = Math.min(100, Math.max(0, report.result + step));
				const checks = Object.keys(report.results);
				const flip = random(4) === 0 ? checks[random(checks.length)] : undefined;
				const flipped = flip && { [report.results[flip].passed ? 'fail' : 'pass']: [flip] };
				reanalyse(report.id, { score, hours: week * 7 * 24, ...flipped });
				seen.get(report.id)!.push(score);
			}
			const before = events;
			for (let poll = 0; poll < 2; poll++) events += (await workflow.poll()).items?.length ?? 0;
			expect(events).toBeGreaterThan(before);
		}

		const state = workflow.cursor!;
		expect(state.scan).toBeUndefined();
		const checks = state.checks as string[];
		const baselines = state.baselines as Record<string, string>;
		// Every report keeps a full trend: the last 7 of the 8 scores it had.
		for (const report of reports) {
			const scores = seen
				.get(report.id)!
				.filter((score, index, all) => index === 0 || score !== all[index - 1]);
			expect(decodeBaseline(baselines[report.id], checks)!.trend).toEqual(scores.slice(-7));
		}
		expect(
			bytesPerReport(
				state,
				reports.length,
				`each re-analysed 7 times (${events.toLocaleString('en-US')} events), full trends`,
			),
		).toBeLessThanOrEqual(40);
	});

	it('round-trips the odd record: no score, no results, a date in another format, checks missing or new', () => {
		const table: string[] = [];
		const odd = { result: null, results: null, generated_at: '2026-01-31 09:15:02' };
		const full = {
			result: 72.5,
			generated_at: '2026-01-31T09:15:02.000000Z',
			results: { title: { passed: false }, favicon: { passed: true } },
		};
		const partial = {
			result: 40,
			generated_at: null,
			results: { favicon: { passed: false }, robots: { passed: true } },
		};

		// Each record with the trend given and the trend kept (a score alone is its own trend).
		const kept = [
			{ record: odd, below: 'no', given: undefined, trend: [] },
			{ record: full, below: 'fired', given: [90, 100, 0, 73], trend: [90, 100, 0, 73] },
			{ record: partial, below: 'quiet', given: undefined, trend: [40] },
		] as const;
		const encoded = kept.map(({ record, below, given }) =>
			encodeBaseline(record, table, below, given),
		);
		table.push('a_check_phprank_adds_later');

		expect(table).toEqual(['title', 'favicon', 'robots', 'a_check_phprank_adds_later']);
		expect(encoded.map((text) => decodeBaseline(text, table))).toEqual(
			kept.map(({ record, below, trend }) => ({
				score: record.result,
				generatedAt: record.generated_at,
				passed: new Map(
					Object.entries(record.results ?? {}).map(([check, { passed }]) => [check, passed]),
				),
				below,
				trend,
			})),
		);
		// A score alone is stored without a trend; 7 scores (the most kept) take at most 8 characters.
		expect(encoded[2].split(',')[0]).toBe(`${(400).toString(36)}_`);
		expect(encodeTrend([100, 100, 100, 100, 100, 100, 100])).toHaveLength(8);
		expect(decodeTrend(encodeTrend([0, 5, 100, 42, 0, 0, 99]))).toEqual([0, 5, 100, 42, 0, 0, 99]);
		expect(decodeBaseline('not a baseline', table)).toBeUndefined();
	});
});

describe('Score Changed input checks', () => {
	const outOfRange = (
		name: 'minChange' | 'belowScore',
		value: number | string,
	): [INodeParameters, string, RegExp] => [
		{ [name]: value },
		`${name === 'minChange' ? 'Minimum Change' : 'Below Score'} must be a number from 0 to 100, not "${String(value)}"`,
		name === 'minChange' ? /^Enter how many points/ : /^Enter the score \(1 to 100\)/,
	];
	it.each([
		outOfRange('minChange', -1),
		outOfRange('minChange', 101),
		outOfRange('minChange', 'five'),
		outOfRange('belowScore', 120),
		[
			{ minChange: 0, belowScore: 0 } as INodeParameters,
			'Minimum Change and Below Score are both 0, so Score Changed would never fire',
			/^Enter a Minimum Change/,
		],
	])(
		'refuses %j before any request, on activation and in Fetch Test Event',
		async (parameters, message, description) => {
			addReports(1, 70);
			const workflow = scoreChanged(parameters as INodeParameters);

			await expect(workflow.activate()).rejects.toMatchObject({
				message,
				description: expect.stringMatching(description),
			});
			const manual = await runManually(
				{ event: 'scoreChanged', ...parameters } as INodeParameters,
				fixture.credential,
			);

			expect(manual.error?.message).toBe(message);
			expect(fixture.apiRequests()).toEqual([]);
		},
	);
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
			note: `Sample event built from report #${newest.id}: the previous values and the trend are made up so you can map them; its reason can be "moved"`,
			event: 'scoreChanged',
			id: newest.id,
			score: 70,
			reason: 'moved',
		});
		const changes = item.changes as IDataObject;
		expect(changes).toMatchObject({
			previous: {
				result: 78,
				class: 'decent',
				generated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000000Z$/),
			},
			scoreDelta: -8,
		});
		expect((changes.failed as IDataObject[]).length).toBeGreaterThan(0);
		expect((changes.fixed as IDataObject[]).length).toBeGreaterThan(0);
		for (const { check } of changes.failed as Array<{ check: string }>)
			expect(newest.results[check].passed).toBe(false);
		for (const { check } of changes.fixed as Array<{ check: string }>)
			expect(newest.results[check].passed).toBe(true);
		// A made-up slide from the previous score to this one.
		expect(item).toMatchObject({ trend: [78, 75, 73, 70], trend_text: '78 ▇▅▄▂ 70' });
	});

	it('says the reason is Below Score when only Below Score is on', async () => {
		addReports(1, 40);

		const run = await runManually(
			{ event: 'scoreChanged', minChange: 0, belowScore: 50 },
			fixture.credential,
		);

		expect(run.items[0].json).toMatchObject({
			reason: 'belowScore',
			changes: { previous: { result: 50 } },
			trend: [50, 47, 43, 40],
		});
		const recovery = await runManually(
			{ event: 'scoreChanged', minChange: 5, belowScore: 50, notifyRecovery: true },
			fixture.credential,
		);
		expect(recovery.items[0].json.note).toMatch(
			/; its reason can be "moved", "belowScore" or "recovered"$/,
		);
	});
});
