import type { IDataObject } from 'n8n-workflow';

import { MAX_RATE_LIMIT_RETRIES } from '../nodes/PhpRank/transport/rateLimit';
import type { Fault, RecordedRequest } from './server';
import { closedPort, createParameters, getParameters, locator, useServer } from './harness/setup';

// Its own file: every retry here waits (a 429 at least a second, an outage half a second and more).
const getReport = (requestOptions: IDataObject = {}) => getParameters(1, { requestOptions });
const create = (url: string, requestOptions: IDataObject = {}) =>
	createParameters(url, { requestOptions });
const tooMany: Fault = {
	type: 'status',
	status: 429,
	body: { message: 'Too Many Attempts.' },
	headers: { 'Retry-After': '0' },
};
const unavailable: Fault = {
	type: 'status',
	status: 503,
	body: { message: 'Service Unavailable' },
};
/** A failNext match: down for `ms` from the first request, however late a loaded machine sends it. */
function downFor(ms: number, first = 0) {
	return (r: RecordedRequest) => r.receivedAt < (first ||= r.receivedAt) + ms;
}

describe('Requests sent again: HTTP 429, and phpRank unavailable (Request Options → Wait Out Outages)', () => {
	const api = useServer({ seed: (server) => server.seedReports(1) });

	// The least wait before try n + 1: a 429's "Retry-After: 0" is a second (Laravel counts whole
	// seconds); an outage's is half of 0.5 s, 1 s, 2 s…, the other half at random.
	it.each<[string, Fault, number, IDataObject, (n: number) => number]>([
		['429 "Retry-After: 0" twice', tooMany, 2, {}, () => 1000],
		['503 three times', unavailable, 3, {}, (n) => 250 * 2 ** n],
		[
			'503 once, Wait Out Outages at its bound (3600)',
			unavailable,
			1,
			{ waitOutOutages: 3600 },
			() => 250,
		],
		['a 502 from the proxy twice', { type: 'html', status: 502 }, 2, {}, (n) => 250 * 2 ** n],
		['the connection reset twice', { type: 'reset' }, 2, {}, (n) => 250 * 2 ** n],
		['no answer before the Timeout once', { type: 'hang' }, 1, { timeout: 1000 }, () => 250],
	])(
		'a GET after %s: the item succeeds with one request more, after the waits',
		async (_what, fault, times, options, leastWait) => {
			api.server.failNext(fault, { times });
			const items = await api.ok(getReport(options));

			expect(items[0].json.id).toBe(1);
			const at = api.apiRequests().map((r) => r.receivedAt);
			expect(at).toHaveLength(times + 1);
			at.slice(1).forEach((t, n) => expect(t - at[n]).toBeGreaterThanOrEqual(leastWait(n) - 5));
		},
	);

	it('a 429 that never ends: fails after the last retry, saying so and how to spread the load', async () => {
		const attempts = MAX_RATE_LIMIT_RETRIES + 1;
		api.server.failNext(tooMany, { times: attempts });
		const { error } = await api.run(getReport());

		expect(error?.message).toMatch(
			/rate limiting requests and kept doing so after retries \(HTTP 429 from /,
		);
		expect(error?.description).toMatch(/60 requests a minute/);
		expect(api.apiRequests()).toHaveLength(attempts);
	});

	it('down past the bound: fails saying how long it tried and what to change', async () => {
		api.server.failNext(unavailable, { times: 1000, match: downFor(5000) });
		const { error } = await api.run(getReport({ waitOutOutages: 3 }));

		const tries = api.apiRequests().length;
		expect(error?.message).toMatch(
			new RegExp(
				`^phpRank at [\\d.:]+ stayed unavailable: ${tries} tries over \\d+ s \\(the last: HTTP 503\\)$`,
			),
		);
		expect(error?.description).toMatch(/up to 3 s .*Request Options → Wait Out Outages/);
		expect(tries).toBeGreaterThanOrEqual(3);
		// No try is planned past the bound (timers may fire late on a loaded machine: 0.5 s of slack).
		const at = api.apiRequests().map((r) => r.receivedAt);
		expect(at[at.length - 1] - at[0]).toBeLessThanOrEqual(3500);
	});

	it.each([3601, -1, 'soon'])(
		'Wait Out Outages of %p is refused before any request, naming the field and its bounds',
		async (value) => {
			const error = await api.refuses(
				getReport({ waitOutOutages: value }),
				`Request Options → Wait Out Outages (Seconds) must be a number from 0 to 3600, not ${JSON.stringify(value)}`,
			);
			expect(error.description).toBe(
				'Enter a number of seconds (300 by default, 0 to fail at once).',
			);
		},
	);

	it('a create that never reached phpRank (connection refused) is sent again; 0 fails at once', async () => {
		const baseUrl = `http://127.0.0.1:${await closedPort()}`;
		const credential = { ...api.credential, baseUrl };
		// 3 s, not 1: on a loaded machine the first refusal alone can take most of a second.
		const refused = await api.run(create('https://example.com/', { waitOutOutages: 3 }), {
			credential,
		});
		expect(refused.error?.message).toMatch(
			/stayed unavailable: [2-9] tries .*the connection was refused/,
		);

		const off = await api.run(create('https://example.com/', { waitOutOutages: 0 }), {
			credential,
		});
		expect(off.error?.message).toMatch(/could not reach phpRank .* the connection was refused/);
	});

	it.each<[string, Fault, IDataObject]>([
		['whose connection was reset after it was sent', { type: 'reset' }, {}],
		['answered 503', unavailable, {}],
		['answered 500', { type: 'status', status: 500 }, {}],
		['not answered before the Timeout', { type: 'hang' }, { timeout: 300 }],
	])(
		'a create %s is never sent twice, and the error says it may exist',
		async (_what, fault, options) => {
			api.server.failNext(fault, { match: (r) => r.method === 'POST' });
			const { error } = await api.run(create('https://example.com/once', options));

			expect(api.sent('POST')).toHaveLength(1);
			expect(error?.description).toMatch(
				/may have created the report|may have been created anyway/,
			);
		},
	);
});

// A server, port and request budget of their own: no fault, wait or budget state of the tests above
// (nor a request still retrying from another test file in this worker) can reach it.
describe('Wait Out Outages, many items at once', () => {
	const throttle = { limit: 10, windowMs: 2000 };
	const api = useServer({ seed: (server) => server.seedReports(24), throttle });
	// The requests phpRank may see while down for `ms`, however many items wait: those already on the
	// wire when it went down (at most 5 in flight), then one probe after each of the process's doubling
	// waits, each at least half of 0.5 s, 1 s, 2 s… 30 s: about 5 + log2(ms / 250) + ms / 15 s.
	const boundWhileDown = (ms: number) => {
		let probes = 0;
		for (let at = 250; at <= ms; at += Math.min(30_000, 500 * 2 ** probes) / 2) probes++;
		return 5 + probes;
	};
	const reportIds = () => api.server.listReports().map((r) => r.id);
	// Every report an item, through an outage of `ms` (downFor): the items out, what phpRank saw.
	const throughOutage = async (ms: number, requestOptions: IDataObject = {}) => {
		const ids = reportIds();
		api.server.failNext(unavailable, { times: 10_000, match: downFor(ms) });
		api.server.resetStats();
		const { items } = await api.run(
			{ ...getReport(requestOptions), reportId: locator('id', '={{ $json.id }}') },
			{ items: ids.map((id) => ({ id })), continueOnFail: true },
		);
		const seen = api.apiRequests();
		const downUntil = seen[0].receivedAt + ms;
		// On failure, what came in and when (ms from the outage's end), so a CI log says why.
		const log = seen.map((r) => `${r.method} ${r.path} ${r.status} ${r.receivedAt - downUntil}`);
		const down = seen.filter((r) => r.receivedAt < downUntil);
		expect({ down: down.length <= boundWhileDown(ms), log }).toEqual({ down: true, log });
		return { ids, items, down, after: seen.filter((r) => r.receivedAt >= downUntil) };
	};

	// Measured before the probe (every item retrying on its own): 72 requests while down, not 8.
	it('24 items through a 3 s outage: phpRank sees one probe at a time, each item succeeds once after, at the rate limit', async () => {
		const { ids, items, down, after } = await throughOutage(3000);

		expect(items.map((i) => i.json.id)).toEqual(ids);
		expect(down.every((r) => r.status === 503)).toBe(true);
		const answered = after.filter((r) => r.status === 200).map((r) => r.path.split('/').pop());
		expect(answered.map(Number).sort((a, b) => a - b)).toEqual(ids);
		// At the rate limit: one request finds out when each spent window ends, not one per item.
		const throttled = after.filter((r) => r.status === 429).length;
		expect(throttled).toBeLessThanOrEqual(Math.ceil(ids.length / throttle.limit));
		expect(api.server.stats.peakInFlight).toBeLessThanOrEqual(5);
	});

	it('a probe left without an answer until its Timeout holds nobody back: the next probe finds phpRank back', async () => {
		const ids = reportIds().slice(0, 8);
		api.server.failNext(unavailable, { times: 5 });
		api.server.failNext({ type: 'hang' });
		const items = await api.ok(
			{ ...getReport({ timeout: 3000 }), reportId: locator('id', '={{ $json.id }}') },
			{ items: ids.map((id) => ({ id })) },
		);

		expect(items.map((i) => i.json.id)).toEqual(ids);
		const seen = api.apiRequests();
		const answered = seen.filter((r) => r.status === 200);
		expect(answered.map((r) => Number(r.path.split('/').pop())).sort((a, b) => a - b)).toEqual(ids);
		// All but the hung probe's item before its Timeout (one request at a time while down, before).
		const early = answered.filter((r) => r.receivedAt < seen[5].receivedAt + 3000);
		expect(early).toHaveLength(ids.length - 1);
	});
	it('24 items through an outage longer than Wait Out Outages: each fails at its bound with the same error', async () => {
		const { ids, items } = await throughOutage(4000, { waitOutOutages: 2 });

		const error =
			/^phpRank at [\d.:]+ stayed unavailable: \d+ tries over [0-3] s \(the last: HTTP 503\)$/;
		expect(items.map((i) => i.json.error)).toEqual(ids.map(() => expect.stringMatching(error)));
	});
});
