import type {
	DeclarativeRestApiSettings,
	IDataObject,
	IExecutePaginationFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	INodeExecutionData,
	INodePropertyRouting,
	PostReceiveAction,
	PreSendAction,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { checkListQuery, PAGE_SIZES } from '../helpers/preSend';
import { assertBaseUrl, phpRankRequest } from './request';

/*
 * RoutingNode sends a declarative node's request itself; the only hook that wraps the call is
 * `routing.operations.pagination`, used when `routing.send.paginate` is true. Every operation of
 * this node routes through one of the two functions below, so retries, error translation and
 * paging live here, and each operation's description still declares its method, path, fields
 * and output steps.
 */

type RoutingData = DeclarativeRestApiSettings.ResultOptions;

const MAX_PAGE_SIZE = 100;

/** For single-record operations: one request, then the operation's output steps. */
export async function sendRequest(
	this: IExecutePaginationFunctions,
	routing: RoutingData,
): Promise<INodeExecutionData[]> {
	const response = await send.call(this, routing.options);
	const items = await applyOutputSteps.call(this, routing, [{ json: response.body as IDataObject }], response);
	return pairedWithInput.call(this, items);
}

/**
 * For list operations: pages through `page=1..n` on the credential's own host (never following
 * `links.next`, which is an absolute URL and could carry the key elsewhere), with the filters and
 * sort of the first request kept on every page. Stops at the last page or once the limit is met,
 * so N results cost ceil(N / page size) requests.
 */
export async function fetchPages(
	this: IExecutePaginationFunctions,
	routing: RoutingData,
): Promise<INodeExecutionData[]> {
	const returnAll = this.getNodeParameter('returnAll', false) as boolean;
	const limit = returnAll ? Infinity : (this.getNodeParameter('limit', 50) as number);
	const qs = { ...(routing.options.qs ?? {}) } as IDataObject;
	if (qs.per_page === undefined) qs.per_page = pageSizeFor(limit);
	const results: INodeExecutionData[] = [];

	for (let page = 1; results.length < limit; page++) {
		const response = await send.call(this, { ...routing.options, qs: { ...qs, page } });
		const body = response.body as IDataObject;
		const records = Array.isArray(body.data) ? (body.data as IDataObject[]) : [];
		const items = records.map((json) => ({ json }));
		results.push(...(await applyOutputSteps.call(this, routing, items, response)));

		if (isLastPage((body.meta ?? {}) as IDataObject, page, records.length, Number(qs.per_page))) break;
	}
	return pairedWithInput.call(this, results.slice(0, limit));
}

/**
 * n8n pairs output to input items by itself only when their counts match; a list operation run
 * for several input items returns any number of items per input, so each is paired explicitly.
 */
function pairedWithInput(this: IExecutePaginationFunctions, items: INodeExecutionData[]): INodeExecutionData[] {
	const item = this.getItemIndex();
	return items.map((output) => ({ ...output, pairedItem: { item } }));
}

/**
 * Whether a list page is the last: by the paginator's `meta` (real instances), else by a short
 * page (instances that follow the seed spec, which does not show a paginator).
 */
export function isLastPage(meta: IDataObject, page: number, records: number, perPage: number): boolean {
	if (records === 0) return true;
	const lastPage = Number(meta.last_page);
	return Number.isFinite(lastPage)
		? Number(meta.current_page ?? page) >= lastPage
		: records < Number(meta.per_page ?? perPage);
}

/** The smallest page size that holds `limit` results in one page, or the largest one. */
export function pageSizeFor(limit: number): number {
	return PAGE_SIZES.find((size) => size >= limit) ?? MAX_PAGE_SIZE;
}

async function send(
	this: IExecutePaginationFunctions,
	options: DeclarativeRestApiSettings.HttpRequestOptions,
): Promise<IN8nHttpFullResponse> {
	assertBaseUrl.call(this, options.baseURL);
	return await phpRankRequest.call(this, options as IHttpRequestOptions);
}

/**
 * Runs the operation's `routing.output.postReceive` steps, as RoutingNode does for requests it
 * sends itself. Only function steps are used in this node, so only those are supported.
 */
async function applyOutputSteps(
	this: IExecutePaginationFunctions,
	routing: RoutingData,
	items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	for (const { actions } of routing.postReceive) {
		for (const action of actions) {
			if (typeof action !== 'function') {
				throw new NodeOperationError(this.getNode(), 'Only function output steps are supported');
			}
			items = await action.call(this, items, response);
		}
	}
	return items;
}

type Steps = { preSend?: PreSendAction[]; postReceive?: PostReceiveAction[] };

/** The routing of an operation on one record: its request, sent through `sendRequest`. */
export function singleRoute(
	request: DeclarativeRestApiSettings.HttpRequestOptions,
	{ preSend = [], postReceive = [] }: Steps,
): INodePropertyRouting {
	return {
		request,
		send: { paginate: true, preSend },
		operations: { pagination: sendRequest },
		output: { postReceive },
	};
}

/** The routing of a list operation: paged by `fetchPages`, its query checked first. */
export function listRoute(url: string, { postReceive = [] }: Steps): INodePropertyRouting {
	return {
		request: { method: 'GET', url },
		send: { paginate: true, preSend: [checkListQuery] },
		operations: { pagination: fetchPages },
		output: { postReceive },
	};
}
