import type { RecordedRequest } from './server';
import { sleep } from 'n8n-workflow';

import { useServer } from './harness/setup';

/*
 * Issue 38: Return All while reports are deleted or created, each order forced on purpose. The test
 * server holds every list request twice: before its snapshot (the list as the request finds it)
 * and after it, its answer made but not sent. The driver releases one held point at a time (of two
 * held, the oldest or the newest first: both are run) and makes one change just before the n-th release, for every n the run has: so the change
 * lands before or after each page's snapshot and before or after each answer reaches the node,
 * the page read ahead among them. A second page request while one is held would show as two held.
 */

/** One change; 'proxy': the newest report deleted before each page request after the first (issue 38's run). */
type Change = 'delete above' | 'delete inside' | 'delete below' | 'create' | 'proxy';

interface Held {
	request: RecordedRequest;
	release: () => void;
}

describe('Return All while the list changes, every order of requests, answers and the change', () => {
	const api = useServer();
	const getAll = { resource: 'report', operation: 'getAll', returnAll: true, simplify: true };
	const isList = (request: RecordedRequest) =>
		request.method === 'GET' && request.path.endsWith('/api/v1/reports');

	afterEach(() => {
		api.server.beforeList(undefined);
		api.server.holdAnswers(undefined);
	});

	/** Everything held now: requests before their snapshot, then answers, each oldest first. */
	function heldNow(before: Held[]): Held[] {
		const answers = api.server.heldAnswers().map((request) => ({
			request,
			release: () => void api.server.releaseAnswer(request),
		}));
		return [...before, ...answers];
	}

	/** Waits until the node has nothing more to send without a release (or the run ended). */
	async function quiet(before: Held[], ended: () => boolean): Promise<Held[]> {
		let seen = -1;
		let stableSince = Date.now();
		for (;;) {
			const held = heldNow(before);
			if (ended()) return held;
			if (held.length !== seen) [seen, stableSince] = [held.length, Date.now()];
			else if (held.length > 0 && Date.now() - stableSince >= 30) return held;
			await sleep(5);
		}
	}

	/** Makes the change; a deleted report's ID goes to `deleted`. */
	function change(kind: Exclude<Change, 'proxy'>, page: number, deleted: number[]): void {
		const ids = api.server.listReports().map((report) => report.id);
		ids.sort((a, b) => b - a);
		if (kind === 'create')
			return void api.server.addReport({ url: `https://new.example.com/${ids.length}` });
		const inside = Math.min(ids.length - 1, (page - 1) * 100 + 50);
		const at = { 'delete above': 0, 'delete below': ids.length - 1, 'delete inside': inside }[kind];
		api.server.deleteReport(ids[at]);
		deleted.push(ids[at]);
	}

	/** One Return All of 250 reports with `kind` made before the `at`-th release; of two held, `pick` goes first. */
	async function scheduled(kind: Change, at: number, pick: 'oldest' | 'newest') {
		api.server.deleteAllReports();
		api.server.seedReports(250);
		const initial = api.server.listReports().map((report) => report.id);
		const before: Held[] = [];
		api.server.beforeList(
			({ request }) =>
				new Promise<void>((release) => {
					const held: Held = {
						request,
						release: () => {
							before.splice(before.indexOf(held), 1);
							release();
						},
					};
					before.push(held);
				}),
		);
		api.server.holdAnswers(isList);
		let ended = false;
		const running = api.run(getAll).finally(() => (ended = true));
		const deleted: number[] = [];
		let changed = false;
		let releases = 0;
		let most = 0;
		for (;;) {
			const waiting = await quiet(before, () => ended);
			if (ended) break;
			most = Math.max(most, waiting.length);
			const next = pick === 'oldest' ? waiting[0] : waiting[waiting.length - 1];
			releases++;
			const page = Number(next.request.query.page);
			if (kind === 'proxy') {
				if (before.includes(next) && page > 1) change('delete above', page, deleted);
				changed = at === 1;
			} else if (releases === at) {
				change(kind, page, deleted);
				changed = true;
			}
			next.release();
		}
		const { items, error } = await running;
		const got = items.map((item) => Number(item.json.id));
		const survivors = initial.filter((id) => !deleted.includes(id));
		return {
			error,
			changed,
			most,
			missing: survivors.filter((id) => !got.includes(id)).length,
			twice: got.length - new Set(got).size,
		};
	}

	it.each<Change>(['delete above', 'delete inside', 'delete below', 'create', 'proxy'])(
		'%s: every survivor once, whatever the change lands between',
		async (kind) => {
			const outcomes: string[] = [];
			for (const pick of ['oldest', 'newest'] as const) {
				for (let at = 1; ; at++) {
					const { error, changed, most, missing, twice } = await scheduled(kind, at, pick);
					if (!changed) break;
					outcomes.push(`${pick[0]}${at}:${missing}/${twice}`);
					expect(error).toBeUndefined();
					expect({ pick, at, missing, twice }).toEqual({ pick, at, missing: 0, twice: 0 });
					// One page request on the wire at a time: none overlaps another one held.
					expect({ pick, at, most }).toEqual({ pick, at, most: 1 });
				}
			}
			console.log(
				`${kind}: ${outcomes.length} orders (release:missing/twice) ${outcomes.join(' ')}`,
			);
			expect(outcomes.length).toBeGreaterThanOrEqual(kind === 'proxy' ? 2 : 12);
		},
	);
});
