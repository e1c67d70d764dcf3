import type { IExecuteData, IExecuteSingleFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { inputError } from './errors';
import { itemContextOf } from './n8nInternals';
import type { ResourceSpec } from './resource';
import { redactedNode } from './secrets';

/*
 * What the items of one node run share. RoutingNode sends every item at once and, with On Error →
 * Stop, throws the first failure after all of them settled: the reports other items created are
 * then missing from the output. With Retry On Fail, n8n runs the whole node again. So:
 * - after a failure, items not yet sent are not sent, and the error lists the reports the run
 *   created (they exist in phpRank; a re-run would create them again);
 * - a retry of the node returns what its earlier tries did (a report created, updated or deleted)
 *   instead of doing it again: no duplicate report, no "not found" for a report it deleted.
 */

interface Done {
	fingerprint: string;
	items: INodeExecutionData[];
	/** A create, of this resource: its record is named when the run stops. */
	created?: ResourceSpec;
}

export interface RunState {
	/** The per-item context of each item in the current try: a new context means a new try. */
	contexts: Map<number, object>;
	/** Aborted by the first failure of a try, with that failure as its reason. */
	stop: AbortController;
	/** The first failure of the try, once the requests then in flight have settled. */
	final?: Promise<NodeApiError>;
	/** Requests on the wire. */
	sending: Set<Promise<unknown>>;
	/** Changes made (creates, updates, deletes), by item, across tries. */
	done: Map<number, Done>;
}

const runs = new WeakMap<IExecuteData, RunState>();

/** The state of this node run, started afresh for each try. */
export function runOf(ctx: IExecuteSingleFunctions): RunState {
	const key = ctx.getExecuteData();
	let run = runs.get(key);
	if (!run) {
		run = { contexts: new Map(), stop: new AbortController(), sending: new Set(), done: new Map() };
		runs.set(key, run);
	}
	const item = ctx.getItemIndex();
	const context = itemContextOf(ctx);
	const known = run.contexts.get(item);
	if (known !== undefined && known !== context) {
		run.contexts = new Map();
		run.stop = new AbortController();
		run.final = undefined;
	}
	run.contexts.set(item, context);
	return run;
}

/** Runs one request of an item, known as on the wire until it settles. */
export async function onTheWire<T>(run: RunState, request: Promise<T>): Promise<T> {
	run.sending.add(request);
	try {
		return await request;
	} finally {
		run.sending.delete(request);
	}
}

export function fingerprintOf(body: unknown): string {
	return JSON.stringify(body ?? null);
}

/** What an earlier try of this node run did for this item with the same request, if it did. */
export function doneBefore(run: RunState, item: number, fingerprint: string): INodeExecutionData[] | undefined {
	const done = run.done.get(item);
	return done?.fingerprint === fingerprint ? done.items : undefined;
}

export function recordDone(run: RunState, item: number, fingerprint: string, items: INodeExecutionData[], created?: ResourceSpec): void {
	run.done.set(item, { fingerprint, items, created });
}

/**
 * An item failed and the node stops (On Error → Stop). The first failure stops the items not yet
 * sent; every failure waits for the requests in flight, then names the reports the run created.
 */
export async function stopRun(ctx: IExecuteSingleFunctions, run: RunState, error: NodeApiError): Promise<NodeApiError> {
	if (run.stop.signal.aborted && error === run.stop.signal.reason) return await refused(ctx, run);
	return await stopAfter(run, error);
}

/** Bad input of an item (checked before sending) stops the run like a failed request. */
export function stopOnInputError(ctx: IExecuteSingleFunctions, error: NodeApiError): void {
	if (!ctx.continueOnFail()) void stopAfter(runOf(ctx), error);
}

function stopAfter(run: RunState, error: NodeApiError): Promise<NodeApiError> {
	const first = !run.stop.signal.aborted;
	if (first) run.stop.abort(error);
	const settled = Promise.allSettled([...run.sending]).then(() => withCreatedReports(run, error));
	if (first) run.final = settled;
	return settled;
}

/** An item that was not sent because another item failed first. */
async function refused(ctx: IExecuteSingleFunctions, run: RunState): Promise<NodeApiError> {
	const first = await run.final!;
	return new NodeApiError(redactedNode(ctx.getNode()), {}, {
		message: first.message,
		description: `${first.description ?? ''} This item was not sent: another item failed first.`.trim(),
		...(first.httpCode ? { httpCode: first.httpCode } : {}),
		itemIndex: ctx.getItemIndex(),
	});
}

function withCreatedReports(run: RunState, error: NodeApiError): NodeApiError {
	const made = [...run.done.values()].filter(({ created }) => created);
	if (made.length === 0) return error;
	const { noun, plural } = made[0].created!;
	// Items that share one record (Create or Re-Run of one URL) name it once.
	const records = [
		...new Set(
			made.flatMap(({ items, created }) =>
				items.map(({ json }) => `#${String(json[created!.key])} ${String(json[created!.createdFrom ?? ''] ?? '')}`.trim()),
			),
		),
	];
	const one = records.length === 1;
	const note = `Before it stopped, this node created ${records.length} ${one ? noun : plural} that exist${one ? 's' : ''} in phpRank: ${records.join(', ')}. Running it again with the same input creates them again: remove those items first, or set On Error to Continue.`;
	if (!error.description?.includes(note)) error.description = `${error.description ?? ''} ${note}`.trim();
	return error;
}

/**
 * A failed item. With On Error → Continue it becomes an error item paired to its input (the error
 * output then carries the input's fields, so it says which row failed); otherwise the node stops,
 * see `stopRun`.
 */
export async function itemFailed(ctx: IExecuteSingleFunctions, run: RunState, caught: unknown): Promise<INodeExecutionData[]> {
	// Every request error is a NodeApiError already; anything else (n8n's own, e.g. a missing
	// credential) keeps its text, on the node with secret parameters masked.
	const error =
		caught instanceof NodeApiError
			? caught
			: inputError(
					redactedNode(ctx.getNode()),
					caught instanceof Error ? caught.message : String(caught),
					(caught as { description?: string } | undefined)?.description ?? '',
					ctx.getItemIndex(),
				);
	error.context.itemIndex = ctx.getItemIndex();
	if (ctx.continueOnFail()) {
		// Only `error` and `details`: n8n's error output then adds the input item's fields.
		return [{ json: { error: error.message, details: error.description ?? '' }, pairedItem: { item: ctx.getItemIndex() } }];
	}
	throw await stopRun(ctx, run, error);
}
