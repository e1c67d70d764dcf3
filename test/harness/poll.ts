import { AsyncLocalStorage } from 'node:async_hooks';
import { isDeepStrictEqual } from 'node:util';

import { Container } from '@n8n/di';
import { DirectoryLoader, PollContext, PollTriggerExecutor, WorkflowExecute } from 'n8n-core';
import type {
	IDataObject,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	WorkflowActivateMode,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { PhpRankTrigger } from '../../nodes/PhpRankTrigger/PhpRankTrigger.node';
import {
	additionalDataFor,
	makeNode,
	registerNodeType,
	workflowOf,
	type TestCredential,
} from './engine';

export const TRIGGER_TYPE = 'n8n-nodes-phprank.phpRankTrigger';
const WORKFLOW_ID = 'wf-trigger';
let workflows = 0;

/** Registers a polling node as n8n's loader does (it adds "Poll Times"; the method is private in n8n-core). */
export function registerTrigger(type: string, trigger: INodeType): void {
	(
		DirectoryLoader.prototype as unknown as {
			applySpecialNodeParameters(nodeType: INodeType): void;
		}
	).applySpecialNodeParameters.call(undefined, trigger);
	registerNodeType(type, trigger);
}
registerTrigger(TRIGGER_TYPE, new PhpRankTrigger());

export interface PollOutcome {
	/** The items the poll handed to n8n (one execution), or null when it returned nothing. */
	items: INodeExecutionData[] | null;
	/** The error n8n would record as a failed trigger run. */
	error?: Error;
}

export interface PolledWorkflowOptions {
	/** The workflow's ID (default: a new one, as each workflow in n8n has its own). */
	id?: string;
	/**
	 * n8n's durable poll cursors (N8N_POLLER_DURABLE_CURSORS_ENABLED with the scheduler): each poll
	 * works on a copy of the cursor row, committed with the execution it starts or, when it emits
	 * nothing, on its own; never for the activation poll.
	 */
	durable?: boolean;
	/** What the poll's getPollBudgetMs() answers (n8n: 5 minutes; with durable cursors 45 s less the margin, 36 s). */
	pollBudgetMs?: number;
	/** The node type (default: the phpRank Trigger; test/trigger/throwawayEvent.test.ts registers another). */
	type?: string;
}

/**
 * An active workflow with one phpRank Trigger, polled the way n8n 2.x runs pollers
 * (ActiveWorkflowTriggers + PollTriggerExecutor + PollContext):
 * - `activate()`: a Workflow built from the stored workflow (its static data included), one
 *   activation poll (`executePollTrigger(true)`: errors throw), then the static data is saved;
 * - `poll()`: one scheduled poll; its static data lives on in the Workflow object and is saved
 *   when the poll emits (as the app's `__emit` does), a thrown error goes to `__emitError`.
 *   Polls may overlap, as n8n starts one on every tick whether or not the last one ended;
 * - a restart is `activate()` again: a new Workflow from what was saved.
 * `stored` stands for the database row: JSON, written only when `staticData.__dataChanged`.
 * With `durable`, `cursor` stands for the poller_state row, and the poll functions stage it as
 * n8n's TriggerExecutionContextFactory.getExecutePollFunctions does (packages/cli/src/workflows/
 * triggers/trigger-execution-context.factory.ts): `__runPoll` resolves the row (created from the
 * node's static data the first time) into a per-poll copy, the node's static data is that copy,
 * `__emit` commits it with the execution and `__commitCursor` on its own; PollTriggerExecutor
 * calls the latter only for a scheduled poll that emitted nothing.
 */
export class PolledWorkflow {
	stored: IDataObject = {};
	/** The durable cursor row (undefined until the first poll creates it). */
	cursor: IDataObject | undefined;
	readonly node: INode;
	readonly id: string;
	private workflow: Workflow | undefined;
	private execute: ((testingTrigger?: boolean) => Promise<void>) | undefined;
	private readonly outcomes = new AsyncLocalStorage<PollOutcome>();
	private provisioned = false;

	constructor(
		parameters: INodeParameters,
		private readonly credential: TestCredential,
		private readonly options: PolledWorkflowOptions = {},
	) {
		this.node = makeNode(parameters, {
			type: options.type ?? TRIGGER_TYPE,
			name: 'phpRank Trigger',
		});
		this.id = options.id ?? `${WORKFLOW_ID}-${++workflows}`;
	}

	/** The node's state as the database holds it (the cursor row with durable cursors). */
	get savedState(): IDataObject {
		if (this.options.durable) return this.cursor ?? {};
		return (this.stored[`node:${this.node.name}`] as IDataObject | undefined) ?? {};
	}

	async activate(activation: WorkflowActivateMode = 'activate'): Promise<PollOutcome> {
		const { workflow } = workflowOf(
			[this.node],
			{},
			{
				id: this.id,
				active: true,
				staticData: JSON.parse(JSON.stringify(this.stored)) as IDataObject,
			},
		);
		this.workflow = workflow;
		const staged = new AsyncLocalStorage<{ snapshot: IDataObject; seed: IDataObject }>();
		const takeStaged = (): IDataObject | null => {
			const store = staged.getStore();
			if (!store || isDeepStrictEqual(store.snapshot, store.seed)) return null;
			store.seed = JSON.parse(JSON.stringify(store.snapshot)) as IDataObject;
			return store.seed;
		};
		const durable = this.options.durable
			? {
					commitCursor: async () => {
						this.cursor = takeStaged() ?? this.cursor;
					},
					runPoll: async <T>(poll: () => Promise<T>) => {
						this.cursor ??= JSON.parse(
							JSON.stringify(workflow.getStaticData('node', this.node)),
						) as IDataObject;
						const snapshot = JSON.parse(JSON.stringify(this.cursor)) as IDataObject;
						return await staged.run(
							{ snapshot, seed: JSON.parse(JSON.stringify(snapshot)) as IDataObject },
							poll,
						);
					},
					staticData: () => staged.getStore()!.snapshot,
				}
			: undefined;
		const pollFunctions = new PollContext(
			workflow,
			this.node,
			additionalDataFor(this.credential),
			'trigger',
			activation,
			(data) => {
				if (durable) this.cursor = takeStaged() ?? this.cursor;
				const outcome = this.outcomes.getStore();
				if (outcome) outcome.items = data[0];
				this.save();
			},
			(error) => {
				const outcome = this.outcomes.getStore();
				if (outcome) outcome.error = error;
			},
			durable?.commitCursor,
			durable?.runPoll,
			durable?.staticData,
			this.options.pollBudgetMs === undefined ? undefined : () => this.options.pollBudgetMs!,
		);
		this.execute = Container.get(PollTriggerExecutor).create(
			workflow,
			this.node,
			pollFunctions,
			() => true,
		);
		// The durable scheduler runs the activation poll only when it provisions the node's poll jobs
		// (ActiveWorkflowTriggers.activatePollTrigger: `inserted`), not when n8n starts again.
		if (durable && this.provisioned) return { items: null };
		this.provisioned = true;
		const outcome = await this.run(true);
		this.save();
		return outcome;
	}

	async poll(): Promise<PollOutcome> {
		return await this.run(false);
	}

	private async run(testingTrigger: boolean): Promise<PollOutcome> {
		const execute = this.execute;
		if (!execute) throw new Error('activate() the workflow first');
		const outcome: PollOutcome = { items: null };
		await this.outcomes.run(outcome, async () => await execute(testingTrigger));
		return outcome;
	}

	private save(): void {
		const staticData = this.workflow?.staticData;
		if (staticData?.__dataChanged !== true) return;
		this.stored = JSON.parse(JSON.stringify(staticData)) as IDataObject;
		staticData.__dataChanged = false;
	}
}

/**
 * "Execute step" on the trigger in the editor: WorkflowExecute in manual mode, which calls poll()
 * with a PollContext in mode 'manual'. Returns the node's output and the static data afterwards.
 */
export async function runManually(
	parameters: INodeParameters,
	credential: TestCredential,
	staticData: IDataObject = {},
	type = TRIGGER_TYPE,
): Promise<{ items: INodeExecutionData[]; staticData: IDataObject; error?: Error }> {
	const node = makeNode(parameters, { type, name: 'phpRank Trigger' });
	const { workflow, data } = workflowOf(
		[node],
		{},
		{
			id: WORKFLOW_ID,
			staticData: JSON.parse(JSON.stringify(staticData)) as IDataObject,
		},
	);
	const run = await new WorkflowExecute(additionalDataFor(credential, data), 'manual').run({
		workflow,
		startNode: workflow.getNode(node.name)!,
	});
	const taskData = run.data.resultData.runData[node.name]?.[0];
	return {
		items: taskData?.data?.main?.[0] ?? [],
		staticData: JSON.parse(JSON.stringify(workflow.staticData)) as IDataObject,
		error: run.data.resultData.error ?? taskData?.error,
	};
}
