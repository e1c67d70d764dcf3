/**
 * What only scripts and the stand-in's own users rely on: a held rate limit (package e2e), lists that
 * move under a paging client, the status counters (benches). Faults, the throttle, odd servers and
 * the request log are asserted through the node: reliability, retries, credentials, underChange.
 */
import { OTHER_USER_KEY, USER_IDS } from './index';
import { boot, bootEach, call, limits, list, server } from './client';

bootEach();

describe('throttle', () => {
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
});

describe('load and counters', () => {
	it('stats count the statuses of faults and of the throttle, and every request records its status', async () => {
		await boot({ throttle: { limit: 2, windowMs: 60_000 } });
		await call('/reports');
		await call('/reports/7');
		await call('/reports');
		server.failNext({ type: 'status', status: 429 });
		await call('/projects');
		expect(server.stats.statuses).toEqual({ 200: 1, 404: 1, 429: 2 });
		expect(server.requests.map((r) => r.status)).toEqual([200, 404, 429, 429]);
	});
});
