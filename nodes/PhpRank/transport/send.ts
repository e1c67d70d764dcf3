import type {
	IDataObject,
	IExecuteData,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	ILoadOptionsFunctions,
	INode,
	IPollFunctions,
} from 'n8n-workflow';
import type { NodeApiError } from 'n8n-workflow';

import { CREDENTIAL_TYPE, DEFAULT_CONCURRENCY } from '../api';
import { isToolRun, TOOL_RATE_LIMIT_WAIT_MS } from '../helpers/tool';
import { apiBaseUrl, isApiBaseUrl } from './baseUrl';
import { type Budget, budgetFor, type Slot } from './budget';
import {
	describeBadBody,
	describeForeignBody,
	describeHttpError,
	describeNetworkError,
	inputError,
	rateLimitWait,
	type ErrorContext,
} from './errors';
import { redactedNode } from './redact';

/*
 * Every phpRank request, whoever sends it (an operation through n8n's routing pipeline, a picker,
 * the trigger), goes through `exchange`: a place in the user's request budget, the request, the
 * answer checked by `inspect`, and a resend after HTTP 429 (phpRank did not process it, so that is
 * always safe). Nothing else is resent: a 5xx or a timeout on a create may have created the report.
 */

/** The contexts a phpRank request is made from: action node items, pickers, the trigger. */
export type RequestContext = IExecuteSingleFunctions | ILoadOptionsFunctions | IPollFunctions;

/** How often one request is sent again after HTTP 429 before the item fails. */
export const MAX_RATE_LIMIT_RETRIES = 30;
/** Wait used when a 429 carries no usable Retry-After header (seconds). */
const DEFAULT_RETRY_AFTER_S = 10;
/** Longest single wait honoured, so a broken header cannot stall a run for hours (seconds). */
const MAX_RETRY_AFTER_S = 120;

/** An instance as the credential names it, computed once per node run. */
export interface Connection {
	baseURL: string;
	host: string;
	scheme: string;
	budget: Budget;
}

/** What phpRank answers a request with, when it works. */
export type Expect = 'record' | 'list' | 'deleted';

/** One request in flight: what `inspect` needs to read its answer. */
export interface Exchange {
	node: INode;
	errorContext: ErrorContext;
	budget: Budget;
	slot: Slot;
	/** The answer came (any status), so the budget has been told. */
	answered: boolean;
	/** The paginator of a list answer. */
	meta?: IDataObject;
	/** Called with a list page's paginator as soon as it is known to be good (before output steps). */
	onListPage?: (meta: IDataObject) => void;
}

const connections = new WeakMap<IExecuteData, Promise<Connection>>();

/**
 * The credential's instance and the budget of its user. Items of one node run share one lookup:
 * the credential is read and checked once, not per item.
 */
export async function connectionOf(ctx: RequestContext): Promise<Connection> {
	const runKey = 'getExecuteData' in ctx ? ctx.getExecuteData() : undefined;
	const cached = runKey && connections.get(runKey);
	if (cached) return await cached;
	const connection = (async () => {
		const credentials = await ctx.getCredentials(CREDENTIAL_TYPE);
		const baseURL = apiBaseUrl(credentials.baseUrl);
		if (!isApiBaseUrl(baseURL)) {
			throw inputError(
				redactedNode(ctx.getNode()),
				'The Base URL of the phpRank credential is invalid',
				'Open the phpRank credential and enter the full address of your instance, starting with https:// (or http://), e.g. https://seo.example.com',
			);
		}
		const url = new URL(baseURL);
		const concurrency = Number(credentials.concurrency);
		return {
			baseURL,
			host: url.host,
			scheme: url.protocol.replace(/:$/, ''),
			budget: budgetFor(
				url.host,
				String(credentials.apiKey ?? ''),
				Number.isInteger(concurrency) && concurrency > 0 ? concurrency : DEFAULT_CONCURRENCY,
			),
		};
	})();
	if (runKey) {
		connections.set(runKey, connection);
		connection.catch(() => connections.delete(runKey));
	}
	return await connection;
}

/** What a failed request was about, so that its error can name it. */
export function errorContextOf(connection: Connection, method: string, url: string, body?: IDataObject): ErrorContext {
	const [collection, id] = url.split(/[?#]/)[0].split('/').filter(Boolean);
	let target: string | undefined;
	if (id !== undefined) {
		const name = safeDecode(id);
		target = collection === 'projects' ? `project "${name}"` : `report ${name}`;
	} else if (method === 'POST' && typeof body?.url === 'string') {
		target = `the report for ${body.url}`;
	}
	return { host: connection.host, scheme: connection.scheme, method, target };
}

/**
 * Sends one request (`attempt`) within the user's budget, resending it after HTTP 429, and turns
 * a request that got no answer into an error that says why. `attempt` must hand the answer to
 * `inspect` with the exchange it is given.
 */
export async function exchange<T>(
	ctx: RequestContext,
	connection: Connection,
	errorContext: ErrorContext,
	attempt: (current: Exchange) => Promise<T>,
	stop?: AbortSignal,
): Promise<T> {
	const node = redactedNode(ctx.getNode());
	const cancel = 'getExecutionCancelSignal' in ctx ? ctx.getExecutionCancelSignal() : undefined;
	const deadline = rateLimitDeadline(ctx);
	for (let retry = 0; ; retry++) {
		const blockedMs = connection.budget.blockedForMs();
		if (Date.now() + blockedMs > deadline) throw describeHttpError(node, 429, undefined, errorContext, { waitMs: blockedMs });
		let slot: Slot;
		try {
			slot = await connection.budget.acquire([cancel, stop], retry > 0);
		} catch (error) {
			throw stop?.aborted ? (stop.reason as Error) : describeNetworkError(node, { code: 'ERR_CANCELED', cause: error }, errorContext);
		}
		const current: Exchange = { node, errorContext, budget: connection.budget, slot, answered: false };
		let failure: unknown;
		try {
			return await attempt(current);
		} catch (error) {
			failure = error;
		}
		if (!current.answered) {
			connection.budget.abandon(slot);
			throw describeNetworkError(node, failure, errorContext);
		}
		const waitMs = rateLimitWait(failure);
		if (waitMs !== undefined && retry < MAX_RATE_LIMIT_RETRIES && !cancel?.aborted && Date.now() + waitMs <= deadline) continue;
		// An answer came: the error was made from it by `inspect` (or a later output step).
		throw failure as NodeApiError;
	}
}

/**
 * How long a rate limit is waited out before the request fails as rate-limited. An AI tool answers
 * within a client's timeout; a poll within its time budget (n8n abandons it after that, and backs
 * the next polls off by the error's Retry-After). Everything else waits as long as phpRank asks.
 */
function rateLimitDeadline(ctx: RequestContext): number {
	if (isToolRun(ctx)) return Date.now() + TOOL_RATE_LIMIT_WAIT_MS;
	if ('getPollBudgetMs' in ctx) return Date.now() + ctx.getPollBudgetMs() / 2;
	return Infinity;
}

/**
 * Reads phpRank's answer: tells the budget what the server counted, turns every failure into an
 * error the user can act on, and refuses a success that is not shaped like phpRank's (another
 * service at that address, or a proxy page). Returns the parsed body.
 */
export function inspect(current: Exchange, response: IN8nHttpFullResponse, expect: Expect): IDataObject {
	const { node, errorContext: ctx, budget, slot } = current;
	const { statusCode: status, headers } = response;
	current.answered = true;
	if (status === 429) {
		const waitMs = retryAfterMs(headers['retry-after']);
		budget.throttled(slot, headers, waitMs);
		throw describeHttpError(node, status, parseBody(response.body), ctx, { waitMs });
	}
	budget.settle(slot, headers);
	if (status < 200 || status >= 300) {
		throw describeHttpError(node, status, parseBody(response.body), ctx, { location: headers.location });
	}
	// A delete may be answered with an empty 204 by instances that follow the seed spec.
	if (expect === 'deleted' && (status === 204 || isEmpty(response.body))) return { deleted: true };
	const body = parseBody(response.body);
	if (!body || typeof body !== 'object' || Array.isArray(body)) {
		throw describeBadBody(node, status, response.body, ctx);
	}
	const json = body as IDataObject;
	if (expect === 'list') {
		if (!Array.isArray(json.data)) throw describeForeignBody(node, status, ctx, 'list of records in "data"');
		current.meta = json.meta && typeof json.meta === 'object' ? (json.meta as IDataObject) : {};
		current.onListPage?.(current.meta);
	} else if (expect === 'record') {
		const record = json.data as IDataObject | undefined;
		if (!record || typeof record !== 'object' || Array.isArray(record) || !/^\d+$/.test(String(record.id))) {
			throw describeForeignBody(node, status, ctx, 'report with an ID in "data"');
		}
	} else if (json.deleted !== true) {
		throw json.deleted === false
			? describeHttpError(node, status, json, ctx)
			: describeForeignBody(node, status, ctx, '"deleted": true');
	}
	return json;
}

/** The options every phpRank request carries, whoever builds it. */
export function requestOptionsFor(
	connection: Connection,
	options: IHttpRequestOptions,
	timeout: number,
): IHttpRequestOptions {
	const method = (options.method ?? 'GET').toUpperCase() as IHttpRequestOptions['method'];
	const hasBody = method === 'POST' || method === 'PUT';
	const request: IHttpRequestOptions = {
		...options,
		method,
		baseURL: connection.baseURL,
		headers: {
			...options.headers,
			Accept: 'application/json',
			...(hasBody ? { 'Content-Type': 'application/x-www-form-urlencoded' } : {}),
		},
		qs: { ...options.qs },
		timeout,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		// A redirect is never part of the API; following one could carry the key to another host.
		disableFollowRedirect: true,
	};
	if (!hasBody) delete request.body;
	return request;
}

function safeDecode(segment: string): string {
	try {
		return decodeURIComponent(segment);
	} catch {
		return segment;
	}
}

function retryAfterMs(header: unknown): number {
	const value = Array.isArray(header) ? header[0] : header;
	let seconds = Number(value);
	if (!Number.isFinite(seconds) && typeof value === 'string') {
		seconds = (Date.parse(value) - Date.now()) / 1000;
	}
	if (value === undefined || !Number.isFinite(seconds) || seconds < 0) seconds = DEFAULT_RETRY_AFTER_S;
	// Laravel counts in whole seconds: "0" means the window ends within this second, not now.
	return Math.min(Math.max(seconds, 1), MAX_RETRY_AFTER_S) * 1000 + 50;
}

function isEmpty(body: unknown): boolean {
	return body === undefined || body === null || (typeof body === 'string' && body.trim() === '');
}

/** Bodies arrive parsed when they are valid JSON, and as text when not (HTML, cut-off JSON). */
function parseBody(body: unknown): unknown {
	if (typeof body !== 'string') return Buffer.isBuffer(body) ? parseBody(body.toString()) : body;
	try {
		return JSON.parse(body) as unknown;
	} catch {
		return body;
	}
}

/*
 * n8n runs an operation's output steps inside `makeRoutingRequest`, where only the answer is
 * passed on. The exchanges of an item are queued here in the order they were sent, and the step
 * that inspects an answer takes the oldest: an item's requests are sent one after the other
 * (a list's next page at the earliest when the page before it is answered), so answers come
 * back in that order.
 */
const pending = new WeakMap<IExecuteData, Map<number, Exchange[]>>();

export function setPendingExchange(ctx: IExecuteSingleFunctions, current: Exchange): void {
	const key = ctx.getExecuteData();
	let byItem = pending.get(key);
	if (!byItem) {
		byItem = new Map();
		pending.set(key, byItem);
	}
	const queue = byItem.get(ctx.getItemIndex());
	if (queue) queue.push(current);
	else byItem.set(ctx.getItemIndex(), [current]);
}

export function pendingExchange(ctx: IExecuteSingleFunctions): Exchange | undefined {
	return pending.get(ctx.getExecuteData())?.get(ctx.getItemIndex())?.shift();
}
