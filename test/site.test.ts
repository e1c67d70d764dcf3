import type { IDataObject } from 'n8n-workflow';

import { sameUrlKey } from '../nodes/PhpRank/report';
import { createOf, healthParameters, locator, perSiteParameters, useServer } from './harness/setup';

/*
 * Whole sites: Project → Get Health, and Create or Re-Run with One Item per Site. The expected
 * figures are worked out here from the test server's own state, not by the node's code.
 */

const health = (extra: IDataObject = {}) => healthParameters('shop.example.com', extra);
const perSite = (extra: IDataObject = {}) => perSiteParameters({ simplify: true, ...extra });

const api = useServer();
beforeEach(() => api.reset());

describe('Project → Get Health', () => {
	/** Reports made as users make them (Create or Re-Run), with scripted analyses. */
	async function seedShop() {
		for (const [path, score, failed] of [
			['/', 90, []],
			['/a', 70, ['title', 'favicon']],
			['/b', 40, ['title', 'meta_description', 'favicon']],
			['/c', 60, ['favicon']],
		] as const)
			api.server.setNextAnalysis(`https://shop.example.com${path}`, {
				score,
				failed,
				others: 'pass',
			});
		const urls = ['/', '/a', '/b', '/c'].map((path) => `https://shop.example.com${path}`);
		await api.ok(perSite({ output: 'pages' }), {
			items: [...urls, 'https://blog.example.com/post'].map((url) => ({ url })),
		});
		api.server.clearRequests();
	}

	it('reads the site’s reports once, with the project filter, and says how the site is doing', async () => {
		await seedShop();
		const items = await api.ok(health({ simplify: false }));
		expect(api.calls()).toEqual([
			'GET /api/v1/reports?project=shop.example.com&sort_by=id&sort=desc&per_page=100&page=1',
		]);
		expect(items).toHaveLength(1);
		const site = items[0].json;
		const reports = api.server.listReports().filter((r) => r.project === 'shop.example.com');
		expect(site).toMatchObject({
			project: 'shop.example.com',
			pages: 4,
			average_score: 65,
			median_score: 65,
			result_class: 'decent',
			good_pages: 1,
			decent_pages: 2,
			bad_pages: 1,
			analysed_from: reports.map((r) => r.generated_at).sort()[0],
			analysed_to: reports.map((r) => r.generated_at).sort()[3],
		});
		// Pages without a failed high-importance check, out of 4.
		const withHigh = reports.filter((r) =>
			Object.values(r.results).some((c) => !c.passed && c.importance === 'high'),
		).length;
		expect(site.health_score).toBe(Math.round(((4 - withHigh) / 4) * 100));
		const failing = site.failing_checks as IDataObject[];
		expect(failing.map((c) => c.check).sort()).toEqual(['favicon', 'meta_description', 'title']);
		for (const [check, pages] of [
			['favicon', 3],
			['title', 2],
		] as const)
			expect(failing.find((c) => c.check === check)).toEqual({
				check,
				importance: reports[0].results[check].importance,
				pages,
			});
		// Most important first, then by pages.
		const rank = (c: IDataObject) => ['high', 'medium', 'low'].indexOf(String(c.importance));
		expect(failing).toEqual(
			[...failing].sort((a, b) => rank(a) - rank(b) || Number(b.pages) - Number(a.pages)),
		);
		expect(site.top_issues).toEqual(
			failing
				.slice(0, 3)
				.map(
					(c) => `${String(c.check)} (${String(c.importance)}) on ${String(c.pages)} of 4 pages`,
				),
		);
		const worst = site.worst_pages as IDataObject[];
		const b = reports.find((r) => r.url === 'shop.example.com/b')!;
		expect(worst[0]).toEqual({
			id: b.id,
			url: b.url,
			score: 40,
			result_class: 'bad',
			link: `${api.server.url}/reports/${b.id}`,
		});
		expect(worst.map((p) => p.score)).toEqual([40, 60, 70, 90]);
		expect(site.summary_text).toContain('shop.example.com: score 65 (decent), health');
		expect(site.summary_text).toContain(`${api.server.url}/reports/${b.id}`);
		expect(site.summary_html).toContain(`<a href="${api.server.url}/reports/${b.id}"`);
	});

	it('counts a URL once, by its newest report, and keeps the table flat with Simplify', async () => {
		await seedShop();
		// A second report of /b (Create makes a new one every time): its page counts once, by the newest.
		api.server.setNextAnalysis('https://shop.example.com/b', { score: 80, others: 'pass' });
		await api.run({
			resource: 'report',
			operation: 'create',
			url: 'https://shop.example.com/b',
			privacy: 1,
		});
		const site = await api.first(health({ siteOptions: { worstPages: 2 } }));
		expect(site).toMatchObject({ pages: 4, average_score: 75 });
		expect(site.worst_pages).toBe('shop.example.com/c 60, shop.example.com/a 70');
		for (const value of Object.values(site)) expect(Array.isArray(value)).toBe(false);
	});

	it('All Projects: one item per project, every report read once', async () => {
		await seedShop();
		const items = await api.ok(health({ allProjects: true }));
		expect(items.map((i) => i.json.project)).toEqual(['blog.example.com', 'shop.example.com']);
		expect(items.map((i) => i.json.pages)).toEqual([1, 4]);
		expect(api.calls()).toEqual(['GET /api/v1/reports?sort_by=id&sort=desc&per_page=100&page=1']);
	});

	it('a project with no reports is an error that says where to find projects', async () => {
		await seedShop();
		const { error } = await api.run(health({ project: locator('name', 'nothing.example.com') }));
		expect(error?.message).toBe('There are no reports of project "nothing.example.com"');
		expect(error?.description).toContain('Project → Get Many');
	});

	it('Worst Pages outside 1-100 is refused before anything is sent', async () => {
		await api.refuses(
			health({ siteOptions: { worstPages: 0 } }),
			/^Worst Pages must be a number from 1 to 100, not "0"$/,
		);
	});
});

describe('Report → Create or Re-Run, One Item per Site', () => {
	const pages = [
		'https://shop.example.com/',
		'https://shop.example.com/a',
		'https://shop.example.com/b',
		'https://blog.example.com/post',
	];
	const input = pages.map((url) => ({ url }));
	const methods = () =>
		api
			.apiRequests()
			.map((r) => r.method)
			.sort();

	it('one item per site, paired to its input items, from no more requests than per page', async () => {
		const first = await api.ok(perSite(), { items: input });
		expect(first.map((i) => i.json.project)).toEqual(['shop.example.com', 'blog.example.com']);
		expect(first.map((i) => i.pairedItem)).toEqual([
			[{ item: 0 }, { item: 1 }, { item: 2 }],
			[{ item: 3 }],
		]);
		expect(first[0].json).toMatchObject({
			pages: 3,
			created: 3,
			rerun: 0,
			previous_average_score: null,
			average_change: null,
		});
		// Two list reads (one a site) and four creates: what One Item per Page sends too.
		expect(methods()).toEqual(['GET', 'GET', 'POST', 'POST', 'POST', 'POST']);

		api.server.clearRequests();
		const before = new Map(api.server.listReports().map((r) => [r.url, r]));
		api.server.setNextAnalysis('https://shop.example.com/a', {
			score: Math.max(0, before.get('shop.example.com/a')!.result - 20),
			failed: ['title'],
			others: 'keep',
		});
		api.server.setNextAnalysis('https://shop.example.com/b', {
			score: Math.min(100, before.get('shop.example.com/b')!.result + 10),
			passed: ['title'],
			others: 'keep',
		});
		api.server.setNextAnalysis('https://shop.example.com/', {
			score: before.get('shop.example.com')!.result,
			others: 'keep',
		});
		const second = await api.ok(perSite({ simplify: false }), { items: input });
		expect(methods()).toEqual(['GET', 'GET', 'PUT', 'PUT', 'PUT', 'PUT']);
		const shop = second[0].json;
		const now = new Map(api.server.listReports().map((r) => [r.url, r]));
		const urls = ['shop.example.com', 'shop.example.com/a', 'shop.example.com/b'];
		const mean = (values: number[]) =>
			Math.round((values.reduce((s, v) => s + v, 0) / values.length) * 10) / 10;
		expect(shop).toMatchObject({
			project: 'shop.example.com',
			pages: 3,
			created: 0,
			rerun: 3,
			previous_average_score: mean(urls.map((u) => before.get(u)!.result)),
			average_score: mean(urls.map((u) => now.get(u)!.result)),
			average_change: mean(urls.map((u) => now.get(u)!.result - before.get(u)!.result)),
			worse_pages: 1,
			better_pages: 1,
		});
		const a = now.get('shop.example.com/a')!;
		expect(shop.biggest_drops).toEqual([
			{
				id: a.id,
				url: a.url,
				score: a.result,
				score_change: a.result - before.get(a.url)!.result,
				link: `${api.server.url}/reports/${a.id}`,
			},
		]);
		if (before.get(a.url)!.results.title.passed) {
			expect(shop.newly_failing_checks).toContainEqual({
				check: 'title',
				importance: a.results.title.importance,
				pages: 1,
			});
		}
		expect(shop.failed_pages).toEqual([]);
		expect(String(shop.summary_text)).toContain('1 worse, 1 better');
	});

	it('a page phpRank cannot analyse is named in failed_pages; the rest of the site is audited', async () => {
		api.server.failNext(
			{
				type: 'status',
				status: 422,
				body: { message: { url: ['Could not fetch the url.'] }, status: 422 },
			},
			{ match: createOf('https://shop.example.com/b') },
		);
		const shop = await api.first(perSite(), { items: input });
		expect(shop).toMatchObject({ pages: 2, created: 2 });
		expect(String(shop.failed_pages)).toContain('https://shop.example.com/b (');
		expect(String(shop.failed_pages)).toContain('Could not fetch the url.');
		expect(api.server.listReports()).toHaveLength(3);
	});

	it('with On Error → Continue, an item refused before sending or failing for the run is an error item, and its site is still summarised', async () => {
		api.server.failNext(
			{ type: 'status', status: 403, body: { message: 'This action is unauthorized.' } },
			{ match: createOf('https://blog.example.com/post') },
		);
		const items = await api.ok(perSite(), {
			items: [...input, { url: 'not a url' }],
			continueOnFail: true,
		});
		const sites = items.filter((i) => i.json.project !== undefined);
		expect(sites.map((i) => i.json.project)).toEqual(['shop.example.com']);
		expect(sites[0].json.pages).toBe(3);
		expect(items.filter((i) => i.json.error !== undefined)).toHaveLength(2);
	});

	it('Minimum Change outside 0-100 is refused before anything is sent, naming the item', async () => {
		await api.refuses(
			perSite({ siteOptions: { minChange: 101 } }),
			/^Minimum Change must be a number from 0 to 100, not "101" \[item 0\]$/,
			{ items: input },
		);
	});

	it('text from phpRank is escaped in summary_html (Search Console Data’s lead too): a URL with <script> and quotes shows as text', async () => {
		const url = 'https://shop.example.com/"><script>alert(1)</script>';
		const [{ json }] = await api.ok(
			perSite({ siteOptions: { emailHtml: true }, searchConsoleData: { rows: [] } }),
			{ items: [{ url }] },
		);
		const html = String(json.summary_html);
		expect(html).toContain('no data (0 clicks): shop.example.com/&#34;&#62;&#60;script');
		expect(html).not.toContain('<script>');
		expect(html).toContain('&#60;script&#62;');
		expect(html).not.toMatch(/href="[^"]*"><script/);
	});
});

describe('Report → Create or Re-Run, Pages From → A Project’s Reports', () => {
	const HOST = 'big.example.com';
	const fromProject = (extra: IDataObject = {}, project = HOST) =>
		perSite({ pagesFrom: 'project', project: locator('name', project), ...extra });
	/** 150 reports of the project (pages analysed more than once among them) and a report of another site. */
	function seedBig() {
		api.server.seedReports(150, { hosts: [HOST] });
		api.server.seedReports(1, { hosts: ['other.example.com'] });
		api.server.clearRequests();
		// Each page's newest report, by URL as phpRank matches it.
		const newest = new Map<string, number>();
		for (const r of api.server.listReports().filter(({ url }) => url.includes(HOST)))
			newest.set(sameUrlKey(r.url), Math.max(r.id, newest.get(sameUrlKey(r.url)) ?? 0));
		return newest;
	}
	const lists = () => api.calls().filter((call) => call.startsWith('GET'));
	const analysed = (method: string) => api.sent(method).map((r) => r.path.split('/').pop());

	it('every page of the project, each by its newest report: one list read per 100 reports, then the analyses', async () => {
		const newest = seedBig();
		const [site] = await api.ok(fromProject(), { items: [{}] });
		expect(lists().every((call) => call.includes(`project=${HOST}`))).toBe(true);
		expect(lists()).toHaveLength(2);
		expect(analysed('PUT').sort()).toEqual([...newest.values()].map(String).sort());
		expect(api.calls()).toHaveLength(2 + newest.size);
		expect(site.json).toMatchObject({ project: HOST, pages: newest.size, rerun: newest.size });
		expect(site.pairedItem).toEqual([{ item: 0 }]);

		api.server.clearRequests();
		const pages = await api.ok(fromProject({ output: 'pages' }), { items: [{}] });
		expect(pages.map((item) => item.json.id).sort()).toEqual(analysed('PUT').map(Number).sort());
		expect(pages.every((item) => item.json.action === 'rerun')).toBe(true);
		expect(lists()).toHaveLength(2);
	});

	it('Changed URLs: only those analysed (a new page created), the site judged on every page', async () => {
		const newest = seedBig();
		const [key, id] = [...newest][0];
		const urls = [`https://${key}`, `https://${HOST}/new-page`];
		const [site] = await api.ok(fromProject({ changedUrls: '={{ $json.urls }}' }), {
			items: [{ urls }],
		});
		expect([lists().length, analysed('PUT'), api.sent('POST').map((r) => r.form)]).toEqual([
			2,
			[String(id)],
			[{ url: urls[1], privacy: '1' }],
		]);
		expect(site.json).toMatchObject({ pages: newest.size + 1, rerun: 1, created: 1 });
	});

	it.each([
		[
			'no project (a webhook without a site)',
			fromProject({}, '={{ $json.site }}'),
			'The project name is empty',
		],
		[
			'a changed URL of another site',
			fromProject({ changedUrls: 'https://big.example.com/a, https://other.example.com/b' }),
			'Changed URLs: "https://other.example.com/b" is not a page of project "big.example.com"',
		],
		[
			'a changed URL that is not a web address',
			fromProject({ changedUrls: 'ftp://big.example.com/a' }),
			'Changed URLs: the URL "ftp://big.example.com/a" uses ftp:, not http or https',
		],
		[
			'an unknown Pages From',
			fromProject({ pagesFrom: 'site' }),
			'Pages From must be "url" or "project", not "site"',
		],
	])('%s is refused before any request', async (_what, parameters, message) => {
		await api.refuses(parameters, message, { items: [{}] });
	});

	it('a project without reports is refused after its list read, before any analysis', async () => {
		seedBig();
		const { error } = await api.run(fromProject({}, 'nothing.example.com'), { items: [{}] });
		expect([error?.message, lists().length, api.calls().length]).toEqual([
			'Project: there are no reports of project "nothing.example.com"',
			1,
			1,
		]);
		expect(error?.description).toContain('Project → Get Many');
	});
});

describe('Report → Create or Re-Run, Confirm Drops', () => {
	const url = 'https://shop.example.com/pricing';
	const confirm = (extra: IDataObject = {}, options: IDataObject = {}) =>
		perSite({ output: 'pages', options: { confirmDrops: true, ...options }, ...extra });
	const puts = () => api.sent('PUT').length;

	async function at72() {
		api.server.setNextAnalysis(url, { score: 72, failed: [], others: 'pass' });
		await api.run(confirm(), { items: [{ url }] });
		api.server.clearRequests();
	}

	it.each([
		['a noisy drop (72 → 60 → 71) is analysed once more and reported as noise', 71, false],
		[
			'a real drop (72 → 60 → 61) is confirmed, its change measured from before the first analysis',
			61,
			true,
		],
	])('%s', async (_what, second, confirmed) => {
		await at72();
		api.server.setNextAnalysis(url, { score: 60, others: 'keep' });
		api.server.setNextAnalysis(url, { score: second, others: 'keep' });
		const items = await api.ok(confirm(), { items: [{ url }] });
		expect(puts()).toBe(2);
		expect(items[0].json).toMatchObject({
			action: 'rerun',
			score: second,
			previous_score: 72,
			score_change: second - 72,
			first_score: 60,
			confirmed,
		});
	});

	it('a newly failed high-importance check is a suspected drop too; no drop costs no request more', async () => {
		await at72();
		const high = Object.entries(api.server.listReports()[0].results).find(
			([, check]) => check.importance === 'high',
		)![0];
		api.server.setNextAnalysis(url, { score: 72, failed: [high], others: 'keep' });
		api.server.setNextAnalysis(url, { score: 72, failed: [high], others: 'keep' });
		const held = await api.run(confirm(), { items: [{ url }] });
		expect(puts()).toBe(2);
		expect(held.items[0].json).toMatchObject({ confirmed: true, score_change: 0 });

		api.server.clearRequests();
		api.server.setNextAnalysis(url, { score: 75, passed: [high], others: 'keep' });
		const better = await api.run(confirm(), { items: [{ url }] });
		expect(puts()).toBe(1);
		expect(better.items[0].json).toMatchObject({ confirmed: null, first_score: null, score: 75 });
	});

	it('the site summary counts only confirmed drops as worse', async () => {
		const other = 'https://shop.example.com/contact';
		api.server.setNextAnalysis(url, { score: 72, failed: [], others: 'pass' });
		api.server.setNextAnalysis(other, { score: 72, failed: [], others: 'pass' });
		await api.run(confirm(), { items: [{ url }, { url: other }] });
		api.server.setNextAnalysis(url, { score: 60, others: 'keep' });
		api.server.setNextAnalysis(url, { score: 71, others: 'keep' });
		api.server.setNextAnalysis(other, { score: 60, others: 'keep' });
		api.server.setNextAnalysis(other, { score: 61, others: 'keep' });
		const items = await api.ok(confirm({ output: 'sites' }), {
			items: [{ url }, { url: other }],
		});
		expect(items[0].json).toMatchObject({ rerun: 2, worse_pages: 1 });
	});

	it('Drop Points outside 0-100 is refused before anything is sent', async () => {
		const error = await api.refuses(
			confirm({}, { dropPoints: -1 }),
			/^Options → Drop Points must be a number from 0 to 100, not "-1"$/,
			{ items: [{ url }] },
		);
		expect(error.description).toMatch(/^Under Options, set Drop Points/);
	});
});
