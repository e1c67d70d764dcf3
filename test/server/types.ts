import type { IncomingHttpHeaders } from 'http';

export interface RecordedRequest {
	method: string;
	/** Path without the query, exactly as received (still percent-encoded). */
	path: string;
	decodedPath: string;
	query: Record<string, string>;
	rawQuery: string;
	headers: IncomingHttpHeaders;
	rawBody: string;
	/** The body decoded as application/x-www-form-urlencoded (empty for any other content type). */
	form: Record<string, string>;
}

export type Importance = 'high' | 'medium' | 'low';

export interface CheckResult {
	passed: boolean;
	importance: Importance;
	value: unknown;
	errors?: Record<string, unknown>;
}

export interface ReportRecord {
	id: number;
	user_id: number;
	url: string;
	project: string;
	result: number;
	results: Record<string, CheckResult>;
	privacy: 0 | 1 | 2;
	/** The secret itself; the API only ever reveals whether one is set. */
	password: string | null;
	generated_at: string;
	created_at: string;
	updated_at: string;
}

export type Fault =
	/** JSON answer; `body` defaults to phpRank's 500 body. A string body is sent verbatim. */
	| { type: 'status'; status: number; body?: unknown; headers?: Record<string, string> }
	/** An HTML error page, as a reverse proxy in front of the instance would send it. */
	| { type: 'html'; status: number }
	/** 200 with Content-Type application/json whose body stops mid-way (the response ends cleanly). */
	| { type: 'truncated' }
	/** The socket is reset (TCP RST) without any answer. */
	| { type: 'reset' }
	/** No answer until the client gives up or the server stops. */
	| { type: 'hang' }
	/** 302 to the login page with an HTML body. */
	| { type: 'redirect' };

export interface ThrottleOptions {
	limit: number;
	windowMs: number;
}

export interface ServerOptions {
	/** Instance mounted on a sub-path, e.g. '/phprank' puts the API at /phprank/api/v1. */
	basePath?: string;
	/** Per user, Laravel-style fixed window. Default { limit: 60, windowMs: 60000 }; false disables it. */
	throttle?: ThrottleOptions | false;
	/** How long POST /reports and PUT with results=1 take to answer (default 0). */
	analysisDelayMs?: number;
	/** The instance's default per_page, used when per_page is missing or not 10/25/50/100 (default 10). */
	defaultPerPage?: number;
	/** Origin used in paginator URLs instead of the server's own (a misconfigured APP_URL / proxy). */
	nextLinkHost?: string;
	/** Port to listen on (default 0: a random free port). */
	port?: number;
}
