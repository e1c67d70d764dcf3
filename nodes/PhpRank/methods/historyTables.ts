import type {
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	ILoadOptionsFunctions,
	INodeCredentialTestResult,
	INodeListSearchResult,
} from 'n8n-workflow';

import { FIRST_N8N_WITH_TABLE_API } from '../history/n8nApi';
import { listTables } from '../history/tableApi';
import { apiBaseUrl, isApiBaseUrl } from '../transport/connection';
import { networkCause } from '../transport/errors';

/*
 * History Store → Data Table in the editor: the History Table picker and the Test of the n8n
 * API (phpRank History) credential.
 */

/** History Table picker: this n8n's data tables by name, searched by name. */
export async function searchHistoryTables(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const { tables, cursor } = await listTables(this, filter, paginationToken);
	return {
		results: tables.map(({ id, name }) => ({ name, value: id })),
		paginationToken: cursor,
	};
}

const EXAMPLE =
	'Enter the address this n8n answers at from its own server, e.g. http://localhost:5678.';

/** What the Test button says, by the status n8n's API answered. */
export const N8N_API_TEST_MESSAGES = {
	ok: 'Connection successful: this n8n serves data tables to this key.',
	invalidUrl: `The n8n Address is not a web address. ${EXAMPLE}`,
	401: 'n8n refused the API key (HTTP 401). Create one under Settings → n8n API and paste it here; n8n answers so too while its public API is turned off (N8N_PUBLIC_API_DISABLED=true).',
	403: 'The API key may not list data tables (HTTP 403): give it the dataTable and dataTableRow scopes.',
	404: `No data-table API at this address (HTTP 404): n8n serves it from version ${FIRST_N8N_WITH_TABLE_API} on. ${EXAMPLE}`,
};

const failed = (message: string): INodeCredentialTestResult => ({ status: 'Error', message });

/** The n8n API credential's Test: the first data table of the key's user, as the node reads them. */
export async function phpRankN8nApiTest(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const root = apiBaseUrl(credential.data?.baseUrl);
	if (!isApiBaseUrl(root)) return failed(N8N_API_TEST_MESSAGES.invalidUrl);
	// A credential test gets only n8n's legacy `request` helper (credentialTest.ts says why).
	const { request } = this.helpers;
	let statusCode: number;
	try {
		({ statusCode } = (await request({
			method: 'GET',
			uri: `${root}/data-tables`,
			qs: { limit: 1 },
			headers: {
				Accept: 'application/json',
				'X-N8N-API-KEY': String(credential.data?.apiKey ?? ''),
			},
			resolveWithFullResponse: true,
			simple: false,
			followRedirect: false,
			timeout: 30_000,
		})) as { statusCode: number });
	} catch (error) {
		return failed(`Could not reach n8n at ${root}: ${networkCause(error).cause}. ${EXAMPLE}`);
	}
	if (statusCode === 401 || statusCode === 403 || statusCode === 404)
		return failed(N8N_API_TEST_MESSAGES[statusCode]);
	if (statusCode >= 300) return failed(`n8n answered HTTP ${statusCode} at ${root}/data-tables.`);
	return { status: 'OK', message: N8N_API_TEST_MESSAGES.ok };
}
