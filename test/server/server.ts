import http, {
	type IncomingMessage,
	type OutgoingHttpHeaders,
	type Server,
	type ServerResponse,
} from 'http';

import {
	analyse,
	CHECK_NAMES,
	createRng,
	hashSeed,
	hostOf,
	pick,
	randomInt,
	scoreOf,
} from './analysis';
import { closeAll, listen, readBody } from './http';
import {
	formatDate,
	paginate,
	type Paginated,
	phpJson,
	proxyErrorPage,
	redirectPage,
	resolvePage,
} from './laravel';
import type {
	AnalysisSpec,
	CheckResult,
	Fault,
	ListHook,
	RecordedRequest,
	ReportRecord,
	SeedOptions,
	ServerOptions,
	ServerStats,
	ThrottleOptions,
} from './types';

export const TEST_API_KEY = 'GtFwarinuVcFgM1V5F5oOfcoDtARtrawS4ip4y87D1rp0a1sQAvFXx2lFzP5fcCt';
export const OTHER_USER_KEY = 'ZvY67PoGCKRRIIMvdFpknmPcMQ8axOVjYqBIoNvD7LoKzIxXKk3NJVuVg9pLhfkl';
export const NO_API_PLAN_KEY = 'm3OkeEKk8M9XKC9ZBdethHU0Yn8GeVU44wI4nVWanKWQqn5A2mjWY0VH3UMzbWF1';

export const USER_IDS: Readonly<Record<'default' | 'other' | 'noApi', number>> = {
	default: 1,
	other: 2,
	noApi: 3,
};

interface User {
	id: number;
	key: string;
	apiAccess: boolean;
}

const USERS: readonly User[] = [
	{ id: USER_IDS.default, key: TEST_API_KEY, apiAccess: true },
	{ id: USER_IDS.other, key: OTHER_USER_KEY, apiAccess: true },
	{ id: USER_IDS.noApi, key: NO_API_PLAN_KEY, apiAccess: false },
];

export const SERVER_ERROR_BODY = {
	message: 'An unexpected error has occurred, please try again.',
	status: 500,
};
const NOT_FOUND_BODY = { message: 'Resource not found.', status: 404 };

/** Bodies a server that is not phpRank answers with 200 (for `{ type: 'foreign', body }`). */
export const FOREIGN_BODIES = Object.freeze({
	ok: { ok: true },
	nullData: { data: null },
	emptyObject: {},
	listWithoutData: { items: [{ id: 1 }], meta: { current_page: 1, last_page: 1, total: 1 } },
});
const DEFAULT_THROTTLE: ThrottleOptions = { limit: 60, windowMs: 60_000 };
const PER_PAGE_VALUES = [10, 25, 50, 100];

/** Six sites a small agency might audit; one IDN host because real users have them. */
export const DEFAULT_HOSTS: readonly string[] = [
	'example.com',
	'shop.example.org',
	'blog.acme.io',
	'docs.widgets.dev',
	'news.sample.net',
	'bäckerei-müller.de',
];
const SEED_PATHS = [
	'',
	'/',
	'/about',
	'/pricing',
	'/contact',
	'/blog/seo-basics',
	'/blog/2025/12/product-launch',
	'/products/widget-pro',
	'/docs/getting-started?ref=home',
	'/category/shoes/running',
];

const RESULT_CLASSES: Record<string, (score: number) => boolean> = {
	good: (score) => score > 79,
	decent: (score) => score >= 49 && score <= 79,
	bad: (score) => score < 49,
};

type HeaderMap = Record<string, string>;

type Reply =
	| { kind: 'json'; status: number; body: unknown; headers?: HeaderMap }
	/** JSON already encoded like phpJson does. */
	| { kind: 'encoded'; status: number; text: string; headers?: HeaderMap }
	| { kind: 'html'; status: number; html: string; headers?: HeaderMap };

type Input = Record<string, unknown>;

interface ActionContext {
	rec: RecordedRequest;
	user: User;
	/** The route parameter: a report id, or a project name decoded once. */
	param: string;
}

type Action = (ctx: ActionContext) => Reply | Promise<Reply>;

interface QueuedFault {
	fault: Fault;
	remaining: number;
	match: (req: RecordedRequest) => boolean;
}

/** A report as the API shows it: no owner, and only whether a password is set. */
type ReportJson = Omit<ReportRecord, 'user_id' | 'password'> & { password: boolean };

interface ProjectJson {
	project: string;
	reports: number;
	result: number;
	created_at: string;
}

const json = (status: number, body: unknown): Reply => ({ kind: 'json', status, body });
const notFound = (): Reply => json(404, NOT_FOUND_BODY);

/** The throttle's 429 headers. */
function tooMany(retryAfterS: number, resetAtS: number, limit: number) {
	const headers: HeaderMap = {
		'Retry-After': String(retryAfterS),
		'X-RateLimit-Reset': String(resetAtS),
		'X-RateLimit-Limit': String(limit),
		'X-RateLimit-Remaining': '0',
	};
	return { exceeded: true as const, headers };
}

function safeDecode(text: string): string | undefined {
	try {
		return decodeURIComponent(text);
	} catch {
		return undefined;
	}
}

/** Query or form fields; the last of a repeated name wins, as in PHP. */
const lastWins = (text: string): Record<string, string> =>
	Object.fromEntries(new URLSearchParams(text));

function contentType(headers: RecordedRequest['headers']): string {
	return String(headers['content-type'] ?? '').toLowerCase();
}

/**
 * `$request->input()` after Laravel's TrimStrings and ConvertEmptyStringsToNull middleware: the form
 * body (the node sends no JSON or multipart) over the query string, strings trimmed (except
 * passwords), empty strings as null.
 */
function requestInput(rec: RecordedRequest): Input {
	const type = contentType(rec.headers);
	const body = type.startsWith('application/x-www-form-urlencoded') ? rec.form : {};
	const input: Input = {};
	for (const [key, raw] of Object.entries({ ...rec.query, ...body })) {
		const value = typeof raw === 'string' && key !== 'password' ? raw.trim() : raw;
		input[key] = value === '' ? null : value;
	}
	return input;
}

/** A query parameter after TrimStrings / ConvertEmptyStringsToNull. */
function queryParam(rec: RecordedRequest, key: string): string | undefined {
	const value = rec.query[key]?.trim();
	return value === undefined || value === '' ? undefined : value;
}

/** A form field's text (forms hold only text; an empty one is null by then). */
const scalarString = (value: unknown) => (typeof value === 'string' ? value : undefined);
/** PHP's truthiness of a form field. */
const phpTruthy = (value: unknown) => typeof value === 'string' && value !== '0';

/** phpRank stores urls without scheme, leading www. and trailing slash (host lowercased here). */
export function cleanUrl(url: string): string {
	const bare = url
		.trim()
		.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '')
		.replace(/^www\./i, '')
		.replace(/\/+$/, '');
	const hostEnd = bare.search(/[/?#]/);
	return hostEnd === -1
		? bare.toLowerCase()
		: bare.slice(0, hostEnd).toLowerCase() + bare.slice(hostEnd);
}

function projectOf(cleanedUrl: string): string {
	return hostOf(cleanedUrl).replace(/^www\./, '');
}

function analysisSeed(url: string, id: number, run: number): number {
	return hashSeed(`${url}|${id}|${run}`);
}

function normaliseDate(value: string | undefined): string | undefined {
	if (value === undefined) return undefined;
	const date = new Date(value);
	return Number.isNaN(date.getTime()) ? value : formatDate(date);
}

function compareText(a: string, b: string): number {
	const x = a.toLowerCase();
	const y = b.toLowerCase();
	return x < y ? -1 : x > y ? 1 : 0;
}

/** The stored fields in their order, without the owner; `password` says whether one is set. */
function toJson({ user_id: _owner, ...report }: ReportRecord): ReportJson {
	return { ...report, password: !!report.password };
}

type Results = Record<string, CheckResult>;

/**
 * A copy of a stored report whose `results` are copied when first read: seeding thousands of
 * reports does not pay for copies nobody looks at. (Stored results are never changed in place, a
 * run replaces them, so reading them late gives what was stored.)
 */
function lazyCopy(report: ReportRecord): ReportRecord {
	const stored = report.results;
	let copy: Results | undefined;
	return Object.defineProperty({ ...report }, 'results', {
		get: () => (copy ??= structuredClone(stored)),
		set: (value: Results) => (copy = value),
		enumerable: true,
		configurable: true,
	});
}

/**
 * A private copy of an AnalysisSpec (a test may change its own object after setting it); a check name it does
 * not know throws, so that a misspelled name fails the test that wrote it instead of scripting nothing.
 */
function copySpec(spec: AnalysisSpec): AnalysisSpec {
	const known = new Set([...CHECK_NAMES, ...Object.keys(spec.results ?? {})]);
	const unknown = [...(spec.failed ?? []), ...(spec.passed ?? [])].filter((n) => !known.has(n));
	if (unknown.length) throw new Error(`PhpRankServer: unknown check ${unknown.join(', ')}`);
	return structuredClone(spec);
}

/**
 * The analysis `spec` asks for (see AnalysisSpec). `seed` draws what the spec leaves open;
 * `previous` is the report's results before this run, if any.
 */
function specAnalysis(
	url: string,
	seed: number,
	spec: AnalysisSpec,
	previous: Results | undefined,
): { result: number; results: Results } {
	const states = new Map<string, boolean>();
	for (const name of spec.failed ?? []) states.set(name, false);
	for (const name of spec.passed ?? []) states.set(name, true);
	const others =
		spec.others ??
		(spec.results !== undefined
			? 'keep'
			: spec.failed !== undefined && spec.passed === undefined
				? 'pass'
				: spec.passed !== undefined && spec.failed === undefined
					? 'fail'
					: spec.failed !== undefined
						? 'keep'
						: 'random');
	const otherState = others === 'pass' ? true : others === 'fail' ? false : undefined;
	const forced: Record<string, boolean> = {};
	if (otherState !== undefined) for (const name of CHECK_NAMES) forced[name] = otherState;
	for (const [name, state] of states) forced[name] = state;
	const generated = analyse(url, seed, spec.score, forced).results;

	const base = spec.results ?? (others === 'keep' ? previous : undefined);
	let results: Results;
	if (base === undefined) {
		results = generated;
	} else {
		results = {};
		for (const name of new Set([...Object.keys(base), ...states.keys()])) {
			const check = base[name] as CheckResult | undefined;
			const wanted = states.get(name) ?? otherState;
			if (check !== undefined && (wanted === undefined || check.passed === wanted))
				results[name] = check;
			else if (Object.hasOwn(generated, name)) results[name] = generated[name];
		}
	}
	return { result: spec.score ?? scoreOf(results), results };
}

export class PhpRankServer {
	private readonly options: ServerOptions;
	private readonly basePath: string;
	private throttle: ThrottleOptions | false;
	private readonly windows = new Map<number, { start: number; count: number }>();
	/** holdRateLimit(): the users every API request of whom is answered 429, with the Retry-After (s) it asks for. */
	private readonly held = new Map<number, number>();
	private readonly reports = new Map<number, ReportRecord>();
	/** Every user's reports by project, so `?project=` does not scan the whole store. */
	private readonly byProject = new Map<string, Set<ReportRecord>>();
	/** setNextAnalysis(): per cleaned url, used one each in order, before the persistent one. */
	private readonly nextAnalyses = new Map<string, AnalysisSpec[]>();
	/** setAnalysis(): per cleaned url, for every run until cleared. */
	private readonly fixedAnalyses = new Map<string, AnalysisSpec>();
	private readonly analysisRuns = new Map<number, number>();
	private readonly faults: QueuedFault[] = [];
	private readonly timers = new Set<NodeJS.Timeout>();
	private readonly recorded: RecordedRequest[] = [];
	private listHook: ListHook | undefined;
	private holding: ((request: RecordedRequest) => boolean) | undefined;
	private readonly heldBack: Array<{ request: RecordedRequest; send: () => void }> = [];
	/** setIgnorePage(true): page 1, current_page 1, for every page (a cache or proxy keyed without the query). */
	private ignorePage = false;
	private responseDelay = 0;
	private counters: ServerStats = { inFlight: 0, peakInFlight: 0, statuses: {} };
	/** phpJson(toJson(report)) of stored reports: a list page is mostly this. updateReport drops a changed one. */
	private readonly encoded = new WeakMap<ReportRecord, string>();
	private server: Server | undefined;
	private baseUrl: string | undefined;
	private linkOrigin = '';
	private nextId = 1;
	private created = 0;

	constructor(options: ServerOptions = {}) {
		this.options = options;
		const base = (options.basePath ?? '').trim().replace(/\/+$/, '');
		this.basePath = base === '' || base.startsWith('/') ? base : `/${base}`;
		this.throttle = options.throttle === undefined ? { ...DEFAULT_THROTTLE } : options.throttle;
	}

	get url(): string {
		if (this.baseUrl === undefined) throw new Error('PhpRankServer: start() the server first');
		return this.baseUrl;
	}

	get requests(): RecordedRequest[] {
		return this.recorded;
	}

	get createdCount(): number {
		return this.created;
	}

	/** A snapshot of the counters; see ServerStats. */
	get stats(): ServerStats {
		return structuredClone(this.counters);
	}

	/** Zeroes the counters; the peak restarts from what is in flight now. */
	resetStats(): void {
		const { inFlight } = this.counters;
		this.counters = { inFlight, peakInFlight: inFlight, statuses: {} };
	}

	async start(): Promise<string> {
		if (this.server) throw new Error('PhpRankServer: already started');
		this.server = http.createServer((req, res) => void this.handle(req, res));
		const origin = await listen(this.server, this.options.port);
		const { nextLinkHost } = this.options;
		this.linkOrigin = nextLinkHost ? PhpRankServer.originOf(nextLinkHost) : origin;
		this.baseUrl = origin + this.basePath;
		return this.baseUrl;
	}

	/**
	 * Closes the listener and every connection, hanging and delayed ones included; pending analyses
	 * never finish. The stats count the closed requests out a tick later.
	 */
	async stop(): Promise<void> {
		const server = this.server;
		if (!server) return;
		this.server = undefined;
		this.holdAnswers(undefined);
		for (const timer of this.timers) clearTimeout(timer);
		this.timers.clear();
		await closeAll(server);
	}

	clearRequests(): void {
		this.recorded.length = 0;
	}

	/** Drops the faults failNext queued that no request has used up (a test's leftovers). */
	clearFaults(): void {
		this.faults.length = 0;
	}

	/**
	 * Stores a report as if it had been created earlier. The url is cleaned and the project derived
	 * like phpRank does; result and results are generated (seeded by url and id) unless given.
	 * Returns a copy: change stored reports through the API or by adding them again.
	 */
	addReport(input: Partial<ReportRecord> & { url: string }): ReportRecord {
		return structuredClone(this.insertReport(input));
	}

	/**
	 * Adds `count` varied reports, round-robin over `hosts`; the same call on a fresh server gives
	 * the same data. Returns copies, like addReport; fast enough for benchmarks (10,000 reports in
	 * about a second), because a copy's `results` is only made when it is read.
	 */
	seedReports(count: number, options: SeedOptions = {}): ReportRecord[] {
		const userId = options.userId ?? USER_IDS.default;
		const hosts: readonly string[] =
			options.hosts && options.hosts.length > 0 ? options.hosts : DEFAULT_HOSTS;
		const rng = createRng(hashSeed(`seed|${userId}|${this.nextId}|${count}|${hosts.join(',')}`));
		let time = (options.startDate ?? new Date('2026-01-05T08:00:00Z')).getTime();
		const added: ReportRecord[] = [];
		for (let i = 0; i < count; i++) {
			time += randomInt(rng, 1, 20) * 3_600_000 + randomInt(rng, 0, 3599) * 1000;
			const scheme = rng() < 0.85 ? 'https://' : 'http://';
			const www = rng() < 0.3 ? 'www.' : '';
			const path = pick(rng, SEED_PATHS);
			const url =
				scheme +
				www +
				hosts[i % hosts.length] +
				(options.uniqueUrls ? `/page-${this.nextId}` : path);
			const roll = rng();
			const privacy = roll < 0.6 ? 0 : roll < 0.85 ? 1 : 2;
			const generatedAt = formatDate(new Date(time + randomInt(rng, 2, 40) * 1000));
			const report = this.insertReport({
				url,
				user_id: userId,
				privacy,
				password: privacy === 2 ? `client-preview-${i + 1}` : null,
				created_at: formatDate(new Date(time)),
				generated_at: generatedAt,
				updated_at: generatedAt,
			});
			added.push(lazyCopy(report));
		}
		return added;
	}

	getReport(id: number): ReportRecord | undefined {
		const report = this.reports.get(id);
		return report && structuredClone(report);
	}

	/** The reports of one user, or of every user when no id is given, by id. */
	listReports(userId?: number): ReportRecord[] {
		return this.ownReports(userId).map((report) => structuredClone(report));
	}

	/** Deletes one report of any user, as if done elsewhere; false when there is none. */
	deleteReport(id: number): boolean {
		const report = this.reports.get(id);
		if (report) this.removeReport(report);
		return report !== undefined;
	}

	/** Ids keep counting up afterwards, like an auto-increment column. */
	deleteAllReports(): void {
		this.reports.clear();
		this.byProject.clear();
	}

	/**
	 * What the next analysis of `url` returns: the next POST /reports of that url, or the next
	 * PUT /reports/{id} with results=1 of a report of that url, whoever's it is. The url is matched
	 * as phpRank stores it (cleanUrl: no scheme, no leading www., no trailing slash, host in lower
	 * case), so `https://www.example.com/a/` and `example.com/a` are the same. Used once; several
	 * calls queue up, in order, and go before a setAnalysis() of the url. A check name outside
	 * CHECK_NAMES (and the spec's own results) throws; a score is 0-100. Returns how many are queued now.
	 */
	setNextAnalysis(url: string, spec: AnalysisSpec): number {
		const key = cleanUrl(url);
		const checked = copySpec(spec);
		const queue = this.nextAnalyses.get(key) ?? [];
		queue.push(checked);
		this.nextAnalyses.set(key, queue);
		return queue.length;
	}

	/** Like setNextAnalysis, for every later analysis of `url` until clearAnalyses(); replaces an earlier one. */
	setAnalysis(url: string, spec: AnalysisSpec): void {
		this.fixedAnalyses.set(cleanUrl(url), copySpec(spec));
	}

	/** Forgets every queued and persistent analysis; returns how many there were. */
	clearAnalyses(): number {
		let count = this.fixedAnalyses.size;
		for (const queue of this.nextAnalyses.values()) count += queue.length;
		this.nextAnalyses.clear();
		this.fixedAnalyses.clear();
		return count;
	}

	/** Analyses set and not used yet: queued ones by cleaned url, and the urls with a persistent one. */
	pendingAnalyses(): { next: Record<string, number>; persistent: string[] } {
		const next: Record<string, number> = {};
		for (const [url, queue] of this.nextAnalyses) next[url] = queue.length;
		return { next, persistent: [...this.fixedAnalyses.keys()] };
	}

	failNext(
		fault: Fault,
		options: { times?: number; match?: (req: RecordedRequest) => boolean } = {},
	): void {
		this.faults.push({
			fault,
			remaining: options.times ?? 1,
			match: options.match ?? ((req) => req.path.startsWith(`${this.basePath}/api/`)),
		});
	}

	/**
	 * Runs `hook` before each GET /reports and GET /projects is answered (after auth and throttle),
	 * so a test can add or delete reports between pages; undefined removes it.
	 */
	beforeList(hook: ListHook | undefined): void {
		this.listHook = hook;
	}

	/**
	 * Holds each answer to a request `match` accepts, made (the list's snapshot taken) but not sent,
	 * until `releaseAnswer`; so a test orders answers, and changes between them, on purpose.
	 * undefined sends every held answer and holds no more.
	 */
	holdAnswers(match: ((request: RecordedRequest) => boolean) | undefined): void {
		this.holding = match;
		if (!match) this.heldBack.splice(0).forEach(({ send }) => send());
	}

	/** The requests whose answers are held, oldest first. */
	heldAnswers(): RecordedRequest[] {
		return this.heldBack.map(({ request }) => request);
	}

	/** Sends the held answer to `request`; false when it is not held. */
	releaseAnswer(request: RecordedRequest): boolean {
		const index = this.heldBack.findIndex((held) => held.request === request);
		if (index === -1) return false;
		this.heldBack.splice(index, 1)[0].send();
		return true;
	}

	setIgnorePage(mode: boolean): void {
		this.ignorePage = mode;
	}

	/** A slow instance: a delay (ms) before every request is handled (default 0). */
	setResponseDelay(delay: number): void {
		this.responseDelay = delay;
	}

	/** Replaces the throttle and forgets every user's current window. */
	setThrottle(throttle: ThrottleOptions | false): void {
		this.throttle = throttle;
		this.windows.clear();
	}

	/**
	 * A rate limit that does not end when its Retry-After says: every API request of the user is
	 * answered with the throttle's 429 (Too Many Attempts., Retry-After `retryAfterS`, X-RateLimit-Reset,
	 * -Limit, -Remaining 0) until liftRateLimit(), throttle on or off. As when other clients keep
	 * spending the user's budget. Held requests do not count in the throttle's window.
	 */
	holdRateLimit(userId: number, retryAfterS: number): void {
		this.held.set(userId, retryAfterS);
	}

	/** Ends holdRateLimit() for the user, or for every user; returns how many users it ended for. */
	liftRateLimit(userId?: number): number {
		if (userId !== undefined) return this.held.delete(userId) ? 1 : 0;
		const count = this.held.size;
		this.held.clear();
		return count;
	}

	private static originOf(host: string): string {
		return new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(host) ? host : `http://${host}`).origin;
	}

	private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const stats = this.counters;
		stats.inFlight += 1;
		stats.peakInFlight = Math.max(stats.peakInFlight, stats.inFlight);
		res.once('close', () => (this.counters.inFlight -= 1));
		const rawBody = await readBody(req);
		if (rawBody === undefined) return; // The client went away mid-body.
		const rec = this.record(req, rawBody);
		res.once('finish', () => {
			rec.status = res.statusCode;
			this.counters.statuses[res.statusCode] = (this.counters.statuses[res.statusCode] ?? 0) + 1;
		});
		await this.sleep(this.responseDelay);
		const queued = this.faults.find((entry) => entry.match(rec));
		if (queued) {
			queued.remaining -= 1;
			if (queued.remaining <= 0) this.faults.splice(this.faults.indexOf(queued), 1);
			this.applyFault(queued.fault, rec, req, res);
			return;
		}
		let reply: Reply;
		try {
			reply = await this.dispatch(rec);
		} catch (error) {
			console.error('PhpRankServer: handler failed', error);
			reply = json(500, SERVER_ERROR_BODY);
		}
		if (this.holding?.(rec))
			await new Promise<void>((send) => this.heldBack.push({ request: rec, send }));
		this.send(res, reply);
	}

	private record(req: IncomingMessage, rawBody: string): RecordedRequest {
		const target = req.url ?? '/';
		const queryStart = target.indexOf('?');
		const path = queryStart === -1 ? target : target.slice(0, queryStart);
		const rawQuery = queryStart === -1 ? '' : target.slice(queryStart + 1);
		const isForm = contentType(req.headers).startsWith('application/x-www-form-urlencoded');
		const rec: RecordedRequest = {
			method: req.method ?? 'GET',
			path,
			decodedPath: safeDecode(path) ?? path,
			query: lastWins(rawQuery),
			rawQuery,
			headers: req.headers,
			rawBody,
			form: isForm ? lastWins(rawBody) : {},
			receivedAt: Date.now(),
		};
		this.recorded.push(rec);
		return rec;
	}

	private send(res: ServerResponse, reply: Reply): void {
		if (res.headersSent || res.destroyed) return;
		const headers: OutgoingHttpHeaders = { 'Cache-Control': 'no-cache, private', ...reply.headers };
		let body: string;
		if (reply.kind === 'html') {
			body = reply.html;
			headers['Content-Type'] = 'text/html; charset=UTF-8';
		} else {
			body = reply.kind === 'json' ? phpJson(reply.body) : reply.text;
			headers['Content-Type'] = 'application/json';
		}
		headers['Content-Length'] = Buffer.byteLength(body);
		res.writeHead(reply.status, headers).end(body);
	}

	private applyFault(
		fault: Fault,
		rec: RecordedRequest,
		req: IncomingMessage,
		res: ServerResponse,
	): void {
		switch (fault.type) {
			case 'status': {
				const body = fault.body === undefined ? SERVER_ERROR_BODY : fault.body;
				res.writeHead(fault.status, {
					'Content-Type': 'application/json',
					'Cache-Control': 'no-cache, private',
					...fault.headers,
				});
				res.end(typeof body === 'string' ? body : phpJson(body));
				return;
			}
			case 'html':
				this.send(res, { kind: 'html', status: fault.status, html: proxyErrorPage(fault.status) });
				return;
			case 'truncated': {
				const sample = analyse('example.com/blog/seo-basics', 1);
				const full = phpJson({
					data: [{ id: 1, url: 'example.com/blog/seo-basics', project: 'example.com', ...sample }],
					status: 200,
				});
				res.writeHead(200, { 'Content-Type': 'application/json' });
				res.end(full.slice(0, Math.floor(full.length / 2)));
				return;
			}
			case 'reset':
				req.socket.resetAndDestroy();
				return;
			case 'hang':
				return;
			case 'redirect':
				this.send(res, this.redirect(fault, rec));
				return;
			case 'foreign':
				this.send(res, json(rec.method === 'POST' ? 201 : 200, fault.body));
				return;
		}
	}

	private redirectToLogin(status = 302): Reply {
		const target = `${this.url}/login`;
		return { kind: 'html', status, html: redirectPage(target), headers: { Location: target } };
	}

	/** Login redirects come from Laravel; scheme and host redirects from the web server in front. */
	private redirect(fault: Extract<Fault, { type: 'redirect' }>, rec: RecordedRequest): Reply {
		const status = fault.status ?? 302;
		const to = fault.to ?? 'login';
		if (to === 'login') return this.redirectToLogin(status);
		const target = rec.path + (rec.rawQuery === '' ? '' : `?${rec.rawQuery}`);
		const origin =
			to === 'https'
				? `https://${rec.headers.host ?? new URL(this.url).host}`
				: PhpRankServer.originOf(to.origin);
		return {
			kind: 'html',
			status,
			html: proxyErrorPage(status),
			headers: { Location: origin + target },
		};
	}

	private async dispatch(rec: RecordedRequest): Promise<Reply> {
		// Outside the Laravel app the web server answers by itself.
		if (!rec.path.startsWith(`${this.basePath}/`))
			return { kind: 'html', status: 404, html: proxyErrorPage(404) };
		const segments = rec.path.slice(this.basePath.length).split('/').slice(1);
		if (segments[0] !== 'api') return json(404, { message: 'Not Found' });
		const action =
			segments[1] === 'v1' ? this.apiRoute(segments.slice(2))?.[rec.method] : undefined;
		if (!action) return notFound();

		// The middleware order of phpRank's API routes: auth, then throttle, then the plan check.
		const user = this.authenticate(rec);
		if (!user) return json(401, { message: 'Unauthenticated.' });
		const limit = this.heldLimit(user.id) ?? this.hitThrottle(user.id);
		if (limit?.exceeded)
			return { ...json(429, { message: 'Too Many Attempts.' }), headers: limit.headers };
		const param = segments[3] === undefined ? '' : (safeDecode(segments[3]) ?? '');
		const reply = user.apiAccess
			? await action({ rec, user, param })
			: json(403, { message: "You don't have access to this feature.", status: 403 });
		return limit ? { ...reply, headers: { ...reply.headers, ...limit.headers } } : reply;
	}

	private apiRoute(segments: string[]): Partial<Record<string, Action>> | undefined {
		const [resource, param, ...rest] = segments;
		if (rest.length > 0) return undefined;
		if (resource === 'reports') {
			if (param === undefined)
				return { GET: (c) => this.listReportsAction(c), POST: (c) => this.createReport(c) };
			if (/^\d+$/.test(param)) {
				return {
					GET: (c) => this.showReport(c),
					PUT: (c) => this.updateReport(c),
					DELETE: (c) => this.deleteReportAction(c),
				};
			}
		}
		if (resource === 'projects') {
			if (param === undefined) return { GET: (c) => this.listProjects(c) };
			if (param !== '' && safeDecode(param) !== undefined)
				return { DELETE: (c) => this.deleteProject(c) };
		}
		return undefined;
	}

	/** Laravel's Request::bearerToken(). */
	private authenticate(rec: RecordedRequest): User | undefined {
		const header = rec.headers.authorization ?? '';
		const position = header.lastIndexOf('Bearer ');
		if (position === -1) return undefined;
		const token = header.slice(position + 7).split(',')[0];
		return token === '' ? undefined : USERS.find((user) => user.key === token);
	}

	/** The 429 headers of a user held at a rate limit (holdRateLimit), as the throttle words them. */
	private heldLimit(userId: number): { exceeded: true; headers: HeaderMap } | undefined {
		const retryAfterS = this.held.get(userId);
		if (retryAfterS === undefined) return undefined;
		const resetAt = Math.ceil(Date.now() / 1000) + retryAfterS;
		return tooMany(retryAfterS, resetAt, (this.throttle || DEFAULT_THROTTLE).limit);
	}

	/** Laravel's fixed window: it opens at a user's first request; a rejected request does not count. */
	private hitThrottle(userId: number): { exceeded: boolean; headers: HeaderMap } | undefined {
		const throttle = this.throttle;
		if (!throttle) return undefined;
		const now = Date.now();
		let window = this.windows.get(userId);
		if (!window || now >= window.start + throttle.windowMs) {
			window = { start: now, count: 0 };
			this.windows.set(userId, window);
		}
		const limit = String(throttle.limit);
		const resetAt = window.start + throttle.windowMs;
		if (window.count >= throttle.limit) {
			const retryAfterS = Math.max(1, Math.ceil((resetAt - now) / 1000));
			return tooMany(retryAfterS, Math.ceil(resetAt / 1000), throttle.limit);
		}
		window.count += 1;
		return {
			exceeded: false,
			headers: {
				'X-RateLimit-Limit': limit,
				'X-RateLimit-Remaining': String(throttle.limit - window.count),
			},
		};
	}

	private sleep(ms: number): Promise<void> {
		if (ms <= 0) return Promise.resolve();
		return new Promise((resolve) => {
			const timer = setTimeout(() => {
				this.timers.delete(timer);
				resolve();
			}, ms);
			this.timers.add(timer);
		});
	}

	/** addReport without the copy; `spec` sets the analysis (see setNextAnalysis). */
	private insertReport(
		input: Partial<ReportRecord> & { url: string },
		spec?: AnalysisSpec,
	): ReportRecord {
		const id = input.id ?? this.nextId;
		if (this.reports.has(id)) throw new Error(`PhpRankServer: report ${id} already exists`);
		this.nextId = Math.max(this.nextId, id + 1);
		const url = cleanUrl(input.url);
		const seed = analysisSeed(url, id, 0);
		const analysis = spec
			? specAnalysis(url, seed, spec, undefined)
			: input.results
				? {
						results: structuredClone(input.results),
						result: input.result ?? scoreOf(input.results),
					}
				: analyse(url, seed, input.result);
		const createdAt = normaliseDate(input.created_at) ?? formatDate(new Date());
		const generatedAt = normaliseDate(spec?.generatedAt ?? input.generated_at) ?? createdAt;
		const report: ReportRecord = {
			id,
			user_id: input.user_id ?? USER_IDS.default,
			url,
			project: input.project ?? projectOf(url),
			result: spec ? analysis.result : (input.result ?? analysis.result),
			results: analysis.results,
			privacy: input.privacy ?? 0,
			password: input.password ?? null,
			generated_at: generatedAt,
			created_at: createdAt,
			updated_at: normaliseDate(input.updated_at) ?? generatedAt,
		};
		this.reports.set(id, report);
		const project = this.byProject.get(report.project);
		if (project) project.add(report);
		else this.byProject.set(report.project, new Set([report]));
		return report;
	}

	private removeReport(report: ReportRecord): void {
		this.reports.delete(report.id);
		const project = this.byProject.get(report.project);
		project?.delete(report);
		if (project?.size === 0) this.byProject.delete(report.project);
	}

	/** The analysis set for the next run of `url`, if any (a queued one is used up). */
	private takeAnalysis(url: string): AnalysisSpec | undefined {
		const queue = this.nextAnalyses.get(url);
		if (queue) {
			const spec = queue.shift();
			if (queue.length === 0) this.nextAnalyses.delete(url);
			return spec;
		}
		return this.fixedAnalyses.get(url);
	}

	/** The user's reports (every user's without an id), by id. */
	private ownReports(userId?: number): ReportRecord[] {
		return [...this.reports.values()]
			.filter((report) => userId === undefined || report.user_id === userId)
			.sort((a, b) => a.id - b.id);
	}

	private ownReport(userId: number, id: string): ReportRecord | undefined {
		const report = this.reports.get(Number(id));
		return report?.user_id === userId ? report : undefined;
	}

	private perPage(rec: RecordedRequest): number {
		const raw = queryParam(rec, 'per_page');
		const value = raw === undefined ? NaN : Number(raw);
		// The instance's default per_page, 10, when per_page is missing or not 10/25/50/100.
		const perPage = PER_PAGE_VALUES.includes(value) ? value : 10;
		const { maxPerPage, maxPerPageBy = 'instance' } = this.options;
		return maxPerPage !== undefined && maxPerPageBy === 'instance'
			? Math.min(perPage, maxPerPage)
			: perPage;
	}

	/** Runs the beforeList hook and returns the page asked for. */
	private async beforeListPage(
		resource: 'reports' | 'projects',
		rec: RecordedRequest,
		userId: number,
	): Promise<number> {
		const page = resolvePage(rec.query.page);
		await this.listHook?.({ resource, page, userId, request: rec });
		return page;
	}

	/** One page as phpRank serialises it, or as a server that ignores `page` does. */
	private listPage<T>(
		items: T[],
		page: number,
		rec: RecordedRequest,
		resource: 'reports' | 'projects',
	): Paginated<T> {
		const perPage = this.perPage(rec);
		const path = `${this.linkOrigin}${this.basePath}/api/v1/${resource}`;
		const shown = this.ignorePage ? 1 : page;
		const answer = paginate(items, shown, perPage, path, rec.rawQuery);
		const { maxPerPage, maxPerPageBy = 'instance' } = this.options;
		if (maxPerPage !== undefined && maxPerPageBy === 'proxy')
			answer.data = answer.data.slice(0, maxPerPage);
		return answer;
	}

	private async listReportsAction({ rec, user }: ActionContext): Promise<Reply> {
		const asked = await this.beforeListPage('reports', rec, user.id);
		// `project` is an exact match: the index gives its reports without a pass over every report.
		const project = queryParam(rec, 'project');
		let items =
			project === undefined
				? this.ownReports(user.id)
				: [...(this.byProject.get(project) ?? [])].filter((report) => report.user_id === user.id);
		// search_by only knows `url`; any other value searches the url as well.
		const search = queryParam(rec, 'search')?.toLowerCase();
		if (search !== undefined)
			items = items.filter((report) => report.url.toLowerCase().includes(search));
		const resultClass = RESULT_CLASSES[queryParam(rec, 'result') ?? ''];
		if (resultClass) items = items.filter((report) => resultClass(report.result));

		// phpRank honours only these columns; generated_at (documented) falls back to id.
		const sortBy = queryParam(rec, 'sort_by');
		const direction = queryParam(rec, 'sort') === 'asc' ? 1 : -1;
		const compare =
			sortBy === 'url'
				? (a: ReportRecord, b: ReportRecord) => compareText(a.url, b.url)
				: sortBy === 'result'
					? (a: ReportRecord, b: ReportRecord) => a.result - b.result
					: () => 0;
		items.sort((a, b) => direction * (compare(a, b) || a.id - b.id));

		const page = this.listPage(items, asked, rec, 'reports');
		// phpJson({ ...page, data: page.data.map(toJson) }), with each report encoded once.
		const rest = phpJson({ ...page, data: [] }).slice('{"data":['.length);
		return {
			kind: 'encoded',
			status: 200,
			text: `{"data":[${page.data.map((report) => this.encode(report)).join(',')}${rest}`,
		};
	}

	private encode(report: ReportRecord): string {
		let text = this.encoded.get(report);
		if (text === undefined) this.encoded.set(report, (text = phpJson(toJson(report))));
		return text;
	}

	private async listProjects({ rec, user }: ActionContext): Promise<Reply> {
		const asked = await this.beforeListPage('projects', rec, user.id);
		const projects = new Map<string, ProjectJson>();
		for (const report of this.ownReports(user.id)) {
			const project = projects.get(report.project) ?? {
				project: report.project,
				reports: 0,
				result: 0,
				created_at: report.created_at,
			};
			project.reports += 1;
			project.result += report.result;
			if (report.created_at < project.created_at) project.created_at = report.created_at;
			projects.set(report.project, project);
		}
		let items = [...projects.values()];
		const search = queryParam(rec, 'search')?.toLowerCase();
		if (search !== undefined)
			items = items.filter((project) => project.project.toLowerCase().includes(search));
		const byName = queryParam(rec, 'sort_by') === 'project';
		const direction = queryParam(rec, 'sort') === 'asc' ? 1 : -1;
		items.sort(
			(a, b) =>
				direction *
				(byName
					? compareText(a.project, b.project)
					: compareText(a.created_at, b.created_at) || compareText(a.project, b.project)),
		);
		return json(200, this.listPage(items, asked, rec, 'projects'));
	}

	private showReport({ user, param }: ActionContext): Reply {
		const report = this.ownReport(user.id, param);
		return report ? json(200, { data: toJson(report), status: 200 }) : notFound();
	}

	private async createReport({ rec, user }: ActionContext): Promise<Reply> {
		const input = requestInput(rec);
		const url = cleanUrl(String(input.url));
		const host = hostOf(url).replace(/\.$/, '');
		if (host === 'invalid' || host.endsWith('.invalid'))
			return json(422, { message: { url: ['Could not fetch the url.'] }, status: 422 });
		const now = formatDate(new Date());
		const report = this.insertReport(
			{
				url,
				user_id: user.id,
				privacy: 'privacy' in input ? (Number(scalarString(input.privacy)) as 0 | 1 | 2) : 0,
				password: typeof input.password === 'string' ? input.password : null,
				created_at: now,
			},
			this.takeAnalysis(url),
		);
		this.created += 1;
		return json(201, { data: toJson(report), status: 201 });
	}

	private async updateReport({ rec, user, param }: ActionContext): Promise<Reply> {
		// The policy runs before validation, and it does not tell "not yours" from "does not exist".
		const report = this.ownReport(user.id, param);
		if (!report) return json(403, { message: 'This action is unauthorized.' });
		const input = requestInput(rec);

		const rerun = phpTruthy(input.results);
		let dirty = false;
		if ('privacy' in input) {
			const privacy = Number(scalarString(input.privacy)) as 0 | 1 | 2;
			dirty ||= privacy !== report.privacy;
			report.privacy = privacy;
		}
		if ('password' in input) {
			const password = typeof input.password === 'string' ? input.password : null;
			dirty ||= password !== report.password;
			report.password = password;
		}
		const now = formatDate(new Date());
		if (rerun) {
			const run = (this.analysisRuns.get(report.id) ?? 0) + 1;
			this.analysisRuns.set(report.id, run);
			const seed = analysisSeed(report.url, report.id, run);
			const spec = this.takeAnalysis(report.url);
			const analysis = spec
				? specAnalysis(report.url, seed, spec, report.results)
				: analyse(report.url, seed);
			report.result = analysis.result;
			report.results = analysis.results;
			report.generated_at = normaliseDate(spec?.generatedAt) ?? now;
			dirty = true;
		}
		if (dirty) report.updated_at = now;
		this.encoded.delete(report);
		return json(200, { data: toJson(report), status: 200 });
	}

	private deleteReportAction({ user, param }: ActionContext): Reply {
		const report = this.ownReport(user.id, param);
		if (!report) return notFound();
		this.removeReport(report);
		return json(200, { id: report.id, object: 'report', deleted: true, status: 200 });
	}

	private deleteProject({ user, param }: ActionContext): Reply {
		const doomed = [...(this.byProject.get(param) ?? [])].filter(
			(report) => report.user_id === user.id,
		);
		if (doomed.length === 0) return notFound();
		for (const report of doomed) this.removeReport(report);
		return json(200, { id: param, object: 'report', deleted: true, status: 200 });
	}
}
