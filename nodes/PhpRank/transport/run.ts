import type { IExecuteSingleFunctions, INode, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { inputError, redactedNode } from './errors';
import { itemContextOf, runStateOf } from './n8nInternals';
import type { ResourceSpec } from './resource';

// One node run of the action node as one object (`runOf`), shared by its items across requests
// and Retry On Fail tries (ARCHITECTURE.md, "One run, one context").

interface Gathering {
	expected: number;
	values: Map<number, unknown>;
	/** Items that reached it or were left out. */
	reached: Set<number>;
	waiting: Array<{ resolve: () => void; reject: (error: unknown) => void }>;
}

interface Done {
	fingerprint: string;
	items: INodeExecutionData[];
	/** A create, of this resource: its record is named when the run stops. */
	created?: ResourceSpec;
}

export class Run {
	/** The per-item context of each item in the current try: a new context means a new try. */
	contexts = new Map<number, object>();
	/** Aborted by the first failure of a try, with that failure as its reason. */
	stop = new AbortController();
	/** The first failure of the try, once the requests then in flight have settled. */
	final?: Promise<NodeApiError>;
	readonly sending = new Set<Promise<unknown>>();
	/** Changes made (creates, updates, deletes), by item, across tries. */
	readonly done = new Map<number, Done>();
	/** The resource the operation acts on, as its routing told the run (`operationRouting`). */
	resource?: ResourceSpec;
	private readonly shared = new Map<string, Promise<unknown>>();
	/** Items of this try that reached a `gather` point, by point; and items that failed before their step. */
	private gatherings = new Map<string, Gathering>();
	private leftOut = new Set<number>();
	/** The item's request on the wire, until its first output step takes it. */
	private readonly queued = new Map<number, { value: unknown; taken: () => void }>();
	/** Settles when the item's last request sent so far has been answered or has failed. */
	private readonly lanes = new Map<number, Promise<void>>();
	private readonly answering = new Map<number, unknown>();
	/** Each item's settings as read in this try, by name and item. */
	private settings = new Map<string, unknown>();

	/** The run's resource, for the steps that run after `operationRouting` told it. */
	get spec(): ResourceSpec {
		if (!this.resource)
			throw new Error('The run has no resource yet: route the operation with operationRouting');
		return this.resource;
	}

	nodeForErrors(ctx: { getNode(): INode }): INode {
		return redactedNode(ctx.getNode(), this.resource);
	}

	/** What `once` made for `key` earlier in this run (a step that reads what an earlier step of the item made). */
	made<T>(key: string): Promise<T> {
		const value = this.shared.get(key) as Promise<T> | undefined;
		return value ?? Promise.reject(new Error(`Nothing in this run made "${key}" yet`));
	}

	/** What items of the run share: made once by the first item that asks, made again after it failed. */
	once<T>(key: string, make: () => Promise<T>): Promise<T> {
		let value = this.shared.get(key) as Promise<T> | undefined;
		if (!value) {
			value = make();
			this.shared.set(key, value);
			value.catch(() => {
				if (this.shared.get(key) === value) this.shared.delete(key);
			});
		}
		return value;
	}

	/**
	 * An item's setting read once per try: the check before any request and the step (and what it hands
	 * them to) share the one reading. A reading that fails is not kept: it fails again where asked.
	 */
	setting<T>(item: number, name: string, read: () => T): T {
		const key = `${name} ${item}`;
		if (this.settings.has(key)) return this.settings.get(key) as T;
		const value = read();
		this.settings.set(key, value);
		return value;
	}

	newTry(): void {
		this.contexts = new Map();
		this.settings = new Map();
		this.stop = new AbortController();
		this.final = undefined;
		this.gatherings = new Map();
		this.leftOut = new Set();
	}

	// Waits until each of the `expected` items reached `key` with its value or was left out, then
	// gives every item all values. RoutingNode starts a run's items together, so none waits for one
	// not started; a Stop of the run ends the wait with its failure.
	async gather<T>(key: string, item: number, value: T, expected: number): Promise<Map<number, T>> {
		let gathering = this.gatherings.get(key);
		if (!gathering) {
			const made: Gathering = {
				expected,
				values: new Map(),
				reached: new Set(this.leftOut),
				waiting: [],
			};
			const { signal } = this.stop;
			signal.addEventListener(
				'abort',
				() => made.waiting.splice(0).forEach(({ reject }) => reject(signal.reason)),
				{ once: true },
			);
			this.gatherings.set(key, made);
			gathering = made;
		}
		if (this.stop.signal.aborted) throw this.stop.signal.reason;
		gathering.values.set(item, value);
		gathering.reached.add(item);
		const { values, waiting } = gathering;
		await new Promise<void>((resolve, reject) => {
			waiting.push({ resolve, reject });
			this.releaseGatherings();
		});
		return values as Map<number, T>;
	}

	/** An item failed before it reached a gathering (its input was refused, its request failed): none waits for it. */
	itemLeftOut(item: number): void {
		this.leftOut.add(item);
		for (const { reached } of this.gatherings.values()) reached.add(item);
		this.releaseGatherings();
	}

	private releaseGatherings(): void {
		for (const { expected, reached, waiting } of this.gatherings.values()) {
			if (reached.size >= expected) waiting.splice(0).forEach(({ resolve }) => resolve());
		}
	}

	forget(key: string): void {
		this.shared.delete(key);
	}

	// n8n's pipeline hands an answer to the output steps without its request. Two requests of one item
	// on the wire at once (a page read ahead, another asked for) may be answered in either order, and
	// an answer would take the other's `value` (its meta, its read-ahead). So an item's request waits
	// until the one before it was answered (its first output step took it) or failed.
	async sendForOutputSteps<T>(item: number, value: unknown, send: () => Promise<T>): Promise<T> {
		const before = this.lanes.get(item) ?? Promise.resolve();
		let taken!: () => void;
		const answered = new Promise<void>((resolve) => (taken = resolve));
		this.lanes.set(
			item,
			before.then(() => answered),
		);
		await before;
		const entry = { value, taken };
		this.queued.set(item, entry);
		try {
			return await send();
		} finally {
			if (this.queued.get(item) === entry) this.queued.delete(item);
			taken();
		}
	}

	/** In the first output step: what was handed with the item's request on the wire. */
	takeForOutputSteps<T>(item: number): T | undefined {
		const entry = this.queued.get(item);
		this.queued.delete(item);
		entry?.taken();
		this.answering.set(item, entry?.value);
		return entry?.value as T | undefined;
	}

	/** In a later output step of the same answer: what the first one took. */
	answeringFor<T>(item: number): T | undefined {
		return this.answering.get(item) as T | undefined;
	}
}

export function runOf(ctx: IExecuteSingleFunctions): Run {
	const run = runStateOf(ctx, () => new Run());
	const item = ctx.getItemIndex();
	const context = itemContextOf(ctx);
	const known = run.contexts.get(item);
	if (known !== undefined && known !== context) run.newTry();
	run.contexts.set(item, context);
	return run;
}

/** The run of an output step's item, as the item's request left it. */
export function runOfOutputStep(ctx: IExecuteSingleFunctions): Run {
	return runStateOf(ctx, () => new Run());
}

export async function onTheWire<T>(run: Run, request: Promise<T>): Promise<T> {
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
export function doneBefore(
	run: Run,
	item: number,
	fingerprint: string,
): INodeExecutionData[] | undefined {
	const done = run.done.get(item);
	return done?.fingerprint === fingerprint ? done.items : undefined;
}

export function recordDone(
	run: Run,
	item: number,
	fingerprint: string,
	items: INodeExecutionData[],
	created?: ResourceSpec,
): void {
	run.done.set(item, { fingerprint, items, created });
}

/** On Error → Stop: items not yet sent are not; the error names the reports the run created. */
async function stopRun(
	ctx: IExecuteSingleFunctions,
	run: Run,
	error: NodeApiError,
): Promise<NodeApiError> {
	if (run.stop.signal.aborted && error === run.stop.signal.reason) return await refused(ctx, run);
	return await stopAfter(run, error);
}

export function stopOnInputError(ctx: IExecuteSingleFunctions, error: NodeApiError): void {
	if (!ctx.continueOnFail()) void stopAfter(runOf(ctx), error);
}

function stopAfter(run: Run, error: NodeApiError): Promise<NodeApiError> {
	const first = !run.stop.signal.aborted;
	if (first) run.stop.abort(error);
	const settled = Promise.allSettled([...run.sending]).then(() => withCreatedReports(run, error));
	if (first) run.final = settled;
	return settled;
}

async function refused(ctx: IExecuteSingleFunctions, run: Run): Promise<NodeApiError> {
	const first = await run.final!;
	return new NodeApiError(
		run.nodeForErrors(ctx),
		{},
		{
			message: first.message,
			description:
				`${first.description ?? ''} This item was not sent: another item failed first.`.trim(),
			...(first.httpCode ? { httpCode: first.httpCode } : {}),
			itemIndex: ctx.getItemIndex(),
		},
	);
}

function withCreatedReports(run: Run, error: NodeApiError): NodeApiError {
	const made = [...run.done.values()].filter(({ created }) => created);
	if (made.length === 0) return error;
	const { noun, plural } = made[0].created!;
	// Items that share one record (Create or Re-Run of one URL) name it once.
	const records = [
		...new Set(
			made.flatMap(({ items, created }) =>
				items.map(({ json }) =>
					`#${String(json[created!.key])} ${String(json[created!.createdFrom ?? ''] ?? '')}`.trim(),
				),
			),
		),
	];
	const one = records.length === 1;
	const note = `Before it stopped, this node created ${records.length} ${one ? noun : plural} that exist${one ? 's' : ''} in phpRank: ${records.join(', ')}. Running it again with the same input creates them again: remove those items first, or set On Error to Continue.`;
	if (!error.description?.includes(note))
		error.description = `${error.description ?? ''} ${note}`.trim();
	return error;
}

/** On Error → Continue: an error item paired to its input (naming the row); else the run stops. */
export async function itemFailed(
	ctx: IExecuteSingleFunctions,
	run: Run,
	caught: unknown,
): Promise<INodeExecutionData[]> {
	// Every request error is a NodeApiError already; anything else (n8n's own, e.g. a missing
	// credential) keeps its text, on the node with secret parameters masked.
	const error =
		caught instanceof NodeApiError
			? caught
			: inputError(
					run.nodeForErrors(ctx),
					caught instanceof Error ? caught.message : String(caught),
					(caught as { description?: string } | undefined)?.description ?? '',
					ctx.getItemIndex(),
				);
	error.context.itemIndex = ctx.getItemIndex();
	if (ctx.continueOnFail()) {
		// Only `error` and `details`: n8n's error output then adds the input item's fields.
		return [
			{
				json: { error: error.message, details: error.description ?? '' },
				pairedItem: { item: ctx.getItemIndex() },
			},
		];
	}
	throw await stopRun(ctx, run, error);
}
