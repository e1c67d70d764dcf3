import type { IDataObject, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { describePagingError } from '../transport/errors';
import {
	type ListPage,
	PagingError,
	readPages,
	type PagingCursor,
	type PagingOptions,
	type PagingResult,
} from '../transport/paging';
import { redactedNode } from '../transport/redact';
import { getListPage, type RequestContext } from '../transport/request';

/**
 * A list read by the one paging rule (transport/paging.ts), its failures as node errors: Get Many
 * (pages sent through n8n's routing), the pickers and the trigger.
 */
export async function readListPages<T = IDataObject>(
	ctx: RequestContext,
	fetchPage: (page: number) => Promise<ListPage>,
	options: PagingOptions<T>,
): Promise<PagingResult<T>> {
	try {
		return await readPages(fetchPage, options);
	} catch (error) {
		const node = redactedNode(ctx.getNode());
		if (error instanceof PagingError) throw describePagingError(node, error.problem);
		// Hands back the error itself when it is one already (every request error is).
		throw new NodeApiError(node, error as JsonObject);
	}
}

/**
 * A list endpoint for the callers RoutingNode does not serve (pickers, the trigger): `qs` and
 * `per_page` on every page.
 */
export async function readList<T = IDataObject>(
	ctx: RequestContext,
	url: string,
	qs: IDataObject,
	options: PagingOptions<T>,
): Promise<PagingResult<T>> {
	return await readListPages(ctx, (page) => getListPage.call(ctx, url, { ...qs, per_page: options.perPage, page }), options);
}

/** A cursor handed out as a picker's pagination token, or undefined for anything else. */
export function cursorFromToken(token: string | undefined): PagingCursor | undefined {
	try {
		const cursor = JSON.parse(token ?? '') as PagingCursor;
		return typeof cursor === 'object' && cursor !== null && Number.isSafeInteger(cursor.page) && cursor.page >= 1
			? cursor
			: undefined;
	} catch {
		return undefined;
	}
}
