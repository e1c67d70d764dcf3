import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { RecordedRequest } from '../server';
import {
	PolledWorkflow,
	runManually,
	type PolledWorkflowOptions,
	type PollOutcome,
} from '../harness/poll';
import { locator } from '../harness/setup';
import { activated, ids, range, triggerFixture } from './fixture';

const { fixture, addReports, polled, setScore, watch } = triggerFixture('page');

const removeReport = (id: number) => fixture.server.deleteReport(id);

afterEach(() => fixture.server.beforeList(undefined));

const listQuery = (perPage: number, page: number, filters: Record<string, string> = {}) => ({
	sort_by: 'id',
	sort: 'desc',
	per_page: String(perPage),
	page: String(page),
	...filters,
});
/** The query of each list request a poll sent. */
const queries = ({ requests }: { requests: RecordedRequest[] }) => requests.map((r) => r.query);
/** Unfiltered list requests, each [per_page, page]. */
const asked = (...pages: Array<[number, number]>) =>
	pages.map(([size, page]) => listQuery(size, page));

describe('New Report', () => {
	const newReport = (extra: INodeParameters = {}) => watch({ event: 'newReport', ...extra });

	/** An activated New Report trigger over `count` existing reports. */
	async function activeOver(count: number) {
		const seeded = fixture.server.seedReports(count);
		return { workflow: await activated(newReport()), seeded };
	}

	it('starts quietly on activation: one request, no items, the newest ID remembered', async () => {
		const seeded = fixture.server.seedReports(30);
		const workflow = newReport();

		const activation = await polled(() => workflow.activate());

		expect(activation.items).toBeNull();
		expect(activation.error).toBeUndefined();
		expect(queries(activation)).toEqual([listQuery(10, 1)]);
		expect(activation.requests[0].path).toBe('/api/v1/reports');
		expect(activation.requests[0].headers.accept).toBe('application/json');
		expect(workflow.savedState).toEqual({
			version: 1,
			watch: '["newReport","",""]',
			lastId: seeded[29].id,
		});
	});

	it('emits each report created since the last poll once, oldest first, in one request', async () => {
		const { workflow } = await activeOver(30);
		const created = addReports(3);

		const first = await polled(() => workflow.poll());
		const second = await polled(() => workflow.poll());

		expect(ids(first)).toEqual(created.map((report) => report.id));
		expect(queries(first)).toEqual([listQuery(10, 1)]);
		const report = created[0];
		expect(first.items?.[0].json).toEqual({
			event: 'newReport',
			id: report.id,
			url: report.url,
			project: report.project,
			score: report.result,
			result_class: report.result > 79 ? 'good' : report.result >= 49 ? 'decent' : 'bad',
			failed_high: expect.any(Number),
			failed_medium: expect.any(Number),
			failed_low: expect.any(Number),
			top_failed_checks: expect.any(String),
			privacy: 'public',
			generated_at: report.generated_at,
			created_at: report.created_at,
			updated_at: report.updated_at,
			link: `${fixture.server.url}/reports/${report.id}`,
		});
		expect(second.items).toBeNull();
		expect(second.requests).toHaveLength(1);
	});

	it('reads a backlog larger than a page again by 100s, down to the first report already seen', async () => {
		const { workflow } = await activeOver(30);
		const created = addReports(150);

		const poll = await polled(() => workflow.poll());

		expect(ids(poll)).toEqual(created.map((report) => report.id));
		expect(queries(poll)).toEqual(asked([10, 1], [100, 1], [100, 2]));
		expect(workflow.savedState.lastId).toBe(created[149].id);
		expect((await workflow.poll()).items).toBeNull();
	});

	it('steps back a page when a report is deleted while it pages, so none slips past a page boundary', async () => {
		const { workflow } = await activeOver(5);
		const created = addReports(120);
		// Between page 1 and page 2 (per_page=100) a user deletes one of the 100 newest reports.
		let done = false;
		fixture.server.beforeList(({ request: { query } }) => {
			if (done || query.per_page !== '100' || query.page !== '2') return;
			done = true;
			removeReport(created[60].id);
		});

		const poll = await polled(() => workflow.poll());

		const expected = created.map((report) => report.id);
		// Report 61 of the backlog was read on page 1 before it was deleted; it fired, as it existed.
		expect(ids(poll)).toEqual(expected);
		// Page 2 counted one report fewer: page 1 is read again, and reaches the report that moved up.
		expect(queries(poll)).toEqual(asked([10, 1], [100, 1], [100, 2], [100, 1]));
	});

	it('keeps its place across a failed poll: the next poll emits what the failed one could not', async () => {
		const { workflow } = await activeOver(5);
		const before = workflow.savedState;
		const created = addReports(20);
		fixture.server.failNext(
			{ type: 'status', status: 500 },
			{ match: (request) => request.query.per_page === '100' },
		);

		const failed = await polled(() => workflow.poll());

		expect(failed.items).toBeNull();
		expect(failed.error?.message).toMatch(
			/^The phpRank server at 127\.0\.0\.1:\d+ failed \(HTTP 500\)/,
		);
		expect(workflow.savedState).toEqual(before);
		const next = await polled(() => workflow.poll());
		expect(ids(next)).toEqual(created.map((report) => report.id));
		expect(workflow.savedState).toEqual({ ...before, lastId: created[19].id });
	});

	it('after a restart, continues from the saved state and emits what was created while n8n was down', async () => {
		const { workflow } = await activeOver(5);
		const first = addReports(1);
		expect(ids(await workflow.poll())).toEqual([first[0].id]);
		const whileDown = addReports(2);

		// n8n starts again: a new Workflow object from the saved workflow, and its activation poll.
		const restart = await polled(() => workflow.activate('init'));

		expect(ids(restart)).toEqual(whileDown.map((report) => report.id));
		expect(restart.requests).toHaveLength(1);
		expect((await workflow.poll()).items).toBeNull();
	});

	it('filters by project and result in the request, and starts over quietly when the filters change', async () => {
		fixture.server.addReport({ url: 'https://example.com/a', result: 90 });
		fixture.server.addReport({ url: 'https://example.com/b', result: 20 });
		fixture.server.addReport({ url: 'https://other.org/c', result: 95 });
		const workflow = newReport({
			filters: { project: locator('list', 'example.com'), result: 'good' },
		});

		const activation = await polled(() => workflow.activate());
		fixture.server.addReport({ url: 'https://example.com/d', result: 30 });
		fixture.server.addReport({ url: 'https://other.org/e', result: 99 });
		const goodOne = fixture.server.addReport({ url: 'https://www.example.com/f', result: 88 });
		const poll = await polled(() => workflow.poll());

		expect(queries(activation)).toEqual([
			listQuery(10, 1, { project: 'example.com', result: 'good' }),
		]);
		expect(workflow.savedState.lastId).toBe(goodOne.id);
		expect(ids(poll)).toEqual([goodOne.id]);

		// Same saved state, other filters (the user edited the node and re-activated): no replay.
		const edited = watch({ event: 'newReport', filters: { result: 'good' } }, { id: workflow.id });
		edited.stored = workflow.stored;
		expect((await edited.activate()).items).toBeNull();
		expect(edited.savedState.watch).toBe('["newReport","","good"]');
	});
});

const resultChanged = (extra: INodeParameters = {}, options: PolledWorkflowOptions = {}) =>
	watch({ event: 'resultChanged', ...extra }, options);

describe('Report Result Changed', () => {
	/** Each event as [id, reason, previous class, class]. */
	const classChanges = (outcome: PollOutcome) =>
		outcome.items?.map(({ json }) => [
			json.id,
			json.reason,
			json.previous_result_class,
			json.result_class,
		]) ?? null;

	it('notes every report’s result on activation without firing', async () => {
		const reports = [...addReports(2, 90), ...addReports(1, 30)];
		const workflow = resultChanged();

		const activation = await polled(() => workflow.activate());

		expect(activation.items).toBeNull();
		expect(queries(activation)).toEqual([listQuery(100, 1)]);
		expect(workflow.savedState).toEqual({
			version: 1,
			watch: '["resultChanged","",""]',
			results: { [reports[0].id]: 90, [reports[1].id]: 90, [reports[2].id]: 30 },
		});
	});

	it('fires once when a report’s class changes, with the previous score and class', async () => {
		const [a, b, c] = addReports(3, 85);
		const workflow = await activated(resultChanged());
		setScore(b.id, 40);
		setScore(c.id, 82); // same class: no event

		const poll = await polled(() => workflow.poll());
		const again = await workflow.poll();

		expect(poll.items?.map((item) => item.json)).toEqual([
			expect.objectContaining({
				event: 'resultChanged',
				id: b.id,
				url: b.url,
				score: 40,
				result_class: 'bad',
				previous_score: 85,
				previous_result_class: 'good',
			}),
		]);
		expect(Object.keys(poll.items![0].json).slice(-2)).toEqual([
			'previous_score',
			'previous_result_class',
		]);
		expect(again.items).toBeNull();
		expect(workflow.savedState.results).toEqual({ [a.id]: 85, [b.id]: 40, [c.id]: 82 });
	});

	it('with Only When Worse and Notify on Recovery, fires "recovered" once when a report is back in the class it left', async () => {
		const [slipping, firstSeenLow, quiet] = [85, 60, 90].flatMap((score) => addReports(1, score));
		// Durable poll cursors: the state is committed after every poll, also one that fires nothing.
		const workflow = await activated(
			resultChanged({ onlyWorse: true, notifyRecovery: true }, { durable: true }),
		);

		const outcomes = [];
		// good 85 → decent 65 → bad 30 → decent 60 → good 82 → good 81; the others rise or stay.
		for (const [score, other] of [
			[65, 60],
			[30, 70],
			[60, 85],
			[82, 85],
			[81, 85],
		]) {
			setScore(slipping.id, score);
			setScore(firstSeenLow.id, other);
			outcomes.push(await workflow.poll());
			if (score === 82) outcomes.push(await workflow.poll()); // the same reading again
		}

		expect(outcomes.map(classChanges)).toEqual([
			[[slipping.id, 'changed', 'good', 'decent']],
			[[slipping.id, 'changed', 'decent', 'bad']],
			// Back in decent is not yet the class it left first (good); firstSeenLow rose to good: no drop, no recovery.
			null,
			[[slipping.id, 'recovered', 'decent', 'good']],
			null,
			null,
		]);
		expect(outcomes[3].items![0].json).toMatchObject({
			event: 'resultChanged',
			score: 82,
			previous_score: 60,
		});
		expect(Object.keys(outcomes[3].items![0].json).slice(0, 2)).toEqual(['event', 'reason']);
		// Nothing is left to recover: the state keeps no `dropped` entry.
		expect(workflow.savedState).toEqual({
			version: 1,
			watch: '["resultChanged","",""]',
			results: { [slipping.id]: 81, [firstSeenLow.id]: 85, [quiet.id]: 90 },
		});
	});

	it('with Only When Worse and no Notify on Recovery, stays silent on the way back and keeps nothing for it', async () => {
		const [report] = addReports(1, 85);
		const workflow = await activated(resultChanged({ onlyWorse: true }, { durable: true }));

		setScore(report.id, 40);
		const drop = await workflow.poll();
		const whileDown = workflow.savedState.dropped;
		setScore(report.id, 90);
		const back = await workflow.poll();

		expect(classChanges(drop)).toEqual([[report.id, 'changed', 'good', 'bad']]);
		expect(whileDown).toEqual({ [report.id]: 'good' });
		expect(back.items).toBeNull();
		expect(workflow.savedState.dropped).toBeUndefined();
	});

	it('with a Result filter and Notify on Recovery, fires the drop into that class and the recovery out of it', async () => {
		const [report] = addReports(1, 70);
		const workflow = await activated(
			resultChanged({
				onlyWorse: true,
				notifyRecovery: true,
				filters: { result: 'bad' },
			}),
		);

		setScore(report.id, 30);
		const drop = await workflow.poll();
		setScore(report.id, 75);
		const back = await workflow.poll();

		expect(classChanges(drop)).toEqual([[report.id, 'changed', 'decent', 'bad']]);
		expect(classChanges(back)).toEqual([[report.id, 'recovered', 'bad', 'decent']]);
	});

	it('with a Result filter, fires only on changes into that class and still tracks the others', async () => {
		const [toDecent, toBad] = addReports(2, 90);
		const workflow = await activated(resultChanged({ filters: { result: 'bad' } }));
		setScore(toDecent.id, 60);
		setScore(toBad.id, 20);

		const first = await polled(() => workflow.poll());
		setScore(toDecent.id, 30);
		const second = await workflow.poll();

		expect(queries(first)).toEqual([listQuery(100, 1)]);
		expect(classChanges(first)).toEqual([[toBad.id, 'changed', 'good', 'bad']]);
		expect(classChanges(second)).toEqual([[toDecent.id, 'changed', 'decent', 'bad']]);
	});

	it('forgets deleted reports and learns new ones without firing', async () => {
		const [kept, deleted] = addReports(2, 90);
		const workflow = await activated(resultChanged());
		removeReport(deleted.id);
		const [created] = addReports(1, 10);

		const poll = await workflow.poll();

		expect(poll.items).toBeNull();
		// Nothing was emitted, so n8n keeps the new state in memory and saves it with the next execution.
		expect(workflow.savedState.results).toEqual({ [kept.id]: 90, [deleted.id]: 90 });
		setScore(kept.id, 10);
		const next = await workflow.poll();
		expect(ids(next)).toEqual([kept.id]);
		expect(workflow.savedState.results).toEqual({ [kept.id]: 10, [created.id]: 10 });
	});

	it('watches one project with the project filter of the list', async () => {
		fixture.server.addReport({ url: 'https://example.com/a', result: 90 });
		const workflow = resultChanged({ filters: { project: locator('name', ' example.com ') } });

		const activation = await polled(() => workflow.activate());

		expect(queries(activation)).toEqual([listQuery(100, 1, { project: 'example.com' })]);
	});
});

describe('manual test run', () => {
	it('returns the most recent matching report in the shape of an event, and leaves the state alone', async () => {
		fixture.server.addReport({ url: 'https://example.com/old', result: 90 });
		const newest = fixture.server.addReport({ url: 'https://example.com/new', result: 91 });
		fixture.server.addReport({ url: 'https://example.com/bad', result: 12 });
		const staticData: IDataObject = {
			'node:phpRank Trigger': { version: 1, watch: '["newReport","",""]', lastId: 1 },
		};
		fixture.server.clearRequests();

		const run = await runManually(
			{ event: 'newReport', filters: { result: 'good' } },
			fixture.credential,
			staticData,
		);

		expect(run.error).toBeUndefined();
		expect(run.items.map((item) => [item.json.event, item.json.id])).toEqual([
			['newReport', newest.id],
		]);
		expect(run.items[0].json).toMatchObject({
			sample: true,
			note: `Sample event built from report #${newest.id}, the newest report that matches the filters`,
		});
		expect(queries({ requests: fixture.apiRequests() })).toEqual([
			listQuery(10, 1, { result: 'good' }),
		]);
		expect(run.staticData).toEqual(staticData);
	});

	it('shows a Report Result Changed sample with every field filled, marked as a sample', async () => {
		const newest = addReports(2, 70)[1];

		const run = await runManually({ event: 'resultChanged', simplify: false }, fixture.credential);

		expect(run.items).toHaveLength(1);
		expect(run.items[0].json).toMatchObject({
			sample: true,
			note: `Sample event built from report #${newest.id}: the previous values are made up so you can map them; its reason can be "changed"`,
			event: 'resultChanged',
			reason: 'changed',
			id: newest.id,
			result: 70,
			score: 70,
			result_class: 'decent',
			// A class other than the report's own, so the fields can be mapped.
			previous_score: 85,
			previous_result_class: 'good',
		});
		expect(run.items[0].json.results).toEqual(expect.any(Object));
		expect(Object.keys(run.items[0].json).slice(0, 2)).toEqual(['sample', 'note']);
	});

	it.each<[string, INodeParameters, Array<[string, number]>, string, RegExp]>([
		[
			'says there is no report yet, instead of n8n\'s generic "No phpRank data found"',
			{ event: 'newReport' },
			[],
			'phpRank has no reports yet, so there is no event to show',
			/^Create a report in phpRank/,
		],
		[
			'names the filters that matched no report',
			{
				event: 'resultChanged',
				filters: { project: locator('name', 'example.com'), result: 'bad' },
			},
			[
				['https://example.com/good', 90],
				['https://other.example/bad', 10],
			],
			'No phpRank report matches the filters (Project: example.com, Result: Bad)',
			/^Fetch Test Event shows the newest report that matches the filters\. Change or remove the filters/,
		],
	])('%s', async (_what, parameters, reports, message, description) => {
		for (const [url, result] of reports) fixture.server.addReport({ url, result });

		const run = await runManually(parameters, fixture.credential);

		expect(run.items).toEqual([]);
		expect(run.error?.message).toBe(message);
		expect((run.error as { description?: string }).description).toMatch(description);
	});
});

/** Forgets the requests so far, and holds the next list request until `release()`: a long poll. */
function holdNextListRequest(): { held: Promise<void>; release: () => void } {
	let release = () => {};
	let reached = () => {};
	const held = new Promise<void>((resolve) => (reached = resolve));
	const gate = new Promise<void>((resolve) => (release = resolve));
	let used = false;
	fixture.server.clearRequests();
	fixture.server.beforeList(async () => {
		if (used) return;
		used = true;
		reached();
		await gate;
	});
	return { held, release };
}

describe('polls that overlap (a poll outlasting its interval)', () => {
	it('fires each event once: a poll that starts while the last one runs returns nothing and sends nothing', async () => {
		fixture.server.seedReports(5);
		const workflow = await activated(watch({ event: 'newReport' }));
		const created = addReports(3);
		const slow = holdNextListRequest();

		const first = workflow.poll();
		await slow.held;
		const second = await workflow.poll();
		slow.release();

		expect(second).toEqual({ items: null });
		expect(ids(await first)).toEqual(created.map((report) => report.id));
		expect(fixture.apiRequests()).toHaveLength(1);
		expect((await workflow.poll()).items).toBeNull();
	});

	it('a poll that outlived its lease drops its result when a later poll has fired meanwhile', async () => {
		fixture.server.seedReports(5);
		// A short poll budget: the lease of the first poll expires while it waits.
		const workflow = await activated(resultChanged({}, { pollBudgetMs: 300 }));
		const [changed] = fixture.server.listReports();
		setScore(changed.id, changed.result > 48 ? 10 : 95);
		const slow = holdNextListRequest();

		const first = workflow.poll();
		await slow.held;
		await new Promise((resolve) => setTimeout(resolve, 400));
		const second = await workflow.poll();
		slow.release();
		const late = await first;

		expect(ids(second)).toEqual([changed.id]);
		expect(late).toEqual({ items: null });
		expect(fixture.apiRequests()).toHaveLength(2);
		expect((await workflow.poll()).items).toBeNull();
	});
});

describe('a share of the request budget per poll', () => {
	it.each([['resultChanged'], ['scoreChanged']])(
		'%s reads 2,500 watched reports over 3 polls of at most 10 requests, and fires each change once',
		async (event) => {
			const reports = addReports(2500, 90);
			// A Project added without a value watches every report.
			const workflow = watch({ event, filters: { project: locator('name', '') } });

			const activation = await polled(() => workflow.activate());
			setScore(reports[2400].id, 10); // newest pages: read again only in the next round
			setScore(reports[100].id, 10); // oldest pages: not read yet in the first round
			const second = await polled(() => workflow.poll());
			const third = await polled(() => workflow.poll());
			const nextRound = await polled(() => workflow.poll());

			// 1,000 reports in 10 requests a poll: within phpRank's 60 a minute at a 1-minute interval.
			expect([activation, second, third, nextRound].map(queries)).toEqual(
				[range(1, 10), range(11, 20), range(21, 25), range(1, 10)].map((pages) =>
					pages.map((page) => listQuery(100, page)),
				),
			);
			// The oldest report was first read after its change: that reading is its starting point.
			expect([activation, second, third].map((poll) => poll.items)).toEqual([null, null, null]);
			expect(ids(nextRound)).toEqual([reports[2400].id]);
			expect(nextRound.items![0].json.event).toBe(event);
			setScore(reports[100].id, 90);
			const rest = [await workflow.poll(), await workflow.poll()];
			expect(rest.map(ids)).toEqual([null, [reports[100].id]]);
		},
	);

	it('spreads a backlog of 2,000 new reports over polls of 10 requests, each report once', async () => {
		fixture.server.seedReports(5);
		const workflow = await activated(watch({ event: 'newReport' }));
		const backlog = addReports(2000);

		const first = await polled(() => workflow.poll());
		const meanwhile = addReports(5);
		const second = await polled(() => workflow.poll());
		const third = await polled(() => workflow.poll());
		const fourth = await polled(() => workflow.poll());

		expect([first, second, third, fourth].map((poll) => poll.requests.length)).toEqual([
			10, 10, 2, 1,
		]);
		// Each poll fires oldest first; a backlog spread over polls comes newest part first. The 5
		// created meanwhile pushed the list down: the second poll read 5 of the first's again.
		expect(ids(first)).toEqual(backlog.slice(1100).map((report) => report.id));
		expect(ids(second)).toEqual(backlog.slice(105, 1100).map((report) => report.id));
		expect(ids(third)).toEqual(backlog.slice(0, 105).map((report) => report.id));
		expect(ids(fourth)).toEqual(meanwhile.map((report) => report.id));
		expect((await workflow.poll()).items).toBeNull();
	});
});

describe('durable poll cursors (N8N_POLLER_DURABLE_CURSORS_ENABLED)', () => {
	it('forgets a deleted report in the poll that reads its part of the list, and keeps the others', async () => {
		const reports = addReports(1200, 90);
		const workflow = await activated(resultChanged({}, { durable: true }));
		expect((await workflow.poll()).items).toBeNull(); // pages 11-12: the first round is complete
		const remembered = () => Object.keys(workflow.cursor?.results as IDataObject).map(Number);
		expect(remembered()).toHaveLength(1200);
		removeReport(reports[0].id); // oldest: read by the second poll of a round
		removeReport(reports[1150].id); // newest: read by the first

		await workflow.poll();
		const afterFirst = remembered();
		await workflow.poll();
		const afterSecond = remembered();

		expect(afterFirst).toHaveLength(1199);
		expect(afterFirst).not.toContain(reports[1150].id);
		expect(afterFirst).toContain(reports[0].id);
		expect(afterSecond).toHaveLength(1198);
		expect(afterSecond).not.toContain(reports[0].id);
	});

	it('fires the reports created between activation and the first scheduled poll', async () => {
		fixture.server.seedReports(5);
		const workflow = watch({ event: 'newReport' }, { durable: true });

		await workflow.activate();
		// n8n ran the activation poll as a test and did not commit its state.
		expect(workflow.cursor).toEqual({});
		const created = addReports(2);
		const first = await workflow.poll();

		expect(ids(first)).toEqual(created.map((report) => report.id));
		expect(workflow.cursor).toMatchObject({ version: 1, lastId: created[1].id });
		expect((await workflow.poll()).items).toBeNull();
		const later = addReports(1);
		expect(ids(await workflow.poll())).toEqual([later[0].id]);
	});

	it('commits the state of a poll that fires nothing on its own, so a restart continues from it', async () => {
		fixture.server.seedReports(5);
		const workflow = await activated(watch({ event: 'newReport' }, { durable: true }));
		expect((await workflow.poll()).items).toBeNull();
		expect(workflow.cursor).toMatchObject({ lastId: expect.any(Number) });

		const created = addReports(1);
		// n8n starts again: no activation poll (the poll jobs exist); the next poll reads the cursor row.
		expect((await workflow.activate('init')).items).toBeNull();

		expect(ids(await workflow.poll())).toEqual([created[0].id]);
	});
});

describe('failures n8n’s poll scheduler backs off by', () => {
	const failure = (outcome: PollOutcome) =>
		(outcome.error as { failure?: unknown } | undefined)?.failure;

	it.each([
		[401, { cause: 'credential-invalid' }],
		[403, { cause: 'configuration-invalid' }],
		[404, { cause: 'configuration-invalid' }],
		[500, { cause: 'temporarily-unavailable' }],
		[503, { cause: 'temporarily-unavailable' }],
	])('HTTP %i is declared %j, and the state is kept', async (status, declared) => {
		fixture.server.seedReports(5);
		const workflow = await activated(watch({ event: 'newReport' }));
		const before = workflow.savedState;
		fixture.server.failNext({ type: 'status', status, body: { message: 'x' } });

		const outcome = await workflow.poll();

		expect(failure(outcome)).toEqual(declared);
		expect(workflow.savedState).toEqual(before);
	});

	it('a rate limit longer than half the poll budget ends the poll as rate-limited, with the wait', async () => {
		fixture.server.seedReports(5);
		// By another host name: the 30 s wait then holds back only this test's requests (the budget
		// is per user and instance, for the whole process).
		const credential = {
			...fixture.credential,
			baseUrl: fixture.server.url.replace('127.0.0.1', 'localhost'),
		};
		const workflow = new PolledWorkflow({ event: 'newReport' }, credential, {
			pollBudgetMs: 4_000,
		});
		await workflow.activate();
		const before = workflow.savedState;
		fixture.server.failNext({
			type: 'status',
			status: 429,
			body: { message: 'Too Many Attempts.' },
			headers: { 'Retry-After': '30' },
		});

		const started = Date.now();
		const outcome = await workflow.poll();

		expect(Date.now() - started).toBeLessThan(2_000);
		expect(failure(outcome)).toEqual({ cause: 'rate-limited', retryAfterMs: 30_050 });
		expect(workflow.savedState).toEqual(before);
	});

	it('an instance that cannot be reached is temporarily unavailable', async () => {
		const workflow = new PolledWorkflow(
			{ event: 'newReport' },
			{ ...fixture.credential, baseUrl: 'http://127.0.0.1:9' },
		);
		fixture.server.seedReports(1);

		await expect(workflow.activate()).rejects.toMatchObject({
			failure: { cause: 'temporarily-unavailable' },
		});
	});

	it('an instance that answers page 1 again is a configuration to fix, said so', async () => {
		addReports(150, 90);
		const workflow = await activated(watch({ event: 'resultChanged' }));
		fixture.server.setIgnorePage(true);

		const outcome = await polled(() => workflow.poll());
		fixture.server.setIgnorePage(false);

		expect(outcome.error?.message).toBe(
			'phpRank answered page 1 again when asked for page 2: a cache or proxy in front of it may ignore the page parameter',
		);
		expect(failure(outcome)).toEqual({ cause: 'configuration-invalid' });
		expect(outcome.requests).toHaveLength(2);
	});
});
