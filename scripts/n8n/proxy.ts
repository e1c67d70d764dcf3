/**
 * A counting pass-through proxy in front of an n8n (the n8n API the node calls: a History Store credential's
 * n8n Address points here). Every request is passed on as it came and its answer passed back; each is logged
 * with its answer's status. `fault` answers a request itself instead (e.g. a 503 to the rows upsert).
 */
import * as http from 'http';

export interface ProxiedRequest {
	method: string;
	path: string;
	/** the query string as sent, decoded ('' when none) */
	query: string;
	/** the answer's status (0 until it comes) */
	status: number;
}

export interface CountingProxy {
	url: string;
	seen: ProxiedRequest[];
	/** a status to answer instead of n8n's, or undefined to pass the request on */
	fault?: (method: string, path: string) => number | undefined;
	count(): number;
	reset(): void;
	close(): Promise<void>;
}

export async function countingProxy(target: string): Promise<CountingProxy> {
	const to = new URL(target);
	const server = http.createServer((req, res) => {
		const url = new URL(req.url ?? '/', target);
		const entry = {
			method: req.method ?? 'GET',
			path: url.pathname,
			query: decodeURIComponent(url.search),
			status: 0,
		};
		proxy.seen.push(entry);
		const fault = proxy.fault?.(entry.method, entry.path);
		if (fault) {
			req.resume();
			entry.status = fault;
			res.writeHead(fault, { 'content-type': 'application/json' });
			res.end(JSON.stringify({ message: 'Service Unavailable (e2e proxy)' }));
			return;
		}
		const headers = { ...req.headers, host: to.host };
		const out = http.request(url, { method: entry.method, headers }, (answer) => {
			entry.status = answer.statusCode ?? 0;
			res.writeHead(answer.statusCode ?? 502, answer.headers);
			answer.pipe(res);
		});
		out.on('error', () => res.destroy());
		req.pipe(out);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as { port: number };
	const proxy: CountingProxy = {
		url: `http://127.0.0.1:${port}`,
		seen: [],
		count: () => proxy.seen.length,
		reset: () => void (proxy.seen.length = 0),
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
	return proxy;
}

/** The requests as `METHOD /path?query → status`, /api/v1 left out. */
export const describeProxied = (seen: ProxiedRequest[]) =>
	seen.map((s) => `${s.method} ${s.path.replace(/^\/api\/v1/, '')}${s.query} → ${s.status}`);
