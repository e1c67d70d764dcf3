/** What the test server's analyses return when a test sets them, its lists for monitoring, the sample server. */
import { CHECK_NAMES, OTHER_USER_KEY, PhpRankServer, USER_IDS } from './index';
import {
	boot,
	bootEach,
	create,
	dataOf,
	DATE,
	del,
	list,
	send,
	server,
	type ProjectBody,
	type ReportBody,
} from './client';
import { startSampleServer } from './sample';
import { DEFAULT_HOSTS } from './server';

bootEach();

describe('setting what an analysis returns', () => {
	beforeEach(() => boot({ throttle: false }));

	const rerun = (id: number): Promise<ReportBody> =>
		dataOf(send('PUT', `/reports/${id}`, { results: '1' }));
	const failing = (report: { results: ReportBody['results'] }): string[] =>
		Object.entries(report.results)
			.filter(([, check]) => !check.passed)
			.map(([name]) => name);
	/** The weight of the checks (high 10, medium 6, low 3), worked out here rather than with the server's scoreOf. */
	const weightOf = (checks: ReportBody['results'][string][]): number =>
		checks.reduce((sum, check) => sum + { high: 10, medium: 6, low: 3 }[check.importance], 0);
	const expectedTotal = (report: ReportBody): number => weightOf(Object.values(report.results));
	/** The weighted share of passed checks. */
	const expectedScore = (results: ReportBody['results']): number => {
		const checks = Object.values(results);
		return Math.round((weightOf(checks.filter((check) => check.passed)) / weightOf(checks)) * 100);
	};

	it('the next re-run of exactly that url, whatever its scheme, www. or trailing slash, and only once', async () => {
		const page = server.addReport({
			url: 'https://example.com/blog',
			generated_at: '2026-01-01T00:00:00Z',
		});
		const deeper = server.addReport({ url: 'https://example.com/blog/more' });
		const sub = server.addReport({ url: 'https://shop.example.com/blog' });
		const spec = { score: 42, failed: ['title', 'robots'] };
		expect(server.setNextAnalysis('http://WWW.Example.com/blog/', spec)).toBe(1);
		expect(server.pendingAnalyses()).toEqual({ next: { 'example.com/blog': 1 }, persistent: [] });

		for (const other of [deeper, sub])
			expect(failing(await rerun(other.id))).not.toEqual(['title', 'robots']);
		expect((await send('PUT', `/reports/${page.id}`, { privacy: '1' })).status).toBe(200); // no re-run, nothing used
		expect(server.pendingAnalyses().next).toEqual({ 'example.com/blog': 1 });

		const data = await rerun(page.id);
		expect(data.result).toBe(42);
		expect(Object.keys(data.results)).toEqual(CHECK_NAMES);
		expect(failing(data)).toEqual(['title', 'robots']);
		for (const name of spec.failed) expect(data.results[name].errors).toEqual(expect.any(Object));
		expect(data.results.favicon).toEqual({
			passed: true,
			importance: 'medium',
			value: 'https://example.com/favicon.ico',
		});
		expect(data.generated_at).not.toBe(page.generated_at);
		expect(data.generated_at).toMatch(DATE);
		expect(data.updated_at).toBe(data.generated_at);
		expect(server.getReport(page.id)).toMatchObject({
			result: 42,
			results: data.results,
			generated_at: data.generated_at,
		});
		expect(server.pendingAnalyses()).toEqual({ next: {}, persistent: [] });

		const next = await rerun(page.id);
		expect(failing(next)).not.toEqual(['title', 'robots']);
		expect(next.result).toBe(expectedScore(next.results));
	});

	it('the next create of that url; a create that cannot fetch the site leaves it queued', async () => {
		server.setNextAnalysis('example.com/new', { failed: [] });
		server.setNextAnalysis('https://down.invalid/', { score: 5 });
		expect((await send('POST', '/reports', { url: 'https://down.invalid' })).status).toBe(422);
		const data = await create({ url: 'https://www.example.com/new/' });
		expect(data).toMatchObject({ url: 'example.com/new', result: 100 });
		expect(failing(data)).toEqual([]);
		expect(data.generated_at).toBe(data.created_at);
		expect(server.pendingAnalyses().next).toEqual({ 'down.invalid': 1 });
	});

	it('without a score, computes result from the checks; failed alone passes the rest, passed alone fails it, both keep it', async () => {
		const report = server.addReport({ url: 'https://example.com/' });
		server.setNextAnalysis(report.url, { failed: ['title', 'dom_size'] });
		const one = await rerun(report.id);
		expect(failing(one)).toEqual(['title', 'dom_size']);
		expect(one.result).toBe(expectedScore(one.results));
		expect(one.result).toBe(Math.round(((expectedTotal(one) - 13) / expectedTotal(one)) * 100));

		server.setNextAnalysis(report.url, { passed: ['title'] });
		const two = await rerun(report.id);
		expect(failing(two)).toEqual(CHECK_NAMES.filter((name) => name !== 'title'));
		expect(two.result).toBe(Math.round((10 / expectedTotal(two)) * 100));

		server.setNextAnalysis(report.url, { failed: ['headings'], passed: ['title', 'favicon'] });
		const three = await rerun(report.id);
		expect(failing(three)).toEqual(
			CHECK_NAMES.filter((name) => !['title', 'favicon'].includes(name)),
		);
		expect(three.results.headings).toEqual(two.results.headings);
		expect(three.results.robots).toEqual(two.results.robots);
		expect(three.results.favicon.passed).toBe(true);
		expect(three.results.favicon.errors).toBeUndefined();

		// Fixed: title newly fails; nothing else moves (the precise "changes" a monitor reports).
		server.setNextAnalysis(report.url, { failed: [] });
		const before = await rerun(report.id);
		server.setNextAnalysis(report.url, { failed: ['title'], others: 'keep' });
		const after = await rerun(report.id);
		expect(failing(after)).toEqual(['title']);
		for (const name of CHECK_NAMES.filter((check) => check !== 'title'))
			expect(after.results[name]).toEqual(before.results[name]);
		expect(before.result - after.result).toBe(before.result - expectedScore(after.results));

		server.setNextAnalysis(report.url, { failed: ['title'], others: 'random' });
		const random = await rerun(report.id);
		expect(random.results.title.passed).toBe(false);
		expect(failing(random).length).toBeGreaterThan(1);
	});

	it('queues next analyses in order before a persistent one, which applies to every run until cleared', async () => {
		const report = server.addReport({ url: 'https://example.com/pricing' });
		server.setAnalysis('https://www.example.com/pricing', { score: 70, failed: ['favicon'] });
		expect(server.setNextAnalysis(report.url, { score: 90 })).toBe(1);
		expect(server.setNextAnalysis(report.url, { score: 10 })).toBe(2);
		expect(server.pendingAnalyses()).toEqual({
			next: { 'example.com/pricing': 2 },
			persistent: ['example.com/pricing'],
		});
		const scores: number[] = [];
		for (let i = 0; i < 4; i++) scores.push((await rerun(report.id)).result);
		expect(scores).toEqual([90, 10, 70, 70]);
		// A create of the url uses the persistent one too.
		const created = await create({ url: 'http://example.com/pricing' });
		expect(created.result).toBe(70);
		expect(failing(created)).toEqual(['favicon']);

		expect(server.clearAnalyses()).toBe(1);
		expect(server.pendingAnalyses()).toEqual({ next: {}, persistent: [] });
		const free = await rerun(report.id);
		expect(free.result).toBe(expectedScore(free.results));
		server.setNextAnalysis('a.example', {});
		server.setAnalysis('b.example', {});
		expect(server.clearAnalyses()).toBe(2);
	});

	it('score alone fixes result; an unknown check name throws; results are used as given; generatedAt sets generated_at', async () => {
		const report = server.addReport({ url: 'https://example.com/x' });
		server.setNextAnalysis(report.url, { score: 63 });
		expect((await rerun(report.id)).result).toBe(63);

		const results = {
			title: { passed: true, importance: 'high' as const, value: 'Home' },
			custom_check: { passed: true, importance: 'low' as const, value: 1 },
		};
		expect(() => server.setNextAnalysis(report.url, { failed: ['titel'] })).toThrow(
			'PhpRankServer: unknown check titel',
		);
		server.setNextAnalysis(report.url, { results, generatedAt: '2026-02-01T10:00:00Z' });
		results.title.passed = false; // the spec was copied when it was set
		const data = await rerun(report.id);
		expect(data.results).toEqual({
			title: { passed: true, importance: 'high', value: 'Home' },
			custom_check: { passed: true, importance: 'low', value: 1 },
		});
		expect(data.result).toBe(100);
		expect(data.generated_at).toBe('2026-02-01T10:00:00.000000Z');
		expect(data.updated_at).not.toBe(data.generated_at);
	});
});

describe('report list for monitoring', () => {
	beforeEach(() => boot({ throttle: false }));

	it('combines an exact project with search, result class, sort_by=id and paging, and follows deletes', async () => {
		const hosts = ['example.com', 'blog.example.com', 'example.com.au'];
		server.seedReports(600, { hosts });
		server.seedReports(5, { hosts, userId: USER_IDS.other });
		const expected = server
			.listReports(USER_IDS.default)
			.filter((r) => r.project === 'example.com' && r.url.includes('blog') && r.result > 79)
			.map((r) => r.id);
		expect(expected.length).toBeGreaterThan(10);
		const query = 'project=example.com&search=blog&result=good&sort_by=id&sort=asc&per_page=10';
		const first = await list(`/reports?${query}`);
		expect(first.meta).toMatchObject({
			total: expected.length,
			per_page: 10,
			last_page: Math.ceil(expected.length / 10),
		});
		expect(first.links.next).toBe(`${server.url}/api/v1/reports?${query}&page=2`);
		const ids: number[] = [];
		for (let page = 1; page <= first.meta.last_page; page++)
			ids.push(...(await list(`/reports?${query}&page=${page}`)).data.map((r) => r.id));
		expect(ids).toEqual(expected);

		server.deleteReport(expected[0]);
		expect((await list(`/reports?${query}`)).meta.total).toBe(expected.length - 1);
		expect((await del('/projects/example.com')).status).toBe(200);
		expect((await list('/reports?project=example.com')).meta.total).toBe(0);
		expect(
			(await list('/reports?project=example.com', { key: OTHER_USER_KEY })).meta.total,
		).toBeGreaterThan(0);
		server.seedReports(2, { hosts: ['example.com'] });
		expect((await list('/reports?project=example.com')).meta.total).toBe(2);
		server.deleteAllReports();
		expect((await list('/reports?project=example.com', { key: OTHER_USER_KEY })).meta.total).toBe(
			0,
		);
	});

	it('returns copies from seedReports: changing one does not change the store', () => {
		const [report] = server.seedReports(1);
		const stored = server.getReport(report.id);
		report.results.title.passed = !report.results.title.passed;
		report.results = {};
		expect(server.getReport(report.id)).toEqual(stored);
		expect(new PhpRankServer().seedReports(1)[0].results).toEqual(stored?.results);
	});
});

describe('sample server', () => {
	it('holds about 30 reports over six hosts with good, decent and bad scores', async () => {
		await boot(startSampleServer);
		const reports = server.listReports(USER_IDS.default);
		expect(reports).toHaveLength(30);
		expect(new Set(reports.map((r) => r.project))).toEqual(new Set(DEFAULT_HOSTS));
		const classes = new Set(
			reports.map((r) => (r.result > 79 ? 'good' : r.result >= 49 ? 'decent' : 'bad')),
		);
		expect(classes).toEqual(new Set(['good', 'decent', 'bad']));
		expect(server.listReports(USER_IDS.other).length).toBeGreaterThan(0);
		expect((await list<ProjectBody>('/projects')).meta.total).toBe(6);
	});
});
