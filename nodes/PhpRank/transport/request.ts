import type {
	DeclarativeRestApiSettings,
	IDataObject,
	IExecuteData,
	IExecutePaginationFunctions,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	ILoadOptionsFunctions,
	INode,
	INodeExecutionData,
	IPollFunctions,
	PostReceiveAction,
} from 'n8n-workflow';
import type { NodeApiError } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { ANALYSIS_TIMEOUT_MS, CREDENTIAL_TYPE, DEFAULT_CONCURRENCY, READ_TIMEOUT_MS } from '../api';
import { apiBaseUrl, isApiBaseUrl } from './baseUrl';
import {
	describeBadBody,
	describeForeignBody,
	describeHttpError,
	describeNetworkError,
	inputError,
	targetOf,
	type ErrorContext,
} from './errors';
import { queueForOutputSteps, takeFromOutputQueue } from './n8nInternals';
import { type Budget, budgetFor, MAX_RATE_LIMIT_RETRIES, rateLimitDeadline, rateLimitWait, retryAfterMs, type Slot } from './rateLimit';
import { keyInPath, type ResourceSpec } from './resource';
import { onTheWire, type RunState } from './retries';
import { redactedNode } from './secrets';

/*
 * Every phpRank request, whoever sends it (an operation through n8n's routing pipeline, a picker,
 * the trigger), goes through `exchange`: a place in the user's request budget, the request, the
 * answer checked by `inspect`, and a resend after HTTP 429 (phpRank did not process it, so that is
 * always safe). Nothing else is resent: a 5xx or a timeout on a create may have created the report.
 */

/** The contexts a phpRank request is made from: action node items, pickers, the trigger. */
export type RequestContext = IExecuteSingleFunctions | ILoadOptionsFunctions | IPollFunctions;

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
function errorContextOf(connection: Connection, spec: ResourceSpec | undefined, options: IHttpRequestOptions): ErrorContext {
	const method = options.method ?? 'GET';
	const key = spec && keyInPath(spec, options.url);
	return { host: connection.host, scheme: connection.scheme, method, spec, target: targetOf(spec, method, key, options.body as IDataObject) };
}

/**
 * Sends one request (`attempt`) within the user's budget, resending it after HTTP 429, and turns
 * a request that got no answer into an error that says why. `attempt` must hand the answer to
 * `inspect` with the exchange it is given. With a node run's `run`, each attempt counts as in
 * flight for it, and its Stop ends the wait for a place in the budget.
 */
async function exchange<T>(
	ctx: RequestContext,
	connection: Connection,
	spec: ResourceSpec | undefined,
	options: IHttpRequestOptions,
	run: RunState | undefined,
	attempt: (current: Exchange) => Promise<T>,
): Promise<T> {
	const errorContext = errorContextOf(connection, spec, options);
	const stop = run?.stop.signal;
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
			return await (run ? onTheWire(run, attempt(current)) : attempt(current));
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
		const shape = ctx.spec?.record;
		if (!record || typeof record !== 'object' || Array.isArray(record) || (shape && !shape.test(record))) {
			throw describeForeignBody(node, status, ctx, shape?.describe ?? 'record in "data"');
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

/** Request Options → Timeout when set (0: not set); else a timeout that fits what phpRank does for the request. */
export function timeoutFor(spec: ResourceSpec | undefined, options: IHttpRequestOptions, chosen = 0): number {
	if (chosen > 0) return chosen;
	const method = (options.method ?? 'GET').toUpperCase();
	return spec?.isSlow?.(method, options.body as IDataObject | undefined) ? ANALYSIS_TIMEOUT_MS : READ_TIMEOUT_MS;
}

/**
 * One phpRank request sent with n8n's authenticated HTTP helper: pickers, the trigger, and the
 * steps of an operation that are more than one request. The same budget, checks and errors as
 * every other request. `options.timeout` when set, else `timeoutFor`. With a node run's `run`,
 * the request counts as in flight for it, and its Stop ends the wait for a place in the budget.
 */
export async function phpRankRequest(
	ctx: RequestContext,
	spec: ResourceSpec | undefined,
	options: IHttpRequestOptions,
	expect: Expect,
	run?: RunState,
): Promise<{ body: IDataObject; meta?: IDataObject }> {
	const connection = await connectionOf(ctx);
	const request = requestOptionsFor(connection, options, options.timeout ?? timeoutFor(spec, options));
	return await exchange(ctx, connection, spec, request, run, async (current) => {
		const response = await ctx.helpers.httpRequestWithAuthentication.call(ctx, CREDENTIAL_TYPE, request);
		const body = inspect(current, response as IN8nHttpFullResponse, expect);
		return { body, meta: current.meta };
	});
}

/** One page of a list endpoint: its records and Laravel paginator `meta` ({} when there is none). */
export async function getListPage(
	ctx: RequestContext,
	spec: ResourceSpec,
	qs: IDataObject,
	run?: RunState,
): Promise<{ records: IDataObject[]; meta: IDataObject }> {
	const { body, meta } = await phpRankRequest(ctx, spec, { url: spec.path, method: 'GET', qs }, 'list', run);
	return { records: body.data as IDataObject[], meta: meta ?? {} };
}

type RoutingData = DeclarativeRestApiSettings.ResultOptions;

/** The request an operation's description built, with what every phpRank request carries. */
export async function routedOptions(
	ctx: IExecutePaginationFunctions,
	spec: ResourceSpec,
	routing: RoutingData,
): Promise<{ connection: Connection; options: IHttpRequestOptions }> {
	const connection = await connectionOf(ctx);
	const built = routing.options as IHttpRequestOptions;
	const chosen = Number(ctx.getNodeParameter('requestOptions.timeout', 0));
	return { connection, options: requestOptionsFor(connection, built, timeoutFor(spec, built, chosen)) };
}

/**
 * One request of an item through n8n's own pipeline (`makeRoutingRequest`: authentication, n8n's
 * HTTP client, the operation's output steps), within the budget and resent after 429. The
 * operation's first output step must be `answerCheck`. `onListPage` gets a list page's paginator
 * as soon as the page is known to be good, before the other output steps run.
 */
export async function routedRequest(
	ctx: IExecutePaginationFunctions,
	spec: ResourceSpec,
	connection: Connection,
	routing: RoutingData,
	options: IHttpRequestOptions,
	run: RunState,
	onListPage?: (meta: IDataObject) => void,
): Promise<{ items: INodeExecutionData[]; meta?: IDataObject }> {
	return await exchange(ctx, connection, spec, options, run, async (current) => {
		current.onListPage = onListPage;
		queueForOutputSteps(ctx, current);
		const items = await ctx.makeRoutingRequest({ ...routing, options: options as DeclarativeRestApiSettings.HttpRequestOptions });
		return { items, meta: current.meta };
	});
}

/**
 * The first output step of every operation: phpRank's answer checked (status, rate-limit
 * headers, shape) before any other step reads it.
 */
export function answerCheck(expect: Expect): PostReceiveAction {
	const step = async function (
		this: IExecuteSingleFunctions,
		_items: INodeExecutionData[],
		response: IN8nHttpFullResponse,
	): Promise<INodeExecutionData[]> {
		const current = takeFromOutputQueue<Exchange>(this);
		if (!current) {
			throw new NodeOperationError(this.getNode(), 'A phpRank request was sent outside the node’s request path', {
				description: 'This is a bug in the phpRank node: please report it.',
			});
		}
		return [{ json: inspect(current, response, expect) }];
	};
	Object.defineProperty(step, 'name', { value: `check${expect.charAt(0).toUpperCase()}${expect.slice(1)}` });
	return step;
}
