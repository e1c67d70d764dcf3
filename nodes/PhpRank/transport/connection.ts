import type { IExecuteSingleFunctions, ILoadOptionsFunctions, IPollFunctions } from 'n8n-workflow';

import { CREDENTIAL_TYPE, DEFAULT_CONCURRENCY } from '../api';
import { inputError, redactedNode } from './errors';
import { type Budget, budgetFor } from './rateLimit';
import { runOf } from './run';

/*
 * The instance a credential names: its API root from the Base URL a user pasted, and the request
 * budget of its user (rateLimit.ts). Looked up once per node run (the run keeps it), and per call
 * for pickers and polls.
 */

/** The contexts a phpRank request is made from: action node items, pickers, the trigger. */
export type RequestContext = IExecuteSingleFunctions | ILoadOptionsFunctions | IPollFunctions;

/** An instance as the credential names it. */
export interface Connection {
	baseURL: string;
	host: string;
	scheme: string;
	budget: Budget;
}

/**
 * The API root of an instance from the Base URL a user pasted: with or without a trailing slash
 * or `/api/v1`, on a sub-path, or copied from the browser with a query or fragment (`?tab=1`,
 * `#reports`), which would otherwise end up in front of every API path. The one rule for the
 * nodes and the credential test.
 */
export function apiBaseUrl(baseUrl: unknown): string {
	return `${String(baseUrl ?? '')
		.trim()
		.replace(/[?#].*$/, '')
		.replace(/\/+$/, '')
		.replace(/\/api\/v1$/i, '')}/api/v1`;
}

/** An absolute http(s) address with a host: anything else is refused before a request is made. */
export function isApiBaseUrl(baseURL: string): boolean {
	if (!/^https?:\/\/[^/?#]+/i.test(baseURL)) return false;
	try {
		return new URL(baseURL).hostname !== '';
	} catch {
		return false;
	}
}

/** The instance's own address (the API root without `/api/v1`): where its pages are, e.g. a report's. */
export function instanceUrl(connection: Connection): string {
	return connection.baseURL.replace(/\/api\/v1$/, '');
}

/** Whether the context is an item of an action node run (it has a run; pickers and polls have none). */
export function isActionItem(ctx: RequestContext): ctx is IExecuteSingleFunctions {
	return 'getExecuteData' in ctx;
}

/**
 * The credential's instance and the budget of its user. Items of one node run share one lookup:
 * the credential is read and checked once, not per item.
 */
export async function connectionOf(ctx: RequestContext): Promise<Connection> {
	if (!isActionItem(ctx)) return await lookUp(ctx);
	// A failed lookup (a credential being fixed) is made again by the next item.
	return await runOf(ctx).once('connection', () => lookUp(ctx));
}

async function lookUp(ctx: RequestContext): Promise<Connection> {
	const credentials = await ctx.getCredentials(CREDENTIAL_TYPE);
	const baseURL = apiBaseUrl(credentials.baseUrl);
	if (!isApiBaseUrl(baseURL)) {
		throw inputError(
			isActionItem(ctx) ? runOf(ctx).nodeForErrors(ctx) : redactedNode(ctx.getNode(), undefined),
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
}
