import { FALLBACK_POLL_BUDGET_MS, isToolRun, pollBudgetMs } from '../../nodes/PhpRank/transport/n8nInternals';

describe('what the node relies on beyond n8n’s public API', () => {
	it('a poll takes n8n’s time budget when n8n gives one (2.41+), a minute on older n8n', () => {
		expect(pollBudgetMs({ getPollBudgetMs: () => 45_000 })).toBe(45_000);
		expect(pollBudgetMs({})).toBe(FALLBACK_POLL_BUDGET_MS);
		expect(FALLBACK_POLL_BUDGET_MS).toBe(60_000);
	});

	it('an AI tool is the node type with "Tool" appended', () => {
		expect(isToolRun({ getNode: () => ({ type: 'n8n-nodes-phprank.phpRankTool' }) })).toBe(true);
		expect(isToolRun({ getNode: () => ({ type: 'n8n-nodes-phprank.phpRank' }) })).toBe(false);
	});
});
