import type { IDataObject } from 'n8n-workflow';

import { GROUP_COLUMNS, HISTORY_COLUMNS } from '../nodes/PhpRank/history/model';
import {
	healthParameters,
	locator,
	perSiteParameters,
	useN8nApi,
	useServer,
} from './harness/setup';
import { siteRuns } from './harness/siteRuns';

/*
 * Page Groups and budgets through the real n8n engine against the test phpRank server (and, for
 * History Store → Data Table, the stand-in for n8n's public API): which page goes to which group,
 * each budget rule at its boundary, groups newly over budget and recovered over production runs in
 * both stores, a table made before page groups upgraded, bad input refused with no request sent.
 */

const SITE = 'shop.example.com';
const page = (path: string) => `https://${SITE}${path}`;

/** Each page's score and failing checks: the site the budgets are held against. */
const PAGES: Record<string, { score: number; failed: string[] }> = {
	'/': { score: 90, failed: [] },
	'/about': { score: 85, failed: [] },
	'/blog/a': { score: 80, failed: ['meta_description'] },
	'/blog/2024/b': { score: 75, failed: [] },
	'/products/x': { score: 70, failed: ['meta_description'] },
	'/products/y': { score: 50, failed: [] },
	'/products/y/z': { score: 40, failed: ['meta_description', 'title'] },
	'/products/w': { score: 80, failed: [] },
};

/**
 * A site at the edges: /p/ holds 18 pages at 95, one at 100 and one at 89, 1,899 / 20 = 94.95
 * (average_score 95); /blog/ 40 (bad), 90 (fails title, high) and 85: health 2 of 3 = 66.67 (67).
 */
const EDGE = 'edge.example.com';
const EDGE_PAGES: typeof PAGES = Object.fromEntries(
	[...Array<number>(18).fill(95), 100, 89, 40, 90, 85].map((score, i) => [
		i < 20 ? `/p/${i + 1}` : `/blog/${'abc'[i - 20]}`,
		{ score, failed: i === 21 ? ['title'] : [] },
	]),
);

/** Page Groups as the node stores them. */
const groups = (...list: IDataObject[]) => ({ pageGroups: { group: list } });
const group = (
	name: string,
	pattern: string,
	budget: IDataObject = {},
	extra: IDataObject = {},
) => ({ name, pattern, budget, ...extra });

const health = (extra: IDataObject = {}) => healthParameters(SITE, { simplify: false, ...extra });

describe('Page Groups and budgets', () => {
	const api = useServer();
	const n8n = useN8nApi();

	/** Reports of `pages` on `site`, made as users make them; the reports before deleted unless `keep`. */
	async function seed(pages = PAGES, site = SITE, keep = false) {
		if (!keep) api.reset();
		const urls = Object.keys(pages).map((path) => `https://${site}${path}`);
		for (const [i, url] of urls.entries())
			api.server.setAnalysis(url, { ...Object.values(pages)[i], others: 'pass' });
		await api.ok(perSiteParameters({ output: 'pages' }), { items: urls.map((url) => ({ url })) });
		api.server.clearRequests();
	}
	/** Create or Re-Run over production runs, Products held to meta_description passing everywhere. */
	const { run, reset } = siteRuns(
		api,
		(extra) =>
			perSiteParameters({
				...groups(group('Products', '/products/**', { requiredChecks: 'meta_description' })),
				historyTable: locator('name', 'phpRank history'),
				...extra,
			}),
		{ urls: ['/products/x', '/products/y'].map(page), n8nApi: () => n8n.credential },
	);

	const listCalls = () => api.apiRequests().map((r) => `${r.method} ${r.path}`);

	describe('which group a page goes to', () => {
		beforeAll(async () => await seed());

		it('first match wins, overlapping patterns included, and the rest goes to Other; no request more than without groups', async () => {
			const without = await api.run(health());
			const plain = listCalls();
			api.server.clearRequests();
			const site = await api.first(
				health(
					groups(
						group('Blog posts', '/blog/*'),
						group('Products', '/products/**'),
						group('All blog', '/blog/**'),
						group('Home', '/'),
					),
				),
			);
			expect(listCalls()).toEqual(plain);
			expect(without.items[0].json.groups).toBeUndefined();
			expect((site.groups as IDataObject[]).map((g) => [g.name, g.pages])).toEqual([
				['Blog posts', 1], // /blog/a; /blog/2024/b is two levels down
				['Products', 4], // ** any depth
				['All blog', 1], // /blog/2024/b: /blog/a went to the first match
				['Home', 1],
				['Other', 1], // /about
			]);
			// Every worst page says its group.
			const worst = site.worst_pages as IDataObject[];
			expect(worst.map((p) => [p.url, p.group])).toEqual([
				[`${SITE}/products/y/z`, 'Products'],
				[`${SITE}/products/y`, 'Products'],
				[`${SITE}/products/x`, 'Products'],
				[`${SITE}/blog/2024/b`, 'All blog'],
				[`${SITE}/blog/a`, 'Blog posts'],
			]);
			// No budget: every group holds.
			expect(site).toMatchObject({ budgets_passed: true, broken_groups: [] });
		});

		it('a regular expression reads the path and query; a group that matches nothing has 0 pages and holds', async () => {
			const site = await api.first(
				health(
					groups(
						group('Products with y', '^/products/y(/|$)', {}, { patternType: 'regex' }),
						group('Docs', '/docs/**', { minAverageScore: 99 }),
					),
				),
			);
			expect((site.groups as IDataObject[]).map((g) => [g.name, g.pages, g.passed])).toEqual([
				['Products with y', 2, true],
				['Docs', 0, true],
				['Other', 6, true],
			]);
		});

		it('One Item per Page: each page says its group', async () => {
			const items = await api.ok(
				perSiteParameters({
					output: 'pages',
					...groups(group('Products', '/products/**')),
				}),
				{ items: [{ url: page('/products/x') }, { url: page('/about') }] },
			);
			expect(items.map((item) => item.json.group)).toEqual(['Products', 'Other']);
		});
	});

	describe('each budget rule at its boundary', () => {
		beforeAll(async () => {
			await seed();
			await seed(EDGE_PAGES, EDGE, true);
		});

		// shop's Products: 4 pages, scores 70, 50, 40, 80 → average 60; 1 bad (40); meta_description
		// fails on 2 and title on 1 (passes on 75%), both high → health 50. P and Blog: EDGE_PAGES.
		// Each rule judged on the exact figure, shown rounded. The breach: `rule actual pages to fix`
		// ('': the group holds).
		const cases: Array<[string, 'Products' | 'P' | 'Blog', IDataObject, string]> = [
			['average at the limit', 'Products', { minAverageScore: 60 }, ''],
			['average above', 'Products', { minAverageScore: 60.1 }, 'min_average_score 60 /y/z /y'],
			['health at the limit', 'Products', { minHealthScore: 50 }, ''],
			['health above', 'Products', { minHealthScore: 51 }, 'min_health_score 50 /y/z /x'],
			['bad share at the limit', 'Products', { maxBadShare: 25 }, ''],
			['bad share below', 'Products', { maxBadShare: 24.9 }, 'max_bad_share 25 /y/z'],
			['bad pages at the limit', 'Products', { maxBadPages: 1 }, ''],
			['bad pages below', 'Products', { maxBadPages: 0 }, 'max_bad_pages 1 /y/z'],
			['check share at the limit', 'Products', { requiredChecks: 'title:75' }, ''],
			['check share above', 'Products', { requiredChecks: 'title:75.5' }, 'required_check 75 /y/z'],
			['a check that passes everywhere', 'Products', { requiredChecks: 'favicon' }, ''],
			['94.95 (shown 95) breaks 95', 'P', { minAverageScore: 95 }, 'min_average_score 94.95 /20'],
			['94.95 holds 94.95', 'P', { minAverageScore: 94.95 }, ''],
			['2 of 3 (shown 67) break 67', 'Blog', { minHealthScore: 67 }, 'min_health_score 66.67 /b'],
			['2 of 3 hold 66.66', 'Blog', { minHealthScore: 66.66 }, ''],
			['1 bad of 3 breaks 33.3%', 'Blog', { maxBadShare: 33.3 }, 'max_bad_share 33.33 /a'],
			['1 bad of 3 holds 33.34%', 'Blog', { maxBadShare: 33.34 }, ''],
			['2 of 3 pass, break 67', 'Blog', { requiredChecks: 'title:67' }, 'required_check 66.67 /b'],
			['2 of 3 pass, hold 66.66', 'Blog', { requiredChecks: 'title:66.66' }, ''],
			['71.666… breaks 71.67', 'Blog', { minAverageScore: 71.67 }, 'min_average_score 71.66 /a'],
		];
		const at = { Products: [SITE, '/products'], P: [EDGE, '/p'], Blog: [EDGE, '/blog'] };
		// What each group shows: average_score and health_score, rounded.
		const shown = { Products: [60, 50], P: [95, 100], Blog: [71.7, 67] };

		it.each(cases)('%s', async (_name, name, budget, breach) => {
			const [site, folder] = at[name];
			const item = await api.first(
				healthParameters(site, { simplify: false, ...groups(group(name, `${folder}/**`, budget)) }),
			);
			const [own] = item.groups as IDataObject[];
			expect([own.average_score, own.health_score]).toEqual(shown[name]);
			expect([own.passed, item.budgets_passed]).toEqual([!breach, !breach]);
			expect(item.broken_groups).toEqual(breach ? [name] : []);
			const pages = (b: IDataObject) =>
				(b.pages as IDataObject[]).map((p) => String(p.url).slice(site.length + folder.length));
			expect(
				(item.breaches as IDataObject[]).map((b) => [b.rule, b.actual, ...pages(b)].join(' ')),
			).toEqual(breach ? [breach] : []);
		});

		it('a group inherits the Default Budget, its own rule wins, Other is held to the default', async () => {
			const site = await api.first(
				health({
					defaultBudget: { minAverageScore: 70, requiredChecks: 'meta_description' },
					...groups(
						group('Products', '/products/**', { minAverageScore: 60 }),
						group('Blog', '/blog/**'),
					),
				}),
			);
			const byName = Object.fromEntries(
				(site.groups as IDataObject[]).map((g) => [g.name, g]),
			) as Record<string, IDataObject>;
			expect(byName.Products.budget).toMatchObject({
				min_average_score: 60,
				required_checks: [{ check: 'meta_description', share: 100 }],
			});
			const rules = (name: string) => (byName[name].breaches as IDataObject[]).map((b) => b.rule);
			// Products: average 60 holds its own 60; meta_description fails on 2 of 4.
			expect(rules('Products')).toEqual(['required_check']);
			// Blog: average 77.5 holds 70; meta_description fails on /blog/a.
			expect(rules('Blog')).toEqual(['required_check']);
			expect(byName.Other.passed).toBe(true);
			expect(site.broken_groups).toEqual(['Products', 'Blog']);
			// The breach names the failing pages, worst first, with their group and link.
			const products = (byName.Products.breaches as IDataObject[])[0];
			expect((products.pages as IDataObject[]).map((p) => [p.url, p.group])).toEqual([
				[`${SITE}/products/y/z`, 'Products'],
				[`${SITE}/products/x`, 'Products'],
			]);
			expect(products.text).toBe(
				'Products: meta_description fails on 2 of 4 pages (passes on 50%, budget 100%): one fix in the template these pages share',
			);
		});

		it('summary_text and summary_html lead with the broken groups; the e-mail escapes what it shows', async () => {
			const site = await api.first(
				health({
					simplify: true,
					...groups(
						group('<b>Products</b>', '/products/**', { requiredChecks: 'meta_description' }),
					),
				}),
			);
			const lines = String(site.summary_text).split('\n');
			expect(lines[0]).toBe(`${SITE}: 1 of 2 page groups over budget: <b>Products</b>`);
			expect(lines[1]).toMatch(/^- <b>Products<\/b>: meta_description fails on 2 of 4 pages/);
			expect(lines[2]).toMatch(new RegExp(`^${SITE}: score`));
			const html = String(site.summary_html);
			expect(html).not.toContain('<b>Products</b>');
			expect(html).toContain('&#60;b&#62;Products&#60;/b&#62;: meta_description fails on 2 of 4');
			expect(html.indexOf('over budget')).toBeLessThan(html.indexOf('Health '));
			// Simplify: the lists as short text.
			expect(site.broken_groups).toBe('<b>Products</b>');
			expect(site.groups).toBe(
				'<b>Products</b> 60 (4 pages) over budget; Other 82.5 (4 pages) within budget',
			);
		});
	});

	describe('One Digest', () => {
		beforeAll(async () => {
			await seed();
			// A second site, healthier by every figure but with a product page failing its budget.
			const b = { '/': { score: 40, failed: [] }, '/products/1': { score: 95, failed: [] } };
			await seed(b, 'b-shop.example.net', true);
		});

		it('ranks sites by their groups over budget first, counts them, and reads the reports once', async () => {
			const digest = (extra: IDataObject) =>
				api.first({ ...health({ allProjects: true, output: 'digest' }), ...extra });
			const plain = await digest({});
			const calls = listCalls();
			api.server.clearRequests();
			const item = await digest({
				...groups(group('Products', '/products/**', { minAverageScore: 96 })),
				defaultBudget: { maxBadPages: 0 },
			});
			expect(listCalls()).toEqual(calls);
			const sites = item.sites as IDataObject[];
			// Without groups b-shop (health 100, average 67.5) ranks after shop (health 50).
			expect((plain.sites as IDataObject[]).map((s) => s.project)).toEqual([
				SITE,
				'b-shop.example.net',
			]);
			// b-shop: Products 95 < 96 and Other has a bad page (40): two groups over budget rank it
			// first. shop: Products (average 60, a bad page); its Other has no bad page.
			expect(sites.map((s) => [s.project, s.broken_groups])).toEqual([
				['b-shop.example.net', ['Products', 'Other']],
				[SITE, ['Products']],
			]);
			expect(item).toMatchObject({ sites_over_budget: 2, broken_groups: 3 });
			expect(String(item.summary_text).split('\n')[0]).toContain(
				'2 sites over budget (3 page groups)',
			);
			expect(String(item.summary_text)).toContain('over budget: Products');
			expect(plain.sites_over_budget).toBeUndefined();
		});
	});

	describe('bad input is refused before any request, naming the group and the field', () => {
		const cases: Array<[string, IDataObject, RegExp]> = [
			['an empty name', groups(group('', '/blog/*')), /Page Groups → group 1 → Name is empty/],
			[
				'a duplicate name',
				groups(group('Blog', '/blog/*'), group('blog', '/news/*')),
				/Page Groups → group 2 \(blog\) → Name: another group is called "Blog"/,
			],
			['the name Other', groups(group('other', '/x')), /group 1 \(other\) → Name: "Other"/],
			[
				'a pattern that is not a path',
				groups(group('Blog', 'blog/*')),
				/group 1 \(Blog\) → URL Pattern: "blog\/\*" is not a path/,
			],
			[
				'a regular expression that does not compile',
				groups(group('Blog', '^/blog/(', {}, { patternType: 'regex' })),
				/group 1 \(Blog\) → URL Pattern: "\^\/blog\/\(" is not a regular expression/,
			],
			[
				'a threshold out of range',
				groups(group('Blog', '/blog/*', { minAverageScore: 101 })),
				/group 1 \(Blog\) → Minimum Average Score must be a number from 0 to 100, not "101"/,
			],
			[
				'a Default Budget threshold out of range',
				{ defaultBudget: { maxBadShare: -1 } },
				/Default Budget → Maximum Bad Pages \(%\) must be a number from 0 to 100/,
			],
			[
				'a check phpRank does not have',
				groups(group('Blog', '/blog/*', { requiredChecks: 'title, meta_desc:90' })),
				/group 1 \(Blog\) → Checks That Must Pass: phpRank has no check "meta_desc"/,
			],
			[
				'a share over 100',
				{ defaultBudget: { requiredChecks: 'title:120' } },
				/Default Budget → Checks That Must Pass: title at 120%/,
			],
		];

		it.each(cases)('%s: Get Health', async (_name, extra, message) => {
			await api.refuses(health(extra), message);
		});

		it.each(cases)('%s: Create or Re-Run', async (_name, extra, message) => {
			await api.refuses(perSiteParameters(extra), message, { items: [{ url: page('/blog/a') }] });
		});
	});

	describe('over production runs: newly over budget and recovered', () => {
		async function runOnce(
			historyStore: 'workflow' | 'dataTable',
			failing: boolean,
			{ mode = 'webhook', id }: { mode?: 'webhook' | 'manual'; id?: string } = {},
		) {
			for (const path of ['/products/x', '/products/y'])
				api.server.setNextAnalysis(page(path), {
					score: 70,
					failed: failing && path === '/products/x' ? ['meta_description'] : [],
					others: 'pass',
				});
			const { items, error } = await run(mode, { id, extra: { historyStore } });
			expect(error).toBeUndefined();
			const site = items[0].json;
			// What the summary's first line says changed, in brackets.
			const since = /\((.*)\)$/.exec(String(site.summary_text).split('\n')[0])?.[1] ?? '';
			return [site.groups_newly_broken, site.groups_recovered, site.budgets_passed, since];
		}
		const none = 'no production run before to compare with';
		const back = 'since the last run: back within budget: Products';

		describe.each(['workflow', 'dataTable'] as const)('History Store: %s', (store) => {
			beforeAll(() => {
				api.reset();
				n8n.reset();
				reset();
			});

			it('breaks, stays broken (nothing new), a manual run changes nothing, recovers, a retry compares with the same run before', async () => {
				// No production run before (a manual one keeps nothing): every group over budget is new.
				const [manual, retried] = [{ mode: 'manual' } as const, { id: 'retried' }];
				expect(await runOnce(store, true, manual)).toEqual([['Products'], [], false, none]);
				expect(await runOnce(store, true)).toEqual([['Products'], [], false, none]);
				expect(await runOnce(store, true)).toEqual([[], [], false, '']);
				expect(await runOnce(store, false, manual)).toEqual([[], ['Products'], true, back]);
				expect(await runOnce(store, true)).toEqual([[], [], false, '']);
				expect(await runOnce(store, false, retried)).toEqual([[], ['Products'], true, back]);
				// Retry On Fail: a second try of the same execution says the same.
				expect(await runOnce(store, false, retried)).toEqual([[], ['Products'], true, back]);
				expect(await runOnce(store, false)).toEqual([[], [], true, '']);
				const broken = 'since the last run: newly over budget: Products';
				expect(await runOnce(store, true)).toEqual([['Products'], [], false, broken]);
			});
		});

		it('a deploy of one good changed URL with Figures From → Every Page of the Site: only it analysed, Products judged on every page, still broken, no new alert', async () => {
			api.reset();
			reset();
			const whole = { siteOptions: { figuresFrom: 'site' } };
			const runs = async (urls: string[], extra: IDataObject = whole) => {
				api.server.clearRequests();
				const { items, error } = await run('webhook', { urls: urls.map(page), extra });
				expect(error).toBeUndefined();
				const site = items[0].json;
				return [site.pages, site.broken_groups, site.groups_newly_broken, site.groups_recovered];
			};
			api.server.setAnalysis(page('/products/x'), { score: 70, failed: ['meta_description'] });
			api.server.setAnalysis(page('/products/y'), { score: 70, failed: [] });
			expect(await runs(['/products/x', '/products/y'])).toEqual([
				2,
				['Products'],
				['Products'],
				[],
			]);
			// /products/y alone: one list read and one re-run; /products/x counts as its newest report.
			expect(await runs(['/products/y'])).toEqual([2, ['Products'], [], []]);
			const [read, rerun] = listCalls();
			expect([read, rerun.replace(/\d+$/, '{id}'), listCalls().length]).toEqual([
				'GET /api/v1/reports',
				'PUT /api/v1/reports/{id}',
				2,
			]);
			expect(api.server.getReport(Number(rerun.split('/').pop()))?.url).toBe(`${SITE}/products/y`);
			expect(await runs(['/products/x', '/products/y'])).toEqual([2, ['Products'], [], []]);
			// The deploy gate's node: Pages From → A Project's Reports (the item's url unread), the changed URL, then every page.
			const project = { pagesFrom: 'project', project: locator('name', SITE) };
			expect(await runs(['/'], { ...project, changedUrls: page('/products/y') })).toEqual([
				2,
				['Products'],
				[],
				[],
			]);
			expect(listCalls().map((call) => call.split(' ')[0])).toEqual(['GET', 'PUT']);
			expect(await runs(['/'], project)).toEqual([2, ['Products'], [], []]);
			// Pages of This Run (the default) judges /products/y alone: within budget.
			expect(await runs(['/products/y'], {})).toEqual([1, [], [], ['Products']]);
			api.server.clearRequests();
			await api.refuses(
				perSiteParameters({ siteOptions: { figuresFrom: 'all' } }),
				'Figures From under Site Options must be "run" or "site", not "all"',
				{ items: [{ url: page('/products/y') }] },
			);
		});

		it('Data Table: one row per site and run plus one per group, a person can filter by group', async () => {
			const table = n8n.api.tables.byName('phpRank history')!;
			const rows = n8n.api.tables.rows(table.id);
			// 7 production runs (the manual one wrote nothing), the retried one once.
			const own = rows.filter((row) => row.page_group === null);
			const groups = rows.filter((row) => row.page_group !== null);
			expect(own).toHaveLength(6);
			// Other matched no page: no row of its own.
			expect(groups.map((row) => [row.page_group, row.budget_passed])).toEqual(
				[false, false, false, true, true, false].map((passed) => ['Products', passed]),
			);
			expect(own.map((row) => row.budget_passed)).toEqual([false, false, false, true, true, false]);
			expect(String(groups[0].breaches)).toMatch(
				/^Products: meta_description fails on 1 of 2 pages \(passes on 50%, budget 100%\): fix it on shop\.example\.com\/products\/x$/,
			);
		});
	});

	describe('a history table made before page groups', () => {
		beforeAll(() => {
			api.reset();
			n8n.reset();
			reset();
		});

		it('gets the group columns on the first production run with Page Groups, and keeps every row', async () => {
			const table = n8n.api.tables.create('old history', [...HISTORY_COLUMNS]);
			n8n.api.tables.seed(table.id, [
				{
					site: SITE,
					run_date: '2026-01-05T08:00:00.000Z',
					average_score: 60,
					health_score: 50,
					pages: 2,
					good_pages: 0,
					decent_pages: 2,
					bad_pages: 0,
					failing_checks: 'meta_description (1 page)',
					execution_id: 'old-1',
					workflow_id: 'wf-1',
				},
			]);
			const once = async (mode: 'webhook' | 'manual', id: string) => {
				const extra = { historyStore: 'dataTable', historyTable: locator('id', table.id) };
				const { items, error } = await run(mode, { id, extra, urls: [page('/products/x')] });
				expect(error).toBeUndefined();
				return items;
			};
			api.server.setAnalysis(page('/products/x'), { score: 70, failed: [], others: 'pass' });
			// A manual run reads the old table as it is and changes nothing.
			await once('manual', 'm');
			expect(n8n.api.tables.get(table.id)!.columns.map((c) => c.name)).toEqual(
				HISTORY_COLUMNS.map((c) => c.name),
			);
			n8n.api.requests.length = 0;
			const items = await once('webhook', 'new-1');
			expect(
				n8n.api.requests.filter((r) => r.path.endsWith('/columns')).map((r) => r.body),
			).toEqual(GROUP_COLUMNS.map((c) => ({ ...c })));
			const rows = n8n.api.tables.rows(table.id);
			expect(rows).toHaveLength(3);
			expect(rows[0]).toMatchObject({ execution_id: 'old-1', average_score: 60, page_group: null });
			expect(rows.slice(1).map((r) => [r.execution_id, r.page_group, r.budget_passed])).toEqual([
				['new-1', 'Products', true],
				['new-1', null, true],
			]);
			const site = items[0].json;
			expect(site).toMatchObject({ runs_recorded: 2, history_saved: true });
			expect(site.groups_newly_broken).toEqual([]);
		});
	});
});
