import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INodeType,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { deleteRoute, listRoute, recordRoute } from '../nodes/PhpRank/engine/routes';
import { defineResource } from '../nodes/PhpRank/transport/resource';
import { registerNodeType, runNode } from './harness/engine';

/*
 * The structure's promise: a resource declares itself (a spec beside its descriptions) and gets
 * the whole request path (budget, paging, checks, errors, secrets) without an edit in transport/ or
 * operations/. This one exists only here: "widgets", keyed by a slug, with a secret parameter.
 */
const widgetSpec = defineResource({
	noun: 'widget',
	plural: 'widgets',
	path: '/widgets',
	key: 'slug',
	keyName: 'widget slug',
	quoteKey: true,
	record: { describe: 'widget with a slug in "data"', key: /^[a-z0-9-]+$/ },
	secretParameters: [['widgetSecret']],
});

async function widgetPath(
	this: IExecuteSingleFunctions,
	options: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	return {
		...options,
		url: `/widgets/${encodeURIComponent(String(this.getNodeParameter('slug')))}`,
	};
}

const WIDGET_TYPE = 'test.widgets';
const widgetNode: INodeType = {
	description: {
		displayName: 'Widgets',
		name: 'widgets',
		group: ['transform'],
		version: 1,
		description: 'A throwaway resource',
		defaults: { name: 'Widgets' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'phpRankApi', required: true }],
		requestDefaults: {},
		properties: [
			{
				displayName: 'Operation',
				name: 'operation',
				type: 'options',
				noDataExpression: true,
				options: [
					{
						name: 'Get',
						value: 'get',
						routing: recordRoute(widgetSpec, { method: 'GET' }, { preSend: [widgetPath] }),
					},
					{ name: 'Get Many', value: 'getAll', routing: listRoute(widgetSpec, {}) },
					{
						name: 'Delete',
						value: 'delete',
						routing: deleteRoute(widgetSpec, { preSend: [widgetPath] }),
					},
				],
				default: 'getAll',
			},
			{ displayName: 'Slug', name: 'slug', type: 'string', default: '' },
			{
				displayName: 'Secret',
				name: 'widgetSecret',
				type: 'string',
				typeOptions: { password: true },
				default: '',
			},
			{ displayName: 'Return All', name: 'returnAll', type: 'boolean', default: false },
			{ displayName: 'Limit', name: 'limit', type: 'number', default: 50 },
		],
	},
};
registerNodeType(WIDGET_TYPE, widgetNode);
const WIDGET_NODE = { type: WIDGET_TYPE, name: 'Widgets' };

const WIDGETS = Array.from({ length: 23 }, (_, i) => ({
	slug: `w-${String(i + 1).padStart(2, '0')}`,
	colour: 'blue',
}));

describe('a resource declared outside the package (descriptions only)', () => {
	let server: Server;
	let baseUrl: string;
	const seen: string[] = [];

	beforeAll(async () => {
		server = createServer((req: IncomingMessage, res: ServerResponse) => {
			seen.push(`${req.method} ${req.url}`);
			const url = new URL(req.url ?? '/', 'http://x');
			const send = (status: number, body: unknown) => {
				res.writeHead(status, {
					'Content-Type': 'application/json',
					'X-RateLimit-Limit': '60',
					'X-RateLimit-Remaining': '59',
				});
				res.end(JSON.stringify(body));
			};
			if (req.headers.authorization !== 'Bearer widget-key')
				return send(401, { message: 'Unauthenticated.' });
			if (url.pathname === '/api/v1/widgets') {
				const perPage = Number(url.searchParams.get('per_page'));
				const page = Number(url.searchParams.get('page'));
				const data = WIDGETS.slice((page - 1) * perPage, page * perPage);
				return send(200, {
					data,
					meta: {
						current_page: page,
						last_page: Math.ceil(WIDGETS.length / perPage),
						per_page: perPage,
						total: WIDGETS.length,
					},
				});
			}
			const slug = decodeURIComponent(url.pathname.replace('/api/v1/widgets/', ''));
			const widget = WIDGETS.find((w) => w.slug === slug);
			if (!widget) return send(404, { message: 'Resource not found.', status: 404 });
			if (req.method === 'DELETE') return send(200, { id: slug, deleted: true });
			return send(200, { data: widget });
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	});
	afterAll(async () => await new Promise((resolve) => server.close(resolve)));
	beforeEach(() => (seen.length = 0));

	const run = (parameters: IDataObject) =>
		runNode(parameters, { baseUrl, apiKey: 'widget-key' }, { settings: WIDGET_NODE });

	it('Get Many reads the list by the shared paging rule: a Limit of 12 asks for one page of 25', async () => {
		const { items, error } = await run({ operation: 'getAll', returnAll: false, limit: 12 });
		expect(error).toBeUndefined();
		expect(items.map((item) => item.json.slug)).toEqual(WIDGETS.slice(0, 12).map((w) => w.slug));
		expect(seen).toEqual(['GET /api/v1/widgets?per_page=25&page=1']);
	});

	it('Return All returns every widget once, keyed by slug', async () => {
		const { items, error } = await run({ operation: 'getAll', returnAll: true });
		expect(error).toBeUndefined();
		expect(items.map((item) => item.json.slug)).toEqual(WIDGETS.map((w) => w.slug));
		expect(seen).toEqual(['GET /api/v1/widgets?per_page=100&page=1']);
	});

	it('Get answers with the record, checked against the declared shape', async () => {
		const { items, error } = await run({ operation: 'get', slug: 'w-07' });
		expect(error).toBeUndefined();
		expect(items.map((item) => item.json)).toEqual([{ slug: 'w-07', colour: 'blue' }]);
		expect(seen).toEqual(['GET /api/v1/widgets/w-07']);
	});

	it('errors speak of widgets and their slug, and mask the declared secret parameter', async () => {
		const { error } = await run({ operation: 'get', slug: 'nope', widgetSecret: 'hunter2' });
		expect(error?.message).toBe('Widget "nope" was not found (HTTP 404)');
		expect(error?.description).toBe(
			'Check the widget slug: it may have been deleted, or belong to another user.',
		);
		expect(JSON.stringify(error)).not.toContain('hunter2');
		expect(
			(error as unknown as { node: { parameters: Record<string, unknown> } }).node.parameters
				.widgetSecret,
		).toBe('[hidden]');
	});

	it('Delete checks the delete answer', async () => {
		const { items, error } = await run({ operation: 'delete', slug: 'w-01' });
		expect(error).toBeUndefined();
		expect(items[0].json).toEqual({ id: 'w-01', deleted: true });
		expect(seen).toEqual(['DELETE /api/v1/widgets/w-01']);
	});
});
