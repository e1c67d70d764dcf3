import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';

import { CREDENTIAL_TYPE, READ_TIMEOUT_MS } from '../api';
import { connectionOf, errorContextOf, exchange, type Expect, inspect, requestOptionsFor, type RequestContext } from './send';

export type { RequestContext } from './send';

/**
 * One phpRank request for the callers n8n's routing does not serve (pickers, the trigger): the
 * same budget, checks and errors as every operation, sent with n8n's authenticated HTTP helper.
 */
export async function phpRankRequest(
	this: RequestContext,
	options: IHttpRequestOptions,
	expect: Expect,
): Promise<{ body: IDataObject; meta?: IDataObject }> {
	const connection = await connectionOf(this);
	const request = requestOptionsFor(connection, options, options.timeout ?? READ_TIMEOUT_MS);
	const errorContext = errorContextOf(connection, request.method ?? 'GET', request.url);
	return await exchange(this, connection, errorContext, async (current) => {
		const response = await this.helpers.httpRequestWithAuthentication.call(this, CREDENTIAL_TYPE, request);
		const body = inspect(current, response as Parameters<typeof inspect>[1], expect);
		return { body, meta: current.meta };
	});
}

/** One page of a list endpoint: its records and Laravel paginator `meta` ({} when there is none). */
export async function getListPage(
	this: RequestContext,
	url: string,
	qs: IDataObject,
): Promise<{ records: IDataObject[]; meta: IDataObject }> {
	const { body, meta } = await phpRankRequest.call(this, { url, method: 'GET', qs }, 'list');
	return { records: body.data as IDataObject[], meta: meta ?? {} };
}
