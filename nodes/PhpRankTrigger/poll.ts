import type { INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ResultClass } from '../PhpRank/api';
import { reportSpec } from '../PhpRank/descriptions/report/reportSpec';
import { pollBudgetMs } from '../PhpRank/transport/n8nInternals';
import { recordLinks } from '../PhpRank/transport/request';
import type { Settings, TriggerEvent } from './events/event';
import { beginPoll, commitPoll, endPoll, keepBaseline, recallBaseline } from './guard';
import { siteItems } from './perSite';
import { MAX_REQUESTS_PER_POLL } from './reports';
import { sampleEvent } from './sample';
import { readState, type StoredState, storedState, writeState } from './state';

type EventSettings = Settings<unknown> & { event: string };

/** The chosen event and the node's parameters, checked before any request is sent. */
async function settingsOf(
	ctx: IPollFunctions,
	events: readonly TriggerEvent[],
): Promise<{ event: TriggerEvent; settings: EventSettings }> {
	const value = ctx.getNodeParameter('event') as string;
	const event = events.find((candidate) => candidate.value === value);
	if (!event) {
		throw new NodeOperationError(ctx.getNode(), `There is no event "${value}"`, {
			description: `Choose an Event: ${events.map(({ name }) => name).join(', ')}.`,
		});
	}
	const project = String(
		ctx.getNodeParameter('filters.project', '', { extractValue: true }) ?? '',
	).trim();
	// '' (a Result filter added without a value) is no filter.
	const result = ctx.getNodeParameter('filters.result', '') as ResultClass | '';
	const own = event.parameters(ctx) as object;
	const settings = {
		event: value,
		project: project || undefined,
		result: result || undefined,
		simplify: ctx.getNodeParameter('simplify', true) as boolean,
		perSite: !!event.siteLine && ctx.getNodeParameter('output', 'events') === 'sites',
		...own,
		link: await recordLinks({ ctx, spec: reportSpec }),
	};
	return { event, settings };
}

/** What the state is kept for: when it changes, the trigger starts over quietly. */
function watchOf(event: TriggerEvent, settings: EventSettings): string {
	const { project, result } = settings;
	const listed = event.listByResult ? (result ?? '') : '';
	return JSON.stringify([event.value, project ?? '', listed, ...(event.watch?.(settings) ?? [])]);
}

/** The event's reading, from and to the stored state; the first poll's events are dropped. */
async function readEvent(
	this: IPollFunctions,
	event: TriggerEvent,
	settings: EventSettings,
	state: StoredState | undefined,
	watch: string,
	budgetMs: number,
): Promise<{ items: INodeExecutionData[]; next: StoredState }> {
	const started = Date.now();
	const allowance = {
		requests: MAX_REQUESTS_PER_POLL,
		stopEarly: () => Date.now() - started > budgetMs / 2,
	};
	const memory = state && event.decode(state);
	const { found, memory: kept } = await event.read.call(this, settings, memory, allowance);
	const items = !state
		? []
		: settings.perSite
			? (await siteItems.call(this, event, settings, found)).map((json) => ({ json }))
			: found.map((one) => ({ json: { event: settings.event, ...event.item(settings, one) } }));
	return { items, next: storedState(watch, event.encode(kept)) };
}

/**
 * One poll: the events since the last poll, oldest first, or null when there are none. The state
 * is written only after every request succeeded, so a failed poll leaves it as it was and the next
 * poll finds the same events again. One poll at a time per node (guard.ts).
 */
export async function pollReports(
	this: IPollFunctions,
	events: readonly TriggerEvent[],
): Promise<INodeExecutionData[][] | null> {
	const { event, settings } = await settingsOf(this, events);
	if (this.getMode() === 'manual') return await sampleEvent.call(this, event, settings);

	const watch = watchOf(event, settings);
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
		const state = saved ?? (recallBaseline(key, watch) as StoredState | undefined);
		const { items, next } = await readEvent.call(this, event, settings, state, watch, budgetMs);
		if (!commitPoll(turn)) return null;
		writeState(staticData, next);
		if (saved) keepBaseline(key, undefined);
		else if (!state) keepBaseline(key, next);
		return items.length > 0 ? [items] : null;
	} finally {
		endPoll(turn);
	}
}
