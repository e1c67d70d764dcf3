import type { Failure, IDataObject, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { PagingProblem } from './paging';

/** What the user reads in the execution log: what happened, and what to do about it. */
interface ErrorText {
	message: string;
	description: string;
}

/** What a failed answer was about, so that the text can name it. */
export interface ErrorContext {
	host: string;
	method: string;
	/** `report 12` or `project "example.com"`, from the request path; undefined for lists. */
	target?: string;
}

const PLAN_WITHOUT_API = "You don't have access to this feature.";

/**
 * The friendly text of each HTTP status phpRank answers with. A status missing here falls back to
 * the generic 4xx/5xx texts at the end of `describeHttpError`.
 */
const statusTexts: Record<number, (ctx: ErrorContext, apiMessage: string) => ErrorText> = {
	302: (ctx) => notPhpRank(ctx, 'it redirected to a login page'),
	401: () => ({
		message: 'The phpRank API key was rejected (HTTP 401)',
		description:
			'Open the phpRank credential and paste the API key again, as shown on your account’s API page in phpRank.',
	}),
	403: (ctx, apiMessage) =>
		apiMessage === PLAN_WITHOUT_API
			? {
					message: 'Your phpRank plan has no API access (HTTP 403)',
					description:
						'The key is valid, but the plan of its user does not include the API. Enable API access for the plan in phpRank, or use the key of another user.',
				}
			: {
					message: `${capitalise(ctx.target ?? 'this resource')} does not exist or is not yours (HTTP 403)`,
					description:
						'phpRank only lets a user change their own reports. Check the report ID, and that the credential belongs to the report’s owner.',
				},
	404: (ctx) => ({
		message: `${capitalise(ctx.target ?? 'the requested resource')} was not found (HTTP 404)`,
		description: ctx.target
			? `Check the ${ctx.target.startsWith('project') ? 'project name' : 'report ID'}: it may have been deleted, or belong to another user.`
			: 'The Base URL of the credential may not point to a phpRank instance.',
	}),
	422: (_ctx, apiMessage) => ({
		message: `phpRank rejected the request: ${apiMessage || 'invalid input'} (HTTP 422)`,
		description: 'Correct the fields named above and run the node again.',
	}),
	429: (ctx) => ({
		message: `phpRank is rate limiting requests and kept doing so after retries (HTTP 429 from ${ctx.host})`,
		description:
			'phpRank allows 60 requests a minute per user by default. Lower the number of items per run, or add batching under Request Options (for example 50 items per batch, 60000 ms interval).',
	}),
};

function capitalise(text: string): string {
	return text.charAt(0).toUpperCase() + text.slice(1);
}

function notPhpRank(ctx: ErrorContext, what: string): ErrorText {
	return {
		message: `${ctx.host} did not answer like a phpRank API: ${what}`,
		description:
			'Check the Base URL of the phpRank credential: it must be the address you open phpRank with, e.g. https://seo.example.com (the node adds /api/v1).',
	};
}

/**
 * phpRank puts a validation failure's field map in `message` (`{"url": ["The url field is required."]}`),
 * not in Laravel's usual `errors`; other errors carry a plain string there.
 */
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

/** An HTTP answer of phpRank that is not a success, as an error the user can act on. */
export function describeHttpError(
	node: INode,
	status: number,
	body: unknown,
	ctx: ErrorContext,
	retryAfterMs?: number,
): NodeApiError {
	const apiMessage = apiMessageOf(body);
	const text =
		statusTexts[status]?.(ctx, apiMessage) ??
		(status >= 500
			? {
					message: `The phpRank server at ${ctx.host} failed (HTTP ${status})${apiMessage ? `: ${apiMessage}` : ''}`,
					description:
						ctx.method === 'POST'
							? 'The report may have been created anyway: check the report list before running the node again.'
							: 'This is a problem on the phpRank server. Try again later, or ask its administrator to check the logs.',
				}
			: status >= 300 && status < 400
				? notPhpRank(ctx, `it redirected (HTTP ${status})`)
				: {
						message: `phpRank answered HTTP ${status}${apiMessage ? `: ${apiMessage}` : ''}`,
						description: 'Check the parameters of the node.',
					});
	return apiError(node, { status, message: apiMessage }, text, String(status), failureOf(status, retryAfterMs));
}

/** A 2xx answer whose body is not the JSON phpRank sends (an HTML page, a cut-off body). */
export function describeBadBody(node: INode, status: number, body: unknown, ctx: ErrorContext) {
	const text = String(body ?? '');
	const what = /^\s*</.test(text)
		? 'it sent an HTML page instead of JSON'
		: text.trim()
			? 'its answer was not complete JSON (cut off or malformed)'
			: 'its answer was empty';
	const failure = /^\s*</.test(text) ? failureOf(404) : failureOf(0);
	return apiError(node, { status }, notPhpRank(ctx, what), String(status), failure);
}

const networkCauses: Record<string, string> = {
	ECONNREFUSED: 'the connection was refused (nothing listens at that address and port)',
	ECONNRESET: 'the connection was reset before an answer came',
	EPIPE: 'the connection was closed while sending',
	ENOTFOUND: 'the host name could not be resolved',
	EAI_AGAIN: 'the host name could not be resolved (DNS lookup failed)',
	ETIMEDOUT: 'the connection timed out',
	ECONNABORTED: 'no answer came before the timeout',
	ERR_CANCELED: 'the request was cancelled',
	CERT_HAS_EXPIRED: 'its TLS certificate has expired',
	DEPTH_ZERO_SELF_SIGNED_CERT: 'its TLS certificate is self-signed',
	UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'its TLS certificate could not be verified',
};

/** A request that got no HTTP answer at all. */
export function describeNetworkError(node: INode, error: unknown, ctx: ErrorContext): NodeApiError {
	const code = findCode(error);
	const timedOut = code === 'ECONNABORTED' || /timeout/i.test(messageOf(error));
	const cause = timedOut
		? networkCauses.ECONNABORTED
		: ((code && networkCauses[code]) ?? (code ? `network error ${code}` : 'network error'));
	return apiError(
		node,
		{ code: code ?? 'ENETWORK' },
		{
			message: `Could not reach phpRank at ${ctx.host}: ${cause}`,
			description:
				ctx.method === 'POST' && (timedOut || code === 'ECONNRESET')
					? 'phpRank may have created the report before the connection ended: check the report list before running the node again. Creating a report can take a while; raise the Timeout under Request Options if it keeps happening.'
					: 'Check the Base URL of the phpRank credential and that the instance is online and reachable from n8n.',
		},
		'none',
		failureOf(0),
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

/**
 * Bad input, refused before anything is sent. A NodeApiError although no request was made:
 * RoutingNode re-wraps any other error of a request in a NodeApiError built on the node as the
 * workflow holds it, report passwords included; this one keeps the redacted node it is given.
 */
export function inputError(node: INode, message: string, description: string, itemIndex?: number) {
	return new NodeApiError(node, {} as JsonObject, {
		message,
		description,
		itemIndex,
		httpCode: 'none',
		failure: { cause: 'configuration-invalid' },
	});
}

/**
 * Why a request failed, as n8n reads it (NodeApiError's `failure`): n8n's poll scheduler backs a
 * trigger off by it (waits out Retry-After, pauses polls that need the user). Status 0: no answer.
 */
export function failureOf(status: number, retryAfterMs?: number): Failure | undefined {
	if (status === 429) return { cause: 'rate-limited', retryAfterMs };
	if (status === 401) return { cause: 'credential-invalid' };
	if (status === 0 || status >= 500) return { cause: 'temporarily-unavailable' };
	if (status >= 300) return { cause: 'configuration-invalid' };
	return undefined;
}

/** A list that could not be read to its end (transport/paging.ts). */
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
			},
			'none',
			{ cause: 'configuration-invalid' },
		);
	}
	const { requests, total, perPage } = problem;
	return apiError(
		node,
		{},
		{
			message: `The phpRank list kept changing while it was read: stopped after ${requests} requests`,
			description: `It held ${total} records at the first page (${Math.ceil(total / perPage)} pages of ${perPage}). Reports were created or deleted faster than the list could be read to its end: run again later, or narrow the list with filters.`,
		},
		'none',
		failureOf(0),
	);
}

/**
 * Built from plain data only: the errors thrown by n8n's HTTP helpers carry the request
 * (headers included, so the API key) in their cause, and n8n stores errors with the execution.
 */
function apiError(node: INode, response: IDataObject, text: ErrorText, httpCode: string, failure?: Failure) {
	return new NodeApiError(node, response as JsonObject, { ...text, httpCode, failure });
}
