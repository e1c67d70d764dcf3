import { CREDENTIAL_TEST_MESSAGES } from '../nodes/PhpRank/methods/credentialTest';
import { NO_API_PLAN_KEY, TEST_API_KEY } from './server';
import { runNode, testCredential, type TestCredential } from './harness/engine';
import { closedPort, locator, useServer } from './harness/setup';

describe('phpRank API credential', () => {
	const api = useServer({ seed: (server) => server.seedReports(3) });

	it('passes the credential test with the right key, as the app runs it', async () => {
		const result = await testCredential(api.credential);

		expect(result).toEqual({ status: 'OK', message: 'Connection successful!' });
		expect(api.calls()).toEqual(['GET /api/v1/projects?per_page=10']);
		const { headers } = api.apiRequests()[0];
		expect(headers.authorization).toBe(`Bearer ${TEST_API_KEY}`);
		expect(headers.accept).toBe('application/json');
	});

	it('says the key was rejected when it is wrong, after one request', async () => {
		const result = await testCredential({ ...api.credential, apiKey: 'not-the-key' });

		expect(result).toEqual({ status: 'Error', message: CREDENTIAL_TEST_MESSAGES[401] });
		expect(result.message).toMatch(/API key was rejected \(HTTP 401\)/);
		expect(api.apiRequests()).toHaveLength(1);
	});

	it.each([
		['no trailing slash', ''],
		['a trailing slash', '/'],
		['the API prefix', '/api/v1'],
		['the API prefix and a slash', '/api/v1/'],
		['spaces around it', '  '],
	])('accepts a Base URL with %s', async (_shape, suffix) => {
		const baseUrl = suffix === '  ' ? `  ${api.server.url}  ` : `${api.server.url}${suffix}`;
		const result = await testCredential({ ...api.credential, baseUrl });

		expect(result.status).toBe('OK');
		expect(api.apiRequests().map((r) => r.path)).toEqual(['/api/v1/projects']);
	});

	it('says what to fix when nothing answers at the Base URL (a closed port)', async () => {
		const port = await closedPort();
		const result = await testCredential({ ...api.credential, baseUrl: `http://127.0.0.1:${port}` });

		expect(result).toEqual({
			status: 'Error',
			message: `Could not reach phpRank at 127.0.0.1:${port}: the connection was refused (nothing listens at that address and port). Check the port in the Base URL (without one, https:// means 443 and http:// 80) and that phpRank is running.`,
		});
	});

	it.each<[string, () => Partial<TestCredential>, string | RegExp]>([
		[
			'the plan has no API access (403)',
			() => ({ apiKey: NO_API_PLAN_KEY }),
			/plan has no API access/,
		],
		[
			'the host name does not resolve',
			() => ({ baseUrl: 'https://seo.phprank-test.invalid' }),
			/^Could not reach phpRank at seo\.phprank-test\.invalid: the host name could not be resolved.*\. Check the host name in the Base URL for typos\.$/,
		],
		[
			'the Base URL is no web address at all',
			() => ({ baseUrl: 'https://seo example.com' }),
			CREDENTIAL_TEST_MESSAGES.invalidUrl,
		],
		[
			'the Base URL has no phpRank API behind it (404)',
			() => ({ baseUrl: `${api.server.url}/wordpress` }),
			/No phpRank API at this Base URL \(HTTP 404\)/,
		],
	])('says so when %s', async (_what, credential, message) => {
		const result = await testCredential({ ...api.credential, ...credential() });

		expect(result).toEqual({
			status: 'Error',
			message: typeof message === 'string' ? message : expect.stringMatching(message),
		});
	});

	it.each(['seo.example.com', '127.0.0.1:8787', 'ftp://seo.example.com', ''])(
		'says the Base URL needs https:// when it is %j, before sending anything',
		async (baseUrl) => {
			const result = await testCredential({ ...api.credential, baseUrl });

			expect(result).toEqual({ status: 'Error', message: CREDENTIAL_TEST_MESSAGES.noScheme });
			expect(result.message).toMatch(/^The Base URL must start with https:\/\/ \(or http:\/\/\)/);
			expect(api.server.requests).toHaveLength(0);
		},
	);

	it('says where the Base URL redirects to, without following it', async () => {
		api.server.failNext({ type: 'redirect' });

		const result = await testCredential(api.credential);

		expect(result.status).toBe('Error');
		expect(result.message).toBe(
			`This Base URL redirects (HTTP 302) to ${api.server.url}, and the phpRank node does not follow redirects. Enter the address phpRank answers at, e.g. ${api.server.url} if that is your instance.`,
		);
		expect(api.server.requests.map((r) => r.path)).toEqual(['/api/v1/projects']);
	});

	it.each([
		[
			{ type: 'status', status: 500 } as const,
			/^The phpRank server at 127\.0\.0\.1:\d+ failed \(HTTP 500\)\. Try again later/,
		],
		[
			{ type: 'html', status: 502 } as const,
			/^The phpRank server at 127\.0\.0\.1:\d+ failed \(HTTP 502\)/,
		],
		[
			{ type: 'status', status: 429, headers: { 'Retry-After': '30' } } as const,
			/^phpRank is rate limiting this API key \(HTTP 429\)/,
		],
		[
			{ type: 'status', status: 418, body: { message: 'teapot' } } as const,
			/^phpRank at 127\.0\.0\.1:\d+ answered HTTP 418 I'm a Teapot\.$/i,
		],
		[{ type: 'truncated' } as const, /^This Base URL answers, but not like a phpRank API/],
		[
			{
				type: 'status',
				status: 200,
				body: '<!doctype html><title>Welcome</title><p>Hello',
				headers: { 'Content-Type': 'text/html' },
			} as const,
			/answers, but not like a phpRank API/,
		],
		[
			{ type: 'reset' } as const,
			/^Could not reach phpRank at 127\.0\.0\.1:\d+: the connection was reset before an answer came\. Check the Base URL, and that phpRank is online/,
		],
	])('says what happened when phpRank answers with %j', async (fault, message) => {
		api.server.failNext(fault);

		const result = await testCredential(api.credential);

		expect(result).toEqual({ status: 'Error', message: expect.stringMatching(message) });
		expect(result.message).not.toContain(TEST_API_KEY);
	});
});

describe('phpRank on a sub-path', () => {
	const api = useServer({ basePath: '/phprank', seed: (server) => server.seedReports(1) });

	it('sends every request to <instance>/api/v1, whatever shape the Base URL has', async () => {
		for (const suffix of ['', '/', '/api/v1', '/api/v1/']) {
			const items = await api.ok(
				{ resource: 'report', operation: 'get', reportId: locator('id', '1') },
				{ credential: { ...api.credential, baseUrl: `${api.server.url}${suffix}` } },
			);
			expect(items).toHaveLength(1);
		}
		expect(api.apiRequests().map((r) => r.path)).toEqual(
			Array(4).fill('/phprank/api/v1/reports/1'),
		);
	});
});

describe('Authentication of node requests', () => {
	const api = useServer({ seed: (server) => server.seedReports(2) });

	it('sends Authorization: Bearer <key> and Accept: application/json on every request', async () => {
		await api.ok({ resource: 'report', operation: 'getAll', returnAll: true });
		expect(api.calls()).toEqual(['GET /api/v1/reports?per_page=100&page=1']);
		const { headers } = api.apiRequests()[0];
		expect(headers.authorization).toBe(`Bearer ${TEST_API_KEY}`);
		expect(headers.accept).toBe('application/json');
	});

	it('fails with a clear message, and without the key in it, when the key is wrong', async () => {
		const wrongKey = 'wrong-key-0123456789';
		const { error, items } = await runNode(
			{ resource: 'report', operation: 'getAll', returnAll: true },
			{ ...api.credential, apiKey: wrongKey },
		);

		expect(items).toEqual([]);
		expect(error?.message).toBe('The phpRank API key was rejected (HTTP 401)');
		expect(error?.description).toMatch(/paste the API key again/);
		expect(JSON.stringify(error)).not.toContain(wrongKey);
		expect(api.apiRequests()[0].headers.authorization).toBe(`Bearer ${wrongKey}`);
	});

	it('refuses a Base URL without a scheme before sending anything', async () => {
		const error = await api.refuses(
			{ resource: 'report', operation: 'getAll', returnAll: true },
			/^The Base URL of the phpRank credential is invalid$/,
			{ credential: { ...api.credential, baseUrl: api.server.url.replace('http://', '') } },
		);
		expect(error.description).toMatch(/starting with https:\/\//);
	});
});
