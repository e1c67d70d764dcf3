/** The test server answers as phpRank's API does: authentication, routes, lists, records, writes. */
import {
	CHECK_NAMES,
	NO_API_PLAN_KEY,
	OTHER_USER_KEY,
	PhpRankServer,
	TEST_API_KEY,
	USER_IDS,
} from './index';
import {
	answer,
	boot,
	bootEach,
	brief,
	call,
	create,
	dataOf,
	DATE,
	del,
	down,
	laravel,
	limits,
	list,
	NOT_FOUND,
	refused,
	send,
	server,
	type ProjectBody,
	type ReportBody,
} from './client';
import { phpJson, type Paginated } from './laravel';

bootEach();

describe('authentication', () => {
	it('answers a missing or wrong key, or a scheme other than "Bearer ", with 401 JSON when the client accepts JSON', async () => {
		const lowerScheme = { key: null, headers: { Authorization: `bearer ${TEST_API_KEY}` } };
		for (const options of [
			{ key: null },
			{ key: 'wrong' },
			{ key: TEST_API_KEY.toLowerCase() },
			lowerScheme,
		])
			expect(await answer(call('/reports', options))).toEqual(laravel(401, 'Unauthenticated.'));
	});

	it('redirects to the HTML login page without Accept: application/json', async () => {
		const res = await call('/reports', { key: 'wrong', json: false });
		expect(res.status).toBe(302);
		expect(res.headers.get('location')).toBe(`${server.url}/login`);
		expect(res.headers.get('content-type')).toContain('text/html');
		expect(await res.text()).toContain('Redirecting to');

		// Followed, it ends on a 200 HTML page (the trap a client must avoid).
		const login = await fetch(`${server.url}/login`);
		expect(login.status).toBe(200);
		expect(login.headers.get('content-type')).toContain('text/html');
		expect(await login.text()).toContain('<form');
	});

	it('rejects a user whose plan has no API access with 403', async () => {
		const noPlan = await answer(call('/projects', { key: NO_API_PLAN_KEY }));
		expect(noPlan).toEqual(refused(403, "You don't have access to this feature."));
	});

	it('accepts a valid key, with rate limit headers', async () => {
		const res = await call('/reports');
		expect(limits(res)).toEqual({ status: 200, limit: '60', remaining: '59', retryAfter: null });
		expect(res.headers.get('content-type')).toBe('application/json');
	});
});

describe('routing', () => {
	it('serves the API under a sub-path and nothing outside it', async () => {
		await boot({ basePath: '/phprank/' });
		expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/phprank$/);
		expect((await call('/reports')).status).toBe(200);
		const outside = await fetch(server.url.replace('/phprank', '/api/v1/reports'), {
			headers: { Accept: 'application/json' },
		});
		expect(outside.status).toBe(404);
		expect(outside.headers.get('content-type')).toContain('text/html');
		const res = await call('/reports', { key: null, json: false });
		expect(res.headers.get('location')).toBe(`${server.url}/login`);
	});

	it('answers unknown API routes with the JSON 404, before authentication', async () => {
		for (const path of ['/nope', '/reports/abc', '/reports/1/extra', '/api/v1/reports'])
			expect(await answer(call(path, { key: null }))).toEqual({ status: 404, body: NOT_FOUND });
		const v2 = fetch(`${server.url}/api/v2/reports`, {
			headers: { Authorization: `Bearer ${TEST_API_KEY}` },
		});
		expect(await answer(v2)).toEqual({ status: 404, body: NOT_FOUND });
	});

	it('tolerates one trailing slash and answers a wrong method with 405', async () => {
		expect((await call('/reports/')).status).toBe(200);
		const res = await call('/reports', { method: 'PATCH' });
		expect(res.status).toBe(405);
		expect(res.headers.get('allow')).toBe('GET, HEAD, POST');
	});
});

describe('report list', () => {
	it('paginates like Laravel: meta, absolute links, query echoed with page replaced', async () => {
		server.seedReports(23);
		const body = await list('/reports?search=&per_page=10&page=2&sort=desc');
		expect(body.status).toBe(200);
		expect(brief(body)).toEqual([down(13, 4), 2, 11, 20, 3, 10, 23]);
		const base = `${server.url}/api/v1/reports`;
		expect(body.meta.path).toBe(base);
		expect(body.links).toEqual({
			first: `${base}?search=&per_page=10&page=1&sort=desc`,
			last: `${base}?search=&per_page=10&page=3&sort=desc`,
			prev: `${base}?search=&per_page=10&page=1&sort=desc`,
			next: `${base}?search=&per_page=10&page=3&sort=desc`,
		});
		expect(body.meta.links.map((l) => [l.label, l.active])).toEqual([
			['&laquo; Previous', false],
			['1', false],
			['2', true],
			['3', false],
			['Next &raquo;', false],
		]);
	});

	it('appends page when the query has none and encodes like rawurlencode', async () => {
		server.seedReports(12, { hosts: ['a b.example'] });
		const body = await list('/reports?search=a+b');
		expect(body.links.next).toBe(`${server.url}/api/v1/reports?search=a%20b&page=2`);
		expect(body.links.prev).toBeNull();
	});

	it('ends with next null, and a page beyond the last is empty with from/to null', async () => {
		server.seedReports(23);
		const last = await list('/reports?page=3');
		expect(brief(last)).toEqual([[3, 2, 1], 3, 21, 23, 3, 10, 23]);
		expect(last.links.next).toBeNull();
		const beyond = await list('/reports?page=9');
		expect(brief(beyond)).toEqual([[], 9, null, null, 3, 10, 23]);
		expect(beyond.links).toMatchObject({ next: null, prev: expect.stringContaining('page=8') });
	});

	it('falls back to page 1 and the default per_page for values it does not accept', async () => {
		server.seedReports(30);
		for (const query of [
			'page=abc&per_page=7',
			'page=0&per_page=1000',
			'page=-2&per_page=',
			'page=01',
		])
			expect(brief(await list(`/reports?${query}`))).toEqual([down(30, 21), 1, 1, 10, 3, 10, 30]);
		expect(brief(await list('/reports?per_page=25'))).toEqual([down(30, 6), 1, 1, 25, 2, 25, 30]);
		expect(brief(await list('/reports?per_page=100'))).toEqual([down(30, 1), 1, 1, 30, 1, 100, 30]);
	});

	it('shows an empty list with last_page 1', async () => {
		const body = await list('/reports');
		expect(brief(body)).toEqual([[], 1, null, null, 1, 10, 0]);
		expect(body.links.last).toContain('page=1');
	});

	it('windows meta.links like Laravel for many pages', async () => {
		server.seedReports(300);
		const body = await list('/reports?page=15');
		expect(body.meta.last_page).toBe(30);
		const shown = '1 2 ... 12 13 14 15 16 17 18 ... 29 30'.split(' ');
		const labels = ['&laquo; Previous', ...shown, 'Next &raquo;'];
		expect(body.meta.links.map((l) => l.label)).toEqual(labels);
	});

	it('writes links on another host when nextLinkHost is set', async () => {
		await boot({ nextLinkHost: 'https://evil.example:8443', basePath: '/phprank' });
		server.seedReports(11);
		const body = await list('/reports');
		expect(body.links.next).toBe('https://evil.example:8443/phprank/api/v1/reports?page=2');
		expect(body.meta.path).toBe('https://evil.example:8443/phprank/api/v1/reports');
	});

	it('searches the cleaned url case-insensitively and filters project exactly', async () => {
		server.addReport({ url: 'https://www.Example.com/Blog/SEO-Tips/' });
		server.addReport({ url: 'https://example.com/pricing' });
		server.addReport({ url: 'http://blog.example.com/seo' });
		const urls = async (query: string) => (await list(`/reports?${query}`)).data.map((r) => r.url);
		const tips = 'example.com/Blog/SEO-Tips';
		expect(await urls('search=seo&search_by=url')).toEqual(['blog.example.com/seo', tips]);
		expect(await urls('search=https')).toEqual([]);
		expect(await urls('project=example.com')).toEqual(['example.com/pricing', tips]);
		expect(await urls('project=example')).toEqual([]);
	});

	it('maps result classes to score ranges: good > 79, decent 49-79, bad < 49', async () => {
		for (const [i, result] of [80, 79, 49, 48, 100, 0].entries())
			server.addReport({ url: `https://s${i}.example.com`, result });
		const scores = async (cls: string) =>
			(await list(`/reports?result=${cls}&sort_by=result&sort=asc`)).data.map((r) => r.result);
		expect(await scores('good')).toEqual([80, 100]);
		expect(await scores('decent')).toEqual([49, 79]);
		expect(await scores('bad')).toEqual([0, 48]);
		expect(await scores('excellent')).toHaveLength(6);
	});

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

	it('shows each user only their own reports', async () => {
		server.seedReports(3);
		server.seedReports(2, { userId: USER_IDS.other });
		expect((await list('/reports')).meta.total).toBe(3);
		expect((await list('/reports', { key: OTHER_USER_KEY })).meta.total).toBe(2);
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

	it('encodes JSON like PHP: escaped slashes and \\u escapes', async () => {
		server.addReport({ url: 'https://bücher.example/a/b' });
		const raw = await (await call('/reports')).text();
		expect(raw).toContain('"url":"b\\u00fccher.example\\/a\\/b"');
		expect((JSON.parse(raw) as Paginated<ReportBody>).data[0].url).toBe('bücher.example/a/b');
	});

	it('sends a list page exactly as phpJson encodes it, with each report as it is now', async () => {
		const [first] = server.seedReports(3, { hosts: ['bäckerei.example'] });
		const before = await (await call('/reports?sort=asc')).text();
		expect(phpJson(JSON.parse(before))).toBe(before);
		expect(await (await call('/reports?sort=asc')).text()).toBe(before);
		expect((await send('PUT', `/reports/${first.id}`, { privacy: '1', results: '1' })).status).toBe(
			200,
		);
		const after = await (await call('/reports?sort=asc')).text();
		expect(phpJson(JSON.parse(after))).toBe(after);
		const { data } = JSON.parse(after) as Paginated<ReportBody>;
		expect(data[0]).toEqual(JSON.parse(await (await call(`/reports/${first.id}`)).text()).data);
		expect(data[0].privacy).toBe(1);
		expect(after).not.toBe(before);
	});

	it("answers 404 for an unknown id or another user's report", async () => {
		const theirs = server.addReport({ url: 'https://example.com', user_id: USER_IDS.other });
		for (const id of [theirs.id, 999])
			expect(await answer(call(`/reports/${id}`))).toEqual({ status: 404, body: NOT_FOUND });
		expect((await call(`/reports/${theirs.id}`, { key: OTHER_USER_KEY })).status).toBe(200);
	});

	it('generates the same data on every run', () => {
		const a = new PhpRankServer().seedReports(5);
		const b = new PhpRankServer().seedReports(5);
		expect(a).toEqual(b);
		expect(new Set(a.map((r) => r.result)).size).toBeGreaterThan(1);
	});
});

describe('create', () => {
	it('stores a cleaned url and its project, and answers 201', async () => {
		const data = await create({ url: 'https://www.example.com/blog/' });
		expect(data).toMatchObject({
			url: 'example.com/blog',
			project: 'example.com',
			privacy: 0,
			password: false,
		});
		expect(data.created_at).toBe(data.generated_at);
		expect(server.getReport(data.id)).toMatchObject({ user_id: USER_IDS.default, password: null });
		expect(server.createdCount).toBe(1);
		const recorded = server.requests[0];
		expect(recorded.form).toEqual({ url: 'https://www.example.com/blog/' });
		expect(recorded.rawBody).toBe('url=https%3A%2F%2Fwww.example.com%2Fblog%2F');
	});

	it('accepts privacy and a password, its spaces kept', async () => {
		const fields = { url: 'http://shop.example.org/cart?x=1', privacy: '2', password: ' kept ' };
		const data = await dataOf(send('POST', '/reports', fields), 201);
		expect(data).toMatchObject({ url: 'shop.example.org/cart?x=1', privacy: 2, password: true });
		expect(server.getReport(data.id)?.password).toBe(' kept ');
	});

	const url = 'https://example.com';
	const required = { url: ['The url field is required.'] };
	const invalid = { url: ['The url must be a valid URL.'] };
	const privacy = { privacy: ['The selected privacy is invalid.'] };
	it.each([
		[{}, required],
		[{ url: '   ' }, required],
		[{ url: 'example.com' }, invalid],
		[{ url: 'ftp://example.com' }, invalid],
		[{ url: 'https://exa mple.com' }, invalid],
		[{ url, privacy: '5' }, privacy],
		[{ url, privacy: '' }, privacy],
		[{ url, privacy: '2' }, { password: ['The password field is required when privacy is 2.'] }],
		[
			{ url, privacy: '2', password: 'x'.repeat(129) },
			{ password: ['The password must not be greater than 128 characters.'] },
		],
		[{ url: 'https://down.invalid/' }, { url: ['Could not fetch the url.'] }],
	])(
		'rejects %j with 422 and the field map in message',
		async (fields: Record<string, string>, message) => {
			expect(await answer(send('POST', '/reports', fields))).toEqual(refused(422, message));
			expect(server.createdCount).toBe(0);
			expect(server.listReports()).toEqual([]);
		},
	);

	it('accepts a 128-character password and a unicode host', async () => {
		const res = await send('POST', '/reports', {
			url: 'https://bäckerei-müller.de/',
			privacy: '2',
			password: 'é'.repeat(128),
		});
		expect((await dataOf(res, 201)).project).toBe('bäckerei-müller.de');
	});
});

describe('update', () => {
	it('changes only what is sent', async () => {
		const report = server.addReport({
			url: 'https://example.com',
			created_at: '2026-01-02T03:04:05Z',
		});
		expect(report.updated_at).toBe('2026-01-02T03:04:05.000000Z');
		expect(await dataOf(send('PUT', `/reports/${report.id}`, {}))).toMatchObject({
			privacy: 0,
			updated_at: report.updated_at,
		});

		const data = await dataOf(
			send('PUT', `/reports/${report.id}`, { privacy: '2', password: 'hunter2' }),
		);
		expect(data).toMatchObject({
			privacy: 2,
			password: true,
			result: report.result,
			generated_at: report.generated_at,
		});
		expect(data.updated_at).not.toBe(report.updated_at);
		expect(server.getReport(report.id)?.password).toBe('hunter2');

		const privacyOnly = send('PUT', `/reports/${report.id}`, { privacy: '1' });
		expect(await dataOf(privacyOnly)).toMatchObject({ privacy: 1, password: true });
	});

	it('re-runs the analysis with results=1', async () => {
		const report = server.addReport({
			url: 'https://example.com',
			created_at: '2026-01-02T03:04:05Z',
		});
		const data = await dataOf(send('PUT', `/reports/${report.id}`, { results: '1' }));
		expect(data.generated_at).not.toBe(report.generated_at);
		expect(data.created_at).toBe(report.created_at);
		expect(data.results).not.toEqual(report.results);
		expect(server.getReport(report.id)?.results).toEqual(data.results);

		const again = send('PUT', `/reports/${report.id}`, { results: '0' });
		expect((await dataOf(again)).results).toEqual(data.results);
	});

	it('validates privacy and password like create', async () => {
		const report = server.addReport({ url: 'https://example.com', privacy: 2, password: 'old' });
		const password = { password: ['The password field is required when privacy is 2.'] };
		const res = await answer(send('PUT', `/reports/${report.id}`, { privacy: '2' }));
		expect(res).toEqual(refused(422, password));
		expect((await send('PUT', `/reports/${report.id}`, { privacy: 'public' })).status).toBe(422);
	});

	it('answers 403 for a report that is not yours or does not exist, before validating', async () => {
		const theirs = server.addReport({ url: 'https://example.com', user_id: USER_IDS.other });
		for (const id of [theirs.id, 4242])
			expect(await answer(send('PUT', `/reports/${id}`, { privacy: 'bad' }))).toEqual(
				laravel(403, 'This action is unauthorized.'),
			);
		expect(server.getReport(theirs.id)?.privacy).toBe(0);
	});
});

describe('delete', () => {
	const deleted = (id: unknown) => ({
		status: 200,
		body: { id, object: 'report', deleted: true, status: 200 },
	});
	it("deletes one report, not another user's", async () => {
		const report = server.addReport({ url: 'https://example.com' });
		const theirs = server.addReport({ url: 'https://example.com', user_id: USER_IDS.other });
		expect(await answer(del(`/reports/${report.id}`))).toEqual(deleted(report.id));
		for (const id of [report.id, theirs.id])
			expect(await answer(del(`/reports/${id}`))).toEqual({ status: 404, body: NOT_FOUND });
		expect(server.getReport(report.id)).toBeUndefined();
		expect(server.getReport(theirs.id)).toBeDefined();
	});

	it("deletes every report of a project, only the caller's", async () => {
		server.addReport({ url: 'https://example.com/a' });
		server.addReport({ url: 'https://www.example.com/b' });
		server.addReport({ url: 'https://other.example.com' });
		const theirs = server.addReport({ url: 'https://example.com', user_id: USER_IDS.other });
		expect(await answer(del('/projects/example.com'))).toEqual(deleted('example.com'));
		expect(server.listReports(USER_IDS.default).map((r) => r.project)).toEqual([
			'other.example.com',
		]);
		expect(server.getReport(theirs.id)).toBeDefined();

		expect(await answer(del('/projects/example.com'))).toEqual({ status: 404, body: NOT_FOUND });
	});

	it.each(['a/b', 'my project', 'bäckerei-müller.de', 'a%2Fb', '50% off?#'])(
		'matches the project %j from its single percent-encoded path segment',
		async (name) => {
			server.addReport({ url: 'https://example.com', project: name });
			server.addReport({ url: 'https://example.com', project: name === 'a/b' ? 'a' : 'a/b' });
			const path = `/projects/${encodeURIComponent(name)}`;
			expect(await answer(del(path))).toMatchObject({ status: 200, body: { id: name } });
			expect(server.listReports()).toHaveLength(1);
			expect(server.requests[0].path).toBe(`/api/v1${path}`);
		},
	);

	it('does not decode a project segment twice, nor match an unencoded slash', async () => {
		server.addReport({ url: 'https://example.com', project: 'a/b' });
		expect((await del('/projects/a%252Fb')).status).toBe(404);
		expect((await del('/projects/a/b')).status).toBe(404);
		expect(server.listReports()).toHaveLength(1);
	});
});

describe('project list', () => {
	it("groups a user's reports by project with count, score sum and earliest date", async () => {
		for (const [url, result, day] of [
			['https://example.com/a', 80, 3],
			['https://www.example.com/b', 30, 1],
			['https://blog.acme.io', 55, 2],
		] as const)
			server.addReport({ url, result, created_at: `2026-01-0${day}T00:00:00Z` });
		server.addReport({ url: 'https://zeta.example', user_id: USER_IDS.other });
		const body = await list<ProjectBody>('/projects');
		const day = (n: number) => `2026-01-0${n}T00:00:00.000000Z`;
		expect(body.data).toEqual([
			{ project: 'blog.acme.io', reports: 1, result: 55, created_at: day(2) },
			{ project: 'example.com', reports: 2, result: 110, created_at: day(1) },
		]);
		expect(body.meta).toMatchObject({ total: 2, path: `${server.url}/api/v1/projects` });
	});

	it('searches names and sorts by created_at or project only', async () => {
		for (const host of ['b.example', 'c.example', 'a.example', 'acme.io'])
			server.addReport({ url: `https://${host}` });
		const names = async (query: string) =>
			(await list<ProjectBody>(`/projects?${query}`)).data.map((p) => p.project);
		const byName = ['a.example', 'acme.io', 'b.example', 'c.example'];
		expect(await names('sort_by=project&sort=asc')).toEqual(byName);
		const found = ['c.example', 'b.example', 'a.example'];
		expect(await names('search=EXAMPLE&search_by=project&sort_by=project')).toEqual(found);
		const byDate = await names('sort_by=reports&sort=asc');
		expect(byDate).toEqual(await names('sort_by=created_at&sort=asc'));
		expect((await list<ProjectBody>('/projects?per_page=10&page=2')).data).toEqual([]);
	});
});
