/**
 * The test server answers as phpRank's API does where no node test looks: paging fallbacks, sort
 * columns, the record's fields. Authentication, routes, filters, writes and deletes are asserted
 * through the node: credentials, reliability, report, project and underChange tests.
 */
import { CHECK_NAMES, PhpRankServer } from './index';
import { bootEach, brief, call, DATE, down, list, server, type ReportBody } from './client';

bootEach();

describe('report list', () => {
	const page30 = [down(30, 21), 1, 1, 10, 3, 10, 30];
	it.each<[number, string, unknown[]]>([
		[23, 'page=3', [[3, 2, 1], 3, 21, 23, 3, 10, 23]],
		[23, 'page=9', [[], 9, null, null, 3, 10, 23]],
		[0, '', [[], 1, null, null, 1, 10, 0]],
		// per_page other than 10/25/50/100, and a page that is no positive integer, fall back.
		[30, 'page=abc&per_page=7', page30],
		[30, 'page=0&per_page=1000', page30],
		[30, 'page=-2&per_page=', page30],
		[30, 'page=01', page30],
		[30, 'per_page=25', [down(30, 6), 1, 1, 25, 2, 25, 30]],
		[30, 'per_page=100', [down(30, 1), 1, 1, 30, 1, 100, 30]],
	])(
		'of %i reports, ?%s: ids, current_page, from, to, last_page, per_page, total',
		async (count, query, expected) => {
			server.seedReports(count);
			expect(brief(await list(`/reports?${query}`))).toEqual(expected);
		},
	);

	it('sorts by id, url and result only; generated_at and unknown values fall back to id', async () => {
		for (const [host, result, month] of [
			['b', 10, 3],
			['c', 90, 1],
			['a', 50, 2],
		] as const)
			server.addReport({
				url: `https://${host}.example`,
				result,
				generated_at: `2026-0${month}-01`,
			});
		const ids = async (query: string) => (await list(`/reports?${query}`)).data.map((r) => r.id);
		expect(await ids('')).toEqual([3, 2, 1]);
		expect(await ids('sort=asc')).toEqual([1, 2, 3]);
		expect(await ids('sort_by=url&sort=asc')).toEqual([3, 1, 2]);
		expect(await ids('sort_by=result')).toEqual([2, 3, 1]);
		expect(await ids('sort_by=generated_at&sort=asc')).toEqual([1, 2, 3]);
		expect(await ids('sort_by=created_at')).toEqual([3, 2, 1]);
		expect(await ids('sort=ASC')).toEqual([3, 2, 1]);
	});
});

describe('report record', () => {
	it('has the phpRank fields, never the password or the owner', async () => {
		const added = server.addReport({
			url: 'https://example.com/a',
			privacy: 2,
			password: 's3cret-pass',
		});
		const res = await call(`/reports/${added.id}`);
		const raw = await res.text();
		expect(raw).not.toContain('s3cret-pass');
		const { data, status } = JSON.parse(raw) as { data: ReportBody; status: number };
		expect(status).toBe(200);
		expect(Object.keys(data).join(' ')).toBe(
			'id url project result results privacy password generated_at created_at updated_at',
		);
		expect(data).toMatchObject({
			id: added.id,
			url: 'example.com/a',
			project: 'example.com',
			privacy: 2,
			password: true,
		});
		expect(Number.isInteger(data.result) && data.result >= 0 && data.result <= 100).toBe(true);
		expect(Object.keys(data.results)).toEqual(CHECK_NAMES);
		for (const check of Object.values(data.results)) {
			expect(typeof check.passed).toBe('boolean');
			expect(['high', 'medium', 'low']).toContain(check.importance);
			if (check.passed) expect(check.errors).toBeUndefined();
			else expect(check.errors).toEqual(expect.any(Object));
		}
		for (const date of [data.generated_at, data.created_at, data.updated_at])
			expect(date).toMatch(DATE);
	});

	it('generates the same data on every run', () => {
		const a = new PhpRankServer().seedReports(5);
		const b = new PhpRankServer().seedReports(5);
		expect(a).toEqual(b);
		expect(new Set(a.map((r) => r.result)).size).toBeGreaterThan(1);
	});
});
