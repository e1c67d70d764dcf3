import type { IExecuteData, IExecuteSingleFunctions } from 'n8n-workflow';

/*
 * Everything the node relies on that n8n does not promise as public API, in one place; each point,
 * with the n8n versions it was checked on, is listed in ARCHITECTURE.md ("Where n8n is relied on
 * beyond its public API"). The e2e in CI (oldest 2.x and newest) and test/unit/n8nInternals.test.ts
 * fail first when a release changes one.
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
	const count = ctx.getExecuteData().data.main?.[0]?.length ?? 0;
	// Execute Once: n8n runs the first item only, yet hands over them all here.
	return ctx.getNode().executeOnce === true ? Math.min(count, 1) : count;
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
