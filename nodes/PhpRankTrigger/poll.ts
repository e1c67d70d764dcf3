import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { MAX_PAGE_SIZE, PAGE_SIZES } from '../PhpRank/api';
import { classify, shapeReport, type ResultClass } from '../PhpRank/operations/output';
import { beginPoll, commitPoll, endPoll, keepBaseline, recallBaseline } from './guard';
import { noSampleError } from './noSample';
import { type ReportFilter, scanReports } from './reports';
import { newReports, readState, resultChanges, type TriggerState, writeState } from './state';

export type TriggerEvent = 'newReport' | 'resultChanged';

/*
 * Requests per poll (GET /reports; phpRank allows 60 a minute per user by default): at most
 * MAX_REQUESTS_PER_POLL, a sixth of that budget at the default one-minute interval, and no more
 * requests once half the poll's time budget (n8n's getPollBudgetMs) is spent. A read that needs
 * more continues at the next poll from a cursor in the state.
 * - New Report: 1 request (per_page=10) while fewer than 10 reports are new. A larger backlog is
 *   read again by 100s down to the first report already seen: 1 + ceil((new + 1) / 100), the
 *   newest 900 a poll.
 * - Report Result Changed: ceil(reports / 100) requests per round over the watched reports,
 *   1,000 reports a poll: 10,000 reports take 10 polls a round. The Project filter narrows what is
 *   read; the Result filter does not (a report must be read while it is good to see it turn bad).
 */
export const MAX_REQUESTS_PER_POLL = 10;
const FIRST_PAGE_SIZE = PAGE_SIZES[0];
const PAGE_SIZE = MAX_PAGE_SIZE;

interface Settings {
	event: TriggerEvent;
	project?: string;
	result?: ResultClass;
	onlyWorse: boolean;
	simplify: boolean;
}

function settingsOf(ctx: IPollFunctions): Settings {
	const event = ctx.getNodeParameter('event') as TriggerEvent;
	const project = String(ctx.getNodeParameter('filters.project', '', { extractValue: true }) ?? '').trim();
	const result = ctx.getNodeParameter('filters.result', '') as ResultClass | '';
	return {
		event,
		project: project || undefined,
		result: result || undefined,
		onlyWorse: event === 'resultChanged' && (ctx.getNodeParameter('onlyWorse', false) as boolean),
		simplify: ctx.getNodeParameter('simplify', true) as boolean,
	};
}

/** The list each event reads. Result Changed filters by class itself, after comparing. */
function listFilter({ event, project, result }: Settings): ReportFilter {
	return event === 'newReport' ? { project, result } : { project };
}

/** One output item: the report as the action node outputs it, with the event and, for a change, the class before. */
function eventItem(settings: Settings, record: IDataObject, previous?: unknown): INodeExecutionData {
	const json: IDataObject = { event: settings.event, ...shapeReport(record, settings.simplify) };
	if (settings.event === 'resultChanged') {
		const before = classify(previous);
		json.previous_score = before.score;
		json.previous_result_class = before.result_class;
	}
	return { json };
}

/**
 * A manual test run shows the most recent matching report in the shape events have, and leaves the
 * state alone: n8n does not save static data after a manual execution.
 */
async function sample(this: IPollFunctions, settings: Settings): Promise<INodeExecutionData[][] | null> {
	const { project, result } = settings;
	const { records } = await scanReports.call(this, { filter: { project, result }, pageSize: FIRST_PAGE_SIZE, maxPages: 1 });
	if (records.length === 0) throw noSampleError(this.getNode(), { project, result });
	return [[eventItem(settings, records[0])]];
}

interface PollAllowance {
	requests: number;
	stopEarly: () => boolean;
}

type Poller = (
	this: IPollFunctions,
	settings: Settings,
	state: TriggerState | undefined,
	watch: string,
	allowance: PollAllowance,
) => Promise<{ items: INodeExecutionData[]; next: TriggerState }>;

/** New Report. The first poll only notes the newest report, so activating does not replay every report. */
const pollNewReports: Poller = async function (settings, state, watch, allowance) {
	const filter = listFilter(settings);
	const lastId = state?.lastId ?? 0;
	const isSeen = (id: number) => id <= lastId;
	let requests = allowance.requests;
	if (!state?.scan) {
		const peek = await scanReports.call(this, { filter, pageSize: FIRST_PAGE_SIZE, maxPages: 1, isSeen });
		const found = newReports(peek.records, lastId);
		if (!state || peek.complete) {
			return {
				items: state ? found.fresh.map((record) => eventItem(settings, record)) : [],
				next: { version: 1, watch, lastId: found.lastId },
			};
		}
		requests--;
	}
	const scan = await scanReports.call(this, {
		filter,
		pageSize: PAGE_SIZE,
		maxPages: requests,
		isSeen,
		resume: state.scan?.cursor,
		stopEarly: allowance.stopEarly,
	});
	const found = newReports(scan.records, state.scan?.top ?? lastId);
	return {
		items: found.fresh.map((record) => eventItem(settings, record)),
		next: scan.complete
			? { version: 1, watch, lastId: found.lastId }
			: { version: 1, watch, lastId, scan: { cursor: scan.cursor, top: found.lastId } },
	};
};

/** Report Result Changed. The first round only notes every report's result. */
const pollResultChanges: Poller = async function (settings, state, watch, allowance) {
	const resume = state?.scan?.cursor;
	const scan = await scanReports.call(this, {
		filter: listFilter(settings),
		pageSize: PAGE_SIZE,
		maxPages: allowance.requests,
		resume,
		stopEarly: allowance.stopEarly,
	});
	// The IDs this poll read completely: below where the last poll stopped, down to where this one did.
	const [lowest, above] = [scan.cursor.frontier, resume?.frontier ?? null];
	const covered = {
		from: scan.complete ? -Infinity : lowest === null ? Infinity : Number(lowest),
		below: above === null ? Infinity : Number(above),
	};
	const { changes, results } = resultChanges(
		scan.records,
		state?.results ?? {},
		{ to: settings.result, onlyWorse: settings.onlyWorse },
		covered,
	);
	return {
		items: state ? changes.map(({ record, previous }) => eventItem(settings, record, previous)) : [],
		next: { version: 1, watch, results, ...(scan.complete ? {} : { scan: { cursor: scan.cursor } }) },
	};
};

/**
 * One poll: the events since the last poll, oldest first, or null when there are none. The state
 * is written only after every request succeeded, so a failed poll leaves it as it was and the next
 * poll finds the same events again.
 */
export async function pollReports(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const settings = settingsOf(this);
	if (this.getMode() === 'manual') return await sample.call(this, settings);

	const { event, project, result } = settings;
	const watch = JSON.stringify([event, project ?? '', event === 'newReport' ? (result ?? '') : '']);
	const node = this.getNode();
	const key = `${this.getWorkflow().id ?? ''}/${node.id ?? node.name}`;
	const budgetMs = this.getPollBudgetMs();
	const turn = beginPoll(key, budgetMs);
	if (!turn) {
		this.logger.debug('phpRank Trigger: the previous poll is still running, this one is skipped');
		return null;
	}
	try {
		const staticData = this.getWorkflowStaticData('node');
		const saved = readState(staticData, watch);
		const state = saved ?? (recallBaseline(key, watch) as TriggerState | undefined);
		const started = Date.now();
		const allowance = { requests: MAX_REQUESTS_PER_POLL, stopEarly: () => Date.now() - started > budgetMs / 2 };
		const poller = event === 'newReport' ? pollNewReports : pollResultChanges;
		const { items, next } = await poller.call(this, settings, state, watch, allowance);
		if (!commitPoll(turn)) return null;
		writeState(staticData, next);
		if (saved) keepBaseline(key, undefined);
		else if (!state) keepBaseline(key, next as unknown as IDataObject);
		return items.length > 0 ? [items] : null;
	} finally {
		endPoll(turn);
	}
}
