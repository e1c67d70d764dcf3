import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	ILoadOptionsFunctions,
	IPollFunctions,
} from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import {
	describeBadBody,
	describeHttpError,
	describeNetworkError,
	inputError,
	type ErrorContext,
} from './errors';
import { apiBaseUrl } from './baseUrl';
import { redactedNode } from './redact';

export const CREDENTIAL_TYPE = 'phpRankApi';

/** The contexts a phpRank request is made from: action node items, pickers, the trigger. */
export type RequestContext = IExecuteSingleFunctions | ILoadOptionsFunctions | IPollFunctions;

/** How often one request is sent again after HTTP 429 before the item fails. */
export const MAX_RATE_LIMIT_RETRIES = 30;
/** Wait used when a 429 carries no usable Retry-After header (seconds). */
const DEFAULT_RETRY_AFTER_S = 10;
/** Longest single wait honoured, so a broken header cannot stall a run for hours (seconds). */
const MAX_RETRY_AFTER_S = 120;

/**
 * One phpRank API call: authenticated by the credential, retried after HTTP 429 (which phpRank
 * did not process, so resending is always safe), and every failure turned into an error that
 * says what happened. Nothing else is retried: a 5xx or a timeout on a create may have created
 * the report.
 */
export async function phpRankRequest(
	this: RequestContext,
	options: IHttpRequestOptions,
): Promise<IN8nHttpFullResponse> {
	const node = redactedNode(this.getNode());
	const ctx = errorContext(options);
	const request: IHttpRequestOptions = {
		...options,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		// A redirect is never part of the API; following one could carry the key to another host.
		disableFollowRedirect: true,
	};

	for (let attempt = 0; ; attempt++) {
		let response: IN8nHttpFullResponse;
		try {
			response = (await this.helpers.httpRequestWithAuthentication.call(
				this,
				CREDENTIAL_TYPE,
				{ ...request, qs: { ...request.qs }, headers: { ...request.headers } },
			)) as IN8nHttpFullResponse;
		} catch (error) {
			throw describeNetworkError(node, error, ctx);
		}

		const { statusCode } = response;
		if (statusCode === 429 && attempt < MAX_RATE_LIMIT_RETRIES) {
			await sleep(retryAfterMs(response.headers['retry-after']));
			continue;
		}
		if (statusCode < 200 || statusCode >= 300) {
			throw describeHttpError(node, statusCode, parseBody(response.body), ctx);
		}
		// A delete may be answered with an empty 204 by instances that follow the seed spec.
		const body =
			statusCode === 204 || (ctx.method === 'DELETE' && isEmpty(response.body))
				? {}
				: parseBody(response.body);
		if (!body || typeof body !== 'object') {
			throw describeBadBody(node, statusCode, response.body, ctx);
		}
		return { ...response, body };
	}
}

/**
 * One page of a list endpoint, for the callers RoutingNode does not serve (pickers, the trigger):
 * the credential's API root, checked, and the same request path as every operation.
 */
export async function getListPage(
	this: RequestContext,
	url: string,
	qs: IDataObject,
): Promise<{ records: IDataObject[]; meta: IDataObject }> {
	const credentials = await this.getCredentials(CREDENTIAL_TYPE);
	const baseURL = apiBaseUrl(credentials.baseUrl);
	assertBaseUrl.call(this, baseURL);
	const { body } = await phpRankRequest.call(this, {
		baseURL,
		url,
		method: 'GET',
		qs,
		headers: { Accept: 'application/json' },
	});
	const { data, meta } = body as { data?: unknown; meta?: IDataObject };
	return { records: Array.isArray(data) ? (data as IDataObject[]) : [], meta: meta ?? {} };
}

/** The API root resolved from the credential, checked before anything is sent. */
export function assertBaseUrl(this: RequestContext, baseURL: string | undefined) {
	if (!baseURL || !/^https?:\/\/[^/?#]+/i.test(baseURL)) {
		throw inputError(
			redactedNode(this.getNode()),
			'The Base URL of the phpRank credential is invalid',
			'Open the phpRank credential and enter the full address of your instance, starting with https:// (or http://), e.g. https://seo.example.com',
		);
	}
}

function errorContext(options: IHttpRequestOptions): ErrorContext {
	let host = 'the phpRank server';
	try {
		host = new URL(`${options.baseURL ?? ''}${options.url}`).host || host;
	} catch {
		// An unparsable URL is reported by assertBaseUrl before any request is made.
	}
	const [collection, id] = String(options.url).split(/[?#]/)[0].split('/').filter(Boolean);
	let target: string | undefined;
	if (id !== undefined) {
		const name = safeDecode(id);
		target = collection === 'projects' ? `project "${name}"` : `report ${name}`;
	}
	return { host, method: (options.method ?? 'GET').toUpperCase(), target };
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
	if (!Number.isFinite(seconds) || seconds < 0) seconds = DEFAULT_RETRY_AFTER_S;
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
