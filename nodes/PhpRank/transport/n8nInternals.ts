import type { IExecuteData, IExecuteSingleFunctions } from 'n8n-workflow';

/*
 * Everything the node relies on that n8n does not promise as public API, in one place. Checked on
 * n8n 2.0.0 (the oldest 2.x) and 2.41.1 by the e2e in CI (`npm run test:e2e`, both versions) and by
 * test/unit/n8nInternals.test.ts against n8n-core's own contexts; if a release changes one of
 * these, those fail first.
 *
 * 1. An AI tool is the node's type name with `Tool` appended (n8n builds `phpRankTool` from the
 *    node's description; the node runs unchanged). `isToolRun`.
 * 2. One node run has one `IExecuteData` object, handed to every item's context
 *    (`getExecuteData()`), and n8n keeps that object for the run's Retry On Fail tries (n8n-core's
 *    WorkflowExecute runs each try with the same execution data). The run's state is kept by it,
 *    here and nowhere else. `runStateOf`.
 * 3. With Retry On Fail, RoutingNode makes a new per-item context for each try; the pagination hook
 *    gets a child object of that context (`makeRoutingRequest` set as an own property). `itemContextOf`.
 * 4. `this.makeRoutingRequest` inside `routing.operations.pagination` runs n8n's whole pipeline for
 *    one request, output steps (`postReceive`) included, and hands those steps only the answer, in
 *    the item's context. An item's requests through it are sent one after the other, so their
 *    answers come back in that order: what an output step needs to know of its request travels in
 *    a queue per item (the run's `forOutputSteps`, transport/run.ts).
 * 5. A poll's context is known by its emit function (`__emit` and `getActivationMode`, n8n-core's
 *    PollContext in 2.0 and 2.41). Its time budget (`getPollBudgetMs`) exists from n8n 2.41 on;
 *    older 2.x releases have none, and every wait of a poll then takes `FALLBACK_POLL_BUDGET_MS`.
 *    `isPollRun`, `pollBudgetMs`.
 * 6. The input items of the node run are in `getExecuteData().data.main[0]`. `inputItemCount`.
 */

/** Whether the node runs as an AI tool rather than as a workflow step. */
export function isToolRun(ctx: { getNode(): { type: string } }): boolean {
	return ctx.getNode().type.endsWith('Tool');
}

const runStates = new WeakMap<IExecuteData, object>();

/** The state of this node run, made by `create` on first use and kept across its tries. */
export function runStateOf<T extends object>(ctx: IExecuteSingleFunctions, create: () => T): T {
	const key = ctx.getExecuteData();
	let state = runStates.get(key) as T | undefined;
	if (!state) {
		state = create();
		runStates.set(key, state);
	}
	return state;
}

/** The context RoutingNode made for this item and try (the pagination hook gets a child of it). */
export function itemContextOf(ctx: IExecuteSingleFunctions): object {
	let current: object = ctx;
	while (Object.prototype.hasOwnProperty.call(current, 'makeRoutingRequest')) {
		current = Object.getPrototypeOf(current) as object;
	}
	return current;
}

/** How many input items the node run has. */
export function inputItemCount(ctx: IExecuteSingleFunctions): number {
	return ctx.getExecuteData().data.main?.[0]?.length ?? 0;
}

/** Whether the context is a poll's (the trigger), on n8n with or without `getPollBudgetMs`. */
export function isPollRun(ctx: object): boolean {
	const poll = ctx as { __emit?: unknown; getActivationMode?: unknown };
	return typeof poll.__emit === 'function' && typeof poll.getActivationMode === 'function';
}

/** The time a poll may take on an n8n without `getPollBudgetMs` (before 2.41): one minute, the shortest poll interval. */
export const FALLBACK_POLL_BUDGET_MS = 60_000;

/** How long a poll may take: as n8n says (2.41+), or the fallback on older n8n. */
export function pollBudgetMs(ctx: object): number {
	const { getPollBudgetMs } = ctx as { getPollBudgetMs?: () => unknown };
	const budget = typeof getPollBudgetMs === 'function' ? getPollBudgetMs.call(ctx) : undefined;
	return typeof budget === 'number' && budget > 0 ? budget : FALLBACK_POLL_BUDGET_MS;
}
