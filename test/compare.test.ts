import type { IDataObject } from 'n8n-workflow';

import { createOf, healthParameters, locator, useN8nApi, useServer } from './harness/setup';
import { callTool, toolNode } from './harness/tool';

/*
 * Report → Compare With Competitors through n8n's engine against the test server: what went over
 * the wire (one list read per site, one analysis per URL per run, none for a recent report) and
 * what comes out (gaps, verdicts at the tie band's edge, the check matrix, what to fix first).
 */

const YOU = 'https://www.shop.example.com/pricing';
const RIVAL = 'https://rival.example.org/pricing';
const OTHER = 'https://other.example.net/';
const NEW = 'https://new.example.com/';

const compare = (competitors: unknown[], extra: IDataObject = {}) => ({
	resource: 'report',
	operation: 'compare',
	yourUrl: YOU,
	competitors: { competitor: competitors.map((url) => ({ url })) },
	...extra,
});

describe('Report → Compare With Competitors', () => {
	const api = useServer();
	beforeEach(() => api.reset());
	const analyses = () => api.apiRequests().filter((r) => r.method !== 'GET');

	function scriptAnalyses() {
		for (const [url, score, failed] of [
			[YOU, 70, ['title', 'meta_description', 'favicon', 'dom_size']],
			[RIVAL, 88, ['https_encryption', 'dom_size']],
			[OTHER, 68, ['title', 'favicon', 'robots']],
		] as const)
			api.server.setNextAnalysis(url, { score, failed, others: 'pass' });
	}

	it('analyses each URL once (one list read per site), and lines the competitors up check by check', async () => {
		scriptAnalyses();
		const items = await api.ok(compare([RIVAL, OTHER], { simplify: false }));
		const read = (site: string) =>
			`GET /api/v1/reports?project=${site}&sort_by=id&sort=desc&per_page=100&page=1`;
		expect(api.calls().sort()).toEqual(
			[
				read('shop.example.com'),
				read('rival.example.org'),
				read('other.example.net'),
				...Array(3).fill('POST /api/v1/reports'),
			].sort(),
		);
		expect(items).toHaveLength(1);
		const item = items[0].json;
		const link = (url: string) => {
			const report = api.server
				.listReports()
				.find((r) => `https://${r.url}` === url.replace('www.', '').replace(/\/$/, ''))!;
			return `${api.server.url}/reports/${report.id}`;
		};
		expect(item.you).toEqual({
			url: YOU,
			score: 70,
			result_class: 'decent',
			link: link(YOU),
			action: 'created',
			analysed_at: expect.any(String),
		});
		expect(item.competitors).toEqual([
			expect.objectContaining({
				url: RIVAL,
				score: 88,
				gap: 18,
				verdict: 'ahead',
				link: link(RIVAL),
			}),
			expect.objectContaining({ url: OTHER, score: 68, gap: -2, verdict: 'tie' }),
		]);
		expect(item).toMatchObject({ best_competitor: RIVAL, score_gap: 18, not_comparable: [] });
		// High first; a check both competitors pass before one only one passes.
		expect(item.they_lead_on).toEqual([
			{ check: 'meta_description', importance: 'high', competitors: [RIVAL, OTHER] },
			{ check: 'title', importance: 'high', competitors: [RIVAL] },
			{ check: 'favicon', importance: 'medium', competitors: [RIVAL] },
			{ check: 'dom_size', importance: 'low', competitors: [OTHER] },
		]);
		expect(item.you_lead_on).toEqual([
			{ check: 'https_encryption', importance: 'high', competitors: [RIVAL] },
			{ check: 'robots', importance: 'high', competitors: [OTHER] },
		]);
		const checks = item.checks as IDataObject[];
		const ranks = checks.map((row) => ['high', 'medium', 'low'].indexOf(String(row.importance)));
		expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
		expect(checks.find((row) => row.check === 'dom_size')).toEqual({
			check: 'dom_size',
			importance: 'low',
			you_pass: false,
			passed_by: [OTHER],
			failed_by: [RIVAL],
		});
		expect(String(item.summary_text).split('\n')[0]).toBe(
			'Your competitors pass 2 high checks you fail: meta_description (2 of 2), title (1 of 2).',
		);
		expect(item).not.toHaveProperty('summary_html');
	});

	it('reuses a report analysed within Reuse Recent Analysis (23 h): a daily schedule analyses afresh, a second run that day reads the lists only, 0 always analyses', async () => {
		const ago = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString();
		// Yesterday's run at the same hour, its analyses a minute either side: the schedule fires early or late.
		const yesterday = { [YOU]: 24 - 1 / 60, [RIVAL]: 24, [OTHER]: 24 + 1 / 60 };
		for (const [url, hours] of Object.entries(yesterday))
			api.server.addReport({ url, generated_at: ago(hours) });
		/** Each page's action, then the list reads and the re-runs sent. */
		const actions = async (extra: IDataObject = {}) => {
			api.server.clearRequests();
			const item = await api.first(compare([RIVAL, OTHER], { simplify: false, ...extra }));
			const all = [item.you, ...(item.competitors as IDataObject[])] as IDataObject[];
			return [...all.map((c) => c.action), api.sent('GET').length, api.sent('PUT').length];
		};
		// Each day 3 list reads and 3 re-runs (22 with 10 competitors); later that day the lists only.
		expect(await actions()).toEqual(['rerun', 'rerun', 'rerun', 3, 3]);
		expect(await actions()).toEqual(['reused', 'reused', 'reused', 3, 0]);
		// 0 hours: always analyse, as a re-run of each report (never a second report).
		expect(await actions({ reuseHours: 0 })).toEqual(['rerun', 'rerun', 'rerun', 3, 3]);
		expect(api.server.listReports()).toHaveLength(3);
	});

	it('analyses a URL several input items name once per run', async () => {
		const items = [
			{ you: YOU, them: `${RIVAL}, ${OTHER}` },
			{ you: 'https://shop.example.com/about', them: RIVAL },
			{ you: YOU, them: OTHER },
		];
		const out = await api.ok(
			{
				...compare(['={{ $json.them }}']),
				yourUrl: '={{ $json.you }}',
			},
			{ items },
		);
		expect(out).toHaveLength(3);
		// 4 URLs on 3 sites: each site's list read once, each URL analysed once.
		expect(analyses()).toHaveLength(4);
		expect(api.sent('GET')).toHaveLength(3);
		expect(api.server.listReports()).toHaveLength(4);
		expect(out.map(({ pairedItem }) => pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
		]);
	});

	it('counts a gap of exactly Tie Within as a tie and a tenth more as ahead or behind', async () => {
		const add = (url: string, result: number) => api.server.addReport({ url, result });
		add(YOU, 70);
		const at = ['a', 'b', 'c', 'd'].map((name) => `https://${name}.example/`);
		[73, 73.1, 67, 66.9].forEach((score, index) => add(at[index], score));
		const items = await api.ok(compare(at, { simplify: false }));
		expect(analyses()).toEqual([]);
		expect(
			(items[0].json.competitors as IDataObject[]).map(({ gap, verdict }) => [gap, verdict]),
		).toEqual([
			[3, 'tie'],
			[3.1, 'ahead'],
			[-3, 'tie'],
			[-3.1, 'behind'],
		]);
		expect(items[0].json).toMatchObject({ best_competitor: 'https://b.example/', score_gap: 3.1 });

		// Tie Within 0: only equal scores tie.
		const strict = await api.run(compare(at, { simplify: false, tieWithin: 0 }));
		expect((strict.items[0].json.competitors as IDataObject[]).map((c) => c.verdict)).toEqual([
			'ahead',
			'ahead',
			'behind',
			'behind',
		]);
	});

	it('lists a competitor phpRank cannot analyse as not comparable, and still compares the rest', async () => {
		scriptAnalyses();
		const down = 'https://down.invalid/';
		api.server.failNext({ type: 'status', status: 500 }, { match: createOf(OTHER) });
		const item = await api.first(compare([RIVAL, down, OTHER], { simplify: false }));
		expect((item.competitors as IDataObject[]).map((c) => c.url)).toEqual([RIVAL]);
		expect(item.not_comparable).toEqual([
			{ url: down, reason: expect.stringMatching(/fetch|422|url/i) },
			{ url: OTHER, reason: expect.any(String) },
		]);
		expect(item.best_competitor).toBe(RIVAL);
		expect(String(item.summary_text)).toContain(`Not comparable: ${down} (`);
		expect(String(item.summary_text).split('\n')[0]).toBe(
			'Your competitor passes 2 high checks you fail: meta_description, title.',
		);
	});

	it('fails the item when Your URL cannot be analysed', async () => {
		const { error } = await api.run(compare([RIVAL], { yourUrl: 'https://mine.invalid/' }));
		expect(error?.message).toMatch(/fetch|url|422/i);
	});

	it.each<[string, IDataObject, RegExp]>([
		['no competitor', compare([]), /Competitor URLs has no URL/],
		[
			'more than 10',
			compare(Array.from({ length: 11 }, (_, i) => `https://c${i}.example.com/`)),
			/Competitor URLs has 11 URLs, more than the 10/,
		],
		[
			'a competitor that is not http(s)',
			compare(['ftp://rival.example.org/']),
			/Competitor URL 1 "ftp:\/\/rival.example.org\/" uses ftp:, not http or https/,
		],
		[
			'a competitor that is no address',
			compare([RIVAL, 'https://']),
			/Competitor URL 2 "https:\/\/" is not a web address/,
		],
		[
			'Your URL not http(s)',
			compare([RIVAL], { yourUrl: 'mailto:me@shop.example.com' }),
			/Your URL "mailto:me@shop.example.com" uses mailto:, not http or https/,
		],
		[
			'Your URL empty (from an expression)',
			compare([RIVAL], { yourUrl: '={{ "" }}' }),
			/Your URL is empty/,
		],
		[
			'an internal competitor with Public URLs Only',
			compare(['http://192.168.1.10/admin'], { options: { publicUrlsOnly: true } }),
			/Competitor URL 1 "http:\/\/192.168.1.10\/admin" points to a private network address/,
		],
		[
			'an internal Your URL with Public URLs Only',
			compare([RIVAL], { yourUrl: 'http://localhost:8080/', options: { publicUrlsOnly: true } }),
			/Your URL "http:\/\/localhost:8080\/" points to a local network name/,
		],
		[
			'a competitor equal to Your URL',
			compare(['http://shop.example.com/pricing/']),
			/Competitor URL 1 .* is Your URL/,
		],
		[
			'Tie Within out of bounds',
			compare([RIVAL], { tieWithin: 101 }),
			/Tie Within \(Points\) must be a number from 0 to 100/,
		],
	])('refuses %s before any request, naming the field', async (_, parameters, message) => {
		await api.refuses(parameters, message);
	});

	it('splits comma-separated text from an expression, adds https:// to an address without a scheme, and counts a competitor given twice once', async () => {
		const items = await api.ok(
			compare(['={{ $json.them }}', RIVAL], {
				simplify: false,
				yourUrl: 'shop.example.com/pricing',
			}),
			{
				items: [
					{
						them: `${RIVAL},${OTHER}\nhttps://rival.example.org/pricing/, third.example.com,fourth.example.com/a?x=1,2`,
					},
				],
			},
		);
		expect((items[0].json.you as IDataObject).url).toBe('https://shop.example.com/pricing');
		expect((items[0].json.competitors as IDataObject[]).map((c) => c.url)).toEqual([
			RIVAL,
			OTHER,
			'https://third.example.com',
			'https://fourth.example.com/a?x=1,2',
		]);
	});

	it('Simplify gives short text columns; E-Mail HTML an escaped, branded e-mail body', async () => {
		scriptAnalyses();
		const item = await api.first(
			compare([RIVAL, OTHER], {
				options: { emailHtml: true },
				reportBranding: { agencyName: '<b>Acme</b> & Co', accentColor: '#112233' },
			}),
		);
		expect(item.you).toBe(`${YOU} 70 (decent)`);
		expect(item.competitors).toBe(`${RIVAL} 88, ahead by 18; ${OTHER} 68, tie (−2)`);
		expect(String(item.they_lead_on).split('; ')[0]).toBe(
			'meta_description (high): you fail, 2 of 2 pass',
		);
		expect(item.checks).not.toMatch(/doctype/);
		const html = String(item.summary_html);
		expect(html).toContain('&#60;b&#62;Acme&#60;/b&#62; &#38; Co');
		expect(html).not.toMatch(/<script|<b>Acme/);
		expect(html).toContain('Your competitors pass 2 high checks you fail');
		expect(html).toContain('#112233');
	});

	it('answers an AI tool with a short text to read aloud', async () => {
		scriptAnalyses();
		const tool = toolNode('compare_with_competitors', {
			resource: 'report',
			operation: 'compare',
			yourUrl: "={{ $fromAI('url', 'Your page', 'string') }}",
			competitors: {
				competitor: [
					{ url: "={{ $fromAI('competitors', 'Competitor pages, comma-separated', 'string') }}" },
				],
			},
		});
		const { tools, results, error } = await callTool(tool, api.credential, {
			url: YOU,
			competitors: `${RIVAL}, ${OTHER}`,
		});
		expect(error).toBeUndefined();
		expect(tools[0].description).toMatch(/^Compare the SEO of one web page with competitors/);
		const [answer] = JSON.parse(results[0]) as IDataObject[];
		expect(Object.keys(answer)).toEqual(['comparison']);
		const text = String(answer.comparison);
		expect(text.split('\n')[0]).toBe(
			'Your competitors pass 2 high checks you fail: meta_description (2 of 2), title (1 of 2).',
		);
		expect(text).not.toContain('http://127.0.0.1');
		expect(text.length).toBeLessThan(600);
	});
});

describe('Project → Get Health → Compare With', () => {
	const api = useServer();
	beforeEach(() => api.server.deleteAllReports());

	const health = (extra: IDataObject = {}) =>
		healthParameters('shop.example.com', {
			compareWith: {
				site: [
					{ project: locator('list', 'rival.example.org') },
					{ project: locator('name', 'other.example.net') },
				],
			},
			...extra,
		});

	function seed() {
		const add = (url: string, result: number) => api.server.addReport({ url, result });
		add('https://shop.example.com/', 70);
		add('https://shop.example.com/a', 74);
		add('https://rival.example.org/', 80);
		add('https://rival.example.org/b', 82);
		add('https://other.example.net/', 75);
	}

	const SITES = ['shop.example.com', 'rival.example.org', 'other.example.net'];
	/** A check's share of failing pages on a site, from the server's own reports. */
	const share = (project: string, check: string) => {
		const reports = api.server.listReports().filter((r) => r.project === project);
		const failing = reports.filter((r) => r.results[check] && !r.results[check].passed).length;
		return Math.round((failing / reports.length) * 100);
	};

	it('puts other projects beside the chosen one from their report lists alone: one list read each, no analysis', async () => {
		seed();
		const item = await api.first(health({ simplify: false }));
		const requests = api.apiRequests();
		expect(requests.map((r) => `${r.method} ${String(r.query.project)}`).sort()).toEqual([
			'GET other.example.net',
			'GET rival.example.org',
			'GET shop.example.com',
		]);
		expect(item).toMatchObject({ project: 'shop.example.com', average_score: 72 });
		expect(item.compared_with).toEqual([
			expect.objectContaining({
				project: 'rival.example.org',
				average_score: 81,
				pages: 2,
				gap: 9,
				verdict: 'ahead',
			}),
			expect.objectContaining({
				project: 'other.example.net',
				average_score: 75,
				pages: 1,
				gap: 3,
				verdict: 'tie',
			}),
		]);
		const shares = item.check_shares as Array<{ check: string; failing_share: IDataObject }>;
		expect(shares.length).toBeGreaterThan(0);
		for (const { check, failing_share } of shares)
			expect(failing_share).toEqual(
				Object.fromEntries(SITES.map((site) => [site, share(site, check)])),
			);
		expect(String(item.summary_text).split('\n').pop()).toMatch(
			/^Beside: rival\.example\.org 81 \(ahead by 9, health \d+\); other\.example\.net 75 \(tie \(\+3\), health \d+\)\.$/,
		);
	});

	it('refuses a Tie Within out of bounds before any request', async () => {
		seed();
		await api.refuses(
			health({ siteOptions: { tieWithin: -1 } }),
			/Site Options → Tie Within \(Points\) must be a number/,
		);
	});
});

describe('Compare With Competitors over time: History Store → Data Table', () => {
	const api = useServer();
	const n8n = useN8nApi();
	let executions = 0;
	beforeEach(() => {
		api.reset();
		n8n.reset();
		executions = 0;
	});

	const over = async (mode: 'webhook' | 'manual', competitors = [RIVAL, OTHER]) => {
		n8n.api.requests.length = 0;
		const execution = { mode, id: String(++executions), n8nApi: n8n.credential };
		return await api.first(
			compare(competitors, {
				simplify: false,
				reuseHours: 0,
				historyStore: 'dataTable',
				historyTable: locator('name', 'phpRank comparisons'),
			}),
			{ execution },
		);
	};
	/** The next analysis scores of YOU, RIVAL and OTHER. */
	const scores = (...score: number[]) =>
		[YOU, RIVAL, OTHER].forEach((url, i) => api.server.setNextAnalysis(url, { score: score[i] }));
	const changes = (item: IDataObject) =>
		(item.competitors as IDataObject[]).map((c) => [c.gap, c.previous_gap, c.gap_change]);

	it('keeps each page as a site of the table, and says gap_change and overtaken_by since the previous production comparison', async () => {
		// The first comparison: nothing before it, so no one overtook you, though OTHER is ahead.
		scores(70, 68, 80);
		const first = await over('webhook');
		expect(first).toMatchObject({ history_saved: true, overtaken_by: [] });
		expect(changes(first)).toEqual([
			[-2, null, null],
			[10, null, null],
		]);
		const [table] = n8n.api.tables.all();
		expect(
			n8n.api.tables
				.rows(table.id)
				.map((row) => [row.site, row.average_score, row.pages])
				.sort(),
		).toEqual([
			['other.example.net/', 80, 1],
			['rival.example.org/pricing', 68, 1],
			['shop.example.com/pricing', 70, 1],
		]);

		// The rival moves from a tie (−2) to ahead (+10): overtaken.
		scores(70, 80, 65);
		const second = await over('webhook');
		expect(changes(second)).toEqual([
			[10, -2, 12],
			[-5, 10, -15],
		]);
		expect(second.overtaken_by).toEqual([RIVAL]);
		expect(String(second.summary_text).split('\n')[1]).toBe(
			`Overtaken since the last comparison by ${RIVAL}.`,
		);
		// n8n's API: the table found, the rows read once, one upsert per page.
		expect(
			n8n.api.requests.map(
				(r) => `${r.method} ${r.path.replace(/\/data-tables\/[^/]+/, '/data-tables/T')}`,
			),
		).toEqual([
			'GET /api/v1/data-tables',
			'GET /api/v1/data-tables/T/rows',
			'POST /api/v1/data-tables/T/rows/upsert',
			'POST /api/v1/data-tables/T/rows/upsert',
			'POST /api/v1/data-tables/T/rows/upsert',
		]);

		// Still ahead: no news; a competitor added since, already ahead, is. A manual run writes nothing.
		scores(70, 81, 65);
		api.server.setNextAnalysis(NEW, { score: 90 });
		const third = await over('manual', [RIVAL, OTHER, NEW]);
		expect(third.overtaken_by).toEqual([NEW]);
		expect(String(third.summary_text).split('\n')[1]).toBe(
			`New to the comparison and ahead of you: ${NEW}.`,
		);
		expect(changes(third)[0]).toEqual([11, 10, 1]);
		expect(third.history_saved).toBe(false);
		expect(n8n.api.tables.rows(table.id)).toHaveLength(6);
	});
});
