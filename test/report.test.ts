import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { description as getAllDescription } from '../nodes/PhpRank/descriptions/report/getAll.operation';
import { locator, useServer, type ServerFixture } from './harness/setup';

const description: INodeProperties[] = getAllDescription;
const reportKeys =
	'id url project score result_class failed_high failed_medium failed_low top_failed_checks privacy generated_at created_at updated_at link';

/** The queries of `count` list pages of `perPage`, with `query` on each. */
const pages = (perPage: number, count: number, query: IDataObject = {}) =>
	Array.from({ length: count }, (_, i) => ({
		...query,
		per_page: String(perPage),
		page: String(i + 1),
	}));

/** The next answer of the server: HTTP 200 with `data`, as phpRank wraps it. */
const answerNext = (api: ServerFixture, data: unknown) =>
	api.server.failNext({ type: 'status', status: 200, body: { data, status: 200 } });

/** 250 reports over 5 hosts (three pages of 100), with Get Many and what it sent. */
function useReports() {
	const api = useServer({ seed: (server) => server.seedReports(250) });
	const newestFirst = () => api.server.listReports().sort((a, b) => b.id - a.id);
	return {
		api,
		/** Get Many's items, the run expected to succeed. */
		getAll: (parameters: IDataObject, items?: IDataObject[]) =>
			api.ok({ resource: 'report', operation: 'getAll', ...parameters }, { items }),
		queries: () => api.apiRequests().map((request) => request.query),
		newestFirst,
		/** The IDs of the `count` newest reports. */
		newest: (count: number) =>
			newestFirst()
				.slice(0, count)
				.map((r) => r.id),
	};
}

describe('Report → Get Many', () => {
	const { api, getAll, queries, newest } = useReports();

	it('Return All fetches every page with per_page=100', async () => {
		const items = await getAll({ returnAll: true });
		expect(queries()).toEqual(pages(100, 3));
		expect(items).toHaveLength(250);
		const ids = items.map((item) => item.json.id);
		expect(new Set(ids).size).toBe(250);
		expect(ids).toEqual([...ids].sort((a, b) => Number(b) - Number(a)));
		expect(Object.keys(items[0].json).join(' ')).toBe(reportKeys);
	});

	it('keeps every filter and the sort on every page', async () => {
		const project = api.server.listReports()[0].project;
		const expectedCount = api.server
			.listReports()
			.filter((r) => r.project === project && r.result < 80).length;
		const items = await getAll({
			returnAll: true,
			filters: { project: locator('name', project), search: project.slice(0, 4), searchBy: 'url' },
			options: { pageSize: 10, sortBy: 'result', sortDirection: 'asc' },
		});
		const allOfProject = api.server.listReports().filter((r) => r.project === project).length;
		expect(items).toHaveLength(allOfProject);
		expect(expectedCount).toBeLessThan(allOfProject + 1);
		expect(queries().length).toBeGreaterThanOrEqual(3);
		expect(queries()).toEqual(
			pages(10, Math.ceil(allOfProject / 10), {
				project,
				search: project.slice(0, 4),
				search_by: 'url',
				sort_by: 'result',
				sort: 'asc',
			}),
		);
		const scores = items.map((item) => item.json.score as number);
		expect(scores).toEqual([...scores].sort((a, b) => a - b));
	});

	it.each([
		[1, 10, 1],
		[10, 10, 1],
		[11, 25, 1],
		[100, 100, 1],
		[101, 100, 2],
		[250, 100, 3],
	])(
		'Limit %i returns exactly that many with per_page=%i in %i request(s)',
		async (limit, perPage, requests) => {
			const items = await getAll({ returnAll: false, limit });

			expect(items).toHaveLength(limit);
			expect(queries()).toHaveLength(requests);
			expect(queries().every((query) => query.per_page === String(perPage))).toBe(true);
			expect(items.map((item) => item.json.id)).toEqual(newest(limit));
		},
	);

	it('Limit above the total returns all reports, without asking for an empty page', async () => {
		const bad = api.server.listReports().filter((r) => r.result < 49).length;
		const items = await getAll({ limit: 1000, filters: { result: 'bad' } });

		expect(items).toHaveLength(bad);
		expect(queries()).toHaveLength(Math.ceil(bad / 100));
		expect(
			items.every((item) => item.json.result_class === 'bad' && (item.json.score as number) < 49),
		).toBe(true);
	});

	it.each([
		[{ returnAll: true, options: { pageSize: 50 } }, 250, pages(50, 5)],
		[{ limit: 60, options: { pageSize: 25 } }, 60, pages(25, 3)],
	])('a Page Size chosen is used on every page: %j', async (parameters, count, sent) => {
		expect(await getAll(parameters)).toHaveLength(count);
		expect(queries()).toEqual(sent);
	});

	it.each([
		['good', (score: number) => score > 79],
		['decent', (score: number) => score >= 49 && score <= 79],
		['bad', (score: number) => score < 49],
	])('filters by result %s, each report carrying its score and class', async (result, inClass) => {
		const items = await getAll({ returnAll: true, filters: { result } });

		expect(queries()[0]).toMatchObject({ result });
		expect(items.length).toBeGreaterThan(0);
		for (const { json } of items) {
			expect(json.result_class).toBe(result);
			expect(inClass(json.score as number)).toBe(true);
		}
	});

	it.each([
		...['id', 'url', 'result'].flatMap((by) => ['asc', 'desc'].map((to) => [by, to, by])),
		// A workflow saved with the former Date Generated: Date Created, which phpRank used anyway.
		['generated_at', 'desc', 'id'],
	])('sends Sort By %s, %s as sort_by=%s', async (sortBy, sortDirection, sent) => {
		const items = await getAll({ limit: 5, options: { sortBy, sortDirection } });
		expect(queries()).toEqual([{ sort_by: sent, sort: sortDirection, per_page: '10', page: '1' }]);
		if (`${sent} ${sortDirection}` === 'id desc')
			expect(items.map((item) => item.json.id)).toEqual(newest(5));
	});

	it('sends search_by with Search only, and ignores a Search By saved by an older version', async () => {
		await getAll({ limit: 5, filters: { search: 'blog' } });
		await getAll({ limit: 5, filters: { searchBy: 'url' } });
		await getAll({ limit: 5, filters: { search: '  ', searchBy: 'url' } });

		expect(queries()).toEqual([
			{ search: 'blog', search_by: 'url', per_page: '10', page: '1' },
			{ per_page: '10', page: '1' },
			{ per_page: '10', page: '1' },
		]);
	});

	it('changes nothing when Result, Page Size or the score filters are added and left as they start', async () => {
		const [defaults, options] = ['filters', 'options'].map((name) => {
			const fields = description.find((p) => p.name === name)?.options as INodeProperties[];
			return Object.fromEntries(fields.map((p) => [p.name, p.default]));
		});
		expect(defaults).toMatchObject({ result: '', minScore: 0, maxScore: 100 });
		expect(options).toMatchObject({ pageSize: '' });

		const { result, minScore, maxScore } = defaults;
		const items = await getAll({
			limit: 7,
			filters: { result, minScore, maxScore },
			options: { pageSize: options.pageSize },
		});

		expect(queries()).toEqual([{ per_page: '10', page: '1' }]);
		expect(items.map((item) => item.json.id)).toEqual(newest(7));
	});

	it('returns no items, after one request, when nothing matches', async () => {
		const items = await getAll({ returnAll: true, filters: { search: 'no-such-site' } });
		expect(items).toEqual([]);
		expect(queries()).toEqual([
			{ search: 'no-such-site', search_by: 'url', per_page: '100', page: '1' },
		]);
	});

	it('returns full records with Simplify off', async () => {
		const items = await getAll({ limit: 1, simplify: false });
		const record = api.server.listReports().sort((a, b) => b.id - a.id)[0];

		expect(items[0].json).toMatchObject({
			id: record.id,
			url: record.url,
			result: record.result,
			score: record.result,
		});
		expect(Object.keys(items[0].json.results as object)).toEqual(Object.keys(record.results));
		expect(items[0].json.password).toBe(record.password !== null);
	});

	it('takes every parameter from expressions, per input item', async () => {
		const [first] = api.server.listReports();
		const items = await getAll(
			{
				returnAll: false,
				limit: '={{ $json.howMany }}',
				filters: { project: locator('name', '={{ $json.site }}'), result: '={{ $json.grade }}' },
			},
			[
				{ howMany: 2, site: first.project, grade: 'good' },
				{ howMany: 1, site: first.project, grade: 'bad' },
			],
		);

		expect(queries()).toEqual([
			{ project: first.project, result: 'good', per_page: '10', page: '1' },
			{ project: first.project, result: 'bad', per_page: '10', page: '1' },
		]);
		expect(items.map((i) => [i.json.result_class, i.pairedItem])).toEqual([
			['good', { item: 0 }],
			['good', { item: 0 }],
			['bad', { item: 1 }],
		]);
	});
});

describe('Report → Get Many by score range', () => {
	// Scores spread over 10-100, all three classes.
	const { api, getAll, queries, newestFirst } = useReports();
	const scoring = (min: number, max: number) =>
		newestFirst().filter((r) => r.result >= min && r.result <= max);
	const CLASS_SCORES: Record<string, [number, number]> = {
		good: [80, 100],
		decent: [49, 79],
		bad: [0, 48],
	};
	/** The pages of 100 a list of one class takes. */
	const classPages = (result: string) =>
		pages(100, Math.ceil(scoring(...CLASS_SCORES[result]).length / 100), { result });

	it.each<[string, string | null, IDataObject, [number, number]]>([
		['a range within one class (80 to 90)', 'good', { minScore: 80, maxScore: 90 }, [80, 90]],
		['a range within one class (49 to 79)', 'decent', { minScore: 49, maxScore: 79 }, [49, 79]],
		['a range within one class (0 to 48)', 'bad', { minScore: 0, maxScore: 48 }, [0, 48]],
		['a range within one class (10 to 20)', 'bad', { minScore: 10, maxScore: 20 }, [10, 20]],
		[
			'Minimum Score alone, Maximum Score left at 100, keeps the class it lies in:',
			'good',
			{ minScore: 95 },
			[95, 100],
		],
		[
			'the Result chosen by the user is kept, with the range inside it:',
			'good',
			{ result: 'good', minScore: 70, maxScore: 85 },
			[80, 85],
		],
		[
			'a range across classes (45 to 85), no result filter:',
			null,
			{ minScore: 45, maxScore: 85 },
			[45, 85],
		],
	])(
		'%s sends result=%s and Return All returns every report in the range',
		async (_what, result, filters, [min, max]) => {
			const items = await getAll({ returnAll: true, filters });
			expect(queries()).toEqual(result ? classPages(result) : pages(100, 3));
			expect(items.map((item) => item.json.id)).toEqual(scoring(min, max).map((r) => r.id));
			expect(items.length).toBeGreaterThan(0);
			const scores = items.map((item) => item.json.score as number);
			expect(scores.every((score) => score >= min && score <= max)).toBe(true);
		},
	);

	it('Limit 5 with a narrow range returns exactly 5 matching reports, reading as many pages as it takes', async () => {
		const decent = newestFirst().filter((r) => r.result >= 49 && r.result <= 79);
		const matching = decent.filter((r) => r.result >= 60 && r.result <= 64);
		const count = Math.ceil((decent.indexOf(matching[4]) + 1) / 10);
		expect(count).toBeGreaterThan(1);

		const items = await getAll({
			limit: 5,
			filters: { minScore: 60, maxScore: 64 },
			options: { pageSize: 10 },
		});
		expect(items.map((item) => item.json.id)).toEqual(matching.slice(0, 5).map((r) => r.id));
		expect(queries()).toEqual(pages(10, count, { result: 'decent' }));
	});

	it('without a Page Size, a Limit with a range asks for pages of 100', async () => {
		const items = await getAll({ limit: 5, filters: { minScore: 60, maxScore: 64 } });

		expect(items.map((item) => item.json.id)).toEqual(
			scoring(60, 64)
				.slice(0, 5)
				.map((r) => r.id),
		);
		expect(queries()).toEqual([{ result: 'decent', per_page: '100', page: '1' }]);
	});

	it('keeps a report known only by its class when the range holds its whole class', async () => {
		const data = [
			{ id: 2, url: 'a.example', result: 'good' },
			{ id: 1, url: 'b.example', result: 55 },
		];
		answerNext(api, data);
		const inside = await getAll({ limit: 10, filters: { minScore: 50 } });
		answerNext(api, data);
		const across = await getAll({ limit: 10, filters: { minScore: 50, maxScore: 90 } });

		expect(inside.map((item) => item.json.id)).toEqual([2, 1]);
		expect(across.map((item) => item.json.id)).toEqual([1]);
	});

	it.each([
		[{ minScore: 70, maxScore: 30 }, /^Minimum Score 70 is above Maximum Score 30$/],
		[{ minScore: -1 }, /^Minimum Score must be a number from 0 to 100, not "-1"$/],
		[{ maxScore: 150 }, /^Maximum Score must be a number from 0 to 100, not "150"$/],
		[{ maxScore: '={{ "lots" }}' }, /^Maximum Score must be a number from 0 to 100, not "lots"$/],
		[
			{ result: 'bad', minScore: 80 },
			/^Minimum Score 80 is above what Result: Bad allows \(below 49\)$/,
		],
		[
			{ result: 'decent', minScore: 85 },
			/^Minimum Score 85 is above what Result: Decent allows \(49 to 79\)$/,
		],
		[
			{ result: 'decent', maxScore: 40 },
			/^Maximum Score 40 is below what Result: Decent allows \(49 to 79\)$/,
		],
		[
			{ result: 'good', minScore: 10, maxScore: 79 },
			/^Maximum Score 79 is below what Result: Good allows \(above 79\)$/,
		],
	])('refuses %j before any request', async (filters, message) => {
		const error = await api.refuses(
			{ resource: 'report', operation: 'getAll', returnAll: true, filters },
			message,
		);
		expect(error.description).toMatch(/Score|Result/);
	});
});

describe('Report → Get, Create, Update, Delete', () => {
	const api = useServer({ seed: (server) => server.seedReports(5) });
	/** The node's items, the run expected to succeed. */
	const run = (parameters: IDataObject, items?: IDataObject[]) =>
		api.ok({ resource: 'report', ...parameters }, { items });
	/** Each request as sent: `METHOD /path?query body (content type)`, the parts it has. */
	const wire = () =>
		api
			.apiRequests()
			.map(
				(r) =>
					`${r.method} ${r.path}${r.rawQuery ? `?${r.rawQuery}` : ''}${r.rawBody ? ` ${r.rawBody} (${r.headers['content-type']})` : ''}`,
			);
	const FORM = '(application/x-www-form-urlencoded)';
	const get = (mode: string, value: string, extra: IDataObject = {}) =>
		run({ operation: 'get', reportId: locator(mode, value), ...extra });
	const update = (id: number, updateFields: IDataObject, extra: IDataObject = {}) =>
		run({ operation: 'update', reportId: locator('id', id), updateFields, ...extra });

	it.each([
		['the link of its page', (link: string) => link],
		[
			'with a trailing slash, a query and a fragment',
			(link: string) => `${link}/?tab=checks#title`,
		],
		['without the scheme', (link: string) => link.replace(/^https?:\/\//, '')],
		['as an expression', (link: string) => `={{ "${link}" }}`],
	])('Get By URL: %s resolves to the report', async (_what, as) => {
		const [record] = api.server.listReports();
		const items = await get('url', as(`${api.server.url}/reports/${record.id}`));
		expect(items[0].json.id).toBe(record.id);
		expect(wire()).toEqual([`GET /api/v1/reports/${record.id}`]);
	});

	it('Get By URL: a link to another instance is refused before any request (the same ID there is another report)', async () => {
		const error = await api.refuses(
			{
				resource: 'report',
				operation: 'get',
				reportId: locator('url', 'https://seo.other-agency.com/reports/1'),
			},
			/^Report \(By URL\): the link is to seo\.other-agency\.com, but the phpRank credential is for 127\.0\.0\.1:\d+$/,
		);
		expect(error.description).toMatch(/Paste the link of a report on 127\.0\.0\.1:\d+/);
	});

	it('Get fetches one report by ID and unwraps it', async () => {
		const record = api.server.listReports()[2];
		const items = await get('id', String(record.id));

		expect(wire()).toEqual([`GET /api/v1/reports/${record.id}`]);
		expect(items).toHaveLength(1);
		expect(items[0].json).toMatchObject({
			id: record.id,
			url: record.url,
			project: record.project,
			score: record.result,
		});
		expect(items[0].json).not.toHaveProperty('data');
	});

	it('Get accepts the ID picked from the list', async () => {
		const record = api.server.listReports()[0];
		const items = await get('list', String(record.id), { simplify: false });

		expect(items[0].json).toMatchObject({
			id: record.id,
			results: expect.any(Object),
			score: record.result,
		});
	});

	it('Create sends a url-encoded form with the default Private privacy, and returns the new report', async () => {
		const before = api.server.createdCount;
		const items = await run({
			operation: 'create',
			url: 'https://www.shop.example.org/pricing',
		});
		expect(wire()).toEqual([
			`POST /api/v1/reports url=https%3A%2F%2Fwww.shop.example.org%2Fpricing&privacy=1 ${FORM}`,
		]);
		expect(api.server.createdCount).toBe(before + 1);
		expect(items[0].json).toMatchObject({
			url: 'shop.example.org/pricing',
			project: 'shop.example.org',
			privacy: 'private',
		});
		expect(typeof items[0].json.score).toBe('number');
	});

	it('Create with Password privacy sends the password, and never outputs it', async () => {
		const secret = 'S3cret-Report-Pass';
		const items = await run({
			operation: 'create',
			url: 'http://example.com',
			privacy: 2,
			password: secret,
			simplify: false,
		});

		expect(api.apiRequests()[0].form).toEqual({
			url: 'http://example.com',
			privacy: '2',
			password: secret,
		});
		expect(items[0].json).toMatchObject({ privacy: 2, password: true });
		expect(JSON.stringify(items)).not.toContain(secret);
	});

	it('Update sends only the fields the user added', async () => {
		const record = api.server.listReports()[1];
		const items = await update(record.id, { privacy: 0 });

		expect(wire()).toEqual([`PUT /api/v1/reports/${record.id} privacy=0 ${FORM}`]);
		expect(items[0].json).toMatchObject({
			id: record.id,
			privacy: 'public',
			generated_at: record.generated_at,
		});
		// No re-run, no `changes` (what a re-run changed: monitoring.test.ts).
		expect(items[0].json.changes).toBeUndefined();
	});

	it('Update with Re-Run Analysis sends results=1 and returns the fresh analysis', async () => {
		const record = api.server.listReports()[3];
		const items = await update(record.id, { rerunAnalysis: true }, { simplify: false });

		// The report as it was is read first, for `changes`.
		expect(wire()).toEqual([
			`GET /api/v1/reports/${record.id}`,
			`PUT /api/v1/reports/${record.id} results=1 ${FORM}`,
		]);
		expect(items[0].json.generated_at).not.toBe(record.generated_at);
		expect(items[0].json.privacy).toBe(record.privacy);
	});

	it('Update to Password privacy sends privacy and password together', async () => {
		const record = api.server.listReports()[4];
		await update(record.id, { privacy: 2, password: 'pw-123' });

		expect(api.apiRequests()[0].form).toEqual({ privacy: '2', password: 'pw-123' });
		expect(api.server.getReport(record.id)?.password).toBe('pw-123');
	});

	it('Delete returns { deleted: true, id }', async () => {
		const record = api.server.addReport({ url: 'https://example.com/old' });
		const items = await run({ operation: 'delete', reportId: locator('id', String(record.id)) });

		expect(wire()).toEqual([`DELETE /api/v1/reports/${record.id}`]);
		expect(items.map((i) => i.json)).toEqual([{ deleted: true, id: record.id }]);
		expect(api.server.getReport(record.id)).toBeUndefined();
	});

	it('keeps a result class when the instance answers with a class instead of a score', async () => {
		answerNext(api, {
			id: 9,
			url: 'example.com',
			project: 'example.com',
			result: 'decent',
			results: {},
			privacy: 1,
		});
		const items = await get('id', '9');

		expect(items[0].json).toMatchObject({
			id: 9,
			score: null,
			result_class: 'decent',
			privacy: 'private',
		});
	});
});
