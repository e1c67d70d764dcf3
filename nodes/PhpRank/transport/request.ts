import type {
	DeclarativeRestApiSettings,
	IDataObject,
	IExecutePaginationFunctions,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	INode,
	INodeExecutionData,
	NodeApiError,
	PostReceiveAction,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { ANALYSIS_TIMEOUT_MS, CREDENTIAL_TYPE, READ_TIMEOUT_MS } from '../api';
import {
	type Connection,
	connectionOf,
	instanceUrl,
	isActionItem,
	type RequestContext,
} from './connection';
import {
	describeBadBody,
	describeForeignBody,
	describeHttpError,
	describeNetworkError,
	describeOutage,
	type ErrorContext,
	errorContextOf,
	redactedNode,
} from './errors';
import { OutageWaitEnded, rateLimitDeadline, retryAfterMs, type Slot } from './rateLimit';
import type { ResourceSpec } from './resource';
import { outageBoundMs, outageOf, Tries } from './retry';
import { onTheWire, type Run, runOfOutputStep } from './run';

// Every phpRank request goes through `exchange`: a place in the user's budget, the request, the
// answer checked by `inspect`, and a resend after HTTP 429 (phpRank did not process it) or while
// phpRank is unavailable (retry.ts: never a create that may have reached it).

export type { RequestContext };

export type Expect = 'record' | 'list' | 'deleted';

export interface Exchange {
	failing: () => { node: INode; context: ErrorContext };
	connection: Connection;
	spec?: ResourceSpec;
	slot: Slot;
	/** The answer came (any status), so the budget has been told. */
	answered: boolean;
	/** The answer's status and Retry-After (an outage's retry reads them). */
	status?: number;
	retryAfter?: unknown;
	// n8n-workflow before 2.41 drops a NodeApiError's `failure`: the 429 wait is kept here too.
	throttledMs?: number;
	meta?: IDataObject;
	onListPage?: (meta: IDataObject) => void;
	/** What the operation's output steps need to know of the request (`forOutputSteps`). */
	note?: IDataObject;
}

/** The record with this key: `/reports/12`, `/projects/a%2Fb` (the key always one encoded path segment). */
export function recordPath(spec: ResourceSpec, key: unknown): string {
	return `${spec.path}/${encodeURIComponent(String(key))}`;
}

/**
 * Who sends a request: the item's context and the resource it is about (its path, key, slow requests
 * and secret parameters); in the action node also the node run, which knows its resource, so its
 * steps take a caller from `callerOf` instead of handing the resource on.
 */
export interface Caller<C extends RequestContext = RequestContext> {
	ctx: C;
	spec: ResourceSpec;
	run?: Run;
}

/** An item of the action node's run as a caller: the resource is the run's. */
export function callerOf<C extends RequestContext>(ctx: C, run: Run): Caller<C> & { run: Run } {
	return { ctx, spec: run.spec, run };
}

/**
 * The page of a record on the instance, as a user opens it (`https://seo.example.com/reports/12`,
 * on a sub-path when the instance has one): the one builder of that link.
 */
export function recordLink(connection: Connection, spec: ResourceSpec): (key: unknown) => string {
	const instance = instanceUrl(connection);
	return (key) => `${instance}${recordPath(spec, key)}`;
}

/** The caller's resource's list on the instance, filtered as the API filters it (`…/reports?project=example.com`). */
export async function listLink({
	ctx,
	spec,
}: Caller): Promise<(qs: Record<string, string>) => string> {
	const list = `${instanceUrl(await connectionOf(ctx))}${spec.path}`;
	const query = (qs: Record<string, string>) =>
		Object.entries(qs).map(([name, value]) => `${name}=${encodeURIComponent(value)}`);
	return (qs) => `${list}?${query(qs).join('&')}`;
}

/** The pages of the caller's resource's records on the credential's instance (looked up once per node run). */
export async function recordLinks({ ctx, spec }: Caller): Promise<(key: unknown) => string> {
	return recordLink(await connectionOf(ctx), spec);
}

/** Sends `attempt` in the user's budget, resent as `Tries` says; with `run`, its Stop ends the wait. */
async function exchange<T>(
	{ ctx, spec, run }: Caller,
	connection: Connection,
	options: IHttpRequestOptions,
	attempt: (current: Exchange) => Promise<T>,
): Promise<T> {
	const failing = () => ({
		node: redactedNode(ctx.getNode(), spec),
		context: errorContextOf(connection.host, connection.scheme, spec, options),
	});
	const stop = run?.stop.signal;
	const cancel = 'getExecutionCancelSignal' in ctx ? ctx.getExecutionCancelSignal() : undefined;
	const deadline = rateLimitDeadline(ctx);
	const method = (options.method ?? 'GET').toUpperCase();
	const tries = new Tries(method === 'GET' || method === 'PUT', deadline, outageBoundMs(ctx));
	const { budget } = connection;
	let notBefore = 0;
	for (let retry = 0; ; retry++) {
		const blockedMs = budget.blockedForMs();
		if (Date.now() + blockedMs > deadline) {
			const { node, context } = failing();
			throw describeHttpError(node, 429, undefined, context, { waitMs: blockedMs });
		}
		let slot: Slot;
		try {
			slot = await budget.acquire([cancel, stop], retry > 0, notBefore, tries.outageWait());
		} catch (error) {
			if (stop?.aborted) throw stop.reason as Error;
			const { node, context } = failing();
			if (error instanceof OutageWaitEnded)
				throw describeOutage(node, context, tries.gaveUpWaiting(error));
			throw describeNetworkError(node, { code: 'ERR_CANCELED', cause: error }, context);
		}
		const current: Exchange = { failing, connection, spec, slot, answered: false };
		let failure: unknown;
		try {
			return await (run ? onTheWire(run, attempt(current)) : attempt(current));
		} catch (error) {
			failure = error;
		}
		// An answer came: the error was made from it by `inspect` (or a later output step).
		const outage = outageOf(current.answered ? current : undefined, failure);
		if (!current.answered) {
			if (outage) budget.unavailable(slot, outage);
			else budget.abandon(slot);
			const { node, context } = failing();
			failure = describeNetworkError(node, failure, context);
		}
		if (cancel?.aborted) throw failure as NodeApiError;
		const waitMs = current.throttledMs;
		if (waitMs !== undefined && tries.afterThrottle(waitMs)) continue;
		const next = outage && tries.afterOutage(outage, slot.sentAt);
		if (typeof next === 'number') notBefore = next;
		else if (next) {
			const { node, context } = failing();
			throw describeOutage(node, context, next);
		} else throw failure as NodeApiError;
	}
}

/** Reads phpRank's answer: the budget told, failures made errors, foreign successes refused. */
export function inspect(
	current: Exchange,
	response: IN8nHttpFullResponse,
	expect: Expect,
): IDataObject {
	const { connection, slot } = current;
	const { budget } = connection;
	const { statusCode: status, headers } = response;
	Object.assign(current, { answered: true, status, retryAfter: headers['retry-after'] });
	if (status === 429) {
		const waitMs = retryAfterMs(headers['retry-after']);
		current.throttledMs = waitMs;
		budget.throttled(slot, headers, waitMs);
		const { node, context } = current.failing();
		throw describeHttpError(node, status, parseBody(response.body), context, { waitMs });
	}
	tellBudget(current, headers);
	if (status < 200 || status >= 300) {
		const { node, context } = current.failing();
		throw describeHttpError(node, status, parseBody(response.body), context, {
			location: headers.location,
		});
	}
	// A delete may be answered with an empty 204 by instances that follow the seed spec.
	if (expect === 'deleted' && (status === 204 || isEmpty(response.body))) return { deleted: true };
	const body = parseBody(response.body);
	if (!body || typeof body !== 'object' || Array.isArray(body)) {
		const { node, context } = current.failing();
		throw describeBadBody(node, status, response.body, context);
	}
	const json = body as IDataObject;
	const foreign = (expected: string) => {
		const { node, context } = current.failing();
		return describeForeignBody(node, status, context, expected);
	};
	if (expect === 'list') {
		if (!Array.isArray(json.data)) throw foreign('list of records in "data"');
		current.meta = json.meta && typeof json.meta === 'object' ? (json.meta as IDataObject) : {};
		current.onListPage?.(current.meta);
	} else if (expect === 'record') {
		const record = json.data as IDataObject | undefined;
		const spec = current.spec;
		const shape = spec?.record;
		const keyed = (data: IDataObject) =>
			!shape ||
			(data[spec!.key] !== undefined &&
				data[spec!.key] !== null &&
				shape.key.test(String(data[spec!.key])));
		if (!record || typeof record !== 'object' || Array.isArray(record) || !keyed(record)) {
			throw foreign(shape?.describe ?? 'record in "data"');
		}
	} else if (json.deleted !== true) {
		if (json.deleted === false) {
			const { node, context } = current.failing();
			throw describeHttpError(node, status, json, context);
		}
		throw foreign('"deleted": true');
	}
	return json;
}

/** The budget told of an answer that is not a 429: phpRank unavailable (502/503/504), or answering. */
function tellBudget({ connection, slot, ...answer }: Exchange, headers: IDataObject): void {
	const outage = outageOf(answer, undefined);
	if (outage) connection.budget.unavailable(slot, outage);
	else connection.budget.settle(slot, headers);
}

function requestOptionsFor(
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

function parseBody(body: unknown): unknown {
	if (typeof body !== 'string') return Buffer.isBuffer(body) ? parseBody(body.toString()) : body;
	try {
		return JSON.parse(body) as unknown;
	} catch {
		return body;
	}
}

/** Request Options → Timeout when set, else one that fits the spec's `slowRequests` or not. */
function timeoutFor(
	ctx: RequestContext,
	spec: ResourceSpec | undefined,
	options: IHttpRequestOptions,
): number {
	const chosen = isActionItem(ctx) ? Number(ctx.getNodeParameter('requestOptions.timeout', 0)) : 0;
	if (chosen > 0) return chosen;
	const method = (options.method ?? 'GET').toUpperCase();
	const body = options.body as IDataObject | undefined;
	const slow = (spec?.slowRequests ?? []).some(
		(request) =>
			request.method === method &&
			Object.entries(request.body ?? {}).every(
				([name, value]) => String(body?.[name]) === String(value),
			),
	);
	return slow ? ANALYSIS_TIMEOUT_MS : READ_TIMEOUT_MS;
}

async function prepare(
	{ ctx, spec }: Caller,
	options: IHttpRequestOptions,
): Promise<{ connection: Connection; request: IHttpRequestOptions }> {
	const connection = await connectionOf(ctx);
	return {
		connection,
		request: requestOptionsFor(connection, options, timeoutFor(ctx, spec, options)),
	};
}

/** One request with n8n's authenticated HTTP helper: pickers, the trigger, multi-request steps. */
export async function phpRankRequest(
	caller: Caller,
	options: IHttpRequestOptions,
	expect: Expect,
): Promise<{ body: IDataObject; meta?: IDataObject }> {
	const { ctx } = caller;
	const { connection, request } = await prepare(caller, options);
	return await exchange(caller, connection, request, async (current) => {
		const response = await ctx.helpers.httpRequestWithAuthentication.call(
			ctx,
			CREDENTIAL_TYPE,
			request,
		);
		const body = inspect(current, response as IN8nHttpFullResponse, expect);
		return { body, meta: current.meta };
	});
}

type RoutingData = DeclarativeRestApiSettings.ResultOptions;

// One item's request through n8n's own pipeline (makeRoutingRequest: authentication, n8n's HTTP
// client, the output steps), the description's `routing.options` with `options` over it, in the
// budget and resent after 429. The operation's first output step must be `answerCheck`.
export async function routedRequest(
	caller: Caller<IExecutePaginationFunctions> & { run: Run },
	routing: RoutingData,
	extra: {
		options?: Partial<IHttpRequestOptions>;
		onListPage?: (meta: IDataObject) => void;
		note?: IDataObject;
	} = {},
): Promise<{ items: INodeExecutionData[]; meta?: IDataObject }> {
	const built = { ...(routing.options as IHttpRequestOptions), ...extra.options };
	const { ctx, run } = caller;
	const { connection, request } = await prepare(caller, built);
	return await exchange(caller, connection, request, async (current) => {
		current.onListPage = extra.onListPage;
		current.note = extra.note;
		const items = await run.sendForOutputSteps(ctx.getItemIndex(), current, () =>
			ctx.makeRoutingRequest({
				...routing,
				options: request as DeclarativeRestApiSettings.HttpRequestOptions,
			}),
		);
		return { items, meta: current.meta };
	});
}

function outsideRequestPath(node: INode): NodeOperationError {
	return new NodeOperationError(
		node,
		'A phpRank request was sent outside the node’s request path',
		{
			description: 'This is a bug in the phpRank node: please report it.',
		},
	);
}

/** The first output step of every operation: the answer checked before any other step reads it. */
export function answerCheck(expect: Expect): PostReceiveAction {
	const step = async function (
		this: IExecuteSingleFunctions,
		_items: INodeExecutionData[],
		response: IN8nHttpFullResponse,
	): Promise<INodeExecutionData[]> {
		const current = runOfOutputStep(this).takeForOutputSteps<Exchange>(this.getItemIndex());
		if (!current) throw outsideRequestPath(this.getNode());
		return [{ json: inspect(current, response, expect) }];
	};
	Object.defineProperty(step, 'name', {
		value: `check${expect.charAt(0).toUpperCase()}${expect.slice(1)}`,
	});
	return step;
}

/** In an output step after `answerCheck`: the pages of the answered resource's records (`recordLink`). */
export function linksForOutputSteps(ctx: IExecuteSingleFunctions): (key: unknown) => string {
	const current = runOfOutputStep(ctx).answeringFor<Exchange>(ctx.getItemIndex());
	if (!current?.spec) throw outsideRequestPath(ctx.getNode());
	return recordLink(current.connection, current.spec);
}

/** In an output step after `answerCheck`: what the operation's step handed its request (`note`). */
export function forOutputSteps(ctx: IExecuteSingleFunctions): IDataObject | undefined {
	return runOfOutputStep(ctx).answeringFor<Exchange>(ctx.getItemIndex())?.note;
}
