import { Container } from '@n8n/di';
import { DirectoryLoader, PollContext, PollTriggerExecutor, WorkflowExecute } from 'n8n-core';
import type {
	IDataObject,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	IWorkflowBase,
	WorkflowActivateMode,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { PhpRankTrigger } from '../../nodes/PhpRankTrigger/PhpRankTrigger.node';
import { additionalDataFor, makeNode, nodeTypes, registerNodeType, type TestCredential } from './engine';

export const TRIGGER_TYPE = 'n8n-nodes-phprank.phpRankTrigger';
const WORKFLOW_ID = 'wf-trigger';

// What n8n's loader does to a polling node (it adds "Poll Times"); the method is private in n8n-core.
const trigger = new PhpRankTrigger();
(DirectoryLoader.prototype as unknown as { applySpecialNodeParameters(nodeType: INodeType): void })
	.applySpecialNodeParameters.call(undefined, trigger);
registerNodeType(TRIGGER_TYPE, trigger);

export interface PollOutcome {
	/** The items the poll handed to n8n (one execution), or null when it returned nothing. */
	items: INodeExecutionData[] | null;
	/** The error n8n would record as a failed trigger run. */
	error?: Error;
}

/**
 * An active workflow with one phpRank Trigger, polled the way n8n 2.x runs pollers without the
 * durable-cursor scheduler (ActiveWorkflowTriggers + PollTriggerExecutor + PollContext):
 * - `activate()`: a Workflow built from the stored workflow (its static data included), one
 *   activation poll (`executePollTrigger(true)`: errors throw), then the static data is saved;
 * - `poll()`: one scheduled poll; its static data lives on in the Workflow object and is saved
 *   when the poll emits (as the app's `__emit` does), a thrown error goes to `__emitError`;
 * - a restart is `activate()` again: a new Workflow from what was saved.
 * `stored` stands for the database row: JSON, written only when `staticData.__dataChanged`.
 */
export class PolledWorkflow {
	stored: IDataObject = {};
	readonly node: INode;
	private workflow: Workflow | undefined;
	private execute: ((testingTrigger?: boolean) => Promise<void>) | undefined;
	private outcome: PollOutcome = { items: null };

	constructor(
		parameters: INodeParameters,
		private readonly credential: TestCredential,
	) {
		this.node = makeNode(parameters, { type: TRIGGER_TYPE, name: 'phpRank Trigger' });
	}

	/** The node's state as the database holds it. */
	get savedState(): IDataObject {
		return (this.stored[`node:${this.node.name}`] as IDataObject | undefined) ?? {};
	}

	async activate(activation: WorkflowActivateMode = 'activate'): Promise<PollOutcome> {
		const workflow = new Workflow({
			id: WORKFLOW_ID,
			nodes: [this.node],
			connections: {},
			active: true,
			nodeTypes,
			staticData: JSON.parse(JSON.stringify(this.stored)) as IDataObject,
		});
		this.workflow = workflow;
		const pollFunctions = new PollContext(
			workflow,
			this.node,
			additionalDataFor(this.credential),
			'trigger',
			activation,
			(data) => {
				this.outcome.items = data[0];
				this.save();
			},
			(error) => {
				this.outcome.error = error;
			},
		);
		this.execute = Container.get(PollTriggerExecutor).create(workflow, this.node, pollFunctions, () => true);
		const outcome = await this.run(true);
		this.save();
		return outcome;
	}

	async poll(): Promise<PollOutcome> {
		return await this.run(false);
	}

	private async run(testingTrigger: boolean): Promise<PollOutcome> {
		if (!this.execute) throw new Error('activate() the workflow first');
		this.outcome = { items: null };
		await this.execute(testingTrigger);
		return this.outcome;
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
): Promise<{ items: INodeExecutionData[]; staticData: IDataObject; error?: Error }> {
	const node = makeNode(parameters, { type: TRIGGER_TYPE, name: 'phpRank Trigger' });
	const workflowData = {
		id: WORKFLOW_ID,
		name: 'trigger test',
		active: false,
		isArchived: false,
		nodes: [node],
		connections: {},
		createdAt: new Date(),
		updatedAt: new Date(),
		activeVersionId: null,
	} as unknown as IWorkflowBase;
	const workflow = new Workflow({
		id: WORKFLOW_ID,
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes,
		staticData: JSON.parse(JSON.stringify(staticData)) as IDataObject,
	});
	const run = await new WorkflowExecute(additionalDataFor(credential, workflowData), 'manual').run({
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
