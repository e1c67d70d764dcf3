import { PollContext } from 'n8n-core';
import type { IWorkflowExecuteAdditionalData, Workflow } from 'n8n-workflow';

import {
	FALLBACK_POLL_BUDGET_MS,
	isPollRun,
	isToolRun,
	pollBudgetMs,
} from '../../nodes/PhpRank/transport/n8nInternals';
import { rateLimitDeadline } from '../../nodes/PhpRank/transport/rateLimit';
import { makeNode } from '../harness/engine';

const node = makeNode({}, { type: 'n8n-nodes-phprank.phpRankTrigger', name: 'phpRank Trigger' });

/** n8n-core's own poll context; without `budgetMs`, no getPollBudgetMs (as on n8n 2.0). */
function pollContext(budgetMs?: number): PollContext {
	const poll = new PollContext(
		{} as Workflow,
		node,
		{} as IWorkflowExecuteAdditionalData,
		'trigger',
		'activate',
		() => undefined,
		() => undefined,
		undefined,
		undefined,
		undefined,
		budgetMs === undefined ? undefined : () => budgetMs,
	);
	if (budgetMs === undefined) Object.defineProperty(poll, 'getPollBudgetMs', { value: undefined });
	return poll;
}

describe('what the node relies on beyond n8n’s public API', () => {
	it('a poll takes n8n’s time budget when n8n gives one (2.41+), a minute on older n8n', () => {
		expect(pollBudgetMs({ getPollBudgetMs: () => 45_000 })).toBe(45_000);
		expect(pollBudgetMs({})).toBe(FALLBACK_POLL_BUDGET_MS);
		expect(FALLBACK_POLL_BUDGET_MS).toBe(60_000);
	});

	it('a poll’s context is known by n8n’s own PollContext, with or without getPollBudgetMs', () => {
		expect(isPollRun(pollContext(45_000))).toBe(true);
		// n8n 2.0 has no getPollBudgetMs: the poll is still a poll.
		expect(isPollRun(pollContext())).toBe(true);
		expect(isPollRun({ getNode: () => node })).toBe(false);
	});

	it('a poll waits out a rate limit for at most half its budget, on n8n 2.0 (no getPollBudgetMs) as on 2.41', () => {
		const before = Date.now();
		const deadline = rateLimitDeadline(pollContext());
		expect(deadline - before).toBeGreaterThanOrEqual(FALLBACK_POLL_BUDGET_MS / 2 - 5);
		expect(deadline - before).toBeLessThanOrEqual(FALLBACK_POLL_BUDGET_MS / 2 + 50);
		expect(rateLimitDeadline(pollContext(10_000)) - Date.now()).toBeLessThanOrEqual(5_000);
		expect(rateLimitDeadline({ getNode: () => node })).toBe(Infinity);
	});

	it('an AI tool is the node type with "Tool" appended', () => {
		expect(isToolRun({ getNode: () => ({ type: 'n8n-nodes-phprank.phpRankTool' }) })).toBe(true);
		expect(isToolRun({ getNode: () => ({ type: 'n8n-nodes-phprank.phpRank' }) })).toBe(false);
	});
});
