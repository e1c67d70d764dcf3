/**
 * A key for n8n's public REST API v1 (header `X-N8N-API-KEY`), made as the editor's Settings → n8n API does:
 * `POST /rest/api-keys { label, scopes, expiresAt }` (NOTES.md, "The public API's data tables", verified on
 * 2.41.1). n8n must run with `N8N_PUBLIC_API_DISABLED=false` (the sandbox sets `true`): with the public API
 * off, every `/rest/api-keys` call answers 404 with an empty body.
 */
import type { RestSession } from './rest';

/** Every scope of n8n's data tables and their rows (`@n8n/permissions`, 2.41.1); the owner may take all. */
export const DATA_TABLE_SCOPES = [
	'dataTable:create',
	'dataTable:read',
	'dataTable:update',
	'dataTable:delete',
	'dataTable:list',
	'dataTableRow:create',
	'dataTableRow:read',
	'dataTableRow:update',
	'dataTableRow:delete',
	'dataTableRow:upsert',
] as const;

/**
 * A public API key of the session's user that never expires, its value (`rawApiKey`, shown once). `label`: shown
 * in Settings → n8n API, at most 50 characters; `scopes`: one at least, default DATA_TABLE_SCOPES.
 */
export async function createApiKey(
	session: RestSession,
	opts: { label?: string; scopes?: readonly string[] } = {},
): Promise<string> {
	const res = await session.request<{ data: { rawApiKey?: string } }>('POST', '/rest/api-keys', {
		label: opts.label ?? 'phprank e2e',
		scopes: opts.scopes ?? DATA_TABLE_SCOPES,
		expiresAt: null,
	});
	const key = res.body?.data?.rawApiKey;
	if (res.status !== 200 || typeof key !== 'string')
		throw new Error(
			`API key not created: ${res.status} ${JSON.stringify(res.body)}` +
				(res.status === 404 ? ' (is n8n started with N8N_PUBLIC_API_DISABLED=false?)' : ''),
		);
	return key;
}
