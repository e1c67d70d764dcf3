import type { IDataObject } from 'n8n-workflow';

import { healthParameters, perSiteParameters, useServer } from './harness/setup';

/*
 * Search Console Data on Create or Re-Run, through the real n8n engine against the test phpRank
 * server: each figure is the hand sum written beside the fixture, pages matched as a user expects,
 * bad data refused before any request, and no phpRank request more than the same run without it.
 */

const SITE = 'shop.example.com';
const page = (path: string) => `https://${SITE}${path}`;

/** The site: each page's score and failing checks (title and meta_description high, image_keywords medium). */
const PAGES: Record<string, [number, string[]]> = {
	'/': [90, []],
	'/blog/a': [80, ['meta_description']],
	'/products/x': [70, ['meta_description']],
	'/products/y': [50, ['title', 'image_keywords']],
	'/products/y/z': [40, ['meta_description', 'title']],
	'/about': [85, ['image_keywords']],
	'/contact': [60, []],
};

const row = (url: string, clicks: unknown, impressions: unknown = 0) => ({
	keys: [url],
	clicks,
	impressions,
	ctr: 0.05,
	position: 7.2,
});

/** Search Console's answer, each row with the page it counts for. */
const ANSWER = {
	rows: [
		row('https://www.shop.example.com/', 1000, 20000), // '/'
		row('http://shop.example.com/blog/a/', 300, 5000), // '/blog/a'
		row('https://shop.example.com/products/x#reviews', 200, 4000), // '/products/x'
		row('https://SHOP.example.com/products/x', 50, 1000), // '/products/x': 250, 5000
		row('https://shop.example.com/products/y?color=red', 400, 6000), // another page
		row('https://shop.example.com/Products/y', 70, 700), // another page
		row('https://shop.example.com/products/y/z', 1200, 30000), // '/products/y/z'
		row('https://shop.example.com/about', 1200, 40000), // '/about'
		row('https://other.example.com/', 999, 9999), // another site
	],
	responseAggregationType: 'byPage',
};

const api = useServer();
const RIVAL = 'https://rival.example.net/p';
const COMPARE = {
	resource: 'report',
	operation: 'compare',
	competitors: { competitor: [{ url: RIVAL }] },
};
const urls = Object.keys(PAGES).map(page);
const items = urls.map((url) => ({ url, gsc: ANSWER }));
// Another site (One Digest): '/' fails title, in the data (999, 9,999); '/new' passes, no data.
const OTHER = 'other.example.com';
const perSite = (extra: IDataObject = {}) =>
	perSiteParameters({ searchConsoleData: '={{ $json.gsc }}', ...extra });

beforeAll(async () => {
	for (const [path, [score, failed]] of Object.entries(PAGES))
		api.server.setAnalysis(page(path), { score, failed, others: 'pass' });
	api.server.setAnalysis(`https://${OTHER}/`, { score: 60, failed: ['title'], others: 'pass' });
	api.server.setAnalysis(`https://${OTHER}/new`, { score: 95, failed: [], others: 'pass' });
	const other = [{ url: `https://${OTHER}/` }, { url: `https://${OTHER}/new` }];
	await api.ok(perSiteParameters({ output: 'pages' }), { items: [...items, ...other] });
});

/** Each check's, group's or breach's name, clicks and impressions. */
const figures = (list: unknown) =>
	(list as IDataObject[]).map((c) => [
		c.rule ?? c.check ?? c.name,
		c.clicks_affected,
		c.impressions_affected,
	]);
/** A site's clicks, impressions, pages with data and coverage. */
const SUMS = ['traffic_clicks', 'traffic_impressions', 'pages_with_traffic', 'traffic_coverage'];
const sums = (s: IDataObject) => SUMS.map((name) => s[name]);
/** Worst Pages By → Most Clicks: y/z 1,200 (score 40) before /about 1,200 (85, more impressions),
 * /blog/a 300, /products/x 250; /products/y 0 is fifth; '/' and /contact fail nothing. */
const MOST_CLICKS = { worstPagesBy: 'clicks', worstPages: 4 };
const BY_CLICKS = [
	[`${SITE}/products/y/z`, 1200, 30000],
	[`${SITE}/about`, 1200, 40000],
	[`${SITE}/blog/a`, 300, 5000],
	[`${SITE}/products/x`, 250, 5000],
];
/** Each worst page's URL, clicks and impressions. */
const worst = (site: IDataObject) =>
	(site.worst_pages as IDataObject[]).map((p) => [p.url, p.clicks, p.impressions]);
const FIX_FIRST = [
	['meta_description', 1750, 40000],
	['title', 1200, 30000],
	['image_keywords', 1200, 40000],
];

/** Runs without the data, then with it: the same phpRank requests; the second run's answer. */
async function sameCalls<T>(without: () => Promise<unknown>, withData: () => Promise<T>) {
	api.server.clearRequests();
	await without();
	const calls = api.calls();
	api.server.clearRequests();
	const answer = await withData();
	expect(api.calls()).toEqual(calls);
	return answer;
}

describe('Search Console Data', () => {
	it('every failing check, group and worst page carries its pages’ clicks; fix_first by clicks, importance on a tie; the same requests as without', async () => {
		const budget = { requiredChecks: 'meta_description', minAverageScore: 60 };
		const groups = {
			pageGroups: { group: [{ name: 'Products', pattern: '/products/**', budget }] },
			siteOptions: { emailHtml: true },
		};
		const site = await sameCalls(
			() => api.ok(perSiteParameters(), { items }),
			() => api.first(perSite(groups), { items }),
		);
		// meta_description: /blog/a 300 + /products/x 250 + /products/y/z 1200; 5000 + 5000 + 30000.
		// title: /products/y 0 + /products/y/z 1200; image_keywords (medium): /products/y 0 + /about
		// 1200, more impressions (40,000) than title's: importance breaks the tie of clicks.
		expect(figures(site.fix_first)).toEqual(FIX_FIRST);
		// failing_checks by importance, then pages: the same order here.
		expect(figures(site.failing_checks)).toEqual(FIX_FIRST);
		// Products: x 250 + y 0 + y/z 1200; Other: / 1000 + /blog/a 300 + /about 1200 + /contact 0.
		expect(figures(site.groups)).toEqual([
			['Products', 1450, 35000],
			['Other', 2500, 65000],
		]);
		// Breaches: meta_description fails on x 250 + y/z 1200; average 53.3 below 60: y 0 + y/z 1200.
		const breaches = [
			['required_check', 1450, 35000],
			['min_average_score', 1200, 30000],
		];
		expect(figures(site.breaches)).toEqual(breaches);
		expect(figures((site.groups as IDataObject[])[0].breaches)).toEqual(breaches);
		expect(worst(site)).toEqual([
			[`${SITE}/products/y/z`, 1200, 30000],
			[`${SITE}/products/y`, 0, 0],
			[`${SITE}/contact`, 0, 0],
			[`${SITE}/products/x`, 250, 5000],
			[`${SITE}/blog/a`, 300, 5000],
		]);
		const without = [`${SITE}/products/y`, `${SITE}/contact`]; // 5 of 7 pages with data
		expect([...sums(site), site.pages_without_traffic]).toEqual([3950, 100000, 5, 71.4, without]);
		const lines = String(site.summary_text).split('\n');
		expect(lines.slice(0, 2)).toEqual([
			`${SITE}: fix first: meta_description (high) fails on 3 pages that had 1,750 clicks and 40,000 impressions`,
			`Search Console data for 5 of 7 pages (71.4%); no data (0 clicks): ${SITE}/products/y, ${SITE}/contact`,
		]);
		expect(String(site.summary_html)).toContain(`bold">${lines[0].slice(SITE.length + 2)}</p>`);
	});

	it('Project → Get Health (one project, All Projects): the same figures from the report list, the same requests as without', async () => {
		for (const project of [{}, { allProjects: true }]) {
			const health = (more = {}) => api.ok(healthParameters(SITE, { ...project, ...more }));
			const sites = await sameCalls(
				() => health({ simplify: false }),
				() => health({ simplify: false, searchConsoleData: ANSWER, siteOptions: MOST_CLICKS }),
			);
			const [site, other] = [SITE, OTHER].map((p) => sites.find((i) => i.json.project === p)?.json);
			expect([sums(site!), figures(site!.fix_first), worst(site!)]).toEqual([
				[3950, 100000, 5, 71.4],
				FIX_FIRST,
				BY_CLICKS,
			]);
			expect(String(site!.summary_text)).toMatch(/^shop.example.com: fix first: meta_description/);
			// All Projects: the other site from its own rows only ('/' 999, 9,999; '/new' none: 1 of 2).
			expect(other && [sums(other), figures(other.fix_first)]).toEqual(
				project.allProjects ? [[999, 9999, 1, 50], [['title', 999, 9999]]] : undefined,
			);
		}
	});

	it('One Digest: each site’s clicks, first fix and coverage, the totals; the account’s first fix leads text and HTML, with the period given; the same requests as without', async () => {
		const digestOf = async (searchConsoleData = '') =>
			await api.first(
				healthParameters(SITE, {
					...{ allProjects: true, output: 'digest', simplify: false, searchConsoleData },
					siteOptions: { emailHtml: true },
				}),
			);
		const plain = await digestOf();
		const period = { startDate: '2026-10-01', endDate: '2026-10-28' };
		const data = JSON.stringify({ ...ANSWER, ...period });
		const digest = await sameCalls(digestOf, () => digestOf(data));
		expect(digest.sites).toEqual(
			(plain.sites as IDataObject[]).map((site) => expect.objectContaining(site)),
		);
		const sites = Object.fromEntries((digest.sites as IDataObject[]).map((s) => [s.project, s]));
		// Each site, then the account: clicks, impressions, pages with data, coverage, and the clicks
		// and impressions of pages failing a check (/blog/a 300 + /products/x 250 + /products/y 0 +
		// /products/y/z 1200 + /about 1200; the other site's '/' 999); the account: 6 of 9 pages.
		const failing = (s: IDataObject) => [...sums(s), s.clicks_affected, s.impressions_affected];
		expect([sites[SITE], sites[OTHER], digest].map(failing)).toEqual([
			[3950, 100000, 5, 71.4, 2950, 80000],
			[999, 9999, 1, 50, 999, 9999],
			[4949, 109999, 6, 66.7, 3949, 89999],
		]);
		expect(digest.traffic_period).toBe('from 2026-10-01 to 2026-10-28');
		const firstFixes = [sites[SITE].fix_first, sites[OTHER].fix_first];
		expect(figures(firstFixes)).toEqual([FIX_FIRST[0], ['title', 999, 9999]]);
		expect(figures(digest.fix_first)).toEqual(figures(firstFixes));
		const lead = `Fix first: ${SITE}: meta_description (high) fails on 3 pages that had 1,750 clicks and 40,000 impressions from 2026-10-01 to 2026-10-28`;
		const text = String(digest.summary_text);
		expect(text.split('\n')[0]).toBe(lead);
		expect(text).toContain('3,949 of 4,949 clicks on pages with a failing check');
		expect(text).toContain(
			`${OTHER}: health 50/100, score 77.5 (decent); 1 high issue; fix first title (high): 999 clicks; Search Console data for 50% of pages`,
		);
		expect(String(digest.summary_html)).toContain(`font-weight:bold">${lead}</p>`);
		// No period given: none said.
		expect(String((await digestOf(JSON.stringify(ANSWER))).summary_text)).toMatch(
			/40,000 impressions\n/,
		);
	});

	it('reads the input item’s search_console, or the item itself as the HTTP Request node answers; other rows left alone', async () => {
		const clicks = async (parameters: IDataObject, given: IDataObject[]) =>
			(await api.first(parameters, { items: given })).traffic_clicks;
		const health = healthParameters(SITE, { simplify: false });
		expect(await clicks(health, [ANSWER])).toBe(3950);
		expect(await clicks(health, [{ search_console: ANSWER }])).toBe(3950);
		expect(await clicks(health, [{ rows: [{ name: 'a spreadsheet row' }] }])).toBeUndefined();
		const perItem = urls.map((url) => ({ url, search_console: ANSWER }));
		expect(await clicks(perSiteParameters(), perItem)).toBe(3950);
		const pages = await api.ok(perSiteParameters({ output: 'pages' }), { items: perItem });
		// One Item per Page: '/' 1000, '/blog/a' 300, '/products/x' 250 … '/contact' none.
		expect(pages.map(({ json }) => json.clicks)).toEqual([1000, 300, 250, 0, 1200, 1200, 0]);
		const bad = { rows: [row(page('/'), 'many')], responseAggregationType: 'byPage' };
		api.server.clearRequests();
		await api.refuses(health, /^The input item's rows: rows\[0\]\.clicks is "many" \(text\)/, {
			items: [bad],
		});
		await api.refuses(perSiteParameters(), /^The input item's search_console: rows\[0\]/, {
			items: [{ url: page('/'), search_console: bad }],
		});
	});

	it('several answers (paging), the rows alone, n8n items and JSON text read alike; a row given twice counts once; Simplify writes fix_first as text', async () => {
		const [first, second] = [ANSWER.rows.slice(0, 4), ANSWER.rows.slice(4)];
		const forms = [
			'={{ [{ rows: $json.first }, { rows: $json.second }] }}',
			'={{ $json.first.concat($json.second) }}',
			'={{ [{ json: { rows: $json.first } }, { json: { rows: $json.second } }] }}',
			'={{ JSON.stringify({ rows: $json.first.concat($json.second, $json.first) }) }}',
		];
		for (const form of forms) {
			const site = await api.first(perSite({ searchConsoleData: form, simplify: true }), {
				items: urls.map((url) => ({ url, first, second })),
			});
			expect([form, site.traffic_clicks, site.fix_first]).toEqual([
				form,
				3950,
				'meta_description (high) ×3 1,750 clicks, title (high) ×2 1,200 clicks, image_keywords (medium) ×2 1,200 clicks',
			]);
		}
	});

	it('a site none of whose pages are in the data: 0% coverage, said (escaping: site.test.ts)', async () => {
		const data = { rows: [ANSWER.rows[8]] }; // another site's row only
		const site = await api.first(perSite({ searchConsoleData: data }), { items });
		const listed = urls.map((url) => url.replace(/^https:\/\/|\/$/g, ''));
		expect([...sums(site), site.pages_without_traffic]).toEqual([0, 0, 0, 0, listed]);
		expect(String(site.summary_text)).toContain('Search Console data for 0 of 7 pages (0%)');
	});

	// One Item per Page: [phpRank's URL, Search Console's page, whether they are one page].
	it('matches pages as a user expects: scheme, www., slashes, fragment, host case, encoding; not query or path case', async () => {
		const cases: Array<[string, string, boolean]> = [
			['https://m.example.com/a', 'http://m.example.com/a', true], // scheme
			['https://m.example.com/b', 'https://www.m.example.com/b', true], // www.
			['https://www.m.example.com/c', 'https://m.example.com/c', true],
			['https://m.example.com/d', 'https://m.example.com/d/', true], // trailing slash
			['https://m.example.com/e/', 'https://m.example.com/e', true],
			['https://m.example.com/f', 'https://m.example.com/f#top', true], // fragment
			['https://m.example.com/g', 'https://M.EXAMPLE.COM/g', true], // host's case
			['https://m.example.com/café', 'https://m.example.com/caf%C3%A9', true], // encoding
			['https://m.example.com/j?page=2', 'https://m.example.com/j', false], // query
			['https://m.example.com/k', 'https://m.example.com/k?page=2', false],
			['https://m.example.com/L', 'https://m.example.com/l', false], // path's case
			['https://m.example.com/n', 'https://m.example.com/n/x', false],
		];
		const rows = cases.map(([, reported], i) => row(reported, i + 1, 10 * (i + 1)));
		const out = await api.ok(perSite({ output: 'pages', searchConsoleData: { rows } }), {
			items: cases.map(([url]) => ({ url })),
		});
		expect(out.map(({ json }) => [json.clicks, json.impressions, json.traffic_data])).toEqual(
			cases.map(([, , same], i) => (same ? [i + 1, 10 * (i + 1), true] : [0, 0, false])),
		);
	});

	it('Compare With Competitors: your page’s clicks on the item, each check they lead on and the first line; the same requests as without', async () => {
		api.server.setAnalysis(RIVAL, { score: 95, failed: [], others: 'pass' });
		const compare = (searchConsoleData: IDataObject | string = '') =>
			api.first({ ...COMPARE, simplify: false, searchConsoleData, yourUrl: page('/products/y/z') });
		await compare();
		const item = await sameCalls(compare, () => compare({ ...ANSWER, days: 28 }));
		// /products/y/z: 1,200 clicks, 30,000 impressions; it fails meta_description and title.
		expect(item).toMatchObject({ clicks_affected: 1200, impressions_affected: 30000 });
		expect(item).toMatchObject({ traffic_data: true, traffic_period: 'in the last 28 days' });
		expect(figures(item.they_lead_on)).toEqual([
			['meta_description', 1200, 30000],
			['title', 1200, 30000],
		]);
		expect(String(item.summary_text).split('\n')[0]).toBe(
			'Your competitor passes 2 high checks you fail: meta_description, title. Your page had 1,200 clicks and 30,000 impressions in the last 28 days.',
		);
	});

	it('Worst Pages By → Most Clicks: the failing pages, most clicks first, the lower score on a tie (Get Health: above); refused without data', async () => {
		const siteOptions = MOST_CLICKS;
		expect(worst(await api.first(perSite({ siteOptions }), { items }))).toEqual(BY_CLICKS);
		const message =
			'Worst Pages By under Site Options is Most Clicks, but there is no Search Console Data';
		api.server.clearRequests();
		await api.refuses(perSiteParameters({ siteOptions }), `${message} [item 0]`, { items });
		await api.refuses(healthParameters(SITE, { siteOptions }), message);
	});

	it('One Item per Finding Change: each finding carries the clicks of the pages it fails on (as fix_first), and the coverage', async () => {
		const found = (await api.ok(perSite({ output: 'findings' }), { items })).map((i) => i.json);
		expect(figures(found)).toEqual(FIX_FIRST); // opened: high first, then most pages
		const coverage = found.map((f) => [f.pages_with_traffic, f.traffic_coverage]);
		expect(coverage).toEqual([...Array(3)].map(() => [5, 71.4]));
		expect(found[0].body).toContain(
			'3 pages of shop.example.com, with 1,750 clicks and 40,000 impressions in the Search Console Data.',
		);
	});

	const one = (over: IDataObject) => ({ rows: [{ ...row(page('/'), 1, 2), ...over }] });
	it.each([
		[one({ clicks: -1 }), 'rows[0].clicks is "-1": clicks must be a number of 0 or more'],
		[one({ clicks: '12' }), 'rows[0].clicks is "12" (text): clicks must be a number of 0 or more'],
		[
			one({ impressions: null }),
			'rows[0].impressions is nothing: impressions must be a number of 0 or more',
		],
		[one({ keys: undefined }), 'rows[0].keys must list the page first, but it is nothing'],
		[one({ keys: ['buy shoes'] }), 'rows[0].keys[0] is "buy shoes", not a page\'s URL'],
		[
			[one({}), one({ clicks: 5 })],
			'[1].rows[0] repeats the row of "https://shop.example.com/" with other figures',
		],
		[{ rows: 'none' }, 'rows is "none", not a list'],
		[
			{ error: { code: 403, message: 'Forbidden' } },
			'it is an error from Search Console: Forbidden',
		],
		[{ kind: 'webmasters' }, 'it has no rows: it is not a Search Analytics answer'],
		['{ rows: [', 'it is text, not JSON'],
		[{ rows: [], startDate: '1 Oct' }, 'startDate is "1 Oct", not a date'],
		[
			[
				{ rows: [], days: 28 },
				{ rows: [], days: 7 },
			],
			'its answers are of different periods (in the last 28 days; in the last 7 days)',
		],
	])(
		'refuses %j before any request (Create or Re-Run, each output; Get Health, One Digest; Compare)',
		async (data, message) => {
			const searchConsoleData = data as IDataObject;
			for (const parameters of [
				...['sites', 'pages', 'findings'].map((output) => perSite({ output, searchConsoleData })),
				healthParameters(SITE, { searchConsoleData }),
				healthParameters(SITE, { allProjects: true, output: 'digest', searchConsoleData }),
				{ ...COMPARE, yourUrl: page('/'), searchConsoleData },
			])
				await api.refuses(parameters, `Search Console Data: ${message}`, {
					items: [{ url: page('/') }],
				});
		},
	);
});
