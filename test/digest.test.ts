import type { IDataObject } from 'n8n-workflow';

import { HISTORY_COLUMNS } from '../nodes/PhpRank/history/model';
import { locator, useN8nApi, useServer } from './harness/setup';
import { callTool, toolNode } from './harness/tool';
import type { CheckResult, ReportRecord } from './server';
import {
	accountFixture,
	type Account,
	expectedDigest,
	SCRIPT_PROJECT,
} from './server/digestAccount';

/*
 * Project → Get Health, All Projects, Output → One Digest, through the real n8n engine against the
 * test phpRank server and a stand-in for n8n's data-table API. The account: 12 projects, 3 of them
 * not analysed for 10 days, and four weeks of history for 9 in the table Create or Re-Run writes.
 * The expected digest is worked out in test/server/digestAccount.ts from the server's reports and the table's
 * rows as they are, not by the node's code.
 */

const N8N_KEY = 'n8n-digest-key';
const TABLE = 'phpRank site history';

const digestNode = (extra: IDataObject = {}) => ({
	resource: 'project',
	operation: 'getHealth',
	allProjects: true,
	output: 'digest',
	simplify: false,
	historyStore: 'dataTable',
	historyTable: locator('name', TABLE),
	siteOptions: { emailHtml: true },
	...extra,
});

describe('Get Health → One Digest: every client site in one item', () => {
	const api = useServer();
	const n8n = useN8nApi(N8N_KEY);
	let account: Account;
	beforeEach(() => {
		api.server.deleteAllReports();
		n8n.reset();
		const table = n8n.api.tables.create(TABLE, [...HISTORY_COLUMNS]);
		account = accountFixture(api.server, Date.now());
		n8n.api.tables.seed(table.id, account.rows);
		api.server.clearRequests();
		n8n.api.requests.length = 0;
	});

	/** The node's items, the run expected to succeed. */
	const run = (extra: IDataObject = {}) =>
		api.ok(digestNode(extra), { execution: { n8nApi: n8n.credential } });
	const reports = (): ReportRecord[] => api.server.listReports();
	const rows = () => n8n.api.tables.rows(n8n.api.tables.byName(TABLE)!.id);

	it('ranks the sites worst first, each with the server’s figures and the table’s changes and issue ages', async () => {
		const items = await run();
		expect(items).toHaveLength(1);
		const digest = items[0].json;
		const expected = expectedDigest(reports(), rows(), api.server.url, Date.now());
		expect(digest.sites).toEqual(expected.sites);
		// The six totals (expected.totals has exactly these keys).
		expect(digest).toMatchObject(expected.totals);
		// What the fixture made: 12 sites, 3 stale, 9 with changes, some worse and some better.
		expect(digest).toMatchObject({ total_sites: 12, stale_sites: 3 });
		const sites = digest.sites as IDataObject[];
		expect(sites.filter((site) => site.change_4_runs !== null)).toHaveLength(9);
		expect(digest.worse_sites).toBeGreaterThan(0);
		expect(digest.better_sites).toBeGreaterThan(0);
		expect(digest.history_note).toBeNull();
		expect(items[0].pairedItem).toEqual({ item: 0 });
	});

	it('costs one list read of every report and one read of the table: the floor', async () => {
		await run();
		const phpRank = api.apiRequests();
		expect(phpRank).toHaveLength(Math.ceil(reports().length / 100));
		expect(phpRank.map((r) => r.query)).toEqual(
			phpRank.map((_, index) => ({
				sort_by: 'id',
				sort: 'desc',
				per_page: '100',
				page: String(index + 1),
			})),
		);
		const tableId = n8n.api.tables.byName(TABLE)!.id;
		expect(n8n.api.requests.map(({ method, path }) => `${method} ${path}`)).toEqual([
			'GET /api/v1/data-tables',
			`GET /api/v1/data-tables/${tableId}/rows`,
		]);
		const filter = JSON.parse(n8n.api.requests[1].query.filter) as { filters: IDataObject[] };
		expect(filter.filters.map(({ value }) => value)).toEqual(
			[...new Set(reports().map((r) => r.project))].sort(),
		);
		// Read only: the table holds what it held.
		expect(rows()).toEqual(n8n.api.tables.rows(tableId));
		expect(rows()).toHaveLength(account.rows.length);
	});

	it('writes a chat message of the sites worst first and an e-mail table, every value escaped', async () => {
		const items = await run({
			reportBranding: { agencyName: 'Acme <SEO>', accentColor: '#123456' },
		});
		const digest = items[0].json;
		const sites = digest.sites as IDataObject[];
		const lines = String(digest.summary_text).split('\n');
		expect(lines[0]).toBe(
			`phpRank: 12 sites, ${String(digest.total_pages)} pages, average ${String(digest.average_score)}; ${String(digest.worse_sites)} worse, ${String(digest.better_sites)} better than 4 runs ago; 3 sites stale (no analysis for 8 days)`,
		);
		// The three sites with no run in the table lead, named.
		expect(lines[1]).toBe(
			`Not audited within 7 days: 3 sites: ${SCRIPT_PROJECT} (never), jewels.example.com (never), kitchen.example.net (never)`,
		);
		expect(lines.slice(2).map((line) => line.replace(/^(\d+)\. ([^:]+):.*$/, '$1 $2'))).toEqual(
			sites.map((site, index) => `${index + 1} ${String(site.project)}`),
		);
		const html = String(digest.summary_html);
		expect(html).not.toContain('<script>');
		expect(html).toContain('&#60;script&#62;alert(1)&#60;/script&#62;');
		expect(html).toContain('Acme &#60;SEO&#62;');
		expect(html).toContain('Not audited within 7 days: 3 sites: &#60;script&#62;');
		expect(html).toContain('border-top:4px solid #123456');
		// One row per site, in the digest's order, each linking to its site.
		const rowsHtml = [...html.matchAll(/<tr><td[^>]*>(\d+)<\/td>.*?<a href="([^"]+)"/g)];
		expect(rowsHtml.map((m) => [Number(m[1]), m[2].replace(/&#38;/g, '&')])).toEqual(
			sites.map((site, index) => [index + 1, String(site.link).replace(/&#38;/g, '&')]),
		);
		expect(digest.summary_text).toContain('<script>alert(1)</script>');
	});

	it('with Search Console Data, the first fix leads both messages, the site’s name escaped in the e-mail', async () => {
		const rows = [{ keys: ['https://xss.example.com/page-0'], clicks: 1e6, impressions: 2e6 }];
		const digest = (await run({ searchConsoleData: { rows } }))[0].json;
		const lead = String(digest.summary_text).split('\n')[0];
		expect(lead).toMatch(
			/^Fix first: <script>alert\(1\)<\/script>: \w+ \(\w+\) fails on \d+ pages? that had 1,000,000 clicks and 2,000,000 impressions$/,
		);
		const escaped = lead.replace(SCRIPT_PROJECT, '&#60;script&#62;alert(1)&#60;/script&#62;');
		expect(String(digest.summary_html)).toContain(`font-weight:bold">${escaped}</p>`);
		expect(String(digest.summary_html)).not.toContain('<script>');
	});

	it('colours each health badge by the health it shows, not by the site’s average score', async () => {
		// Pages that score well but each fail a high-importance check: health 0, average good. And
		// the reverse: every check passed, low scores: health 100, average bad.
		const check = (passed: boolean): CheckResult => ({ passed, importance: 'high', value: null });
		for (const page of ['a', 'b', 'c'])
			for (const [site, result, passed] of [
				['zero', 95, false],
				['full', 30, true],
			] as const)
				api.server.addReport({
					url: `https://${site}-health.example.com/${page}`,
					result,
					results: { title: check(passed) },
				});
		const items = await run();
		const sites = items[0].json.sites as IDataObject[];
		const site = (project: string) => sites.find((entry) => entry.project === project)!;
		expect(site('zero-health.example.com')).toMatchObject({
			health_score: 0,
			result_class: 'good',
		});
		expect(site('full-health.example.com')).toMatchObject({
			health_score: 100,
			result_class: 'bad',
		});
		// Each row's badge: its number and colour; the colour is the class of that number.
		const html = String(items[0].json.summary_html);
		const badges = [
			...html.matchAll(
				/<span style="display:inline-block;background:(#[0-9a-f]{6});[^"]*">([^<]*)<\/span>/g,
			),
		].map(([, colour, shown]) => ({ colour, shown }));
		const colourOf = (health: number) =>
			health > 79 ? '#1e8e3e' : health >= 49 ? '#e37400' : '#d93025';
		expect(badges).toEqual(
			sites.map((entry) => ({
				colour: colourOf(Number(entry.health_score)),
				shown: String(entry.health_score),
			})),
		);
		const zero = sites.indexOf(site('zero-health.example.com'));
		const full = sites.indexOf(site('full-health.example.com'));
		expect(badges[zero]).toEqual({ colour: '#d93025', shown: '0' });
		expect(badges[full]).toEqual({ colour: '#1e8e3e', shown: '100' });
	});

	it('without a history store: the changes and issue ages are null, and the digest says where to turn them on', async () => {
		const items = await run({ historyStore: 'none', historyTable: undefined });
		const digest = items[0].json;
		expect(n8n.api.requests).toHaveLength(0);
		const expected = expectedDigest(reports(), [], api.server.url, Date.now());
		expect(digest.sites).toEqual(expected.sites);
		for (const site of digest.sites as IDataObject[]) {
			expect(site).toMatchObject({ change_4_runs: null, change_30_days: null, oldest_issue: null });
			expect(site.oldest_issue_days).toBeNull();
		}
		expect(digest.worse_sites).toBeNull();
		expect(digest.history_note).toMatch(/set History Store to Data Table/);
		expect(String(digest.summary_text).split('\n')[1]).toBe(digest.history_note);
	});

	it('Simplify writes the sites as short text; without E-Mail HTML there is no summary_html', async () => {
		const items = await run({ simplify: true, siteOptions: {} });
		const digest = items[0].json;
		const first = (await run())[0].json.sites as IDataObject[];
		expect(digest.sites).toBe(
			`${first
				.slice(0, 5)
				.map(
					(site) =>
						`${String(site.project)} health ${String(site.health_score)} score ${String(site.average_score)}`,
				)
				.join('; ')} (+7 more)`,
		);
		expect(digest).not.toHaveProperty('summary_html');
	});

	it('Stale After: a site not analysed for that many days or more is stale', async () => {
		const items = await run({ siteOptions: { staleAfter: 11 } });
		expect(items[0].json.stale_sites).toBe(0);
		const strict = await run({ siteOptions: { staleAfter: 1 } });
		expect(strict[0].json.stale_sites).toBe(12);
	});

	it('Audited Within: a site with no run kept for that many days leads the digest, with its last run', async () => {
		const table = n8n.api.tables.entry(n8n.api.tables.byName(TABLE)!.id);
		const now = Date.now();
		const daysAgo = (days: number) => new Date(now - days * 86_400_000).toISOString();
		for (const row of table.rows)
			if (row.site === 'alpha.example.com') row.createdAt = daysAgo(10);
			else if (row.site === 'bakery.example.com') row.createdAt = daysAgo(2);
		const digest = (await run({ siteOptions: { auditedWithin: 3 } }))[0].json;
		const never = [SCRIPT_PROJECT, 'jewels.example.com', 'kitchen.example.net'];
		const alphaRun = new Date(Date.parse(daysAgo(10)) - (Date.parse(daysAgo(10)) % 1000));
		expect(digest.not_audited).toEqual([
			...never.map((project) => ({
				project,
				last_audit: null,
				reason: `no run of this site in the history table${project === SCRIPT_PROJECT ? '; no recent analysis in phpRank either' : ''}`,
			})),
			{
				project: 'alpha.example.com',
				last_audit: alphaRun.toISOString(),
				reason: `no run kept since ${alphaRun.toISOString().slice(0, 10)} (10 days ago)`,
			},
		]);
		expect(digest).toMatchObject({ not_audited_sites: 4, audited_within_days: 3 });
		const site = (name: string) =>
			(digest.sites as IDataObject[]).find(({ project }) => project === name)!;
		expect(site('bakery.example.com').audited).toBe(true);
		expect(site('alpha.example.com').audited).toBe(false);
		expect(String(digest.summary_text).split('\n')[1]).toBe(
			`Not audited within 3 days: 4 sites: ${never.map((p) => `${p} (never)`).join(', ')}, alpha.example.com (last run ${alphaRun.toISOString().slice(0, 10)})`,
		);
		// Without a history nobody knows: no site is named.
		const off = (await run({ historyStore: 'none', historyTable: undefined }))[0].json;
		expect(off).toMatchObject({
			not_audited: [],
			not_audited_sites: null,
			audited_within_days: null,
		});
	});

	it('Audited Within is judged on the exact time: a run a minute inside the window counts, one a second past it does not', async () => {
		const table = n8n.api.tables.entry(n8n.api.tables.byName(TABLE)!.id);
		const now = Date.now();
		const window = 3 * 86_400_000;
		for (const row of table.rows)
			if (row.site === 'alpha.example.com')
				row.createdAt = new Date(now - window - 1000).toISOString();
			else if (row.site === 'bakery.example.com')
				row.createdAt = new Date(now - window + 60_000).toISOString();
		const digest = (await run({ siteOptions: { auditedWithin: 3 } }))[0].json;
		const audited = (name: string) =>
			(digest.sites as IDataObject[]).find(({ project }) => project === name)!.audited;
		expect([audited('alpha.example.com'), audited('bakery.example.com')]).toEqual([false, true]);
	});

	it.each([
		[
			{ siteOptions: { auditedWithin: 0 } },
			'Audited Within (Days) must be a number from 1 to 365, not "0"',
		],
		[{ siteOptions: { staleAfter: 0 } }, 'Stale After must be a number from 1 to 365, not "0"'],
		[{ siteOptions: { staleAfter: 366 } }, 'Stale After must be a number from 1 to 365, not "366"'],
		[
			{ allProjects: false, project: locator('name', 'a.example.com') },
			'Output is One Digest, but All Projects is off',
		],
	])('bad input %j is refused before any request, naming the field', async (extra, message) => {
		await api.refuses(digestNode(extra), message, { execution: { n8nApi: n8n.credential } });
		expect(n8n.api.requests).toHaveLength(0);
	});

	it('as an AI tool: the message alone, worst first', async () => {
		const tool = toolNode('Client sites', {
			resource: 'project',
			operation: 'getHealth',
			allProjects: true,
			output: 'digest',
		});
		const { tools, results } = await callTool(tool, api.credential, {});
		expect(tools[0].description).toMatch(/^Which of the user's client sites need attention/);
		const [answer] = JSON.parse(results[0]) as IDataObject[];
		expect(Object.keys(answer)).toEqual(['digest']);
		const expected = expectedDigest(reports(), [], api.server.url, Date.now());
		const lines = String(answer.digest).split('\n');
		expect(lines[0]).toMatch(/^phpRank: 12 sites, /);
		expect(lines.slice(2).map((line) => line.split(': ')[0].replace(/^\d+\. /, ''))).toEqual(
			expected.sites.map((site) => site.project),
		);
	});
});

describe('Get Health → One Digest at an agency’s size', () => {
	const api = useServer();

	it('200 projects of 5 reports: 10 requests, and the message stays within 40 lines', async () => {
		const hosts = Array.from(
			{ length: 200 },
			(_, i) => `client-${String(i).padStart(3, '0')}.example.com`,
		);
		api.server.seedReports(1000, { hosts, uniqueUrls: true });
		api.server.clearRequests();
		const items = await api.ok({
			resource: 'project',
			operation: 'getHealth',
			allProjects: true,
			output: 'digest',
		});
		expect(api.apiRequests()).toHaveLength(10);
		const digest = items[0].json;
		expect(digest).toMatchObject({ total_sites: 200, total_pages: 1000 });
		const lines = String(digest.summary_text).split('\n');
		expect(lines).toHaveLength(40);
		// The totals, where to turn the history on, 37 sites, and the rest counted.
		expect(lines[39]).toBe('+163 more');
		expect(lines[38]).toMatch(/^37\. /);
	});
});
