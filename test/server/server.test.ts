import {
	CHECK_NAMES,
	FOREIGN_BODIES,
	NO_API_PLAN_KEY,
	OTHER_USER_KEY,
	PhpRankServer,
	TEST_API_KEY,
	USER_IDS,
	type AnalysisSpec,
	type Fault,
	type ReportRecord,
	type ServerOptions,
} from './index';
import { phpJson, type Paginated } from './laravel';
import { startSampleServer } from './sample';
import { DEFAULT_HOSTS } from './server';

type ReportBody = Omit<ReportRecord, 'user_id' | 'password'> & { password: boolean };
type ProjectBody = { project: string; reports: number; result: number; created_at: string };

const DATE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;
/** phpRank's error answer: the message (or field map), and the status again in the body. */
const refused = (status: number, message: unknown) => ({ status, body: { message, status } });
/** Laravel's own error answer: `{ message }` alone. */
const laravel = (status: number, message: string) => ({ status, body: { message } });
const NOT_FOUND = { message: 'Resource not found.', status: 404 };

let server: PhpRankServer;

/** A started server in place of the one before (every test starts with a default one). */
async function boot(options: ServerOptions = {}): Promise<void> {
	await server?.stop();
	server = new PhpRankServer(options);
	await server.start();
}

beforeEach(() => boot());
afterEach(() => server.stop());

interface CallOptions extends RequestInit {
	/** API key to send; null sends no Authorization header. */
	key?: string | null;
	/** Send Accept: application/json (default true). */
	json?: boolean;
}

function call(
	path: string,
	{ key = TEST_API_KEY, json = true, ...init }: CallOptions = {},
): Promise<Response> {
	const headers = new Headers(init.headers);
	if (key !== null) headers.set('Authorization', `Bearer ${key}`);
	if (json) headers.set('Accept', 'application/json');
	return fetch(`${server.url}/api/v1${path}`, { redirect: 'manual', ...init, headers });
}

const del = (path: string, options: CallOptions = {}) =>
	call(path, { ...options, method: 'DELETE' });

function send(
	method: string,
	path: string,
	fields: Record<string, string>,
	options: CallOptions = {},
): Promise<Response> {
	return call(path, { ...options, method, body: new URLSearchParams(fields) });
}

/** The status and JSON body of an answer. */
async function answer<T = unknown>(
	res: Response | Promise<Response>,
): Promise<{ status: number; body: T }> {
	const done = await res;
	return { status: done.status, body: (await done.json()) as T };
}

/** The report an answer holds (`data`), its status checked (phpRank repeats it in the body). */
async function dataOf(res: Response | Promise<Response>, status = 200): Promise<ReportBody> {
	const { body, ...head } = await answer<{ data: ReportBody; status: number }>(res);
	expect([head.status, body.status]).toEqual([status, status]);
	return body.data;
}

/** POST /reports with these form fields: the report made (201 checked). */
const create = (fields: Record<string, string>) => dataOf(send('POST', '/reports', fields), 201);

async function list<T = ReportBody>(path: string, options?: CallOptions): Promise<Paginated<T>> {
	const res = await call(path, options);
	expect(res.status).toBe(200);
	return (await res.json()) as Paginated<T>;
}

/** The status and the throttle's headers of an answer. */
const limits = (res: Response) => ({
	status: res.status,
	limit: res.headers.get('x-ratelimit-limit'),
	remaining: res.headers.get('x-ratelimit-remaining'),
	retryAfter: res.headers.get('retry-after'),
});

/** A list page in brief: its ids, then meta's current_page, from, to, last_page, per_page and total. */
const brief = ({ data, meta }: Paginated<ReportBody>) => [
	data.map((r) => r.id),
	...(['current_page', 'from', 'to', 'last_page', 'per_page', 'total'] as const).map(
		(k) => meta[k],
	),
];
/** The ids from `high` down to `low`. */
const down = (high: number, low: number) =>
	Array.from({ length: high - low + 1 }, (_, i) => high - i);

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

		const login = await fetch(`${server.url}/login`);
		expect(login.status).toBe(200);
		expect(await login.text()).toContain('<form');
	});

	it('a followed redirect ends on a 200 HTML page (the trap a client must avoid)', async () => {
		const res = await fetch(`${server.url}/api/v1/reports`);
		expect(res.status).toBe(200);
		expect(res.url).toBe(`${server.url}/login`);
		expect(res.headers.get('content-type')).toContain('text/html');
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

	it('accepts a JSON body, privacy and a password', async () => {
		const res = await call('/reports', {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify({
				url: 'http://shop.example.org/cart?x=1',
				privacy: 2,
				password: ' spaces kept ',
			}),
		});
		const data = await dataOf(res, 201);
		expect(data).toMatchObject({ url: 'shop.example.org/cart?x=1', privacy: 2, password: true });
		expect(server.getReport(data.id)?.password).toBe(' spaces kept ');
		expect(server.requests[0].form).toEqual({});
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

	it('ignores a multipart body on PUT, as PHP does, but reads it on POST', async () => {
		const body = new FormData();
		body.set('url', 'https://multipart.example.com');
		const { id } = await dataOf(call('/reports', { method: 'POST', body }), 201);
		const update = new FormData();
		update.set('privacy', '1');
		expect((await dataOf(call(`/reports/${id}`, { method: 'PUT', body: update }))).privacy).toBe(0);
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

describe('throttle', () => {
	it('answers 429 with Retry-After past the limit, without processing the request', async () => {
		await boot({ throttle: { limit: 3, windowMs: 600 } });
		for (const remaining of ['2', '1', '0'])
			expect(limits(await call('/reports'))).toMatchObject({ status: 200, remaining });

		const res = await send('POST', '/reports', { url: 'https://example.com' });
		expect(limits(res)).toEqual({ status: 429, limit: '3', remaining: '0', retryAfter: '1' });
		expect(await res.json()).toEqual({ message: 'Too Many Attempts.' });
		expect(server.createdCount).toBe(0);
		expect(server.requests).toHaveLength(4);

		// Other users and unauthenticated requests have their own (or no) budget.
		expect((await call('/reports', { key: OTHER_USER_KEY })).status).toBe(200);
		expect((await call('/reports', { key: null })).status).toBe(401);

		await new Promise((resolve) => setTimeout(resolve, 650));
		expect((await send('POST', '/reports', { url: 'https://example.com' })).status).toBe(201);
	});

	it('sends X-RateLimit-Limit and the remaining count on every answer past auth; 429 adds Retry-After and X-RateLimit-Reset', async () => {
		await boot({ throttle: { limit: 9, windowMs: 30_000 } });
		server.seedReports(2, { hosts: ['a.example', 'b.example'] });
		const steps: [() => Promise<Response>, number][] = [
			[() => call('/reports'), 200],
			[() => call('/reports/1'), 200],
			[() => send('POST', '/reports', { url: 'https://example.com' }), 201],
			[() => send('PUT', '/reports/1', { privacy: '1' }), 200],
			[() => del('/reports/1'), 200],
			[() => call('/projects'), 200],
			[() => del('/projects/b.example'), 200],
			[() => call('/reports/1'), 404],
			[() => send('POST', '/reports', {}), 422],
		];
		for (const [i, [request, status]] of steps.entries()) {
			const remaining = String(8 - i);
			expect(limits(await request())).toEqual({ status, limit: '9', remaining, retryAfter: null });
		}
		const before = Math.floor(Date.now() / 1000);
		const res = await call('/projects');
		const retryAfter = expect.stringMatching(/^(29|30)$/);
		expect(limits(res)).toEqual({ status: 429, limit: '9', remaining: '0', retryAfter });
		expect(Number(res.headers.get('x-ratelimit-reset')) - before).toBeGreaterThanOrEqual(29);
		expect(Number(res.headers.get('x-ratelimit-reset')) - before).toBeLessThanOrEqual(31);
	});

	it('computes Retry-After from the window start and can be changed or disabled', async () => {
		await boot({ throttle: { limit: 1, windowMs: 5_000 } });
		await call('/reports');
		expect((await call('/reports')).headers.get('retry-after')).toBe('5');
		server.setThrottle(false);
		expect(limits(await call('/reports'))).toMatchObject({ status: 200, limit: null });
		server.setThrottle({ limit: 2, windowMs: 1_000 });
		expect((await call('/reports')).headers.get('x-ratelimit-remaining')).toBe('1');
	});

	it('counts requests of a user without API access, who still gets 403; renders 429 as HTML for clients that do not ask for JSON', async () => {
		await boot({ throttle: { limit: 1, windowMs: 1_000 } });
		expect((await call('/reports', { key: NO_API_PLAN_KEY })).status).toBe(403);
		expect((await call('/reports', { key: NO_API_PLAN_KEY })).status).toBe(429);
		await call('/reports', { json: false });
		const res = await call('/reports', { json: false });
		expect(limits(res)).toEqual({ status: 429, limit: '1', remaining: '0', retryAfter: '1' });
		expect(res.headers.get('content-type')).toContain('text/html');
	});

	it('holds a user at a rate limit until lifted: the Retry-After asked for, whatever the throttle says, not counted in its window', async () => {
		await boot({ throttle: { limit: 2, windowMs: 60_000 } });
		const first = await call('/reports', { key: OTHER_USER_KEY });
		expect(limits(first)).toMatchObject({ status: 200, remaining: '1' });
		server.holdRateLimit(USER_IDS.other, 600);
		const before = Math.floor(Date.now() / 1000);
		for (const res of [
			await call('/reports', { key: OTHER_USER_KEY }),
			await call('/projects', { key: OTHER_USER_KEY }),
		]) {
			expect(limits(res)).toEqual({ status: 429, limit: '2', remaining: '0', retryAfter: '600' });
			expect(await res.json()).toEqual({ message: 'Too Many Attempts.' });
			expect(Number(res.headers.get('x-ratelimit-reset')) - before).toBeGreaterThanOrEqual(600);
			expect(Number(res.headers.get('x-ratelimit-reset')) - before).toBeLessThanOrEqual(601);
		}
		expect((await call('/reports')).status).toBe(200);
		expect((await call('/reports', { key: null })).status).toBe(401);

		expect(server.liftRateLimit(USER_IDS.other)).toBe(1);
		expect(server.liftRateLimit(USER_IDS.other)).toBe(0);
		const lifted = await call('/reports', { key: OTHER_USER_KEY });
		expect(limits(lifted)).toMatchObject({ status: 200, remaining: '0' });

		server.setThrottle(false);
		server.holdRateLimit(USER_IDS.default, 0);
		const unthrottled = await call('/reports');
		expect(limits(unthrottled)).toMatchObject({ status: 429, retryAfter: '0', limit: '60' });
		expect(server.liftRateLimit()).toBe(1);
		expect((await call('/reports')).status).toBe(200);
		expect(() => server.holdRateLimit(USER_IDS.default, 1.5)).toThrow(/whole number/);
	});
});

describe('faults', () => {
	it("status: phpRank's 500 body by default, or any status, body and headers", async () => {
		server.failNext({ type: 'status', status: 500 });
		expect(await answer(call('/reports'))).toEqual(
			refused(500, 'An unexpected error has occurred, please try again.'),
		);

		server.failNext({
			type: 'status',
			status: 429,
			body: { message: 'Too Many Attempts.' },
			headers: { 'Retry-After': '7' },
		});
		expect(limits(await call('/reports'))).toMatchObject({ status: 429, retryAfter: '7' });
		expect((await call('/reports')).status).toBe(200);
	});

	it('html: a proxy error page', async () => {
		server.failNext({ type: 'html', status: 502 });
		const res = await call('/projects');
		expect(res.status).toBe(502);
		expect(res.headers.get('content-type')).toContain('text/html');
		expect(await res.text()).toContain('502 Bad Gateway');
	});

	it('truncated: a 200 JSON response that does not parse', async () => {
		server.failNext({ type: 'truncated' });
		const res = await call('/reports');
		expect(res.status).toBe(200);
		expect(res.headers.get('content-type')).toBe('application/json');
		const text = await res.text();
		expect(text.startsWith('{"data":[')).toBe(true);
		expect(() => JSON.parse(text)).toThrow();
	});

	it('reset: the connection drops without an answer', async () => {
		server.failNext({ type: 'reset' });
		await expect(call('/reports')).rejects.toThrow('fetch failed');
		expect((await call('/reports')).status).toBe(200);
	});

	it('hang: no answer until the client times out, or until stop()', async () => {
		server.failNext({ type: 'hang' }, { times: 2 });
		await expect(call('/reports', { signal: AbortSignal.timeout(50) })).rejects.toThrow();
		const pending = call('/reports');
		await new Promise((resolve) => setTimeout(resolve, 30));
		await server.stop();
		await expect(pending).rejects.toThrow();
	});

	it('applies to matching requests only, times over, before auth and throttle, and records them', async () => {
		server.setThrottle({ limit: 1, windowMs: 60_000 });
		server.failNext(
			{ type: 'status', status: 503 },
			{ times: 2, match: (req) => req.method === 'POST' },
		);
		expect((await call('/reports', { key: null })).status).toBe(401);
		expect(
			(await send('POST', '/reports', { url: 'https://example.com' }, { key: null })).status,
		).toBe(503);
		expect((await send('POST', '/reports', { url: 'https://example.com' })).status).toBe(503);
		expect((await send('POST', '/reports', { url: 'https://example.com' })).status).toBe(201);
		expect(server.requests.map((r) => r.method)).toEqual(['GET', 'POST', 'POST', 'POST']);
		expect(server.createdCount).toBe(1);
	});

	it('leaves non-API pages alone by default', async () => {
		server.failNext({ type: 'status', status: 500 });
		expect((await fetch(`${server.url}/login`)).status).toBe(200);
		expect((await call('/reports')).status).toBe(500);
	});
});

describe('moving lists', () => {
	beforeEach(() => boot({ throttle: false }));

	/** Every id of pages 1..3 of ten, in order (added to `ids` as each page is read). */
	async function readThreePages(path: string, ids: number[] = []): Promise<number[]> {
		for (let page = 1; page <= 3; page++)
			ids.push(...(await list(`${path}?per_page=10&page=${page}`)).data.map((r) => r.id));
		return ids;
	}

	it('beforeList runs before each list page is answered, with what was asked', async () => {
		server.seedReports(3);
		const seen: unknown[] = [];
		server.beforeList(({ resource, page, userId, request }) => {
			seen.push([resource, page, userId, request.rawQuery]);
		});
		await list('/reports?page=2');
		await list<ProjectBody>('/projects', { key: OTHER_USER_KEY });
		await call('/reports/1');
		expect(seen).toEqual([
			['reports', 2, USER_IDS.default, 'page=2'],
			['projects', 1, USER_IDS.other, ''],
		]);
		server.beforeList(undefined);
		await list('/reports');
		expect(seen).toHaveLength(2);
	});

	it('a report created before each page repeats a record on the next page', async () => {
		server.seedReports(25);
		server.beforeList(({ page }) => {
			if (page > 1) server.addReport({ url: `https://new.example/${page}` });
		});
		const ids = await readThreePages('/reports');
		expect(ids).toHaveLength(27);
		expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([16, 7]);
		expect(new Set(ids).size).toBe(25);
	});

	it('a read report deleted before each page moves a record across the page boundary', async () => {
		server.seedReports(25);
		const read: number[] = [];
		server.beforeList(({ page }) => {
			if (page > 1) expect(server.deleteReport(read[page - 2])).toBe(true);
		});
		await readThreePages('/reports', read);
		const missed = server
			.listReports(USER_IDS.default)
			.filter((r) => !read.includes(r.id))
			.map((r) => r.id);
		expect(missed).toEqual([4, 15]);
		expect(server.deleteReport(999)).toBe(false);
	});

	it('moves the project list too', async () => {
		server.seedReports(12, { hosts: Array.from({ length: 12 }, (_, i) => `p${i}.example`) });
		server.beforeList(({ resource, page }) => {
			if (resource === 'projects' && page === 2)
				server.addReport({ url: 'https://brand-new.example' });
		});
		const first = await list<ProjectBody>('/projects?per_page=10&page=1');
		const second = await list<ProjectBody>('/projects?per_page=10&page=2');
		expect(second.data.map((p) => p.project)).toEqual([
			first.data[9].project,
			'p1.example',
			'p0.example',
		]);
	});
});

describe('a server that ignores page', () => {
	beforeEach(async () => {
		await boot({ ignorePage: true });
		server.seedReports(25);
	});

	it('answers page 1 with current_page 1 for every page, as a cache would', async () => {
		const first = await list('/reports?per_page=10');
		const third = await list('/reports?per_page=10&page=3');
		expect(third.data).toEqual(first.data);
		expect(third.meta).toMatchObject({ current_page: 1, from: 1, to: 10, last_page: 3 });
		expect(third.links.next).toContain('page=2');
		const projects = await list<ProjectBody>('/projects?per_page=10&page=2');
		expect(projects.meta.current_page).toBe(1);
		expect(projects.data).toHaveLength(6);
	});

	it("'echo' answers the meta of the page asked for with page 1's data; false restores paging", async () => {
		const first = await list('/reports?per_page=10');
		server.setIgnorePage('echo');
		const third = await list('/reports?per_page=10&page=3');
		expect(third.data).toEqual(first.data);
		expect(third.meta).toMatchObject({ current_page: 3, from: 21, to: 25, last_page: 3 });
		expect(third.links.next).toBeNull();
		server.setIgnorePage(false);
		const paged = await list('/reports?per_page=10&page=3');
		expect(brief(paged)).toEqual([down(5, 1), 3, 21, 25, 3, 10, 25]);
	});
});

describe('odd servers', () => {
	it('foreign: JSON of another shape with 201 for POST and 200 otherwise, no rate-limit headers, nothing done', async () => {
		server.seedReports(1);
		const requests: [string, string][] = [
			['GET', '/reports'],
			['POST', '/reports'],
			['GET', '/reports/1'],
			['PUT', '/reports/1'],
			['DELETE', '/reports/1'],
			['GET', '/projects'],
			['DELETE', '/projects/example.com'],
		];
		for (const [index, [method, path]] of requests.entries()) {
			const body = Object.values(FOREIGN_BODIES)[index % Object.keys(FOREIGN_BODIES).length];
			server.failNext({ type: 'foreign', body });
			const res =
				method === 'POST' || method === 'PUT'
					? await send(method, path, { url: 'https://example.com', privacy: '1' })
					: await call(path, { method });
			expect([method, path, res.status]).toEqual([method, path, method === 'POST' ? 201 : 200]);
			expect(res.headers.get('content-type')).toBe('application/json');
			expect(res.headers.get('x-ratelimit-limit')).toBeNull();
			expect(await res.json()).toEqual(body);
		}
		server.failNext({ type: 'foreign', body: FOREIGN_BODIES.emptyObject, status: 202 });
		const res = await del('/reports/1');
		expect(res.status).toBe(202);
		expect(await res.text()).toBe('{}');
		expect(server.createdCount).toBe(0);
		expect(server.getReport(1)?.privacy).toBe(server.listReports()[0].privacy);
		expect(server.listReports()).toHaveLength(1);
	});

	it('redirect: to the login page (302 by default), to https on the same host and path, to another origin, to any URL, with the status asked for', async () => {
		const { host } = new URL(server.url);
		const cases: [Fault, number, string][] = [
			[
				{ type: 'redirect', to: 'https', status: 301 },
				301,
				`https://${host}/api/v1/reports?page=2&per_page=10`,
			],
			[
				{ type: 'redirect', to: { origin: 'https://other.example:8443/ignored' }, status: 308 },
				308,
				'https://other.example:8443/api/v1/reports?page=2&per_page=10',
			],
			[
				{ type: 'redirect', to: { url: 'https://sso.example/auth?next=1' }, status: 307 },
				307,
				'https://sso.example/auth?next=1',
			],
			[{ type: 'redirect' }, 302, `${server.url}/login`],
			[{ type: 'redirect', to: 'login', status: 303 }, 303, `${server.url}/login`],
		];
		for (const [fault, status, location] of cases) {
			server.failNext(fault);
			const res = await call('/reports?page=2&per_page=10');
			expect([res.status, res.headers.get('location')]).toEqual([status, location]);
			expect(res.headers.get('content-type')).toContain('text/html');
		}
	});
});

describe('load and counters', () => {
	async function until(condition: () => boolean): Promise<void> {
		for (let i = 0; i < 200 && !condition(); i++)
			await new Promise((resolve) => setTimeout(resolve, 10));
		expect(condition()).toBe(true);
	}

	it('a response delay delays every endpoint; stats count requests in flight, their peak and the statuses', async () => {
		await boot({ throttle: false });
		server.setResponseDelay(400);
		server.seedReports(3);
		const started = Date.now();
		const statuses = await Promise.all([
			...Array.from({ length: 8 }, () => call('/reports/1').then((res) => res.status)),
			del('/projects/example.com').then((res) => res.status),
			send('POST', '/reports', { url: 'https://example.com' }).then((res) => res.status),
		]);
		expect(Date.now() - started).toBeGreaterThanOrEqual(390);
		expect(statuses).toEqual([...Array<number>(8).fill(200), 200, 201]);
		expect(server.stats).toEqual({ inFlight: 0, peakInFlight: 10, statuses: { 200: 9, 201: 1 } });

		server.resetStats();
		server.setResponseDelay({ POST: 300 });
		for (let i = 0; i < 3; i++) await call('/reports');
		expect(server.stats).toEqual({ inFlight: 0, peakInFlight: 1, statuses: { 200: 3 } });
		const post = Date.now();
		expect((await send('POST', '/reports', { url: 'https://example.com' })).status).toBe(201);
		expect(Date.now() - post).toBeGreaterThanOrEqual(290);
	});

	it('stats count the statuses of faults and of the throttle, and every request records its status', async () => {
		await boot({ throttle: { limit: 2, windowMs: 60_000 } });
		await call('/reports');
		await call('/reports/7');
		await call('/reports');
		server.failNext({ type: 'status', status: 429 });
		await call('/projects');
		await fetch(`${server.url}/login`);
		expect(server.stats.statuses).toEqual({ 200: 2, 404: 1, 429: 2 });
		expect(server.requests.map((r) => r.status)).toEqual([200, 404, 429, 429, 200]);
	});

	it('hang: requests stay in flight, unanswered, until stop() releases every one', async () => {
		server.failNext({ type: 'hang' }, { times: 3 });
		const pending = Array.from({ length: 3 }, () =>
			call('/reports').then(
				() => 'answered',
				() => 'released',
			),
		);
		await until(() => server.stats.inFlight === 3);
		expect(server.requests.map((r) => r.status)).toEqual([undefined, undefined, undefined]);
		await server.stop();
		expect(await Promise.all(pending)).toEqual(['released', 'released', 'released']);
		await until(() => server.stats.inFlight === 0);
	});
});

describe('request log', () => {
	it('records method, raw and decoded path, query, headers and body of every request', async () => {
		await call('/projects/caf%C3%A9%20bar?per_page=25&search=a+b&search=c', {
			method: 'DELETE',
			headers: { 'X-Trace': 'abc' },
		});
		await fetch(`${server.url}/elsewhere`);
		const [rec, other] = server.requests;
		expect(rec).toMatchObject({
			method: 'DELETE',
			path: '/api/v1/projects/caf%C3%A9%20bar',
			decodedPath: '/api/v1/projects/café bar',
			query: { per_page: '25', search: 'c' },
			rawQuery: 'per_page=25&search=a+b&search=c',
			rawBody: '',
			form: {},
		});
		expect(rec.headers['x-trace']).toBe('abc');
		expect(rec.headers.authorization).toBe(`Bearer ${TEST_API_KEY}`);
		expect(other.path).toBe('/elsewhere');
		server.clearRequests();
		expect(server.requests).toEqual([]);
	});

	it('handles 500 concurrent requests', async () => {
		server.setThrottle(false);
		server.seedReports(5);
		const statuses = await Promise.all(
			Array.from({ length: 500 }, (_, i) =>
				call(`/reports?page=${(i % 3) + 1}`).then((res) => res.status),
			),
		);
		expect(statuses.every((status) => status === 200)).toBe(true);
		expect(server.requests).toHaveLength(500);
	});
});

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

		expect(server.clearAnalyses('example.com/pricing/')).toBe(1);
		expect(server.pendingAnalyses()).toEqual({ next: {}, persistent: [] });
		const free = await rerun(report.id);
		expect(free.result).toBe(expectedScore(free.results));
		server.setNextAnalysis('a.example', {});
		server.setAnalysis('b.example', {});
		expect(server.clearAnalyses()).toBe(2);
	});

	it('score alone fixes result; results are used as given with failed/passed on top; generatedAt sets generated_at', async () => {
		const report = server.addReport({ url: 'https://example.com/x' });
		server.setNextAnalysis(report.url, { score: 63 });
		expect((await rerun(report.id)).result).toBe(63);

		const results = {
			title: { passed: true, importance: 'high' as const, value: 'Home' },
			custom_check: { passed: true, importance: 'low' as const, value: 1 },
		};
		server.setNextAnalysis(report.url, {
			results,
			failed: ['custom_check'],
			generatedAt: '2026-02-01T10:00:00Z',
		});
		results.title.passed = false; // the spec was copied when it was set
		const data = await rerun(report.id);
		expect(data.results).toEqual({
			title: { passed: true, importance: 'high', value: 'Home' },
			custom_check: { passed: false, importance: 'low', value: 1, errors: { failed: null } },
		});
		expect(data.result).toBe(Math.round((10 / 13) * 100));
		expect(data.generated_at).toBe('2026-02-01T10:00:00.000000Z');
		expect(data.updated_at).not.toBe(data.generated_at);
	});

	it('rejects a spec a run could not honour, and queues nothing', () => {
		const bad: unknown[] = [
			{ failed: ['titel'] },
			{ passed: ['title'], failed: ['title'] },
			{ failed: 'title' },
			{ score: 101 },
			{ score: 49.5 },
			{ others: 'some' },
			{ results: { title: { passed: 'yes', importance: 'high', value: 1 } } },
			{ generatedAt: 'yesterday' },
		];
		for (const spec of bad)
			for (const set of ['setNextAnalysis', 'setAnalysis'] as const)
				expect(() => server[set]('example.com', spec as AnalysisSpec)).toThrow(/PhpRankServer: /);
		expect(server.pendingAnalyses()).toEqual({ next: {}, persistent: [] });
	});

	it('the list, the report and the project sum agree after a set run', async () => {
		const report = server.addReport({ url: 'https://example.com/a' });
		const other = server.addReport({ url: 'https://example.com/b', result: 20 });
		server.setNextAnalysis(report.url, { score: 77, failed: ['robots'] });
		const data = await rerun(report.id);
		const listed = (await list('/reports?project=example.com&sort_by=id&sort=asc')).data;
		expect(listed[0]).toEqual(data);
		expect((await list<ProjectBody>('/projects')).data).toEqual([
			expect.objectContaining({ project: 'example.com', reports: 2, result: 77 + other.result }),
		]);
	});
});

describe('report list for monitoring', () => {
	beforeEach(() => boot({ throttle: false }));

	it("carries each report's full results, as stored", async () => {
		server.seedReports(30);
		const body = await list('/reports?per_page=100');
		expect(body.data).toHaveLength(30);
		for (const report of body.data) {
			expect(Object.keys(report.results)).toEqual(CHECK_NAMES);
			expect(report.results).toEqual(server.getReport(report.id)?.results);
		}
	});

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

	it('seeds 10,000 reports over many hosts and 500 urls of one host, and lists one project of them', async () => {
		const hosts = Array.from({ length: 2000 }, (_, i) => `site-${i}.example.net`);
		server.seedReports(10_000, { hosts });
		const big = server.seedReports(500, { hosts: ['big.example.com'], uniqueUrls: true });
		expect(big.map((r) => r.url)).toEqual(big.map((r) => `big.example.com/page-${r.id}`));

		const ids: number[] = [];
		for (let page = 1; page <= 5; page++) {
			const body = await list(`/reports?project=big.example.com&per_page=100&page=${page}`);
			expect(body.meta.total).toBe(500);
			ids.push(...body.data.map((r) => r.id));
		}
		expect(new Set(ids)).toEqual(new Set(big.map((r) => r.id)));
		expect((await list('/reports?project=site-7.example.net')).meta.total).toBe(5);
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
		await server.stop();
		server = await startSampleServer();
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
