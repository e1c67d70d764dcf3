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
	/** The status answered; undefined while in flight or when no answer was sent (hang, reset). */
	status?: number;
	/** When the request was received (its body read), in ms since the epoch. */
	receivedAt: number;
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
	/**
	 * A redirect with an HTML body (status default 302). `to`: 'login' (default) the instance's login
	 * page; 'https' the same URL on https:// (an instance that is https-only); `{ origin }` the same
	 * path and query on another origin.
	 */
	| {
			type: 'redirect';
			status?: RedirectStatus;
			to?: 'login' | 'https' | { origin: string };
	  }
	/**
	 * JSON of another shape from a server that is not phpRank (see FOREIGN_BODIES), without rate-limit
	 * headers, with what phpRank answers on success: 201 for POST, 200 otherwise.
	 */
	| { type: 'foreign'; body: unknown };

export type RedirectStatus = 301 | 302 | 303 | 307 | 308;

/** A list request about to be answered, as `beforeList` hooks see it. */
export interface ListRequest {
	resource: 'reports' | 'projects';
	/** The page asked for, as the server resolves it (1 for a missing or invalid page). */
	page: number;
	userId: number;
	request: RecordedRequest;
}

export type ListHook = (list: ListRequest) => void | Promise<void>;

export interface ServerStats {
	/** Requests received whose answer is not sent yet (delayed, analysing and hanging ones included). */
	inFlight: number;
	/** The most requests in flight at once since start() or resetStats(). */
	peakInFlight: number;
	/** Answers sent, by status. */
	statuses: Record<number, number>;
}

export interface ThrottleOptions {
	limit: number;
	windowMs: number;
}

export interface ServerOptions {
	/** Instance mounted on a sub-path, e.g. '/phprank' puts the API at /phprank/api/v1. */
	basePath?: string;
	/** Per user, Laravel-style fixed window. Default { limit: 60, windowMs: 60000 }; false disables it. */
	throttle?: ThrottleOptions | false;
	/**
	 * At most this many records on a list page, whatever per_page asks (default: no cap). By the
	 * instance (an admin's setting, default): its meta says the capped per_page. By a proxy: each page
	 * is cut to this many records and its meta still describes the page asked for.
	 */
	maxPerPage?: number;
	maxPerPageBy?: 'instance' | 'proxy';
	/** Origin used in paginator URLs instead of the server's own (a misconfigured APP_URL / proxy). */
	nextLinkHost?: string;
	/** Port to listen on (default 0: a random free port). */
	port?: number;
}

/**
 * What an analysis of one URL returns, set by tests with setNextAnalysis() / setAnalysis().
 *
 * Which checks pass: the ones in `failed` fail, the ones in `passed` pass. The others (`others`):
 * - 'pass' / 'fail': every other check passes / fails;
 * - 'keep': as in `results` when given, otherwise as in the report before this run (a new report
 *   has nothing to keep: its other checks are drawn at random);
 * - 'random': drawn like an ordinary analysis (steered by `score` when given).
 * Default: 'keep' when `results` is given; otherwise 'pass' when only `failed` is given, 'fail'
 * when only `passed` is given, 'keep' when both are, 'random' when neither is.
 * Checks whose state is set get a value (and errors when failing) like a real check of that state.
 *
 * `result` is `score` when given, otherwise computed from the checks like every analysis
 * (weighted share of passed checks: high 10, medium 6, low 3).
 */
export interface AnalysisSpec {
	/** The report's `result`, an integer 0-100. */
	score?: number;
	/** Names of checks that fail (CHECK_NAMES). */
	failed?: readonly string[];
	/** Names of checks that pass. */
	passed?: readonly string[];
	others?: 'pass' | 'fail' | 'keep' | 'random';
	/** A complete `results` object to start from (copied; `failed`/`passed` apply on top to CHECK_NAMES). */
	results?: Record<string, CheckResult>;
	/** `generated_at` of the run (any date Date parses; default: the time of the run). */
	generatedAt?: string;
}

export interface SeedOptions {
	/** Owner of the reports (default USER_IDS.default). */
	userId?: number;
	/** Hosts used round-robin (default DEFAULT_HOSTS). */
	hosts?: readonly string[];
	/** Time before the first report; each next one is 1-20 hours later. */
	startDate?: Date;
	/**
	 * Give every report its own URL, `{host}/page-{id}` (default false: paths from a list of ten,
	 * so a host's reports repeat URLs).
	 */
	uniqueUrls?: boolean;
}
