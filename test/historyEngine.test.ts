import type { IDataObject } from 'n8n-workflow';

import { perSiteParameters, useServer } from './harness/setup';
import { historyOf, MONTHS, scriptRun } from './harness/siteOverMonths';
import { siteRuns } from './harness/siteRuns';
import { siteFigures, type SiteFigures } from './server';

/*
 * A site over months (test/harness/siteOverMonths.ts), through the real n8n engine: Create or Re-Run
 * (One Item per Site) run as production executions and manual ones (test/harness/siteRuns.ts). The
 * expected figures come from the test server's own reports.
 */

const URLS = ['https://shop.example.com/', 'https://shop.example.com/a'];
const START = Date.parse('2026-01-05T08:00:00Z');

describe('Create or Re-Run, One Item per Site: a site over months', () => {
	const api = useServer();
	const { run, state, reset } = siteRuns(api, perSiteParameters, { urls: URLS });
	beforeEach(() => {
		api.server.deleteAllReports();
		reset();
	});

	/** Scripted analyses of the run `day` weeks in: each page's score and failing checks (MONTHS unless given). */
	const script = (day: number, month = MONTHS[day]) =>
		scriptRun(api.server, URLS, { start: START, run: day, ...month });
	const serverFigures = () => siteFigures(api.server, 'shop.example.com');

	it('grows by one record a production run, each equal to the server’s figures; a manual run adds nothing', async () => {
		const records: SiteFigures[] = [];
		for (let day = 0; day < 5; day++) {
			script(day);
			const { items, error } = await run('webhook');
			expect(error).toBeUndefined();
			records.push(serverFigures());
			const site = items[0].json;
			expect(site.history_saved).toBe(true);
			expect(historyOf(site)).toEqual(records);
			expect(site.runs_recorded).toBe(day + 1);

			if (day === 2) {
				// A manual run in between shows this run last, saves nothing, and says so.
				const before = structuredClone(state.saved);
				script(day);
				const manual = await run('manual');
				expect(manual.items[0].json.history_saved).toBe(false);
				expect(manual.items[0].json.history).toHaveLength(4);
				expect(String(manual.items[0].json.summary_text)).toContain('this run not saved');
				expect(manual.staticData.__dataChanged).toBe(false);
				expect(state.saved).toEqual(before);
			}
		}
		script(5, { scores: [79, 92], failing: [['favicon', 'robots'], []] });
		const site = (await run('webhook')).items[0].json;
		expect(site.first_run_at).toBe(records[0].date);
		expect(site.change_since_first).toBe(
			Math.round(((79 + 92) / 2 - Number(records[0].average_score)) * 10) / 10,
		);
		expect(site.change_4_runs).toBe(
			Math.round(((79 + 92) / 2 - Number(records[1].average_score)) * 10) / 10,
		);
		expect(site.history_text).toBe('75 ▃▄▁▇██ 86');
		// The lines README's "A site over months" shows.
		expect(String(site.summary_text).split('\n').slice(-2)).toEqual([
			'History (6 runs): 75 ▃▄▁▇██ 86, +10.5 since 2026-01-05, +9 over 4 runs',
			'Open issues: favicon 6 runs (since 2026-01-05, 1 page); robots 2 runs (since 2026-02-02, 1 page)',
		]);
		// favicon failed in every run (6), robots since the fifth (2); title was resolved in the fifth.
		expect(site.open_issues).toEqual([
			expect.objectContaining({
				check: 'favicon',
				pages: 1,
				age_runs: 6,
				age_days: 35,
				failing_since: records[0].date,
			}),
			expect.objectContaining({
				check: 'robots',
				pages: 1,
				age_runs: 2,
				age_days: 7,
				failing_since: records[4].date,
			}),
		]);
		expect(site.new_issues).toEqual([]);
		expect(site.resolved_issues).toEqual([]);
	});

	it('names new and resolved issues against the previous run', async () => {
		for (let day = 0; day < 5; day++) {
			script(day);
			await run('webhook');
		}
		script(5, { scores: [79, 92], failing: [[], ['title']] });
		const sixth = (await run('webhook')).items[0].json;
		expect((sixth.new_issues as IDataObject[]).map(({ check }) => check)).toEqual(['title']);
		expect(sixth.resolved_issues).toEqual([
			expect.objectContaining({ check: 'favicon', age_runs: 5 }),
			expect.objectContaining({ check: 'robots', age_runs: 1 }),
		]);
	});

	it('a run that fails adds nothing; a second try in the same execution replaces its record', async () => {
		script(0);
		await run('webhook');
		const before = structuredClone(state.saved);
		// A 500, not a 503: a GET answered 503 is retried (Wait Out Outages) and would succeed.
		api.server.failNext({ type: 'status', status: 500 }, { times: 1 });
		const failed = await run('webhook');
		expect(failed.error).toBeDefined();
		expect(state.saved).toEqual(before);

		script(1);
		await run('webhook', { id: 'same' });
		script(2);
		const again = (await run('webhook', { id: 'same' })).items[0].json;
		expect(again.runs_recorded).toBe(2);
		expect((again.history as IDataObject[]).map(({ average_score }) => average_score)).toEqual([
			75, 71,
		]);
	});

	it('History Length sets how many runs the item lists; Simplify writes them as text', async () => {
		for (let day = 0; day < 4; day++) {
			script(day);
			await run('webhook');
		}
		script(4);
		const { items } = await run('webhook', {
			extra: { siteOptions: { historyLength: 2 }, simplify: true },
		});
		expect(items[0].json.history).toBe('2026-01-26 82.5, 2026-02-02 84.5');
		expect(items[0].json.runs_recorded).toBe(5);
		// E-Mail HTML is off by default: the text for chat stays, the e-mail's HTML is left out.
		expect(String(items[0].json.summary_text)).toContain('shop.example.com');
		expect(items[0].json).not.toHaveProperty('summary_html');
	});

	it.each([
		...[0, 105].map((length): [IDataObject, string] => [
			{ siteOptions: { historyLength: length } },
			`History Length must be a number from 1 to 104, not "${length}" [item 0]`,
		]),
		[
			{ reportBranding: { logoUrl: 'javascript:alert(1)' } },
			'Logo URL must be a web address (http:// or https://), not "javascript:alert(1)" [item 0]',
		],
		[
			{ reportBranding: { accentColor: 'red' } },
			'Accent Color must be a colour written #rrggbb, not "red" [item 0]',
		],
	])(
		'bad input %j is refused before anything is sent, naming the field and the item',
		async (extra, message) => {
			const { error } = await run('webhook', { extra });
			expect(error?.message).toBe(message);
			expect(api.apiRequests()).toHaveLength(0);
			expect(state.saved).toEqual({});
		},
	);

	it('branding reaches summary_html escaped, with the chart and the issues', async () => {
		script(0);
		const { items } = await run('webhook', {
			extra: {
				siteOptions: { emailHtml: true },
				reportBranding: {
					agencyName: '<script>alert(1)</script> Agency',
					logoUrl: 'https://agency.example/logo.png',
					accentColor: '#ff0066',
					introText: 'Your monthly report',
				},
			},
		});
		const html = String(items[0].json.summary_html);
		expect(html).not.toContain('<script>');
		expect(html).toContain('&#60;script&#62;alert(1)&#60;/script&#62; Agency');
		expect(html).toContain('<img src="https://agency.example/logo.png"');
		expect(html).toContain('Score over the last 1 run');
		expect(html).toContain('<b>favicon</b>');
		expect(html.startsWith('<div')).toBe(true);
		expect(html.endsWith('</div>')).toBe(true);
	});
});
