import type { Failure, IDataObject, INode, INodeParameters, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { DEFAULT_RATE_LIMIT } from '../api';
import type { ResourceSpec } from './resource';

// Every error of the node is made here, only when something failed, its texts kept as data (by
// HTTP status, network cause, foreign answer, unreadable list); nouns come from the ResourceSpec.

const HIDDEN = '[hidden]';

// n8n stores a failed execution's error with its node, parameters included: the resource's secret
// parameters (report passwords) are masked. The API key is never a parameter.
export function redactedNode(node: INode, spec: ResourceSpec | undefined): INode {
	const parameters = structuredClone(node.parameters);
	for (const path of spec?.secretParameters ?? []) {
		const parent = path
			.slice(0, -1)
			.reduce<
				INodeParameters | undefined
			>((at, key) => (at?.[key] && typeof at[key] === 'object' ? (at[key] as INodeParameters) : undefined), parameters);
		const key = path[path.length - 1];
		if (parent && parent[key] !== undefined && parent[key] !== '') parent[key] = HIDDEN;
	}
	return { ...node, parameters };
}

function nameRecord(spec: ResourceSpec, key: unknown): string {
	return spec.quoteKey ? `${spec.noun} "${String(key)}"` : `${spec.noun} ${String(key)}`;
}

/** The record a request path names (`/reports/12` → `12`), decoded, or undefined for the collection. */
function keyInPath(spec: ResourceSpec, url: string): string | undefined {
	const path = url.split(/[?#]/)[0];
	if (!path.startsWith(`${spec.path}/`)) return undefined;
	const segment = path.slice(spec.path.length + 1).split('/')[0];
	if (!segment) return undefined;
	try {
		return decodeURIComponent(segment);
	} catch {
		return segment;
	}
}

interface ErrorText {
	message: string;
	description: string;
	/** Why, as data n8n reads (a poll backs off on a timed cause). */
	failure?: Failure;
}

export interface ErrorContext {
	host: string;
	/** `http` or `https`: a redirect to https on the same host means the Base URL needs https. */
	scheme?: string;
	method: string;
	spec?: ResourceSpec;
	/** `report 12`, `project "example.com"` or `the report for <url>`; undefined for lists. */
	target?: string;
}

export function errorContextOf(
	host: string,
	scheme: string,
	spec: ResourceSpec | undefined,
	request: { method?: string; url: string; body?: unknown },
): ErrorContext {
	const method = request.method ?? 'GET';
	return {
		host,
		scheme,
		method,
		spec,
		target: targetOf(spec, method, request.url, request.body as IDataObject | undefined),
	};
}

/** What a request was about, in words: the record its path names, or the one a create names. */
function targetOf(
	spec: ResourceSpec | undefined,
	method: string,
	url: string,
	body?: IDataObject,
): string | undefined {
	if (!spec) return undefined;
	const key = keyInPath(spec, url);
	if (key !== undefined) return nameRecord(spec, key);
	const created = spec.createdFrom && body?.[spec.createdFrom];
	if (method === 'POST' && typeof created === 'string') return `the ${spec.noun} for ${created}`;
	return undefined;
}

const nounOf = (ctx: ErrorContext) => ctx.spec?.noun ?? 'record';

const PLAN_WITHOUT_API = "You don't have access to this feature.";

/** The text of each HTTP status phpRank answers with; others fall back to the generic 4xx/5xx. */
const statusTexts: Record<
	number,
	(ctx: ErrorContext, apiMessage: string, waitMs?: number) => ErrorText
> = {
	401: () => ({
		message: 'The phpRank API key was rejected (HTTP 401)',
		description:
			'Open the phpRank credential and paste the API key again, as shown on your account’s API page in phpRank.',
		failure: { cause: 'credential-invalid' },
	}),
	403: (ctx, apiMessage) =>
		apiMessage === PLAN_WITHOUT_API
			? {
					message: 'Your phpRank plan has no API access (HTTP 403)',
					description:
						'The key is valid, but the plan of its user does not include the API. Enable API access for the plan in phpRank, or use the key of another user.',
					failure: { cause: 'credential-invalid' },
				}
			: {
					message: `${capitalise(ctx.target ?? 'this resource')} does not exist or is not yours (HTTP 403)`,
					description: `phpRank only lets a user change their own ${ctx.spec?.plural ?? 'records'}. Check the ${ctx.spec?.keyName ?? 'ID'}, and that the credential belongs to the ${nounOf(ctx)}’s owner.`,
					failure: { cause: 'configuration-invalid' },
				},
	404: (ctx) => ({
		message: `${capitalise(ctx.target ?? 'the requested resource')} was not found (HTTP 404)`,
		description: ctx.target
			? `Check the ${ctx.spec?.keyName ?? 'ID'}: it may have been deleted, or belong to another user.`
			: 'The Base URL of the credential may not point to a phpRank instance.',
		failure: { cause: 'configuration-invalid' },
	}),
	422: (_ctx, apiMessage) => ({
		message: `phpRank rejected the request: ${apiMessage || 'invalid input'} (HTTP 422)`,
		description: 'Correct the fields named above and run the node again.',
	}),
	429: (ctx, _apiMessage, waitMs) => ({
		message: `phpRank is rate limiting requests and kept doing so after retries (HTTP 429 from ${ctx.host})${waitMs ? `: it asks to wait ${Math.ceil(waitMs / 1000)} s` : ''}`,
		description: `phpRank allows ${DEFAULT_RATE_LIMIT} requests a minute per user by default, shared by every workflow and n8n worker using the same API key. Try again after that wait, lower the number of items per run, or add batching under Request Options (for example 50 items per batch, 60000 ms interval).`,
		failure: { cause: 'rate-limited', ...(waitMs ? { retryAfterMs: waitMs } : {}) },
	}),
};

/** A failed create names its URL: with many items, the message says which one failed. */
function creating(ctx: ErrorContext): string {
	return ctx.method === 'POST' && ctx.target ? `Creating ${ctx.target} failed: ` : '';
}

function capitalise(text: string): string {
	return text.charAt(0).toUpperCase() + text.slice(1);
}

const CHECK_BASE_URL =
	'Check the Base URL of the phpRank credential: it must be the address you open phpRank with, e.g. https://seo.example.com (the node adds /api/v1).';

function notPhpRank(ctx: ErrorContext, what: string, description = CHECK_BASE_URL): ErrorText {
	return {
		message: `${ctx.host} did not answer like a phpRank API: ${what}`,
		description,
		failure: { cause: 'configuration-invalid' },
	};
}

/** A redirect is never phpRank's API, and is not followed: it could carry the key elsewhere. */
function redirectText(ctx: ErrorContext, status: number, location: unknown): ErrorText {
	let target: URL | undefined;
	try {
		target = new URL(String(location ?? ''), `${ctx.scheme ?? 'http'}://${ctx.host}`);
	} catch {
		target = undefined;
	}
	if (target && target.host === ctx.host && target.protocol === 'https:' && ctx.scheme === 'http') {
		return notPhpRank(
			ctx,
			`it redirects to https:// (HTTP ${status})`,
			`The instance only answers over https. Change the Base URL of the phpRank credential to start with https://${ctx.host}.`,
		);
	}
	if (target && target.host !== ctx.host) {
		return notPhpRank(
			ctx,
			`it redirects to another host, ${target.host} (HTTP ${status})`,
			`The node does not follow redirects to other hosts, so the API key is never sent there. If phpRank moved, set the Base URL of the phpRank credential to its new address (${target.protocol}//${target.host}).`,
		);
	}
	if (target && /\/login\b/i.test(target.pathname)) {
		return notPhpRank(
			ctx,
			`it redirected to a login page (HTTP ${status})`,
			`phpRank sends the login page to requests it does not take for API calls. ${CHECK_BASE_URL}`,
		);
	}
	return notPhpRank(
		ctx,
		`it redirected to ${target ? target.pathname : 'another address'} (HTTP ${status})`,
	);
}

/** phpRank puts a validation failure's field map in `message`, not in Laravel's usual `errors`. */
export function apiMessageOf(body: unknown): string {
	if (!body || typeof body !== 'object') return '';
	const { message, errors } = body as { message?: unknown; errors?: unknown };
	const fields = typeof message === 'object' && message !== null ? message : errors;
	if (fields && typeof fields === 'object') {
		return Object.entries(fields as Record<string, unknown>)
			.map(([field, texts]) => `${field}: ${([] as unknown[]).concat(texts).join(' ')}`)
			.join('; ');
	}
	return typeof message === 'string' ? message : '';
}

export function describeHttpError(
	node: INode,
	status: number,
	body: unknown,
	ctx: ErrorContext,
	extra: { location?: unknown; waitMs?: number } = {},
): NodeApiError {
	const apiMessage = apiMessageOf(body);
	const text =
		statusTexts[status]?.(ctx, apiMessage, extra.waitMs) ??
		(status >= 500
			? {
					message: `${creating(ctx)}${creating(ctx) ? 'the' : 'The'} phpRank server at ${ctx.host} failed (HTTP ${status})${apiMessage ? `: ${apiMessage}` : ''}`,
					description:
						ctx.method === 'POST'
							? `The ${nounOf(ctx)} may have been created anyway: check the ${nounOf(ctx)} list before running the node again.`
							: 'This is a problem on the phpRank server. Try again later, or ask its administrator to check the logs.',
					failure: { cause: 'temporarily-unavailable' as const },
				}
			: status >= 300 && status < 400
				? redirectText(ctx, status, extra.location)
				: {
						message: `phpRank answered HTTP ${status}${apiMessage ? `: ${apiMessage}` : ''}`,
						description: 'Check the parameters of the node.',
					});
	return apiError(node, { status, message: apiMessage }, text, String(status));
}

/** A success whose JSON is not what phpRank sends for this request (another service answered). */
export function describeForeignBody(
	node: INode,
	status: number,
	ctx: ErrorContext,
	expected: string,
): NodeApiError {
	return apiError(
		node,
		{ status },
		notPhpRank(ctx, `its answer has no ${expected}`),
		String(status),
	);
}

/** A 2xx answer whose body is not the JSON phpRank sends (an HTML page, a cut-off body). */
export function describeBadBody(node: INode, status: number, body: unknown, ctx: ErrorContext) {
	const text = String(body ?? '');
	const what = /^\s*</.test(text)
		? 'it sent an HTML page instead of JSON'
		: text.trim()
			? 'its answer was not complete JSON (cut off or malformed)'
			: 'its answer was empty';
	return apiError(node, { status }, notPhpRank(ctx, what), String(status));
}

const networkCauses: Record<string, string> = {
	ECONNREFUSED: 'the connection was refused (nothing listens at that address and port)',
	ECONNRESET: 'the connection was reset before an answer came',
	EPIPE: 'the connection was closed while sending',
	ENOTFOUND: 'the host name could not be resolved',
	EHOSTUNREACH: 'there is no route to the host',
	ENETUNREACH: 'the network of the host is unreachable',
	EAI_AGAIN: 'the host name could not be resolved (DNS lookup failed)',
	ETIMEDOUT: 'the connection timed out',
	ECONNABORTED: 'no answer came before the timeout',
	ERR_CANCELED: 'the request was cancelled',
	CERT_HAS_EXPIRED: 'its TLS certificate has expired',
	DEPTH_ZERO_SELF_SIGNED_CERT: 'its TLS certificate is self-signed',
	UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'its TLS certificate could not be verified',
	SELF_SIGNED_CERT_IN_CHAIN: 'its TLS certificate is signed by an unknown authority',
	ERR_TLS_CERT_ALTNAME_INVALID: 'its TLS certificate is for another host name',
};

/** Why a request got no HTTP answer at all, in words, from the error n8n's HTTP helpers threw. */
export function networkCause(error: unknown): { code?: string; cause: string; timedOut: boolean } {
	const code = findCode(error);
	const timedOut = code === 'ECONNABORTED' || /timeout/i.test(messageOf(error));
	const cause = timedOut
		? networkCauses.ECONNABORTED
		: ((code && networkCauses[code]) ?? (code ? `network error ${code}` : 'network error'));
	return { code, cause, timedOut };
}

export function describeNetworkError(node: INode, error: unknown, ctx: ErrorContext): NodeApiError {
	const { code, cause, timedOut } = networkCause(error);
	return apiError(
		node,
		{ code: code ?? 'ENETWORK' },
		{
			message: `${creating(ctx)}${creating(ctx) ? 'c' : 'C'}ould not reach phpRank at ${ctx.host}: ${cause}`,
			description:
				ctx.method === 'POST' && (timedOut || code === 'ECONNRESET')
					? `phpRank may have created the ${nounOf(ctx)} before the connection ended: check the ${nounOf(ctx)} list before running the node again. Creating a ${nounOf(ctx)} can take a while; raise the Timeout under Request Options if it keeps happening.`
					: timedOut
						? 'The instance did not answer in time. Check that it is online, or raise the Timeout under Request Options.'
						: 'Check the Base URL of the phpRank credential and that the instance is online and reachable from n8n.',
			failure: { cause: 'temporarily-unavailable' },
		},
		'none',
	);
}

/** Why the retries of an outage ended. */
export interface GaveUp {
	tries: number;
	elapsedMs: number;
	boundMs: number;
	cause: string;
	/** The run's own limit ended them (an AI tool answers within its client's timeout). */
	runLimited: boolean;
}

/** phpRank stayed unavailable through every retry Wait Out Outages allowed (transport/retry.ts). */
export function describeOutage(node: INode, ctx: ErrorContext, gaveUp: GaveUp): NodeApiError {
	const { tries, elapsedMs, boundMs, cause, runLimited } = gaveUp;
	const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;
	return apiError(
		node,
		{ code: 'EUNAVAILABLE' },
		{
			message: `phpRank at ${ctx.host} stayed unavailable: ${tries} tries over ${seconds(elapsedMs)} (the last: ${cause})`,
			description: runLimited
				? 'An AI tool answers within its client’s timeout, so it waits out an outage only briefly. Check that phpRank is running, then ask again.'
				: `The node retries for up to ${seconds(boundMs)} while phpRank is unavailable (Request Options → Wait Out Outages). Check that phpRank is running and reachable from n8n, or raise Wait Out Outages to ride out longer restarts.`,
			failure: { cause: 'temporarily-unavailable' },
		},
		'none',
	);
}

function findCode(error: unknown): string | undefined {
	for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
		const { code } = e as { code?: unknown };
		if (typeof code === 'string' && /^[A-Z_]+$/.test(code)) return code;
		e = (e as { cause?: unknown }).cause;
	}
	return undefined;
}

function messageOf(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

// Bad input, refused before anything is sent. A NodeApiError so that RoutingNode does not re-wrap
// it on the unredacted node; with no HTTP code n8n's panel shows only the message and what to do.
export function inputError(node: INode, message: string, description: string, itemIndex?: number) {
	const error = new NodeApiError(node, {} as JsonObject, {
		message,
		description,
		itemIndex,
		failure: { cause: 'configuration-invalid' },
	});
	error.httpCode = null;
	error.messages = [];
	return error;
}

/** Why a list could not be read to its end (the paging rule in paging.ts). */
export type PagingProblem =
	/** The server answered another page than the one asked for (a cache or proxy dropping `?page=`). */
	| { reason: 'page-ignored'; asked: number; answered: number }
	| { reason: 'not-converging'; requests: number; total: number; perPage: number }
	/** A complete unlimited run over an unmoving total returned fewer than meta.total. */
	| { reason: 'short'; total: number; returned: number; requests: number; perPage: number };

export function describePagingError(node: INode, problem: PagingProblem): NodeApiError {
	if (problem.reason === 'page-ignored') {
		const { asked, answered } = problem;
		return apiError(
			node,
			{},
			{
				message: `phpRank answered page ${answered}${answered < asked ? ' again' : ''} when asked for page ${asked}: a cache or proxy in front of it may ignore the page parameter`,
				description:
					'The node stopped rather than read the same page over and over. Make the cache or reverse proxy in front of phpRank pass the query string of /api/v1 requests through (or not cache them).',
				failure: { cause: 'configuration-invalid' },
			},
			'none',
		);
	}
	if (problem.reason === 'short') {
		const { total, returned, perPage } = problem;
		return apiError(
			node,
			{},
			{
				message: `phpRank's list said it holds ${total} records, but its pages ended after ${returned}`,
				description: `The list did not change while it was read, yet its pages held fewer records than their page information announced (pages of ${perPage}). A reverse proxy, cache or server setting in front of phpRank may cut list pages to fewer records: make it pass /api/v1 list answers through whole, or (in Get Many) choose a smaller Page Size under Options. When a list is sorted by a field that several records share (URL, score, date), records with equal values can also change places between pages: sort by ID or name. The node stopped rather than return part of the list.`,
				failure: { cause: 'configuration-invalid' },
			},
			'none',
		);
	}
	const { requests, total, perPage } = problem;
	return apiError(
		node,
		{},
		{
			message: `The phpRank list kept changing while it was read: stopped after ${requests} requests`,
			description: `It held ${total} records at the first page (${Math.ceil(total / perPage)} pages of ${perPage}). Records were created or deleted faster than the list could be read to its end: run again later, or narrow the list with filters.`,
			failure: { cause: 'temporarily-unavailable' },
		},
		'none',
	);
}

// Plain data only: n8n's HTTP helper errors carry the request (the API key in its headers) in their
// cause, and n8n stores errors with the execution.
function apiError(node: INode, response: IDataObject, text: ErrorText, httpCode: string) {
	return new NodeApiError(node, response as JsonObject, { ...text, httpCode });
}
