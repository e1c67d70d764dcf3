import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { NO_API_PLAN_KEY, PhpRankServer, TEST_API_KEY } from './server';
import { runNode, testCredential } from './harness/engine';
import { locator, useServer } from './harness/setup';

describe('phpRank API credential', () => {
	const api = useServer({ seed: (server) => server.seedReports(3) });

	it('passes the credential test with the right key, through n8n’s routing engine', async () => {
		const result = await testCredential(api.credential);

		expect(result).toEqual({ status: 'OK', message: 'Connection successful!' });
		const [request] = api.apiRequests();
		expect(request.method).toBe('GET');
		expect(request.path).toBe('/api/v1/projects');
		expect(request.headers.authorization).toBe(`Bearer ${TEST_API_KEY}`);
		expect(request.headers.accept).toBe('application/json');
	});

	it('says the key was rejected when it is wrong', async () => {
		const result = await testCredential({ ...api.credential, apiKey: 'not-the-key' });

		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/API key was rejected \(HTTP 401\)/);
	});

	it('says the plan has no API access when phpRank answers 403', async () => {
		const result = await testCredential({ ...api.credential, apiKey: NO_API_PLAN_KEY });

		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/plan has no API access/);
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

	it('says when nothing answers at the Base URL', async () => {
		const closed = http.createServer();
		await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
		const { port } = closed.address() as AddressInfo;
		await new Promise((resolve) => closed.close(resolve));

		const result = await testCredential({ ...api.credential, baseUrl: `http://127.0.0.1:${port}` });

		expect(result).toEqual({ status: 'Error', message: 'ECONNREFUSED' });
	});

	it('says when the Base URL answers with a web page instead of the API', async () => {
		const website = http.createServer((_req, res) => {
			res.writeHead(200, { 'Content-Type': 'text/html' });
			res.end('<!doctype html><title>Welcome</title><p>Hello');
		});
		await new Promise<void>((resolve) => website.listen(0, '127.0.0.1', resolve));
		const { port } = website.address() as AddressInfo;
		try {
			const result = await testCredential({ ...api.credential, baseUrl: `http://127.0.0.1:${port}` });

			expect(result.status).toBe('Error');
			expect(result.message).toMatch(/answers, but not like a phpRank API/);
		} finally {
			await new Promise((resolve) => website.close(resolve));
		}
	});

	it('says when the Base URL has no phpRank API behind it (404)', async () => {
		const result = await testCredential({ ...api.credential, baseUrl: `${api.server.url}/wordpress` });

		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/No phpRank API at this Base URL \(HTTP 404\)/);
	});
});

describe('phpRank on a sub-path', () => {
	const api = useServer({ basePath: '/phprank', seed: (server) => server.seedReports(1) });

	it('sends every request to <instance>/api/v1, whatever shape the Base URL has', async () => {
		for (const suffix of ['', '/', '/api/v1', '/api/v1/']) {
			const { items, error } = await runNode(
				{ resource: 'report', operation: 'get', reportId: locator('id', '1') },
				{ ...api.credential, baseUrl: `${api.server.url}${suffix}` },
			);
			expect(error).toBeUndefined();
			expect(items).toHaveLength(1);
		}
		expect(api.apiRequests().map((r) => r.path)).toEqual(Array(4).fill('/phprank/api/v1/reports/1'));
	});
});

describe('Authentication of node requests', () => {
	const api = useServer({ seed: (server) => server.seedReports(2) });

	it('sends Authorization: Bearer <key> and Accept: application/json on every request', async () => {
		const { error } = await runNode({ resource: 'report', operation: 'getAll', returnAll: true }, api.credential);

		expect(error).toBeUndefined();
		const requests = api.apiRequests();
		expect(requests).toHaveLength(1);
		expect(requests[0].headers.authorization).toBe(`Bearer ${TEST_API_KEY}`);
		expect(requests[0].headers.accept).toBe('application/json');
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
		const server = api.server as PhpRankServer;
		const { error } = await runNode(
			{ resource: 'report', operation: 'getAll', returnAll: true },
			{ ...api.credential, baseUrl: server.url.replace('http://', '') },
		);

		expect(error?.message).toBe('The Base URL of the phpRank credential is invalid');
		expect(error?.description).toMatch(/starting with https:\/\//);
		expect(api.apiRequests()).toHaveLength(0);
	});
});
