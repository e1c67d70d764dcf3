/** A client of the phpRank test server for its own tests: one server at a time, requests as a client sends them. */
import { PhpRankServer, TEST_API_KEY, type ReportRecord, type ServerOptions } from './index';
import type { Paginated } from './laravel';

export type ReportBody = Omit<ReportRecord, 'user_id' | 'password'> & { password: boolean };
export type ProjectBody = { project: string; reports: number; result: number; created_at: string };

export const DATE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;
export let server: PhpRankServer;

/** A started server in place of the one before: a new one with `options`, or the one `start` gives. */
export async function boot(
	options: ServerOptions | (() => Promise<PhpRankServer>) = {},
): Promise<void> {
	await server?.stop();
	if (typeof options === 'function') server = await options();
	else {
		server = new PhpRankServer(options);
		await server.start();
	}
}

/** Every test of the file starts with a default server. */
export function bootEach(): void {
	beforeEach(() => boot());
	afterEach(() => server.stop());
}

export interface CallOptions extends RequestInit {
	/** API key to send; null sends no Authorization header. */
	key?: string | null;
	/** Send Accept: application/json (default true). */
	json?: boolean;
}

export function call(
	path: string,
	{ key = TEST_API_KEY, json = true, ...init }: CallOptions = {},
): Promise<Response> {
	const headers = new Headers(init.headers);
	if (key !== null) headers.set('Authorization', `Bearer ${key}`);
	if (json) headers.set('Accept', 'application/json');
	return fetch(`${server.url}/api/v1${path}`, { redirect: 'manual', ...init, headers });
}

export const del = (path: string, options: CallOptions = {}) =>
	call(path, { ...options, method: 'DELETE' });

export function send(
	method: string,
	path: string,
	fields: Record<string, string>,
	options: CallOptions = {},
): Promise<Response> {
	return call(path, { ...options, method, body: new URLSearchParams(fields) });
}

/** The status and JSON body of an answer. */
export async function answer<T = unknown>(
	res: Response | Promise<Response>,
): Promise<{ status: number; body: T }> {
	const done = await res;
	return { status: done.status, body: (await done.json()) as T };
}

/** The report an answer holds (`data`), its status checked (phpRank repeats it in the body). */
export async function dataOf(res: Response | Promise<Response>, status = 200): Promise<ReportBody> {
	const { body, ...head } = await answer<{ data: ReportBody; status: number }>(res);
	expect([head.status, body.status]).toEqual([status, status]);
	return body.data;
}

/** POST /reports with these form fields: the report made (201 checked). */
export const create = (fields: Record<string, string>) =>
	dataOf(send('POST', '/reports', fields), 201);

export async function list<T = ReportBody>(
	path: string,
	options?: CallOptions,
): Promise<Paginated<T>> {
	const res = await call(path, options);
	expect(res.status).toBe(200);
	return (await res.json()) as Paginated<T>;
}

/** The status and the throttle's headers of an answer. */
export const limits = (res: Response) => ({
	status: res.status,
	limit: res.headers.get('x-ratelimit-limit'),
	remaining: res.headers.get('x-ratelimit-remaining'),
	retryAfter: res.headers.get('retry-after'),
});

/** A list page in brief: its ids, then meta's current_page, from, to, last_page, per_page and total. */
export const brief = ({ data, meta }: Paginated<ReportBody>) => [
	data.map((r) => r.id),
	...(['current_page', 'from', 'to', 'last_page', 'per_page', 'total'] as const).map(
		(k) => meta[k],
	),
];
/** The ids from `high` down to `low`. */
export const down = (high: number, low: number) =>
	Array.from({ length: high - low + 1 }, (_, i) => high - i);
