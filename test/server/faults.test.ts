/** The test server's throttle, the faults and odd servers tests script, its counters and request log. */
import {
	FOREIGN_BODIES,
	NO_API_PLAN_KEY,
	OTHER_USER_KEY,
	TEST_API_KEY,
	USER_IDS,
	type Fault,
} from './index';
import {
	answer,
	boot,
	bootEach,
	brief,
	call,
	del,
	down,
	limits,
	list,
	refused,
	send,
	server,
	type ProjectBody,
} from './client';

bootEach();

describe('throttle', () => {
	it('answers 429 with Retry-After past the limit, without processing the request', async () => {
		await boot({ throttle: { limit: 3, windowMs: 3000 } }); // 600 ms ran out between two calls on a loaded machine
		for (const remaining of ['2', '1', '0'])
			expect(limits(await call('/reports'))).toMatchObject({ status: 200, remaining });

		const res = await send('POST', '/reports', { url: 'https://example.com' });
		const retryAfter = expect.stringMatching(/^[1-3]$/);
		expect(limits(res)).toEqual({ status: 429, limit: '3', remaining: '0', retryAfter });
		expect(await res.json()).toEqual({ message: 'Too Many Attempts.' });
		expect(server.createdCount).toBe(0);
		expect(server.requests).toHaveLength(4);

		// Other users and unauthenticated requests have their own (or no) budget.
		expect((await call('/reports', { key: OTHER_USER_KEY })).status).toBe(200);
		expect((await call('/reports', { key: null })).status).toBe(401);

		await new Promise((resolve) => setTimeout(resolve, 3050));
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
			const reset = Number(res.headers.get('x-ratelimit-reset'));
			expect(reset - before).toBeGreaterThanOrEqual(600);
			expect(reset - Math.ceil(Date.now() / 1000)).toBeLessThanOrEqual(600);
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
	it('answers page 1 with current_page 1 for every page, as a cache would; false restores paging', async () => {
		await boot({ ignorePage: true });
		server.seedReports(25);
		const first = await list('/reports?per_page=10');
		const third = await list('/reports?per_page=10&page=3');
		expect(third.data).toEqual(first.data);
		expect(third.meta).toMatchObject({ current_page: 1, from: 1, to: 10, last_page: 3 });
		expect(third.links.next).toContain('page=2');
		const projects = await list<ProjectBody>('/projects?per_page=10&page=2');
		expect(projects.meta.current_page).toBe(1);
		expect(projects.data).toHaveLength(6);
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
