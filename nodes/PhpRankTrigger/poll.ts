import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { pollBudgetMs } from '../PhpRank/transport/n8nInternals';
import { MAX_PAGE_SIZE, PAGE_SIZES } from '../PhpRank/api';
import { beginPoll, commitPoll, endPoll, keepBaseline, recallBaseline } from './guard';
import { eventItem, sampleEvent } from './items';
import { scanReports } from './reports';
import { scoreChanges } from './scoreChanges';
import { listFilter, type Settings, settingsOf, type TriggerEvent, watchOf } from './settings';
import {
	type Covered,
	newReports,
	readState,
	resultChanges,
	type TriggerState,
	writeState,
} from './state';

/*
 * Requests per poll (GET /reports; phpRank allows 60 a minute per user by default): at most
 * MAX_REQUESTS_PER_POLL, a sixth of that budget at the default one-minute interval, and no more
 * requests once half the poll's time budget (n8n's getPollBudgetMs) is spent. A read that needs
 * more continues at the next poll from a cursor in the state.
 * - New Report: 1 request (per_page=10) while fewer than 10 reports are new. A larger backlog is
 *   read again by 100s down to the first report already seen: 1 + ceil((new + 1) / 100), the
 *   newest 900 a poll.
 * - Report Result Changed and Score Changed: ceil(reports / 100) requests per round over the
 *   watched reports (`watchRound`), 1,000 reports a poll: 10,000 reports take 10 polls a round.
 *   The Project filter narrows what is read; the Result filter does not (a report must be read
 *   while it is good to see it turn bad).
 */
export const MAX_REQUESTS_PER_POLL = 10;
const FIRST_PAGE_SIZE = PAGE_SIZES[0];
const PAGE_SIZE = MAX_PAGE_SIZE;

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
		const peek = await scanReports.call(this, {
			filter,
			pageSize: FIRST_PAGE_SIZE,
			maxPages: 1,
			isSeen,
		});
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

interface WatchRound {
	/** The reports this poll read. */
	records: IDataObject[];
	/** The IDs it read completely (see `keepUncovered`). */
	covered: Covered;
	/** Where the next poll continues the round; empty when this poll ended it. */
	scan: Pick<TriggerState, 'scan'>;
}

/**
 * The change events' reading: rounds over every watched report (the Project filter's or all),
 * newest first, at most `allowance.requests` pages a poll; a round that needs more continues at
 * the next poll from the cursor in the state, and the poll after a round's end starts the next.
 */
async function watchRound(
	this: IPollFunctions,
	settings: Settings,
	state: TriggerState | undefined,
	allowance: PollAllowance,
): Promise<WatchRound> {
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
	return {
		records: scan.records,
		covered: {
			from: scan.complete ? -Infinity : lowest === null ? Infinity : Number(lowest),
			below: above === null ? Infinity : Number(above),
		},
		scan: scan.complete ? {} : { scan: { cursor: scan.cursor } },
	};
}

/** Report Result Changed. The first round only notes every report's result. */
const pollResultChanges: Poller = async function (settings, state, watch, allowance) {
	const round = await watchRound.call(this, settings, state, allowance);
	const { changes, results, dropped } = resultChanges(
		round.records,
		{ results: state?.results, dropped: state?.dropped },
		{ to: settings.result, onlyWorse: settings.onlyWorse, notifyRecovery: settings.notifyRecovery },
		round.covered,
	);
	return {
		items: state
			? changes.map(({ record, previous, reason }) =>
					eventItem(settings, record, { previous, reason }),
				)
			: [],
		next: {
			version: 1,
			watch,
			results,
			...(Object.keys(dropped).length > 0 ? { dropped } : {}),
			...round.scan,
		},
	};
};

/** Score Changed. The first round only notes every report's baseline. */
const pollScoreChanges: Poller = async function (settings, state, watch, allowance) {
	const round = await watchRound.call(this, settings, state, allowance);
	const { changes, memory } = scoreChanges(
		round.records,
		{ checks: state?.checks, baselines: state?.baselines },
		{
			minChange: settings.minChange,
			onlyWorse: settings.onlyWorse,
			belowScore: settings.belowScore,
			notifyRecovery: settings.notifyRecovery,
			to: settings.result,
		},
		round.covered,
	);
	return {
		items: state
			? changes.map(({ record, reason, changes, trend }) =>
					eventItem(settings, record, { reason, changes, trend }),
				)
			: [],
		next: { version: 1, watch, ...memory, ...round.scan },
	};
};

const POLLERS: Record<TriggerEvent, Poller> = {
	newReport: pollNewReports,
	resultChanged: pollResultChanges,
	scoreChanged: pollScoreChanges,
};

/**
 * One poll: the events since the last poll, oldest first, or null when there are none. The state
 * is written only after every request succeeded, so a failed poll leaves it as it was and the next
 * poll finds the same events again.
 */
export async function pollReports(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const settings = settingsOf(this);
	if (this.getMode() === 'manual') return await sampleEvent.call(this, settings);

	const watch = watchOf(settings);
	const node = this.getNode();
	const key = `${this.getWorkflow().id ?? ''}/${node.id ?? node.name}`;
	const budgetMs = pollBudgetMs(this);
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
		const allowance = {
			requests: MAX_REQUESTS_PER_POLL,
			stopEarly: () => Date.now() - started > budgetMs / 2,
		};
		const poller = POLLERS[settings.event];
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
