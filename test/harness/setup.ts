import { createServer } from 'node:http';

import type { ExecutionError, IDataObject, INodeExecutionData } from 'n8n-workflow';

import { PhpRankServer, TEST_API_KEY, type RecordedRequest, type ServerOptions } from '../server';
import { startN8nApi, type N8nApi } from '../server/n8nApi';
import { runNode, type RunResult, type TestCredential, type TestN8nApiCredential } from './engine';

type RunOptions = Parameters<typeof runNode>[2] & { credential?: TestCredential };

export interface ServerFixture {
	server: PhpRankServer;
	/** The credential a user would enter for this server. */
	credential: TestCredential;
	/** The API requests the server received since the last test started. */
	apiRequests(): RecordedRequest[];
	/** The same, each as `METHOD /path?query` (the query as sent, when there is one). */
	calls(): string[];
	/** The API requests of one method. */
	sent(method: string): RecordedRequest[];
	/** Deletes every report and scripted analysis, and forgets the requests. */
	reset(): void;
	/** Runs the node with this server's credential (or `options.credential`). */
	run(parameters: IDataObject, options?: RunOptions): Promise<RunResult>;
	/** The same, expecting no error: the node's items. */
	ok(parameters: IDataObject, options?: RunOptions): Promise<INodeExecutionData[]>;
	/** The same: the first item's JSON. */
	first(parameters: IDataObject, options?: RunOptions): Promise<IDataObject>;
	/**
	 * Runs the node and expects it refused with `message` (a string: the whole message) before any
	 * API request, the error with a description. Returns the error.
	 */
	refuses(
		parameters: IDataObject,
		message: RegExp | string,
		options?: RunOptions,
	): Promise<ExecutionError>;
}

/**
 * Starts a phpRank test server for the test file (throttle off unless asked for), and forgets
 * the recorded requests and the unused faults before each test. Returns a fixture whose fields are set once started.
 */
export function useServer(
	options: ServerOptions & { seed?: (server: PhpRankServer) => void } = {},
): ServerFixture {
	const { seed, ...serverOptions } = options;
	const fixture = {} as ServerFixture;
	beforeAll(async () => {
		fixture.server = new PhpRankServer({ throttle: false, ...serverOptions });
		seed?.(fixture.server);
		await fixture.server.start();
		fixture.credential = { baseUrl: fixture.server.url, apiKey: TEST_API_KEY };
	});
	fixture.apiRequests = () =>
		fixture.server.requests.filter((request) => request.path.includes('/api/v1'));
	fixture.calls = () =>
		fixture.apiRequests().map((r) => `${r.method} ${r.path}${r.rawQuery ? `?${r.rawQuery}` : ''}`);
	fixture.run = async (parameters, { credential, ...run } = {}) =>
		await runNode(parameters, credential ?? fixture.credential, run);
	fixture.ok = async (parameters, run) => {
		const { items, error } = await fixture.run(parameters, run);
		expect(error).toBeUndefined();
		return items;
	};
	fixture.first = async (parameters, run) => (await fixture.ok(parameters, run))[0].json;
	fixture.sent = (method) => fixture.apiRequests().filter((r) => r.method === method);
	fixture.reset = () => {
		fixture.server.deleteAllReports();
		fixture.server.clearAnalyses();
		fixture.server.clearRequests();
	};
	fixture.refuses = async (parameters, message, run) => {
		const { error } = await fixture.run(parameters, run);
		if (typeof message === 'string') expect(error?.message).toBe(message);
		else expect(error?.message).toMatch(message);
		expect(error?.description).toBeTruthy();
		expect(fixture.apiRequests()).toEqual([]);
		return error!;
	};
	beforeEach(() => {
		fixture.server.clearRequests();
		fixture.server.clearFaults();
	});
	afterAll(async () => await fixture.server.stop());
	return fixture;
}

export interface N8nApiFixture {
	/** The stand-in for n8n's public API (data tables). */
	api: N8nApi;
	/** The phpRank History Store API credential for it. */
	credential: TestN8nApiCredential;
	/** Deletes every table, forgets the requests and drops unused faults. */
	reset(): void;
}

/** Starts the stand-in for n8n's public API for the test file (or describe block). */
export function useN8nApi(apiKey = 'n8n-test-key'): N8nApiFixture {
	const fixture = {} as N8nApiFixture;
	beforeAll(async () => {
		fixture.api = await startN8nApi({ apiKey });
		fixture.credential = { baseUrl: fixture.api.url, apiKey };
	});
	fixture.reset = () => {
		for (const table of fixture.api.tables.all()) fixture.api.tables.delete(table.id);
		fixture.api.requests.length = 0;
		fixture.api.clearFaults();
	};
	afterAll(async () => await fixture.api.close());
	return fixture;
}

/** For failNext: the request that creates a report of `url` (the URL as the node sent it). */
export const createOf = (url: string) => (request: RecordedRequest) =>
	request.method === 'POST' && String(request.form.url) === url;

/** A port on 127.0.0.1 nothing listens at. */
export async function closedPort(): Promise<number> {
	// Below Linux's ephemeral ports (32768+): a connection retried to an ephemeral port can be
	// given that very port as its own and connect to itself, and then hang instead of being refused.
	for (;;) {
		const closed = createServer();
		const port = 20_000 + Math.floor(Math.random() * 10_000);
		const free = await new Promise<boolean>((resolve) => {
			closed.once('error', () => resolve(false)).listen(port, '127.0.0.1', () => resolve(true));
		});
		if (free) await new Promise((resolve) => closed.close(resolve));
		if (free) return port;
	}
}

/** A resource locator value as n8n stores it. */
export function locator(mode: string, value: string | number) {
	return { __rl: true, mode, value };
}

/** Project → Get Health of `project` (by name). */
export const healthParameters = (project: string, extra: IDataObject = {}): IDataObject => ({
	resource: 'project',
	operation: 'getHealth',
	project: locator('name', project),
	...extra,
});

/** Report → `operation` with `extra`. */
export const reportParameters = (operation: string, extra: IDataObject = {}) => ({
	resource: 'report',
	operation,
	...extra,
});
/** Report → Get of the report `id` (a number, or an expression). */
export const getParameters = (id: string | number, extra: IDataObject = {}) =>
	reportParameters('get', { reportId: locator('id', String(id)), ...extra });
export const createParameters = (url: string, extra: IDataObject = {}) =>
	reportParameters('create', { url, ...extra });
export const updateParameters = (id: string | number, updateFields: IDataObject) =>
	reportParameters('update', { reportId: locator('id', String(id)), updateFields });

/** Report → Create or Re-Run of each input item's `url`, private reports (One Item per Page). */
export function createOrRerunParameters(extra: IDataObject = {}): IDataObject {
	return {
		resource: 'report',
		operation: 'createOrRerun',
		url: '={{ $json.url }}',
		privacy: 1,
		...extra,
	};
}

/**
 * Create or Re-Run, Output: One Item per Site: the node as the site and history tests run it
 * (Simplify off unless `extra` says otherwise).
 */
export function perSiteParameters(extra: IDataObject = {}): IDataObject {
	return createOrRerunParameters({ output: 'sites', simplify: false, ...extra });
}
