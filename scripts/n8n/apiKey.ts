/**
 * A key for n8n's public REST API v1 (header `X-N8N-API-KEY`), made as the editor's Settings → n8n API does:
 * `POST /rest/api-keys { label, scopes, expiresAt }` (NOTES.md, "The public API's data tables", verified on
 * 2.41.1). n8n must run with `N8N_PUBLIC_API_DISABLED=false` (the sandbox sets `true`): with the public API
 * off, every `/rest/api-keys` call answers 404 with an empty body.
 */
import { sitemapN8nApiCredential, SITEMAP_EXAMPLE } from './checks';
import { countingProxy, type CountingProxy } from './proxy';
import { setupOwner, type RestSession } from './rest';
import type { N8nSandbox } from './sandbox';
import { startServer, type N8nServer } from './server';
import type { Suite } from './suite';
import type { CredentialRef } from './workflow';

/** The env that turns n8n's public API on (the sandbox turns it off). */
export const PUBLIC_API_ON = { N8N_PUBLIC_API_DISABLED: 'false' };

/** Every scope of n8n's data tables and their rows (`@n8n/permissions`, 2.41.1); the owner may take all. */
export const DATA_TABLE_SCOPES = [
	...['create', 'read', 'update', 'delete', 'list'].map((action) => `dataTable:${action}`),
	...['create', 'read', 'update', 'delete', 'upsert'].map((action) => `dataTableRow:${action}`),
];

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

/** What the node needs to reach an n8n's public API: the owner's key and a phpRankN8nApi credential. */
export interface N8nApiAccess {
	key: string;
	/** the credential's n8n Address: n8n's own, or the counting proxy before it */
	url: string;
	proxy?: CountingProxy;
	cred: CredentialRef;
}

export interface N8nApiOptions {
	/** the key's label in Settings → n8n API */
	label: string;
	/** the credential's n8n Address is a counting proxy before n8n (closed when the suite ends) */
	proxy?: boolean;
	/** the credential's name, default the sitemap example's (whose id a workflow the session saves gets swapped for n8n's) */
	name?: string;
}
/** With `proxy: true` the proxy is there. */
type Access<O> = N8nApiAccess & (O extends { proxy: true } ? { proxy: CountingProxy } : unknown);

/**
 * The one fixture for "n8n with its public API on, an owner, an API key, the n8n API credential", on an n8n
 * already started with PUBLIC_API_ON (a queue main) whose owner is `session`; the credential saved by REST.
 */
export async function n8nApiAccess<O extends N8nApiOptions>(
	suite: Suite,
	o: O & { session: RestSession; n8nUrl: string },
): Promise<Access<O>> {
	const key = await createApiKey(o.session, { label: o.label });
	const proxy = o.proxy ? await countingProxy(o.n8nUrl) : undefined;
	if (proxy) suite.defer(() => proxy.close());
	const url = proxy?.url ?? o.n8nUrl;
	const name = o.name ?? SITEMAP_EXAMPLE.n8nApiCredential.name;
	const [id] = await o.session.addCredentials([{ ...sitemapN8nApiCredential(url, key), name }]);
	return { key, url, proxy, cred: { id, name } } as Access<O>;
}

/** `sb`'s n8n started with its public API on, its owner set up, then n8nApiAccess. */
export async function startWithN8nApi<O extends N8nApiOptions>(
	suite: Suite,
	sb: N8nSandbox,
	o: O,
): Promise<Access<O> & { n8n: N8nServer; session: RestSession }> {
	const n8n = suite.n8n(await startServer(sb, { env: PUBLIC_API_ON }));
	const session = await setupOwner(n8n);
	const access = await n8nApiAccess(suite, { ...o, session, n8nUrl: n8n.baseUrl });
	return { n8n, session, ...access };
}
