import { WAIT_OUT_OUTAGES } from '../api';
import { isActionItem, type RequestContext } from './connection';
import { type GaveUp, inputError, networkCause, redactedNode } from './errors';
import {
	MAX_RATE_LIMIT_RETRIES,
	type OutageWait,
	type OutageWaitEnded,
	outageWaitEnd,
	outageWaitMs,
	retryAfterMs,
} from './rateLimit';

/*
 * When one request is sent again, and when: after a 429 (phpRank did not process it) while its run
 * may wait, and while phpRank is unavailable, within Wait Out Outages. The waits are the budget's
 * (a 429's Retry-After, Budget.acquire's `notBefore`), so Stop ends them as it ends any wait.
 */

/** Answers of a proxy or a Laravel in maintenance while phpRank is down or restarting. */
const OUTAGE_STATUSES = new Set([502, 503, 504]);

/** A try that failed because phpRank was unavailable. */
export interface Outage {
	/** What happened, as the error says it: "HTTP 503", "the connection was refused …". */
	cause: string;
	/** phpRank may have received the request (anything but a refused connection). */
	reached: boolean;
	/** A 503's own Retry-After (maintenance mode), the least wait (ms). */
	floorMs: number;
}

/** The outage an answer (`status`) or a failure without one shows, or undefined when it is none. */
export function outageOf(
	answer: { status?: number; retryAfter?: unknown } | undefined,
	failure: unknown,
): Outage | undefined {
	if (answer) {
		const { status, retryAfter } = answer;
		if (status === undefined || !OUTAGE_STATUSES.has(status)) return undefined;
		const floorMs = status === 503 && retryAfter !== undefined ? retryAfterMs(retryAfter) : 0;
		return { cause: `HTTP ${status}`, reached: true, floorMs };
	}
	const { code, cause, timedOut } = networkCause(failure);
	if (code === 'ECONNREFUSED') return { cause, reached: false, floorMs: 0 };
	if (timedOut || code === 'ECONNRESET' || code === 'EPIPE' || code === 'ETIMEDOUT')
		return { cause, reached: true, floorMs: 0 };
	return undefined;
}

/** Wait Out Outages of an action item (ms); 0 for pickers and polls (n8n backs a poll off itself). */
export function outageBoundMs(ctx: RequestContext): number {
	if (!isActionItem(ctx)) return 0;
	const { label, low, high, default: initial } = WAIT_OUT_OUTAGES;
	const value = ctx.getNodeParameter('requestOptions.waitOutOutages', initial);
	const seconds = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	if (typeof seconds === 'number' && seconds >= low && seconds <= high) return seconds * 1000;
	throw inputError(
		redactedNode(ctx.getNode(), undefined),
		`Request Options → ${label} must be a number from ${low} to ${high}, not ${JSON.stringify(value) ?? 'nothing'}`,
		`Enter a number of seconds (${initial} by default, 0 to fail at once).`,
	);
}

/** The tries of one request: when the next is sent, or why none is. */
export class Tries {
	private retries = 0;
	private outageSince?: number;
	private outageRetries = 0;

	constructor(
		/** Whether the request may go again after the server may have received it (a read, an idempotent write). */
		private readonly repeatable: boolean,
		/** The run's own limit on waiting (rateLimitDeadline). */
		private readonly deadline: number,
		private readonly boundMs: number,
	) {}

	/** After a 429: whether to wait `waitMs` and send again. */
	afterThrottle(waitMs: number): boolean {
		return this.retries++ < MAX_RATE_LIMIT_RETRIES && Date.now() + waitMs <= this.deadline;
	}

	/**
	 * After an outage of a try sent at `sentAt`: when to send again (ms since the epoch), undefined
	 * when the request is not to be resent at all (the original error stands), or why it gave up.
	 */
	afterOutage(outage: Outage, sentAt: number): number | undefined | GaveUp {
		if (this.boundMs <= 0) return undefined;
		// A create that may have reached the server is never resent: it may exist.
		if (outage.reached && !this.repeatable) return undefined;
		this.outageSince ??= sentAt;
		const waitMs = Math.max(outage.floorMs, outageWaitMs(this.outageRetries));
		const end = outageWaitEnd(this.outageSince, { boundMs: this.boundMs, deadline: this.deadline });
		const at = Date.now() + waitMs;
		if (at <= end && this.retries < MAX_RATE_LIMIT_RETRIES) {
			this.retries++;
			this.outageRetries++;
			return at;
		}
		return this.gaveUp(this.outageRetries + 1, outage.cause);
	}

	/** How the budget holds this request while phpRank is down (Budget.acquire); none with no bound. */
	outageWait(): OutageWait | undefined {
		if (this.boundMs <= 0) return undefined;
		return { since: this.outageSince, boundMs: this.boundMs, deadline: this.deadline };
	}

	/** The budget held this request back until its bound ended, phpRank still down. */
	gaveUpWaiting(ended: OutageWaitEnded): GaveUp {
		this.outageSince ??= ended.since;
		return this.gaveUp(this.outageRetries, ended.last);
	}

	private gaveUp(tries: number, cause: string): GaveUp {
		const since = this.outageSince ?? Date.now();
		return {
			tries,
			elapsedMs: Date.now() - since,
			boundMs: this.boundMs,
			cause,
			runLimited: this.deadline < since + this.boundMs,
		};
	}
}
