import type { INodeParameters } from 'n8n-workflow';

import type { RecordedRequest, ReportRecord } from '../server';
import { PolledWorkflow, type PolledWorkflowOptions, type PollOutcome } from '../harness/poll';
import { reanalyse } from '../harness/reanalysis';
import { useServer } from '../harness/setup';

/**
 * What the trigger tests share: a test server emptied before each test, reports added with their
 * own URLs, a trigger's workflow built, and a poll run with the requests it sent.
 */
export function triggerFixture(stem: string) {
	const fixture = useServer();
	beforeEach(() => fixture.server.deleteAllReports());
	let pages = 0;
	const watch = (parameters: INodeParameters, options: PolledWorkflowOptions = {}) =>
		new PolledWorkflow(parameters, fixture.credential, options);
	return {
		fixture,
		watch,
		/** `count` reports over three sites, at `result`. */
		addReports: (count: number, result?: number): ReportRecord[] =>
			Array.from({ length: count }, (_, i) =>
				fixture.server.addReport({
					url: `https://site${i % 3}.example.com/${stem}-${++pages}`,
					result,
				}),
			),
		/** A new analysis of the report at `score`, an hour after the last (phpRank keeps its ID). */
		setScore: (id: number, score: number) => void reanalyse(fixture.server, id, { score }),
		/** Runs a poll and returns it with the API requests it sent. */
		polled: async (
			run: () => Promise<PollOutcome>,
		): Promise<PollOutcome & { requests: RecordedRequest[] }> => {
			fixture.server.clearRequests();
			const outcome = await run();
			return { ...outcome, requests: fixture.apiRequests() };
		},
	};
}

/** A trigger's workflow after its activation poll. */
export async function activated(workflow: PolledWorkflow): Promise<PolledWorkflow> {
	await workflow.activate();
	return workflow;
}

export const ids = (outcome: PollOutcome) => outcome.items?.map((item) => item.json.id) ?? null;
export const range = (from: number, to: number) =>
	Array.from({ length: to - from + 1 }, (_, i) => from + i);
