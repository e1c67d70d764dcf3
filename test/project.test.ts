import type { IDataObject } from 'n8n-workflow';

import { USER_IDS } from './server';
import { listSearch } from './harness/engine';
import { locator, useServer } from './harness/setup';

const hosts = Array.from(
	{ length: 230 },
	(_, i) => `site-${String(i + 1).padStart(3, '0')}.example.com`,
);

describe('Project → Get Many', () => {
	// 230 projects (one per host), the first 30 with two reports.
	const api = useServer({
		seed: (server) => {
			server.seedReports(230, { hosts });
			server.seedReports(30, { hosts: hosts.slice(0, 30) });
		},
	});
	const getAll = (parameters: IDataObject) =>
		api.ok({ resource: 'project', operation: 'getAll', ...parameters });
	const queries = () => api.apiRequests().map((request) => request.query);

	it('Return All fetches every page with per_page=100, one item per project', async () => {
		const items = await getAll({ returnAll: true });
		expect(queries()).toEqual([1, 2, 3].map((page) => ({ per_page: '100', page: String(page) })));
		expect(items).toHaveLength(230);
		expect(new Set(items.map((i) => i.json.project)).size).toBe(230);
		const twice = items.find((i) => i.json.project === hosts[0])!.json;
		expect(twice).toMatchObject({ project: hosts[0], reports: 2 });
		const sum = api.server
			.listReports()
			.filter((r) => r.project === hosts[0])
			.reduce((total, r) => total + r.result, 0);
		expect(twice.average_score).toBeCloseTo(sum / 2, 1);
		// Simplified: a site's health, not phpRank's sum of scores.
		expect(Object.keys(twice)).toEqual([
			'project',
			'reports',
			'average_score',
			'result_class',
			'first_created_at',
		]);
		expect(['good', 'decent', 'bad']).toContain(twice.result_class);
	});

	it('keeps search and sort on every page', async () => {
		const items = await getAll({
			returnAll: true,
			filters: { search: 'site-1', searchBy: 'project' },
			options: { sortBy: 'project', sortDirection: 'asc', pageSize: 25 },
		});

		const expected = hosts.filter((h) => h.includes('site-1')).sort();
		expect(items.map((i) => i.json.project)).toEqual(expected);
		expect(queries()).toHaveLength(Math.ceil(expected.length / 25));
		const query = { search: 'site-1', search_by: 'project', sort_by: 'project', sort: 'asc' };
		expect(queries()).toEqual(
			queries().map((_, index) => ({ ...query, per_page: '25', page: String(index + 1) })),
		);
	});

	it.each([
		[11, 25, 1],
		[250, 100, 3],
	])(
		'Limit %i asks per_page=%i in %i request(s) and returns min(limit, total)',
		async (limit, perPage, requests) => {
			const items = await getAll({ limit });

			expect(items).toHaveLength(Math.min(limit, 230));
			expect(queries()).toHaveLength(requests);
			expect(new Set(queries().map((q) => q.per_page))).toEqual(new Set([String(perPage)]));
		},
	);

	it('sends Date Created sorting as created_at', async () => {
		await getAll({ limit: 3, options: { sortBy: 'created_at', sortDirection: 'desc' } });
		expect(queries()).toEqual([{ sort_by: 'created_at', sort: 'desc', per_page: '10', page: '1' }]);
	});
});

describe('Project → Delete', () => {
	const awkwardNames = [
		['a slash', 'a/b'],
		['dots', 'a..b'],
		['a dot segment and a slash', '../b'],
		['a question mark', 'what?x=1'],
		['a hash', 'anchor#top'],
		['a percent sign', '50%off'],
		['an encoded slash', 'a%2Fb'],
		['spaces', 'my site'],
		['non-ASCII', 'bäckerei-müller.de'],
		['reports/1 look-alike', '../reports/1'],
	];
	const api = useServer();
	const remove = (project: IDataObject) => ({ resource: 'project', operation: 'delete', project });

	it.each(awkwardNames)(
		'a name with %s reaches exactly DELETE /api/v1/projects/<encoded name>',
		async (_what, name) => {
			api.server.addReport({ url: 'https://keep.example.com/' });
			api.server.addReport({ url: `https://${encodeURIComponent(name)}.invalid/`, project: name });
			api.server.addReport({ url: 'https://twin.example.com/', project: name });
			const before = api.server.listReports().length;

			const items = await api.ok(remove(locator('name', name)));
			expect(api.apiRequests().map((r) => [r.method, r.path])).toEqual([
				['DELETE', `/api/v1/projects/${encodeURIComponent(name)}`],
			]);
			expect(items.map((i) => i.json)).toEqual([{ deleted: true, project: name }]);
			expect(api.server.listReports().filter((r) => r.project === name)).toEqual([]);
			expect(api.server.listReports()).toHaveLength(before - 2);
		},
	);

	it('deletes the project picked from the list, with all its reports', async () => {
		api.server.seedReports(3, { hosts: ['gone.example.net'] });
		const items = await api.ok(remove(locator('list', 'gone.example.net')));

		expect(items[0].json).toEqual({ deleted: true, project: 'gone.example.net' });
		expect(api.server.listReports().some((r) => r.project === 'gone.example.net')).toBe(false);
	});

	it.each([
		['an empty', '={{ "" }}'],
		['a blank', '={{ "   " }}'],
		['an object', '={{ { name: "example.com" } }}'],
		['a dot-segment', '..'],
		['a single-dot', '.'],
	])('refuses %s project name before sending anything', async (_what, value) => {
		await api.refuses(
			remove(locator('name', value)),
			/^(The project name is empty|Project must be text, but the expression gave an object|"\.\.?" cannot be a project name)$/,
		);
	});

	it('names the project that was not found', async () => {
		const { error } = await api.run(remove(locator('name', 'nope.example')));

		expect(error?.message).toBe('Project "nope.example" was not found (HTTP 404)');
		expect(error?.description).toMatch(/Check the project name/);
	});
});

describe('Pickers (From List)', () => {
	const api = useServer({
		seed: (server) => {
			server.seedReports(130, { hosts });
			server.seedReports(2, { userId: USER_IDS.other, hosts: ['not-mine.example'] });
		},
	});

	const nextPage = (token?: string) =>
		listSearch('searchReports', api.credential, undefined, token);

	/** The API as another client uses it. */
	async function apiCall(path: string, method = 'GET'): Promise<unknown> {
		const response = await fetch(`${api.server.url}/api/v1${path}`, {
			method,
			headers: { Authorization: `Bearer ${api.credential.apiKey}`, Accept: 'application/json' },
		});
		return (await response.json()) as unknown;
	}

	it('lists reports newest first, 100 a page, with a token for the next page', async () => {
		const first = await listSearch('searchReports', api.credential);
		const ids = api.server
			.listReports(USER_IDS.default)
			.map((r) => r.id)
			.sort((a, b) => b - a);

		expect(first.results).toHaveLength(100);
		expect(first.results.map((r) => r.value)).toEqual(ids.slice(0, 100).map(String));
		expect(first.results[0].name).toMatch(
			new RegExp(
				`^site-\\d{3}\\.example\\.com.* \\(score \\d+, (good|decent|bad) · #${ids[0]}\\)$`,
			),
		);
		expect(first.results[0].url).toBe(`${api.server.url}/reports/${ids[0]}`);
		expect(first.paginationToken).toEqual(expect.any(String));

		const second = await nextPage(first.paginationToken);
		expect(second.results.map((r) => r.value)).toEqual(ids.slice(100).map(String));
		expect(second.paginationToken).toBeUndefined();
		expect(api.calls()).toEqual(
			[1, 2].map((page) => `GET /api/v1/reports?sort_by=id&sort=desc&per_page=100&page=${page}`),
		);
	});

	it('shows no report twice when one is created while the user scrolls', async () => {
		const first = await listSearch('searchReports', api.credential);
		const created = api.server.addReport({ url: 'https://example.com/new' });

		const second = await nextPage(first.paginationToken);

		const shown = [...first.results, ...second.results].map((r) => r.value);
		expect(new Set(shown).size).toBe(shown.length);
		expect(shown).toHaveLength(130);
		expect(shown).not.toContain(String(created.id));
		await apiCall(`/reports/${created.id}`, 'DELETE');
	});

	it('stops with a clear error when the instance answers page 1 again (a cache ignoring ?page=)', async () => {
		const first = await listSearch('searchReports', api.credential);
		api.server.clearRequests();
		const pageOne = await apiCall('/reports?sort_by=id&sort=desc&per_page=100&page=1');
		api.server.failNext({ type: 'status', status: 200, body: pageOne });

		await expect(nextPage(first.paginationToken)).rejects.toThrow(
			'phpRank answered page 1 again when asked for page 2: a cache or proxy in front of it may ignore the page parameter',
		);
	});

	it('searches reports by URL', async () => {
		const found = await listSearch('searchReports', api.credential, ' site-007 ');

		expect(api.apiRequests()[0].query).toMatchObject({ search: 'site-007', search_by: 'url' });
		expect(found.results.length).toBeGreaterThan(0);
		expect(found.results.every((r) => r.name.includes('site-007'))).toBe(true);
	});

	it('lists and searches projects by name, paging through more than one page', async () => {
		const pages = [];
		let token: string | undefined;
		do {
			const page = await listSearch('searchProjects', api.credential, undefined, token);
			pages.push(...page.results);
			token = page.paginationToken;
		} while (token);

		const projects = hosts.slice(0, 130).sort();
		expect(pages.map((p) => p.value)).toEqual(projects);
		expect(pages[0].name).toBe(`${projects[0]} (1 report)`);
		expect(api.apiRequests()).toHaveLength(2);

		api.server.clearRequests();
		const found = await listSearch('searchProjects', api.credential, 'site-12');
		expect(api.calls()).toEqual([
			'GET /api/v1/projects?sort_by=project&sort=asc&search=site-12&search_by=project&per_page=100&page=1',
		]);
		expect(found.results.map((p) => p.value)).toEqual(
			projects.filter((h) => h.includes('site-12')),
		);
		expect(found.results).toHaveLength(10);
	});
});
