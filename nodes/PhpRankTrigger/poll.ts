import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { classify, shapeReport, type ResultClass } from '../PhpRank/helpers/output';
import { noSampleError } from './noSample';
import { type ReportFilter, scanReports } from './reports';
import { newReports, readState, resultChanges, type TriggerState, writeState } from './state';

export type TriggerEvent = 'newReport' | 'resultChanged';

/*
 * Cost per poll (GET /reports; phpRank allows 60 requests a minute per user by default):
 * - New Report: 1 request with per_page=10 while fewer than 10 reports are new. A larger backlog
 *   is read again with per_page=100 down to the first report already seen: 1 + ceil((new + 1) / 100).
 * - Report Result Changed: every watched report, per_page=100: ceil(reports / 100), e.g. 10 requests
 *   for 1,000 reports. The Project filter narrows what is read; the Result filter does not (a report
 *   must be read while it is good to see it turn bad).
 */
const FIRST_PAGE_SIZE = 10;
const PAGE_SIZE = 100;

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

type Poller = (
	this: IPollFunctions,
	settings: Settings,
	state: TriggerState | undefined,
	watch: string,
) => Promise<{ items: INodeExecutionData[]; next: TriggerState }>;

/** New Report. The first poll only notes the newest report, so activating does not replay every report. */
const pollNewReports: Poller = async function (settings, state, watch) {
	const filter = listFilter(settings);
	const lastId = state?.lastId ?? 0;
	const isSeen = (id: number) => id <= lastId;
	let scan = await scanReports.call(this, { filter, pageSize: FIRST_PAGE_SIZE, maxPages: 1, isSeen });
	if (state && !scan.complete) scan = await scanReports.call(this, { filter, pageSize: PAGE_SIZE, isSeen });
	if (state && !scan.steady) {
		// A report deleted while paging may have pushed an unseen one past a page boundary: read again.
		const again = await scanReports.call(this, { filter, pageSize: PAGE_SIZE, isSeen });
		scan = { ...again, records: [...scan.records, ...again.records] };
	}
	const found = newReports(scan.records, lastId);
	return {
		items: state ? found.fresh.map((record) => eventItem(settings, record)) : [],
		next: { version: 1, watch, lastId: found.lastId },
	};
};

/** Report Result Changed. The first poll only notes every report's result. */
const pollResultChanges: Poller = async function (settings, state, watch) {
	const scan = await scanReports.call(this, { filter: listFilter(settings), pageSize: PAGE_SIZE });
	const { changes, results } = resultChanges(
		scan.records,
		state?.results ?? {},
		{ to: settings.result, onlyWorse: settings.onlyWorse },
		scan.complete && scan.steady,
	);
	return {
		items: state ? changes.map(({ record, previous }) => eventItem(settings, record, previous)) : [],
		next: { version: 1, watch, results },
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
	const staticData = this.getWorkflowStaticData('node');
	const state = readState(staticData, watch);
	const poller = event === 'newReport' ? pollNewReports : pollResultChanges;
	const { items, next } = await poller.call(this, settings, state, watch);
	writeState(staticData, next);
	return items.length > 0 ? [items] : null;
}
