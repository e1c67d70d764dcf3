import { sleep } from 'n8n-workflow';

import { DEFAULT_CONCURRENCY } from '../api';
import { isPollRun, isToolRun, pollBudgetMs } from './n8nInternals';

/*
 * Everything about phpRank's rate limit: the request budget per phpRank user (host + API key),
 * shared by every item, execution and workflow of this n8n process; Retry-After; how long each
 * kind of run waits a 429 out. The resend loop is `exchange` in request.ts; the error texts are in
 * errors.ts. ARCHITECTURE.md ("Rate limit") says why.
 */

export interface Slot {
	readonly epoch: number;
	readonly sentAt: number;
}

/** A request that waits out an outage (Wait Out Outages above 0): its bound, as `Tries` keeps it. */
export interface OutageWait {
	/** When its own outage began (its first try that found phpRank unavailable), if it had one. */
	since?: number;
	boundMs: number;
	/** The run's own limit on waiting (rateLimitDeadline). */
	deadline: number;
}

/** A request's Wait Out Outages ended while phpRank was still down: it gave up without another try. */
export class OutageWaitEnded extends Error {
	constructor(
		/** When its wait began: its first failed try, or when it found phpRank down. */
		readonly since: number,
		/** What phpRank last did, as the error says it ("HTTP 503"). */
		readonly last: string,
	) {
		super(`phpRank stayed unavailable (${last})`);
		this.name = 'OutageWaitEnded';
	}
}

interface Waiter {
	grant: (slot: Slot) => void;
	reject: (error: Error) => void;
	signals: AbortSignal[];
	/** A retry after an outage: not sent before this time (ms). */
	notBefore: number;
	queuedAt: number;
	outage?: OutageWait;
}

/** When a wait-out of an outage that began at `since` ends: its bound, or the run's limit if sooner. */
export function outageWaitEnd(
	since: number,
	wait: Pick<OutageWait, 'boundMs' | 'deadline'>,
): number {
	return Math.min(since + wait.boundMs, wait.deadline);
}

/** The first wait after an outage answer; each further one doubles, up to the longest. */
const FIRST_WAIT_MS = 500;
const LONGEST_WAIT_MS = 30_000;

/** The wait before outage retry `n` (0-based): doubling, half of it at random so items spread. */
export function outageWaitMs(n: number, random: () => number = Math.random): number {
	const full = Math.min(LONGEST_WAIT_MS, FIRST_WAIT_MS * 2 ** n);
	return full / 2 + (random() * full) / 2;
}

export class Budget {
	/** Requests a window allows, as the server last said; undefined until it says (no pacing). */
	private limit?: number;
	private epoch = 0;
	/** Requests this process sent in the current window. */
	private sent = 0;
	/** The server's own count for the current window (all processes), as last reported. */
	private hits = 0;
	private hitsSeenAt = 0;
	/** A 429's Retry-After: nothing is sent before it. */
	private blockedUntil = 0;
	/** The one request sent into a spent window whose end is unknown, to learn it. */
	private probe?: Slot;
	private inFlight = 0;
	/**
	 * phpRank was unavailable at its last answer: until one is answered, a request that waits outages
	 * out goes only as a probe, one per doubling wait (`nextProbeAt`), and any other only alone.
	 */
	private down = false;
	private downSince = 0;
	private downCause = '';
	private probes = 0;
	private nextProbeAt = 0;
	private timerAt = 0;
	private readonly waiters: Waiter[] = [];
	/** One listener per signal (an execution's Stop), not one per waiting item. */
	private readonly watched = new WeakMap<AbortSignal, Set<Waiter>>();

	constructor(public maxConcurrent = DEFAULT_CONCURRENCY) {}

	/**
	 * Waits for a request slot, not before `notBefore` (a retry's wait, ms); rejects as soon as one
	 * of `signals` aborts (Stop, a failed run), or with OutageWaitEnded when `outage`'s bound passes
	 * while phpRank is down.
	 */
	async acquire(
		signals: Array<AbortSignal | undefined>,
		first = false,
		notBefore = 0,
		outage?: OutageWait,
	): Promise<Slot> {
		const watching = signals.filter((signal): signal is AbortSignal => signal !== undefined);
		const aborted = watching.find((signal) => signal.aborted);
		if (aborted) throw abortError(aborted);
		const queuedAt = Date.now();
		if (this.waiters.length === 0 && !this.held({ notBefore, outage }, queuedAt)) {
			const can = this.canSend(queuedAt);
			if (can) return this.grant(can === 'probe', outage !== undefined);
		}
		return await new Promise<Slot>((grant, reject) => {
			const waiter: Waiter = { grant, reject, signals: watching, notBefore, queuedAt, outage };
			for (const signal of watching) this.watch(signal).add(waiter);
			if (first) this.waiters.unshift(waiter);
			else this.waiters.push(waiter);
			this.pump();
		});
	}

	private watch(signal: AbortSignal): Set<Waiter> {
		let waiting = this.watched.get(signal);
		if (!waiting) {
			const set = new Set<Waiter>();
			waiting = set;
			this.watched.set(signal, set);
			signal.addEventListener(
				'abort',
				() => {
					for (const waiter of set) {
						this.forget(waiter);
						const at = this.waiters.indexOf(waiter);
						if (at !== -1) this.waiters.splice(at, 1);
						waiter.reject(abortError(signal));
					}
				},
				{ once: true },
			);
		}
		return waiting;
	}

	private forget(waiter: Waiter): void {
		for (const signal of waiter.signals) this.watched.get(signal)?.delete(waiter);
	}

	/** The request of `slot` got an answer (any status): frees its place and reads the headers. */
	settle(slot: Slot, headers: Record<string, unknown> | undefined): void {
		this.release(slot);
		if (this.down) this.recovered();
		const limit = headerNumber(headers, 'x-ratelimit-limit');
		const remaining = headerNumber(headers, 'x-ratelimit-remaining');
		if (limit !== undefined && limit > 0) this.limit = limit;
		if (limit !== undefined && remaining !== undefined && slot.epoch === this.epoch) {
			const serverHits = limit - remaining;
			// Counted lower than an answer seen before this request was sent: the window was reset.
			if (serverHits < this.hits && slot.sentAt > this.hitsSeenAt) this.rollover(serverHits);
			if (serverHits >= this.hits) {
				this.hits = serverHits;
				this.hitsSeenAt = Date.now();
			}
		}
		this.pump();
	}

	/** How long a 429's Retry-After still holds every request back. */
	blockedForMs(): number {
		return Math.max(0, this.blockedUntil - Date.now());
	}

	/** The request of `slot` was answered 429: nothing more is sent before the server's wait ends. */
	throttled(slot: Slot, headers: Record<string, unknown> | undefined, waitMs: number): void {
		this.blockedUntil = Math.max(this.blockedUntil, Date.now() + waitMs);
		this.settle(slot, headers);
	}

	/**
	 * The request of `slot` found phpRank unavailable (502/503/504, refused, reset, timed out): until
	 * a request is answered, of the requests waiting the outage out one probes per wait, the waits
	 * doubling (`outageWaitMs`, at least a 503's Retry-After) and counted from each probe's sending,
	 * so a probe left without an answer until its Timeout holds nobody back. The others wait for an
	 * answer: the requests phpRank sees grow with the outage's length, not with the items waiting.
	 */
	unavailable(slot: Slot, outage: { cause: string; floorMs: number }): void {
		this.release(slot);
		const now = Date.now();
		this.downCause = outage.cause;
		if (!this.down) {
			this.down = true;
			this.downSince = now;
			this.probes = 0;
			this.nextProbeAt = now + outageWaitMs(this.probes++);
		}
		this.nextProbeAt = Math.max(this.nextProbeAt, now + outage.floorMs);
		this.pump();
	}

	/** phpRank answered again: the requests that waited it out go as the budget allows, at once. */
	private recovered(): void {
		this.down = false;
		this.nextProbeAt = 0;
		for (const waiter of this.waiters) if (waiter.outage) waiter.notBefore = 0;
	}

	/** Whether `waiter` may not go yet: its own wait, or phpRank down and its turn not come. */
	private held(waiter: Pick<Waiter, 'notBefore' | 'outage'>, now: number): boolean {
		if (waiter.notBefore > now) return true;
		if (!this.down) return false;
		return waiter.outage ? now < this.nextProbeAt : this.inFlight > 0;
	}

	/** When `waiter`'s Wait Out Outages ends while phpRank is down, and since when it counts. */
	private outageEnd({ outage, queuedAt }: Waiter): { since: number; end: number } | undefined {
		if (!outage) return undefined;
		const since = outage.since ?? Math.max(queuedAt, this.downSince);
		return { since, end: outageWaitEnd(since, outage) };
	}

	/** Rejects the waiters whose Wait Out Outages ended while phpRank is down (OutageWaitEnded). */
	private expire(now: number): void {
		for (const waiter of [...this.waiters]) {
			const bound = this.outageEnd(waiter);
			if (!bound || now < bound.end) continue;
			this.waiters.splice(this.waiters.indexOf(waiter), 1);
			this.forget(waiter);
			waiter.reject(new OutageWaitEnded(bound.since, this.downCause));
		}
	}

	/** Frees the place of a request that got no answer (network error, abort). */
	abandon(slot: Slot): void {
		this.release(slot);
		this.pump();
	}

	private release(slot: Slot): void {
		this.inFlight = Math.max(0, this.inFlight - 1);
		if (this.probe === slot) this.probe = undefined;
	}

	private canSend(now: number): boolean | 'probe' {
		if (this.inFlight >= this.maxConcurrent) return false;
		if (this.blockedUntil) {
			if (now < this.blockedUntil) return false;
			this.rollover(0);
		}
		if (this.limit === undefined || Math.max(this.sent, this.hits) < this.limit) return true;
		// The window is spent, and only a 429 says when it ends (its Retry-After): one request finds
		// out, or finds a new window already open.
		return this.probe ? false : 'probe';
	}

	/** A slot; while phpRank is down, a request that waits outages out is the probe, due after the next wait. */
	private grant(probe: boolean, paced: boolean): Slot {
		if (this.down && paced) this.nextProbeAt = Date.now() + outageWaitMs(this.probes++);
		this.inFlight++;
		this.sent++;
		const slot = { epoch: this.epoch, sentAt: Date.now() };
		if (probe) this.probe = slot;
		return slot;
	}

	private rollover(hits: number): void {
		this.epoch++;
		this.sent = hits;
		this.hits = hits;
		this.hitsSeenAt = Date.now();
		this.blockedUntil = 0;
		this.probe = undefined;
	}

	private pump(): void {
		if (this.down) this.expire(Date.now());
		while (this.waiters.length > 0) {
			const now = Date.now();
			const at = this.waiters.findIndex((waiter) => !this.held(waiter, now));
			if (at === -1) break;
			const can = this.canSend(now);
			if (!can) break;
			const [waiter] = this.waiters.splice(at, 1);
			this.forget(waiter);
			waiter.grant(this.grant(can === 'probe', waiter.outage !== undefined));
		}
		if (this.waiters.length === 0) return;
		const wakeAt = this.wakeAt(Date.now());
		if (!wakeAt || (this.timerAt && this.timerAt <= wakeAt)) return;
		this.timerAt = wakeAt;
		void sleep(Math.max(0, wakeAt - Date.now())).then(() => {
			this.timerAt = 0;
			this.pump();
		});
	}

	/**
	 * When the waiters are next looked at (0: not by a timer): a 429's end, a retry's wait, the next
	 * probe; while every place is taken, only the end of a Wait Out Outages while phpRank is down.
	 */
	private wakeAt(now: number): number {
		const ends = this.down ? this.waiters.map((waiter) => this.outageEnd(waiter)?.end ?? 0) : [];
		const grants =
			this.inFlight >= this.maxConcurrent
				? []
				: [
						this.blockedUntil,
						this.down ? this.nextProbeAt : 0,
						...this.waiters.map((waiter) => waiter.notBefore),
					];
		const times = [...ends, ...grants].filter((at) => at > now);
		return times.length > 0 ? Math.min(...times) : 0;
	}
}

function headerNumber(
	headers: Record<string, unknown> | undefined,
	name: string,
): number | undefined {
	const raw = headers?.[name];
	const value = Number(Array.isArray(raw) ? raw[0] : raw);
	return raw === undefined || raw === null || raw === '' || !Number.isFinite(value)
		? undefined
		: value;
}

function abortError(signal: AbortSignal): Error {
	const error = new Error('The execution was stopped', { cause: signal.reason });
	error.name = 'AbortError';
	return error;
}

const budgets = new Map<string, Budget>();

/** The budget of one phpRank user of one instance, created on first use. */
export function budgetFor(host: string, apiKey: string, maxConcurrent: number): Budget {
	const key = `${host.toLowerCase()} ${fingerprint(apiKey)}`;
	let budget = budgets.get(key);
	if (!budget) {
		budget = new Budget(maxConcurrent);
		budgets.set(key, budget);
	}
	budget.maxConcurrent = maxConcurrent;
	return budget;
}

/** FNV-1a: the key is not kept in memory as a map key; collisions only share a budget. */
function fingerprint(text: string): string {
	let hash = 0x811c9dc5;
	for (let i = 0; i < text.length; i++) {
		hash ^= text.charCodeAt(i);
		hash = Math.imul(hash, 0x01000193) >>> 0;
	}
	return `${hash.toString(16)}:${text.length}`;
}

/** How often one request is sent again after HTTP 429 before the item fails. */
export const MAX_RATE_LIMIT_RETRIES = 30;
/** Wait used when a 429 carries no usable Retry-After header (seconds). */
const DEFAULT_RETRY_AFTER_S = 10;
/** Longest single wait honoured, so a broken header cannot stall a run for hours (seconds). */
const MAX_RETRY_AFTER_S = 120;
/** The longest an AI tool waits out phpRank's rate limit before it answers (MCP clients time out at 60 s). */
export const TOOL_RATE_LIMIT_WAIT_MS = 15_000;

/** The wait a 429's Retry-After asks for (seconds or an HTTP date), bounded, in ms. */
export function retryAfterMs(header: unknown): number {
	const value = Array.isArray(header) ? header[0] : header;
	let seconds = Number(value);
	if (!Number.isFinite(seconds) && typeof value === 'string') {
		seconds = (Date.parse(value) - Date.now()) / 1000;
	}
	if (value === undefined || !Number.isFinite(seconds) || seconds < 0)
		seconds = DEFAULT_RETRY_AFTER_S;
	// Laravel counts in whole seconds: "0" means the window ends within this second, not now.
	return Math.min(Math.max(seconds, 1), MAX_RETRY_AFTER_S) * 1000 + 50;
}

/**
 * How long a rate limit is waited out before the request fails as rate-limited. An AI tool answers
 * within a client's timeout; a poll within its time budget (n8n abandons it after that, and backs
 * the next polls off by the error's Retry-After). Everything else waits as long as phpRank asks.
 */
export function rateLimitDeadline(ctx: { getNode(): { type: string } }): number {
	if (isToolRun(ctx)) return Date.now() + TOOL_RATE_LIMIT_WAIT_MS;
	if (isPollRun(ctx)) return Date.now() + pollBudgetMs(ctx) / 2;
	return Infinity;
}
