import type {
	DeclarativeRestApiSettings,
	IDataObject,
	IExecutePaginationFunctions,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INodeExecutionData,
	INodePropertyRouting,
	PostReceiveAction,
	PreSendAction,
} from 'n8n-workflow';

import { DEFAULT_RATE_LIMIT, MAX_PAGE_SIZE } from '../api';
import { BOUNDS } from '../bounds';
import { isToolRun } from '../transport/n8nInternals';
import { type ListPage, pageSizeFor, readList } from '../transport/paging';
import { answerCheck, callerOf, routedRequest } from '../transport/request';
import type { ResourceSpec } from '../transport/resource';
import {
	doneBefore,
	fingerprintOf,
	itemFailed,
	recordDone,
	type Run,
	runOf,
} from '../transport/run';
import { checkListQuery } from '../input';

// Each kind of operation's routing and step. Every request goes through a step in
// `routing.operations.pagination` that sends it with n8n's `makeRoutingRequest` (output steps run
// there, the answer's check first). `operationRouting` sets the run's resource and AI tool errors.

type Steps = { preSend?: PreSendAction[]; postReceive?: PostReceiveAction[] };
type RoutingData = DeclarativeRestApiSettings.ResultOptions;
type Pagination = (
	this: IExecutePaginationFunctions,
	routing: RoutingData,
) => Promise<INodeExecutionData[]>;

/** `data` of phpRank's answer, one item per record (n8n's own declarative step). */
const unwrapData: PostReceiveAction = { type: 'rootProperty', properties: { property: 'data' } };

/** A step's work before its request (reading the record before a re-run), for `forOutputSteps`. */
export type BeforeSending = (
	ctx: IExecutePaginationFunctions,
	options: IHttpRequestOptions,
	run: Run,
) => Promise<IDataObject | undefined>;

/** n8n pairs output to input by itself only when their counts match: each item is paired here. */
export function paired(
	ctx: IExecutePaginationFunctions,
	items: INodeExecutionData[],
): INodeExecutionData[] {
	const item = ctx.getItemIndex();
	return items.map((output) => ({ ...output, pairedItem: { item } }));
}

// One request on one record, through n8n's pipeline; a change an earlier try made for the item
// is returned as it was, not made again.
function recordStep(beforeSending?: BeforeSending): Pagination {
	return async function sendRecord(
		this: IExecutePaginationFunctions,
		routing: RoutingData,
	): Promise<INodeExecutionData[]> {
		const run = runOf(this);
		try {
			const options = routing.options as IHttpRequestOptions;
			const changes = options.method !== 'GET';
			const fingerprint = fingerprintOf([options.method, options.url, options.body]);
			const before = changes ? doneBefore(run, this.getItemIndex(), fingerprint) : undefined;
			if (before) return paired(this, before);

			const note = await beforeSending?.(this, options, run);
			const { items } = await routedRequest(callerOf(this, run), routing, { note });
			if (changes)
				recordDone(
					run,
					this.getItemIndex(),
					fingerprint,
					items,
					options.method === 'POST' ? run.spec : undefined,
				);
			return paired(this, items);
		} catch (error) {
			return await itemFailed(this, run, error);
		}
	};
}

/** Gives the records a filter of the node keeps (one phpRank cannot apply), or undefined: the limit then counts those only. */
export type KeepOf = (
	ctx: IExecutePaginationFunctions,
) => ((record: IDataObject) => boolean) | undefined;

// Get Many: the list reader reading ahead, each page through n8n's pipeline and output steps, with
// the first request's filters and sort on every page.
function listStep(keepOf?: KeepOf): Pagination {
	return async function fetchPages(
		this: IExecutePaginationFunctions,
		routing: RoutingData,
	): Promise<INodeExecutionData[]> {
		const run = runOf(this);
		try {
			const qs = (routing.options.qs ?? {}) as IDataObject;
			const returnAll = this.getNodeParameter('returnAll', false) as boolean;
			const limit = returnAll
				? Infinity
				: (this.getNodeParameter('limit', BOUNDS.limit.default) as number);
			const keep = keepOf?.(this);
			// A filter of the node's own may skip many records: the fewest requests are the largest pages.
			const perPage = Number(qs.per_page ?? (keep ? MAX_PAGE_SIZE : pageSizeFor(limit)));
			const item = this.getItemIndex();
			const caller = callerOf(this, run);
			const throughPipeline = async (
				pageQs: IDataObject,
				onListPage?: (meta: IDataObject) => void,
			): Promise<ListPage> => {
				const { items, meta } = await routedRequest(caller, routing, {
					options: { qs: pageQs },
					onListPage,
				});
				return { records: items.map(({ json }) => json), meta: meta ?? {} };
			};
			const { items } = await readList<INodeExecutionData>(
				caller,
				qs,
				{
					perPage,
					limit,
					keep,
					readAhead: true,
					// Paired as they arrive: one object per result, not a copy per step.
					map: (records) => records.map((json) => ({ json, pairedItem: { item } })),
				},
				throughPipeline,
			);
			return items;
		} catch (error) {
			return await itemFailed(this, run, error);
		}
	};
}

export function recordRoute(
	spec: ResourceSpec,
	request: DeclarativeRestApiSettings.HttpRequestOptions,
	{ preSend = [], postReceive = [] }: Steps,
	beforeSending?: BeforeSending,
): INodePropertyRouting {
	return operationRouting(spec, {
		request,
		send: { paginate: true, preSend },
		operations: { pagination: recordStep(beforeSending) },
		output: { postReceive: [answerCheck('record'), unwrapData, ...postReceive] },
	});
}

export function deleteRoute(
	spec: ResourceSpec,
	{ preSend = [], postReceive = [] }: Steps,
): INodePropertyRouting {
	return operationRouting(spec, {
		request: { method: 'DELETE' },
		send: { paginate: true, preSend },
		operations: { pagination: recordStep() },
		output: { postReceive: [answerCheck('deleted'), ...postReceive] },
	});
}

/** A list operation: paged by the list step, its query checked first; `keep`: see `KeepOf`. */
export function listRoute(
	spec: ResourceSpec,
	{ preSend = [], postReceive = [], keep }: Steps & { keep?: KeepOf },
): INodePropertyRouting {
	return operationRouting(spec, {
		request: { method: 'GET', url: spec.path },
		send: { paginate: true, preSend: [checkListQuery, ...preSend] },
		operations: { pagination: listStep(keep) },
		output: { postReceive: [answerCheck('list'), unwrapData, ...postReceive] },
	});
}

// The node as an AI tool (an AI Agent's, or the MCP Server Trigger's): errors answered as items.

interface ToolError {
	message?: unknown;
	description?: unknown;
	httpCode?: unknown;
	failure?: { cause?: string; retryAfterMs?: number };
}

/** The text an AI model reads for a failed call: what went wrong and what to do, in one line. */
export function toolErrorText(error: unknown): string {
	const { message, description, httpCode, failure } = (error ?? {}) as ToolError;
	if (failure?.cause === 'rate-limited' || httpCode === '429') {
		const seconds = Math.max(1, Math.round((failure?.retryAfterMs ?? 60_000) / 1000));
		return `phpRank is rate limiting requests (HTTP 429; by default it allows ${DEFAULT_RATE_LIMIT} a minute): try again in ${seconds} seconds.`;
	}
	const sentence = (text: unknown) =>
		String(text ?? '')
			.trim()
			.replace(/[.:]?$/, '.');
	const text = [message, description]
		.filter((part) => typeof part === 'string' && part.trim() !== '')
		.map(sentence);
	return text.length ? text.join(' ') : 'The phpRank call failed for an unknown reason.';
}

const INPUT_ERROR = Symbol('phpRank input error');
type DeferredOptions = IHttpRequestOptions & { [INPUT_ERROR]?: unknown };

// An operation's routing as the node runs it: the run learns the resource first (its errors mask
// its secrets); in an AI tool call it answers `{ error }` instead of throwing (n8n hands MCP
// clients a thrown error as "NodeOperationError: …", an item as it is; a refused input waits on
// the request until the operation can answer); a refused item is left out of `Run.gather`.
export function operationRouting(
	spec: ResourceSpec,
	routing: INodePropertyRouting,
): INodePropertyRouting {
	const pagination = routing.operations?.pagination as Pagination;
	async function enterRun(
		this: IExecuteSingleFunctions,
		options: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		runOf(this).resource = spec;
		return options;
	}
	const inputStep = (action: PreSendAction): PreSendAction =>
		async function checkInput(this: IExecuteSingleFunctions, options: DeferredOptions) {
			const tool = isToolRun(this);
			if (tool && options[INPUT_ERROR] !== undefined) return options;
			let refused: unknown;
			try {
				return await action.call(this, options);
			} catch (error) {
				if (tool) return { ...options, [INPUT_ERROR]: error } as DeferredOptions;
				refused = error;
			}
			// The item never reaches its step: nothing that gathers the run's items waits for it.
			runOf(this).itemLeftOut(this.getItemIndex());
			throw refused;
		};
	async function answerToolErrors(
		this: IExecutePaginationFunctions,
		routingData: RoutingData,
	): Promise<INodeExecutionData[]> {
		if (!isToolRun(this)) return await pagination.call(this, routingData);
		const answer = (error: unknown) => [
			{ json: { error: toolErrorText(error) }, pairedItem: { item: this.getItemIndex() } },
		];
		const refused = (routingData.options as DeferredOptions)[INPUT_ERROR];
		if (refused !== undefined) return answer(refused);
		try {
			return await pagination.call(this, routingData);
		} catch (error) {
			return answer(error);
		}
	}
	return {
		...routing,
		send: { ...routing.send, preSend: [enterRun, ...(routing.send?.preSend ?? []).map(inputStep)] },
		operations: { ...routing.operations, pagination: answerToolErrors },
	};
}
