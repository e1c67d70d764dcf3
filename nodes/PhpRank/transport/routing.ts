import type {
	DeclarativeRestApiSettings,
	IDataObject,
	IExecutePaginationFunctions,
	IHttpRequestOptions,
	INodeExecutionData,
} from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { ANALYSIS_TIMEOUT_MS, MAX_PAGE_SIZE, PAGE_SIZES, READ_TIMEOUT_MS } from '../api';
import { readListPages } from '../helpers/lists';
import { inputError } from './errors';
import type { ListPage } from './paging';
import { redactedNode } from './redact';
import { doneBefore, fingerprintOf, onTheWire, recordDone, runOf, stopRun } from './run';
import { connectionOf, errorContextOf, exchange, type Connection, requestOptionsFor, setPendingExchange } from './send';

/*
 * RoutingNode builds each item's request from the operation's description and sends it; the only
 * hook around the sending is `routing.operations.pagination` (used when `send.paginate` is true).
 * Every operation uses one of the two hooks below, and each sends through n8n's own pipeline,
 * `this.makeRoutingRequest` (authentication, n8n's HTTP client, the operation's output steps),
 * adding what n8n does not do: the instance taken from the credential once per run (an
 * expression in `requestDefaults` would be evaluated again for every item), the user's request
 * budget, resends after 429, paging, and what happens to the other items when one fails.
 */

type RoutingData = DeclarativeRestApiSettings.ResultOptions;

/** Single-record operations: one request, its output steps, the item's pairing. */
export async function sendRecord(this: IExecutePaginationFunctions, routing: RoutingData): Promise<INodeExecutionData[]> {
	const run = runOf(this);
	try {
		const connection = await connectionOf(this);
		const options = requestOptionsFor(connection, routing.options as IHttpRequestOptions, timeoutFor(this, routing.options));
		const changes = options.method !== 'GET';
		const fingerprint = fingerprintOf([options.method, options.url, options.body]);
		const before = changes ? doneBefore(run, this.getItemIndex(), fingerprint) : undefined;
		if (before) return paired.call(this, before);

		const { items } = await send.call(this, connection, routing, options, run.stop.signal, run);
		if (changes) recordDone(run, this.getItemIndex(), fingerprint, items, options.method === 'POST');
		return paired.call(this, items);
	} catch (error) {
		return await failed.call(this, run, error);
	}
}

/**
 * List operations: pages `page=1..n` on the credential's own host (never `links.next`, an absolute
 * URL that could carry the key elsewhere) by the shared paging rule, with the filters and sort of
 * the first request on every page, until the list or the limit ends.
 */
export async function fetchPages(this: IExecutePaginationFunctions, routing: RoutingData): Promise<INodeExecutionData[]> {
	const run = runOf(this);
	try {
		const connection = await connectionOf(this);
		const returnAll = this.getNodeParameter('returnAll', false) as boolean;
		const limit = returnAll ? Infinity : (this.getNodeParameter('limit', 50) as number);
		const options = requestOptionsFor(connection, routing.options as IHttpRequestOptions, timeoutFor(this, routing.options));
		const perPage = Number(options.qs?.per_page ?? pageSizeFor(limit));
		const keyField = options.url.startsWith('/projects') ? 'project' : 'id';
		const item = this.getItemIndex();
		const qs = options.qs ?? {};
		// Reports sorted newest first (phpRank's default) make the paging rule exact on a moving list.
		const newestFirst = keyField === 'id' && (qs.sort_by ?? 'id') === 'id' && (qs.sort ?? 'desc') === 'desc';

		/*
		 * Reading ahead: once a page is answered (before n8n runs its output steps), the next one is
		 * asked for, so phpRank prepares it while this one is shaped. Its request comes at the same
		 * point of the list's life as it would after the shaping; when the paging rule asks for
		 * another page instead (the list moved), it is dropped.
		 */
		let ahead: { page: number; result: Promise<ListPage> } | undefined;
		let asked = 0;
		const dropped: Array<Promise<unknown>> = [];
		const request = (page: number): Promise<ListPage> => {
			const pageOptions = { ...options, qs: { ...options.qs, per_page: perPage, page } };
			const readAhead = (meta: IDataObject) => {
				const more =
					page === asked && Number(meta.current_page ?? page) === page && page < Number(meta.last_page) && page * perPage < limit;
				if (!more) return;
				const result = request(page + 1);
				result.catch(() => undefined);
				ahead = { page: page + 1, result };
			};
			return send
				.call(this, connection, routing, pageOptions, run.stop.signal, run, readAhead)
				.then(({ items: pageItems, meta }) => ({ records: pageItems.map(({ json }) => json), meta: meta ?? {} }));
		};

		const { items } = await readListPages<INodeExecutionData>(
			this,
			async (page) => {
				asked = page;
				if (ahead && ahead.page !== page) dropped.push(ahead.result);
				const next = ahead?.page === page ? ahead.result : request(page);
				ahead = undefined;
				return await next;
			},
			{
				perPage,
				limit,
				newestFirst,
				keyOf: (record) => record[keyField] as string | number,
				// Paired as they arrive: one object per result, not a copy per step.
				map: (records) => records.map((json) => ({ json, pairedItem: { item } })),
			},
		).finally(async () => {
			// Nothing of this run may still be on its way when the node has finished.
			if (ahead) dropped.push(ahead.result);
			await Promise.allSettled(dropped);
		});
		return items;
	} catch (error) {
		return await failed.call(this, run, error);
	}
}

/** One request of an item through n8n's pipeline, within the budget; the list's paginator with it. */
async function send(
	this: IExecutePaginationFunctions,
	connection: Connection,
	routing: RoutingData,
	options: IHttpRequestOptions,
	stop: AbortSignal,
	run: ReturnType<typeof runOf>,
	onListPage?: (meta: IDataObject) => void,
): Promise<{ items: INodeExecutionData[]; meta?: IDataObject }> {
	const errorContext = errorContextOf(connection, options.method ?? 'GET', options.url, options.body as IDataObject);
	return await exchange(
		this,
		connection,
		errorContext,
		async (current) => {
			current.onListPage = onListPage;
			setPendingExchange(this, current);
			const items = await onTheWire(
				run,
				this.makeRoutingRequest({ ...routing, options: options as DeclarativeRestApiSettings.HttpRequestOptions }),
			);
			return { items, meta: current.meta };
		},
		stop,
	);
}

/**
 * A failed item. With On Error → Continue it becomes an error item paired to its input (the error
 * output then carries the input's fields, so it says which row failed); otherwise the node stops,
 * see `stopRun`.
 */
async function failed(
	this: IExecutePaginationFunctions,
	run: ReturnType<typeof runOf>,
	caught: unknown,
): Promise<INodeExecutionData[]> {
	// Every request error is a NodeApiError already; anything else (n8n's own, e.g. a missing
	// credential) keeps its text, on the node with report passwords masked.
	const error =
		caught instanceof NodeApiError
			? caught
			: inputError(
					redactedNode(this.getNode()),
					caught instanceof Error ? caught.message : String(caught),
					(caught as { description?: string } | undefined)?.description ?? '',
					this.getItemIndex(),
				);
	error.context.itemIndex = this.getItemIndex();
	if (this.continueOnFail()) {
		// Only `error` and `details`: n8n's error output then adds the input item's fields.
		return [{ json: { error: error.message, details: error.description ?? '' }, pairedItem: { item: this.getItemIndex() } }];
	}
	throw await stopRun(this, run, error);
}

/**
 * n8n pairs output to input items by itself only when their counts match; a list operation run
 * for several input items returns any number of items per input, so each is paired explicitly.
 */
function paired(this: IExecutePaginationFunctions, items: INodeExecutionData[]): INodeExecutionData[] {
	const item = this.getItemIndex();
	return items.map((output) => ({ ...output, pairedItem: { item } }));
}

/** Request Options → Timeout when set; else a timeout that fits what phpRank does for the request. */
function timeoutFor(ctx: IExecutePaginationFunctions, options: DeclarativeRestApiSettings.HttpRequestOptions): number {
	const chosen = Number(ctx.getNodeParameter('requestOptions.timeout', 0));
	if (chosen > 0) return chosen;
	const method = (options.method ?? 'GET').toUpperCase();
	const analyses = method === 'POST' || (method === 'PUT' && Number((options.body as IDataObject | undefined)?.results) === 1);
	return analyses ? ANALYSIS_TIMEOUT_MS : READ_TIMEOUT_MS;
}

/** The smallest page size that holds `limit` results in one page, or the largest one. */
export function pageSizeFor(limit: number): number {
	return PAGE_SIZES.find((size) => size >= limit) ?? MAX_PAGE_SIZE;
}
