import type { IDataObject, INodeParameters, INodeProperties } from 'n8n-workflow';

import { PhpRankTrigger } from '../../nodes/PhpRankTrigger/PhpRankTrigger.node';
import type { ReportRecord } from '../server';
import { runManually, type PollOutcome } from '../harness/poll';
import { activated, range, triggerFixture } from './fixture';

const { fixture, setScore, watch } = triggerFixture('site');

const BIG = 'zeta.example.com';
const SMALL = 'alpha.example.com';
const QUIET = 'quiet.example.com';

/** 40 pages of one site and 2 of another, at `score`, and 110 of a third that do not change (two list pages). */
function seed(score: number): { big: ReportRecord[]; small: ReportRecord[] } {
	const add = (host: string, count: number) =>
		Array.from({ length: count }, (_, i) =>
			fixture.server.addReport({ url: `https://${host}/page-${i}`, result: score }),
		);
	const big = add(BIG, 40);
	add(QUIET, 110);
	const small = add(SMALL, 2);
	return { big, small };
}

/** Two workflows on the same reports, alike but for Output; each poll's requests counted. */
async function bothOutputs(event: INodeParameters) {
	const perEvent = watch({ ...event });
	const perSite = watch({ ...event, output: 'sites' });
	const requests: Record<string, number[]> = { perEvent: [], perSite: [] };
	const poll = async (name: 'perEvent' | 'perSite', run: () => Promise<PollOutcome>) => {
		fixture.server.clearRequests();
		const outcome = await run();
		requests[name].push(fixture.apiRequests().length);
		expect(outcome.error).toBeUndefined();
		return outcome;
	};
	await poll('perEvent', () => perEvent.activate());
	await poll('perSite', () => perSite.activate());
	return {
		requests,
		state: () => [JSON.stringify(perEvent.savedState), JSON.stringify(perSite.savedState)],
		poll: async () => ({
			perEvent: await poll('perEvent', () => perEvent.poll()),
			perSite: await poll('perSite', () => perSite.poll()),
		}),
	};
}

const link = (id: number) => `${fixture.server.url}/reports/${id}`;

describe('Output: One Item per Site', () => {
	it('when 40 pages of one site and 2 of another drop in one poll, one poll gives two items, worst site first', async () => {
		const { big, small } = seed(80);
		const outputs = await bothOutputs({ event: 'scoreChanged', minChange: 5 });
		// big: page i drops by 5 + i (5 to 44 points); small: by 50 and 6.
		big.forEach((report, i) => setScore(report.id, 80 - 5 - i));
		setScore(small[0].id, 30);
		setScore(small[1].id, 74);

		const { perEvent, perSite } = await outputs.poll();

		expect(perEvent.items).toHaveLength(42);
		expect(perSite.items).toHaveLength(2);
		const [first, second] = perSite.items!.map((item) => item.json);
		expect(first).toMatchObject({
			event: 'scoreChanged',
			project: BIG,
			event_count: 40,
			dropped: 40,
			reasons: { moved: 40 },
		});
		const drops = first.biggest_drops as IDataObject[];
		expect(drops).toHaveLength(10);
		expect(drops[0]).toEqual({
			id: expect.any(Number),
			url: `${BIG}/page-39`,
			score: 36,
			score_change: -44,
			link: link(drops[0].id as number),
		});
		expect(drops.map((drop) => drop.score_change)).toEqual(range(-44, -35));
		const lines = first.events as string[];
		expect(lines).toHaveLength(40);
		expect(lines[0]).toBe(`${BIG}/page-0: 80 → 75 (moved)`);
		const dropLine = (d: IDataObject) =>
			`${String(d.url)} ${String(d.score_change).replace('-', '−')} to ${String(d.score)} (${String(d.link)})`;
		expect(first.summary_text).toBe(
			`${BIG}: score changed on 40 pages (40 moved), 40 dropped\nBiggest drops (5 of 40): ${drops.slice(0, 5).map(dropLine).join('; ')}`,
		);
		expect(second).toMatchObject({
			project: SMALL,
			event_count: 2,
			dropped: 2,
			reasons: { moved: 2 },
			events: [`${SMALL}/page-0: 80 → 30 (moved)`, `${SMALL}/page-1: 80 → 74 (moved)`],
		});
		expect((second.biggest_drops as IDataObject[]).map((drop) => drop.score_change)).toEqual([
			-50, -6,
		]);
		// No request more, no state more: the two Outputs read the same and keep the same bytes.
		expect(outputs.requests.perSite).toEqual(outputs.requests.perEvent);
		expect(outputs.requests.perEvent).toEqual([2, 2]);
		const [perEventState, perSiteState] = outputs.state();
		expect(perSiteState).toBe(perEventState);
		const bytes = (outcome: PollOutcome) => JSON.stringify(outcome.items).length;
		process.stdout.write(
			`One Item per Site, 42 drops on 2 sites: ${perSite.items!.length} items, ${bytes(perSite)} bytes (One Item per Event: ${perEvent.items!.length} items, ${bytes(perEvent)} bytes); requests per poll ${outputs.requests.perSite.join(', ')} both; state ${perSiteState.length} bytes both\n`,
		);
	});

	it('Report Result Changed: one item per site with its changes, the same requests and state', async () => {
		const { big, small } = seed(85);
		const outputs = await bothOutputs({ event: 'resultChanged' });
		big.forEach((report) => setScore(report.id, 35));
		setScore(small[0].id, 65);
		setScore(small[1].id, 95);

		const { perEvent, perSite } = await outputs.poll();
		const quiet = await outputs.poll();

		expect(perEvent.items).toHaveLength(41);
		expect(perSite.items?.map((item) => item.json)).toEqual([
			expect.objectContaining({
				event: 'resultChanged',
				project: BIG,
				event_count: 40,
				dropped: 40,
				reasons: { changed: 40 },
				events: expect.arrayContaining([`${BIG}/page-7: good 85 → bad 35 (changed)`]),
			}),
			expect.objectContaining({
				project: SMALL,
				event_count: 1,
				dropped: 1,
				reasons: { changed: 1 },
				biggest_drops: [
					{
						id: expect.any(Number),
						url: `${SMALL}/page-0`,
						score: 65,
						score_change: -20,
						link: expect.stringMatching(/\/reports\/\d+$/),
					},
				],
			}),
		]);
		expect(quiet.perSite.items).toBeNull();
		expect(outputs.requests.perSite).toEqual(outputs.requests.perEvent);
		const [perEventState, perSiteState] = outputs.state();
		expect(perSiteState).toBe(perEventState);
	});

	it('with Simplify off, lists each event as its full item', async () => {
		const { small } = seed(80);
		const workflow = await activated(
			watch({ event: 'scoreChanged', minChange: 5, output: 'sites', simplify: false }),
		);
		setScore(small[1].id, 60);

		const { items } = await workflow.poll();

		expect(items).toHaveLength(1);
		const events = items![0].json.events as IDataObject[];
		expect(events).toEqual([
			expect.objectContaining({
				event: 'scoreChanged',
				reason: 'moved',
				id: expect.any(Number),
				url: `${SMALL}/page-1`,
				results: expect.any(Object),
				changes: expect.objectContaining({ scoreDelta: -20 }),
			}),
		]);
	});

	it('Fetch Test Event shows the newest report as its site’s item', async () => {
		const report = fixture.server.addReport({ url: `https://${SMALL}/about`, result: 70 });

		const { items, error } = await runManually(
			{ event: 'scoreChanged', minChange: 5, output: 'sites' },
			fixture.credential,
		);

		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(items[0].json).toMatchObject({
			sample: true,
			note: expect.stringMatching(/One Item per Site: its site with this one event$/),
			event: 'scoreChanged',
			project: SMALL,
			event_count: 1,
			events: [expect.stringMatching(new RegExp(`^${SMALL}/about: \\d+ → 70 \\(moved\\)$`))],
			summary_text: expect.stringContaining(`${SMALL}: score changed on 1 page (1 moved)`),
		});
		expect(fixture.apiRequests()).toHaveLength(1);
		expect(report.id).toBeGreaterThan(0);
	});

	it('offers Output only to the events that can group by site', () => {
		const output = new PhpRankTrigger().description.properties.find(
			(property: INodeProperties) => property.name === 'output',
		)!;
		expect(output).toMatchObject({
			default: 'events',
			displayOptions: { show: { event: ['resultChanged', 'scoreChanged'] } },
		});
		expect(output.options?.map((option) => ('value' in option ? option.value : ''))).toEqual([
			'events',
			'sites',
		]);
	});
});
