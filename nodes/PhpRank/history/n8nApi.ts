import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestMethods,
	ILoadOptionsFunctions,
} from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { apiBaseUrl, isApiBaseUrl } from '../transport/connection';
import { networkCause } from '../transport/errors';
import { outageBoundMs, outageOf, Tries } from '../transport/retry';

/*
 * n8n's own public API (v1), as History Store → Data Table uses it: the credential's address,
 * one request, and every way it can fail written as what happened and what to fix. The key travels
 * only in the credential's header (n8n's httpRequestWithAuthentication), and no error carries the
 * request: a failed request is described by its status and n8n's own message.
 */

export const N8N_API_CREDENTIAL = 'phpRankN8nApi';

/** The first n8n whose public API serves data tables (scripts/n8n/NOTES.md, "The public API's data tables"). */
export const FIRST_N8N_WITH_TABLE_API = '2.7';

const TIMEOUT_MS = 30_000;

export type N8nApiContext = IExecuteSingleFunctions | ILoadOptionsFunctions;

/**
 * Something n8n's API or the history table did not do: a NodeOperationError whose description says
 * what to fix. Made by `tableProblem` (here, and in tableStore.ts for the table's columns).
 */
export type TableProblem = NodeOperationError & { description: string };

export const tableProblem = (ctx: N8nApiContext, message: string, description: string) =>
	new NodeOperationError(ctx.getNode(), message, { description }) as TableProblem;

/** Whether an error is a TableProblem (a node error that says what to fix), not a bug. */
export const isTableProblem = (error: unknown): error is TableProblem =>
	error instanceof NodeOperationError && typeof error.description === 'string';

const CREDENTIAL_HINT =
	'the phpRank History Store API credential: its n8n Address is the address this n8n answers at from its own server, e.g. http://localhost:5678';

/** `https://n8n.example.com/api/v1` from the credential's n8n Address (with or without /api/v1). */
export async function n8nApiRoot(ctx: N8nApiContext): Promise<string> {
	let credentials: IDataObject;
	try {
		credentials = await ctx.getCredentials(N8N_API_CREDENTIAL);
	} catch {
		throw tableProblem(
			ctx,
			'History Store is Data Table, but no n8n API credential is set',
			`Choose or create ${CREDENTIAL_HINT}, and an n8n API key.`,
		);
	}
	const root = apiBaseUrl(credentials.baseUrl);
	if (!isApiBaseUrl(root))
		throw tableProblem(
			ctx,
			`The n8n Address of the n8n API credential is not a web address: ${JSON.stringify(String(credentials.baseUrl ?? ''))}`,
			`Correct ${CREDENTIAL_HINT}.`,
		);
	return root;
}

/** n8n's own message from an error answer, when it sent one. */
function messageOf(body: unknown): string {
	const message = (body as { message?: unknown } | null)?.message;
	return typeof message === 'string' ? message : '';
}

/** An error answer of n8n's API: its status, n8n's own message, the address asked. */
interface Answer {
	status: number;
	said: string;
	at: string;
}

const withSaid = ({ status, said }: Answer) => `HTTP ${status}${said ? `: ${said}` : ''}`;
const answered = ({ status, said }: Answer) =>
	`n8n answered HTTP ${status} to the history table's request${said ? `: ${said}` : ''}`;

/**
 * Each kind of failure of n8n's API, how it is known, what it means and what fixes it; the first
 * that matches an answer is the one. The last matches any.
 */
const FAILURES: ReadonlyArray<{
	kind: string;
	matches: (answer: Answer) => boolean;
	message: (answer: Answer) => string;
	fix: string;
}> = [
	{
		kind: 'key refused',
		matches: ({ status }) => status === 401,
		message: (answer) => `n8n refused the API key of the n8n API credential (${withSaid(answer)})`,
		fix: 'Create an API key in n8n (Settings → n8n API) and paste it into the phpRank History Store API credential. n8n answers so too while its public API is turned off (N8N_PUBLIC_API_DISABLED=true): turn it on, or set History Store to This Workflow.',
	},
	{
		kind: 'scope missing',
		matches: ({ status }) => status === 403,
		message: (answer) => `The n8n API key may not use this data table (${withSaid(answer)})`,
		fix: 'Give the key the data table scopes (dataTable:list, dataTable:read, dataTable:create, dataTableRow:read, dataTableRow:create, dataTableRow:upsert; with Page Groups on a table made before them, also dataTableColumn:create, or add the columns page_group (string), budget_passed (boolean) and breaches (string) yourself), or pick a table of a project its user can edit.',
	},
	{
		kind: 'table gone',
		matches: ({ status, said }) => status === 404 && /data ?table/i.test(said),
		message: ({ said }) => `The history table is gone: ${said}`,
		fix: 'Pick another table under History Table, or enter a name (By Name) and the node creates the table on its next production run.',
	},
	{
		kind: 'no table API',
		matches: ({ status }) => status === 404,
		message: ({ at }) => `This n8n has no data-table API at ${at} (HTTP 404)`,
		fix: `n8n serves data tables through its public API from version ${FIRST_N8N_WITH_TABLE_API} on. Update n8n, check the n8n Address of the credential, or set History Store to This Workflow.`,
	},
	{
		// n8n 2.41: 400 "Data table size limit exceeded: 200MB used, limit is 200MB", on every write.
		kind: 'tables full',
		matches: ({ status, said }) => status === 400 && /size limit exceeded/i.test(said),
		message: (answer) => `n8n's data tables are full (${withSaid(answer)})`,
		fix: 'n8n takes no new row once all its data tables together reach the limit it names, set by N8N_DATA_TABLES_MAX_SIZE_BYTES (in bytes): raise that setting where n8n runs and restart n8n, or delete rows no longer needed (Overview → Data tables). This run’s row is not kept; runs write theirs again once there is room.',
	},
	{
		kind: 'n8n failed',
		matches: ({ status }) => status >= 500,
		message: answered,
		fix: 'n8n failed: try again, or look at n8n’s log.',
	},
	{
		kind: 'row refused',
		matches: () => true,
		message: answered,
		fix: 'Check the table under History Table: it must have the columns the node writes (README, "Where history lives").',
	},
];

/** What an error answer of n8n's API means for the history, and what fixes it. */
function answerProblem(answer: Answer): { message: string; description: string } {
	const failure = FAILURES.find(({ matches }) => matches(answer)) ?? FAILURES[FAILURES.length - 1];
	return { message: failure.message(answer), description: failure.fix };
}

type FullAnswer = { statusCode: number; body: unknown };

/** n8n's answers while it restarts or its database is away (behind a proxy: 502 to 504). */
const UNAVAILABLE = new Set([500, 502, 503, 504]);

/**
 * Sends `request` again while n8n is unavailable (a 5xx answer, refused, reset, timed out), as
 * phpRank's requests are (`Tries`, within Request Options → Wait Out Outages): a read or an upsert
 * (the same row twice is one row) whenever, anything else only when n8n never received it
 * (refused). Stop ends the waits. Its last answer or failure stands.
 */
async function whileUnavailable(
	ctx: N8nApiContext,
	repeatable: boolean,
	request: () => Promise<FullAnswer>,
): Promise<FullAnswer> {
	const tries = new Tries(repeatable, Number.POSITIVE_INFINITY, outageBoundMs(ctx));
	const stop = 'getExecutionCancelSignal' in ctx ? ctx.getExecutionCancelSignal() : undefined;
	for (;;) {
		const sentAt = Date.now();
		let answer: FullAnswer | undefined;
		let failure: unknown;
		try {
			answer = await request();
		} catch (error) {
			failure = error;
		}
		const outage =
			answer === undefined
				? outageOf(undefined, failure)
				: UNAVAILABLE.has(answer.statusCode)
					? { cause: `HTTP ${answer.statusCode}`, reached: true, floorMs: 0 }
					: undefined;
		const next = outage && !stop?.aborted ? tries.afterOutage(outage, sentAt) : undefined;
		if (typeof next !== 'number') return answer ?? Promise.reject(failure);
		await Promise.race([
			sleep(next - Date.now()),
			new Promise((woken) => stop?.addEventListener('abort', woken, { once: true })),
		]);
	}
}

/** One request to n8n's public API; its JSON answer, or a TableProblem saying what to fix. */
export async function n8nApi<T>(
	ctx: N8nApiContext,
	method: IHttpRequestMethods,
	path: string,
	{ qs, body }: { qs?: IDataObject; body?: IDataObject } = {},
): Promise<T> {
	const root = await n8nApiRoot(ctx);
	const repeatable = method === 'GET' || path.endsWith('/rows/upsert');
	let answer: FullAnswer;
	try {
		answer = await whileUnavailable(
			ctx,
			repeatable,
			async () =>
				(await ctx.helpers.httpRequestWithAuthentication.call(ctx, N8N_API_CREDENTIAL, {
					method,
					url: `${root}${path}`,
					qs,
					body,
					json: true,
					headers: { Accept: 'application/json' },
					returnFullResponse: true,
					ignoreHttpStatusErrors: true,
					// n8n's API never redirects; following one could carry the key to another host.
					disableFollowRedirect: true,
					timeout: TIMEOUT_MS,
				})) as FullAnswer,
		);
	} catch (error) {
		throw tableProblem(
			ctx,
			`Could not reach n8n at ${root}: ${networkCause(error).cause}`,
			`Check ${CREDENTIAL_HINT}.`,
		);
	}
	if (answer.statusCode >= 200 && answer.statusCode < 300) return answer.body as T;
	const { message, description } = answerProblem({
		status: answer.statusCode,
		said: messageOf(answer.body),
		at: `${root}${path}`,
	});
	throw tableProblem(ctx, message, description);
}
