import type { IDataObject } from 'n8n-workflow';

import { perSiteParameters, useServer } from './harness/setup';
import { scriptRun } from './harness/siteOverMonths';
import { siteRuns } from './harness/siteRuns';

/*
 * Output → One Item per Finding Change through the real n8n engine: a site's scripted runs as
 * production executions (and a manual one), each run's items asserted exactly.
 */

const URLS = ['https://shop.example.com/', 'https://shop.example.com/a'];
const START = Date.parse('2026-01-05T08:00:00Z');
const findings = (extra: IDataObject = {}) => perSiteParameters({ output: 'findings', ...extra });
const summary = (items: Array<{ json: IDataObject }>) =>
	items.map(({ json }) => `${String(json.event)} ${String(json.key ?? json.keys)}`);

describe('Create or Re-Run, One Item per Finding Change', () => {
	const api = useServer();
	const { run, state, reset } = siteRuns(api, findings, { urls: URLS });
	beforeEach(() => {
		api.server.deleteAllReports();
		reset();
	});
	const script = (week: number, failing: string[][]) =>
		scriptRun(api.server, URLS, { start: START, run: week, scores: [60, 80], failing });
	const production = async (week: number, failing: string[][], extra?: IDataObject) => {
		script(week, failing);
		const { items, error } = await run('webhook', { extra });
		expect(error).toBeUndefined();
		return items;
	};

	it('opens, leaves unchanged, resolves and regresses findings; a manual run shows them and records nothing', async () => {
		const first = await production(0, [['title', 'favicon'], ['title']]);
		expect(summary(first)).toEqual([
			'opened shop.example.com · title',
			'opened shop.example.com · favicon',
		]);
		const [title] = first.map(({ json }) => json);
		expect(title).toMatchObject({
			site: 'shop.example.com',
			check: 'title',
			importance: 'high',
			failing_pages: 2,
			first_seen: '2026-01-05T08:00:01Z',
			age_runs: 1,
			age_days: 0,
			title: 'SEO: title fails on shop.example.com',
			ticket: null,
			history_saved: true,
		});
		const worst = title.worst_pages as IDataObject[];
		expect(worst.map(({ url, score }) => [url, score])).toEqual([
			['shop.example.com', 60],
			['shop.example.com/a', 80],
		]);
		expect(String(title.body)).toContain(
			`- [shop.example.com](${String(worst[0].link)}) (score 60)`,
		);
		expect(await production(1, [['title', 'favicon'], ['title']])).toEqual([]);
		expect(summary(await production(2, [['favicon'], []]))).toEqual([
			'resolved shop.example.com · title',
		]);

		script(3, [['favicon', 'title'], []]);
		const saved = structuredClone(state.saved);
		const manual = await run('manual');
		expect(summary(manual.items)).toEqual(['regressed shop.example.com · title']);
		expect(manual.items[0].json.history_saved).toBe(false);
		expect(state.saved).toEqual(saved);

		const regressed = await production(3, [['favicon', 'title'], []]);
		expect(regressed.map(({ json }) => json)).toEqual([
			expect.objectContaining({
				event: 'regressed',
				first_seen: '2026-01-05T08:00:01Z',
				failing_pages: 1,
				history_saved: true,
			}),
		]);
	});

	it('Retry On Fail: a later try of the same execution (after its run was kept) gives the same items, no second record', async () => {
		await production(0, [['title'], []]);
		script(1, [[], ['favicon']]);
		const once = await run('webhook', { id: 'retried' });
		script(1, [[], ['favicon']]);
		const again = await run('webhook', { id: 'retried' });
		expect(summary(once.items)).toEqual([
			'opened shop.example.com · favicon',
			'resolved shop.example.com · title',
		]);
		expect(again.items.map(({ json }) => json)).toEqual(once.items.map(({ json }) => json));
		script(2, [[], ['favicon']]);
		const perSite = await run('webhook', { extra: { output: 'sites' } });
		expect(perSite.items[0].json.runs_recorded).toBe(3);
	});

	it('the flood guard: high importance first, the rest in one held item; reminders when asked', async () => {
		const failing = [['favicon', 'title', 'robots', 'sitemap'], ['title']];
		const options = { findingOptions: { maxNewTickets: 2, remindAfterDays: 14 } };
		const first = await production(0, failing, options);
		expect(summary(first)).toEqual([
			'opened shop.example.com · title',
			'opened shop.example.com · robots',
			'held shop.example.com · favicon,shop.example.com · sitemap',
		]);
		expect(first[2].json).toMatchObject({
			held: 2,
			title: 'SEO: 2 more findings on shop.example.com',
		});
		expect(await production(1, failing, options)).toEqual([]);
		const reminders = await production(2, failing, options);
		expect(summary(reminders)).toEqual([
			'reminder shop.example.com · title',
			'reminder shop.example.com · robots',
			'reminder shop.example.com · favicon',
			'reminder shop.example.com · sitemap',
		]);
		expect(reminders[0].json).toMatchObject({ age_runs: 3, age_days: 14 });
		expect(await production(3, failing, options)).toEqual([]);
	});

	it('sends the same phpRank requests as One Item per Site', async () => {
		const calls: string[][] = [];
		for (const output of ['sites', 'findings']) {
			api.server.deleteAllReports();
			api.reset();
			script(0, [['title'], []]);
			await run('webhook', { extra: { output } });
			calls.push(api.calls());
		}
		expect(calls[1]).toEqual(calls[0]);
		expect(calls[0].length).toBeGreaterThan(0);
	});

	it.each([
		[{ maxNewTickets: 0 }, 'Max New Tickets must be a number from 1 to 1000, not "0"'],
		[
			{ remindAfterDays: 'soon' },
			'Remind After (Days) must be a number from 0 to 3650, not "soon"',
		],
	])('refuses %j before any request, naming the field', async (findingOptions, message) => {
		const { error } = await api.run(findings({ findingOptions }), { items: [{ url: URLS[0] }] });
		expect(error?.message).toContain(message);
		expect(api.apiRequests()).toHaveLength(0);
	});
});
