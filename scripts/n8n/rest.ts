/**
 * n8n's internal REST API (/rest/...), what the editor calls, on an n8n a suite started once (no CLI process,
 * no restart):
 *   - the owner account (POST /rest/owner/setup, /rest/login): the sign-in the editor's calls need;
 *   - credentials and workflows saved, published and unpublished as the editor does (a publish takes effect at once);
 *   - the editor's credential "Test" button (POST /rest/credentials/test): no CLI command tests a credential;
 *   - a manual run, the editor's "Execute workflow" (POST /rest/workflows/:id/run: runFromTrigger, or
 *     RestSession.request where the suite checks the answer itself), also at a polling trigger, where
 *     `n8n execute` never polls.
 * The CLI (cli.ts) stays where it is what is proven or where n8n is not running; executions are read as stored
 * in n8n's database (db.ts).
 */
import { randomBytes } from 'crypto';

import type { CredentialImport } from './cli';
import { publishedVersionId, waitForExecution, type StoredExecution } from './db';
import { waitFor } from './proc';
import { n8nOlderThan } from './runtime';
import type { N8nSandbox } from './sandbox';
import type { N8nServer } from './server';

export interface RestResponse<T = unknown> {
	status: number;
	/** parsed JSON body; n8n wraps successful payloads as { data: ... } */
	body: T;
}

export interface CredentialTestResult {
	status: 'OK' | 'Error';
	message: string;
}

/**
 * A logged-in REST session (cookie `n8n-auth`, bound to the `browser-id` header it was issued with).
 * `addCredentials`, `save` and `publish` do what `n8n import:credentials`, `import:workflow` and `publish:workflow`
 * do before a start (a CLI boot each) on the started n8n: a credential gets n8n's id, swapped into each workflow
 * saved after for the id its JSON names; a workflow keeps its id where n8n takes it (2.41); a publish is at once.
 */
export class RestSession {
	/** the ids addCredentials was given → n8n's (a workflow saved after names n8n's: saveWorkflow) */
	readonly credentialIds = new Map<string, string>();
	constructor(
		readonly baseUrl: string,
		readonly cookie: string,
		readonly browserId: string,
	) {}

	async request<T = unknown>(
		method: string,
		urlPath: string,
		body?: unknown,
	): Promise<RestResponse<T>> {
		return await restRequest<T>(this.baseUrl, method, urlPath, body, {
			cookie: this.cookie,
			'browser-id': this.browserId,
		});
	}

	/** n8n's ids of the credentials, in order */
	async addCredentials(creds: CredentialImport[]): Promise<string[]> {
		for (const { id, name, type, data } of creds)
			this.credentialIds.set(id, (await this.createCredential({ name, type, data })).id);
		return creds.map((c) => this.credentialIds.get(c.id) as string);
	}

	/** `wf` saved (saveWorkflow, its id kept) and unless `publish` is false published; its n8n id. */
	async save(wf: { id: string; name: string }, publish = true): Promise<string> {
		const { id, versionId } = await saveWorkflow(this, wf, true);
		if (!publish) return id;
		const res = await this.request('POST', `/rest/workflows/${id}/activate`, { versionId });
		if (res.status !== 200)
			throw new Error(`"${wf.name}" not published: ${res.status} ${JSON.stringify(res.body)}`);
		return id;
	}

	async publish(...workflows: Array<{ id: string; name: string }>): Promise<void> {
		for (const wf of workflows) await this.save(wf);
	}

	/** POST /rest/credentials → the created credential ({ id, name, type, ... }). */
	async createCredential(cred: {
		name: string;
		type: string;
		data: Record<string, unknown>;
	}): Promise<{ id: string; name: string; type: string }> {
		const res = await this.request<{ data: { id: string; name: string; type: string } }>(
			'POST',
			'/rest/credentials',
			cred,
		);
		if (res.status !== 200)
			throw new Error(`create credential failed: ${res.status} ${JSON.stringify(res.body)}`);
		return res.body.data;
	}

	/** GET /rest/credentials/:id?includeData=true (password fields come back redacted). */
	async getCredential(
		id: string,
	): Promise<{ id: string; name: string; type: string; data: Record<string, unknown> }> {
		const res = await this.request<{
			data: { id: string; name: string; type: string; data: Record<string, unknown> };
		}>('GET', `/rest/credentials/${encodeURIComponent(id)}?includeData=true`);
		if (res.status !== 200)
			throw new Error(`get credential failed: ${res.status} ${JSON.stringify(res.body)}`);
		return res.body.data;
	}

	/**
	 * The editor's "Test" button: POST /rest/credentials/test { credentials: { id, name, type, data } }.
	 * In 2.41 `id` must be a STORED credential the user can read (owner: also '' is allowed). `data` is merged
	 * over the stored data (redacted values are restored), so pass `dataOverride` to test e.g. a wrong key
	 * without saving it. HTTP 200 in both cases; the outcome is in { status: 'OK'|'Error', message }.
	 */
	async testCredential(cred: {
		id: string;
		dataOverride?: Record<string, unknown>;
	}): Promise<CredentialTestResult> {
		const stored = await this.getCredential(cred.id);
		const res = await this.request<{ data: CredentialTestResult }>(
			'POST',
			'/rest/credentials/test',
			{
				credentials: {
					id: stored.id,
					name: stored.name,
					type: stored.type,
					data: { ...stored.data, ...cred.dataOverride },
				},
			},
		);
		if (res.status !== 200)
			throw new Error(`credential test call failed: ${res.status} ${JSON.stringify(res.body)}`);
		return res.body.data;
	}
}

async function restRequest<T>(
	baseUrl: string,
	method: string,
	urlPath: string,
	body: unknown,
	headers: Record<string, string>,
): Promise<RestResponse<T> & { setCookie: string[] }> {
	const send = () =>
		fetch(`${baseUrl}${urlPath}`, {
			method,
			headers: {
				accept: 'application/json',
				...(body === undefined ? {} : { 'content-type': 'application/json' }),
				...headers,
			},
			body: body === undefined ? undefined : JSON.stringify(body),
			signal: AbortSignal.timeout(60_000),
		});
	const res = await sentAgainIfClosed(method, send);
	const text = await res.text();
	let parsed: unknown = text;
	try {
		parsed = text ? JSON.parse(text) : undefined;
	} catch {
		/* not JSON */
	}
	return { status: res.status, body: parsed as T, setCookie: res.headers.getSetCookie() };
}

/**
 * A request sent on a kept-alive socket that n8n closes at that moment (its 5 s keep-alive ran out on a loaded
 * machine) fails before any answer: sent once more. A GET on any network error; a write only when the socket
 * was closed by n8n (seen in CI: a credential POST among ten, a webhook call; "fetch failed").
 */
export async function sentAgainIfClosed(
	method: string,
	send: () => Promise<Response>,
): Promise<Response> {
	const closed = (error: unknown) =>
		['UND_ERR_SOCKET', 'ECONNRESET'].includes(
			String((error as { cause?: { code?: unknown } }).cause?.code),
		);
	return await send().catch((error: unknown) => {
		if (!(error instanceof TypeError) || (method !== 'GET' && !closed(error))) throw error;
		return send();
	});
}

export interface OwnerInfo {
	email: string;
	firstName: string;
	lastName: string;
	/** 8-64 chars, at least one digit and one uppercase letter */
	password: string;
}

export const DEFAULT_OWNER: OwnerInfo = {
	email: 'owner@example.com',
	firstName: 'Test',
	lastName: 'Owner',
	password: 'Passw0rd-Test',
};

/** POST /rest/owner/setup (skipAuth, only once per instance) → session logged in as the owner. */
export async function setupOwner(
	server: N8nServer,
	owner: OwnerInfo = DEFAULT_OWNER,
): Promise<RestSession> {
	return await signIn(server, '/rest/owner/setup', owner, 'owner setup');
}

/** POST /rest/login { emailOrLdapLoginId, password } → session. */
export async function login(
	server: N8nServer,
	creds: { email: string; password: string } = DEFAULT_OWNER,
): Promise<RestSession> {
	const body = { emailOrLdapLoginId: creds.email, password: creds.password };
	return await signIn(server, '/rest/login', body, 'login');
}

async function signIn(server: N8nServer, urlPath: string, body: object, what: string) {
	const browserId = randomBytes(16).toString('hex');
	const res = await restRequest(server.baseUrl, 'POST', urlPath, body, { 'browser-id': browserId });
	if (res.status !== 200)
		throw new Error(`${what} failed: ${res.status} ${JSON.stringify(res.body)}`);
	const cookie = res.setCookie.find((h) => h.startsWith('n8n-auth='));
	if (!cookie)
		throw new Error(`no n8n-auth cookie in response (got: ${res.setCookie.join(' | ') || 'none'})`);
	return new RestSession(server.baseUrl, cookie.split(';')[0], browserId);
}

/** What POST /rest/workflows/:id/run answers. */
type RunAnswer = RestResponse<{ data: { executionId?: string } }>;

/**
 * The editor's "Execute workflow" from a trigger (POST /rest/workflows/:id/run, mode manual), then the execution
 * as n8n's database stores it once it has ended (db.ts): `exec` is undefined if the run did not start (`started`
 * says why) or did not end within `timeoutMs`. `workflowData`: the workflow as saved (its id included), sent along
 * on an n8n older than 2.41 as its editor sends it (n8n 2.0 runs only that one, else 500 "Cannot read properties of
 * undefined (reading 'id')"); 2.41 runs the stored one.
 */
export async function runFromTrigger(
	session: RestSession,
	sb: N8nSandbox,
	workflowId: string,
	trigger: string,
	opts: { timeoutMs?: number; workflowData?: object } = {},
): Promise<{ started: RunAnswer; executionId?: string; exec?: StoredExecution }> {
	const started: RunAnswer = await session.request('POST', `/rest/workflows/${workflowId}/run`, {
		...(opts.workflowData && n8nOlderThan(sb.runtime, 2, 41)
			? { workflowData: opts.workflowData }
			: {}),
		triggerToStartFrom: { name: trigger },
	});
	const executionId = started.body?.data?.executionId;
	const exec = executionId
		? await waitForExecution(sb, workflowId, executionId, opts.timeoutMs)
		: undefined;
	return { started, executionId, exec };
}

/**
 * As the editor's Import from File saves it (POST /rest/workflows), the credentials the session added named by
 * n8n's ids: n8n's id, or with `keepId` its own (2.41).
 */
export async function saveWorkflow(
	session: RestSession,
	wf: object,
	keepId = false,
): Promise<{ id: string; versionId: string }> {
	let text = JSON.stringify(wf);
	for (const [ours, id] of session.credentialIds) text = text.replaceAll(`"${ours}"`, `"${id}"`);
	const body = JSON.parse(text) as Record<string, unknown>;
	if (!keepId || !body.id) delete body.id;
	const created = await session.request<{ data: { id: string; versionId: string } }>(
		'POST',
		'/rest/workflows',
		body,
	);
	if (created.status !== 200)
		throw new Error(`workflow not saved: ${created.status} ${JSON.stringify(created.body)}`);
	return created.body.data;
}

/**
 * A workflow as a user sets it up in the editor: saved (saveWorkflow), then published (the Publish button: POST
 * /rest/workflows/<id>/activate). Takes effect at once, with no restart. Its id and Publish's answer.
 */
export async function saveAndPublish(
	session: RestSession,
	wf: object,
): Promise<{ id: string; published: RestResponse }> {
	const { id, versionId } = await saveWorkflow(session, wf);
	const published = await session.request('POST', `/rest/workflows/${id}/activate`, { versionId });
	return { id, published };
}

type SavedWorkflow = Record<'versionId' | 'name', string> &
	Record<'nodes' | 'connections' | 'settings', unknown>;

/** The saved workflow `edit`ed, saved as the editor saves it (PATCH with its version), published again: its version. */
export async function editWorkflow(
	session: RestSession,
	workflowId: string,
	edit: (saved: SavedWorkflow) => SavedWorkflow,
): Promise<string> {
	const at = `/rest/workflows/${workflowId}`;
	const got = await session.request<{ data: SavedWorkflow }>('GET', at);
	const { versionId: was, name, nodes, connections, settings } = edit(got.body.data);
	const patch = { versionId: was, name, nodes, connections, settings };
	const patched = await session.request<{ data: { versionId: string } }>('PATCH', at, patch);
	const versionId = patched.body.data?.versionId;
	const published = await session.request('POST', `${at}/activate`, { versionId });
	if (patched.status !== 200 || published.status !== 200)
		throw new Error(`not saved or published: ${JSON.stringify([patched, published])}`);
	return versionId;
}

/**
 * A node renamed as the editor renames it (the node and the connections naming it), saved and published again;
 * resolves once n8n's publication outbox has published that version: its id and how long that took.
 */
export async function renameNode(
	session: RestSession,
	sb: N8nSandbox,
	workflowId: string,
	[from, to]: [string, string],
): Promise<{ versionId: string; seconds: number }> {
	const rename = (wf: SavedWorkflow) =>
		JSON.parse(JSON.stringify(wf).replaceAll(`"${from}"`, `"${to}"`)) as SavedWorkflow;
	const versionId = await editWorkflow(session, workflowId, rename);
	const t = Date.now();
	const published = () => publishedVersionId(sb, workflowId) === versionId || undefined;
	if (!(await waitFor(published, 60_000, 300)))
		throw new Error(`version ${versionId} not published in 60 s`);
	return { versionId, seconds: (Date.now() - t) / 1000 };
}
