import type { IExecuteData, IExecuteSingleFunctions } from 'n8n-workflow';

/*
 * Everything the node relies on that n8n does not promise as public API, in one place. Checked on
 * n8n 2.0.x (the oldest 2.x) and 2.41.1 by the e2e in CI (`npm run test:e2e`, both versions); if a
 * release changes one of these, that e2e fails.
 *
 * 1. An AI tool is the node's type name with `Tool` appended (n8n builds `phpRankTool` from the
 *    node's description; the node runs unchanged). `isToolRun`.
 * 2. With Retry On Fail, n8n runs the node again and RoutingNode makes a new per-item context for
 *    each try; the pagination hook gets a child object of that context (n8n-core's RoutingNode,
 *    `makeRoutingRequest` set as an own property). `itemContextOf`.
 * 3. `this.makeRoutingRequest` inside `routing.operations.pagination` runs n8n's whole pipeline for
 *    one request, output steps (`postReceive`) included, and hands those steps only the answer. The
 *    answer check (the first output step) finds its request through the queue below: an item's
 *    requests are sent one after the other, so their answers come back in that order.
 * 4. A poll's time budget (`getPollBudgetMs` of the poll context) exists from n8n 2.41 on; older
 *    2.x releases have none, and the trigger then takes `FALLBACK_POLL_BUDGET_MS`. `pollBudgetMs`.
 *    A poll's context is known by its emit function (`__emit`, n8n-core's PollContext in 2.0 and
 *    2.41), so every wait of a poll is bounded by that budget on every version. `isPollRun`.
 */

/** Whether the node runs as an AI tool rather than as a workflow step. */
export function isToolRun(ctx: { getNode(): { type: string } }): boolean {
	return ctx.getNode().type.endsWith('Tool');
}

/** The context RoutingNode made for this item and try (the pagination hook gets a child of it). */
export function itemContextOf(ctx: IExecuteSingleFunctions): object {
	let current: object = ctx;
	while (Object.prototype.hasOwnProperty.call(current, 'makeRoutingRequest')) {
		current = Object.getPrototypeOf(current) as object;
	}
	return current;
}

const pending = new WeakMap<IExecuteData, Map<number, unknown[]>>();

/** Queues what an item's output steps need about the request about to be sent through n8n. */
export function queueForOutputSteps<T>(ctx: IExecuteSingleFunctions, value: T): void {
	const key = ctx.getExecuteData();
	let byItem = pending.get(key);
	if (!byItem) {
		byItem = new Map();
		pending.set(key, byItem);
	}
	const queue = byItem.get(ctx.getItemIndex());
	if (queue) queue.push(value);
	else byItem.set(ctx.getItemIndex(), [value]);
}

/** In an output step: what was queued for the oldest request of this item not yet answered. */
export function takeFromOutputQueue<T>(ctx: IExecuteSingleFunctions): T | undefined {
	return pending.get(ctx.getExecuteData())?.get(ctx.getItemIndex())?.shift() as T | undefined;
}

/** Whether the context is a poll's (the trigger), on n8n with or without `getPollBudgetMs`. */
export function isPollRun(ctx: object): boolean {
	return typeof (ctx as { __emit?: unknown }).__emit === 'function' && typeof (ctx as { getActivationMode?: unknown }).getActivationMode === 'function';
}

/** The time a poll may take on an n8n without `getPollBudgetMs` (before 2.41): one minute, the shortest poll interval. */
export const FALLBACK_POLL_BUDGET_MS = 60_000;

/** How long a poll may take: as n8n says (2.41+), or the fallback on older n8n. */
export function pollBudgetMs(ctx: object): number {
	const { getPollBudgetMs } = ctx as { getPollBudgetMs?: () => unknown };
	const budget = typeof getPollBudgetMs === 'function' ? getPollBudgetMs.call(ctx) : undefined;
	return typeof budget === 'number' && budget > 0 ? budget : FALLBACK_POLL_BUDGET_MS;
}
