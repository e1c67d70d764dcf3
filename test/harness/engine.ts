import {
	CredentialTestContext,
	DirectoryLoader,
	ExecutionLifecycleHooks,
	LoadOptionsContext,
	RoutingNode,
	WorkflowExecute,
} from 'n8n-core';
import type { ExecuteContext } from 'n8n-core';
import type {
	IExecuteFunctions,
	ICredentialDataDecryptedObject,
	IDataObject,
	IConnections,
	INode,
	INodeCredentialTestResult,
	INodeExecutionData,
	INodeListSearchResult,
	INodeParameters,
	INodeType,
	INodeTypes,
	IRun,
	IVersionedNodeType,
	IWorkflowBase,
	WorkflowExecuteMode,
	IWorkflowExecuteAdditionalData,
	ExecutionError,
} from 'n8n-workflow';
import { createRunExecutionData, Workflow } from 'n8n-workflow';

import { PhpRank } from '../../nodes/PhpRank/PhpRank.node';
import { PhpRankTrigger } from '../../nodes/PhpRankTrigger/PhpRankTrigger.node';
import { credentialTypes, TestCredentialsHelper } from './credentials';

export const NODE_TYPE = 'n8n-nodes-phprank.phpRank';

/** The node types as n8n's loader prepares them (it adds "Request Options" to declarative nodes). */
function loadNodeType<T extends INodeType>(nodeType: T): T {
	DirectoryLoader.applyDeclarativeNodeOptionParameters(nodeType);
	// As n8n's NodeTypes does (cli node-types.js, shouldAssignExecuteMethod): a declarative node
	// runs as an `execute` around RoutingNode, whose context carries the execution's Stop signal.
	const { description } = nodeType;
	if (
		!nodeType.execute &&
		!nodeType.poll &&
		!nodeType.trigger &&
		description.requestDefaults !== undefined
	) {
		nodeType.execute = async function (this: IExecuteFunctions) {
			return (await new RoutingNode(this as unknown as ExecuteContext, nodeType).runNode()) ?? [];
		};
	}
	return nodeType;
}

const registry: Record<string, INodeType> = {
	[NODE_TYPE]: loadNodeType(new PhpRank()),
};

/** Lets other test modules (the trigger) add their node types. */
export function registerNodeType(name: string, nodeType: INodeType): void {
	registry[name] = loadNodeType(nodeType);
}

export const nodeTypes: INodeTypes = {
	getByName: (type: string) => registry[type] as INodeType | IVersionedNodeType,
	getByNameAndVersion: (type: string) => registry[type],
	getKnownTypes: () => ({}),
};

export interface TestCredential {
	baseUrl: string;
	apiKey: string;
}

/** The phpRank History Store API credential (History Store → Data Table): n8n's address and key. */
export type TestN8nApiCredential = TestCredential;

export function additionalDataFor(
	credential: TestCredential | undefined,
	workflowData?: IWorkflowBase,
	mode: WorkflowExecuteMode = 'manual',
	n8nApi?: TestN8nApiCredential,
) {
	const helper = new TestCredentialsHelper({
		...(credential ? { phpRankApi: credential as unknown as ICredentialDataDecryptedObject } : {}),
		...(n8nApi ? { phpRankN8nApi: { ...n8nApi } } : {}),
	});
	const urls = 'http://localhost:5678';
	const urlKeys = ['restApiUrl', 'instanceBaseUrl', 'mcpBaseUrl', 'mcpTestBaseUrl'].concat(
		...['form', 'webhook'].map((kind) => ['', 'Waiting', 'Test'].map((s) => `${kind}${s}BaseUrl`)),
	);
	return {
		...Object.fromEntries(urlKeys.map((key) => [key, urls])),
		credentialsHelper: helper,
		hooks: workflowData
			? new ExecutionLifecycleHooks(mode, 'test-execution', workflowData)
			: undefined,
		executeWorkflow: async () => {
			throw new Error('not used in these tests');
		},
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		currentNodeExecutionIndex: 0,
		variables: {},
		logAiEvent: () => {},
		userId: 'test-user',
	} as unknown as IWorkflowExecuteAdditionalData;
}

export function makeNode(
	parameters: INodeParameters,
	options: {
		type?: string;
		name?: string;
		continueOnFail?: boolean;
		credentials?: boolean;
		/** The node has a phpRank History Store API credential too. */
		n8nApi?: boolean;
	} = {},
): INode {
	return {
		id: `node-${options.name ?? 'phpRank'}`,
		name: options.name ?? 'phpRank',
		type: options.type ?? NODE_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters,
		...(options.credentials === false
			? {}
			: {
					credentials: {
						phpRankApi: { id: 'cred-1', name: 'phpRank account' },
						...(options.n8nApi ? { phpRankN8nApi: { id: 'cred-2', name: 'n8n API' } } : {}),
					},
				}),
		...(options.continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
	};
}

export interface RunResult {
	/** The node's first output. */
	items: INodeExecutionData[];
	/** The error that stopped the execution, if any. */
	error?: ExecutionError;
	run: IRun;
	/** The workflow's static data after the run. */
	staticData: IDataObject;
}

/**
 * Runs one phpRank node through n8n-core's WorkflowExecute (→ RoutingNode, since the node has no
 * execute()), with `items` as its input, as if an upstream node had produced them.
 */
export async function runNode(
	parameters: INodeParameters | IDataObject,
	credential: TestCredential | undefined,
	options: {
		items?: IDataObject[];
		continueOnFail?: boolean;
		settings?: Partial<INode>;
		execution?: Parameters<typeof runWorkflow>[5];
	} = {},
): Promise<RunResult> {
	const node = {
		...makeNode(parameters as INodeParameters, {
			continueOnFail: options.continueOnFail,
			n8nApi: options.execution?.n8nApi !== undefined,
		}),
		...options.settings,
	};
	const { run, staticData } = await runWorkflow(
		[node],
		{},
		credential,
		options.items,
		undefined,
		options.execution,
	);
	const taskData = run.data.resultData.runData[node.name]?.[0];
	return {
		items: taskData?.data?.main?.[0] ?? [],
		error: run.data.resultData.error ?? taskData?.error,
		run,
		staticData,
	};
}

/** A workflow of `nodes` as n8n runs it (`workflow`) and as its database row (`data`, for the hooks). */
export function workflowOf(
	nodes: INode[],
	connections: IConnections,
	options: { id?: string; staticData?: IDataObject; active?: boolean } = {},
): { workflow: Workflow; data: IWorkflowBase } {
	const id = options.id ?? 'wf-1';
	const active = options.active ?? false;
	const now = new Date();
	const data = { id, name: 'test', active, isArchived: false, nodes, connections } as const;
	return {
		workflow: new Workflow({ ...data, nodeTypes, staticData: options.staticData }),
		data: { ...data, createdAt: now, updatedAt: now, activeVersionId: null } as IWorkflowBase,
	};
}

/**
 * Runs a workflow through n8n-core's WorkflowExecute, starting at its first node with `items` as
 * that node's input. Returns the run and each node's first output.
 */
export async function runWorkflow(
	nodes: INode[],
	connections: IConnections,
	credential: TestCredential | undefined,
	items: IDataObject[] = [{}],
	/** Called with the running execution's cancel function (n8n's Stop). */
	onStart?: (cancel: () => void) => void,
	/** The execution's mode and ID (default: a manual run without ID), the workflow's static data and ID, the n8n API credential. */
	execution: {
		mode?: WorkflowExecuteMode;
		id?: string;
		staticData?: IDataObject;
		workflowId?: string;
		n8nApi?: TestN8nApiCredential;
	} = {},
): Promise<{ run: IRun; outputs: Record<string, INodeExecutionData[]>; staticData: IDataObject }> {
	const { workflow, data: workflowData } = workflowOf(nodes, connections, {
		id: execution.workflowId,
		staticData: execution.staticData,
	});
	const inputItems = items.map((json, index) => ({ json, pairedItem: { item: index } }));
	const runExecutionData = createRunExecutionData({
		executionData: {
			nodeExecutionStack: [
				{ node: workflow.getNode(nodes[0].name)!, data: { main: [inputItems] }, source: null },
			],
		},
	});
	const mode = execution.mode ?? 'manual';
	const additionalData = additionalDataFor(credential, workflowData, mode, execution.n8nApi);
	if (execution.id !== undefined) additionalData.executionId = execution.id;
	const execute = new WorkflowExecute(additionalData, mode, runExecutionData);
	const running = execute.processRunExecutionData(workflow);
	onStart?.(() => running.cancel());
	const run = await running;
	const outputs: Record<string, INodeExecutionData[]> = {};
	for (const [name, tasks] of Object.entries(run.data.resultData.runData)) {
		outputs[name] = tasks[0]?.data?.main?.[0] ?? [];
	}
	return { run, outputs, staticData: workflow.staticData };
}

/**
 * n8n's credential test as the app's CredentialsTester runs it for this package. The credential has
 * no declarative `test` (the app would prefer one), so the app walks the nodes that use the
 * credential in the order the package lists them, takes the first one's `testedBy` function from
 * its `methods.credentialTest`, and calls it with a CredentialTestContext.
 */
export async function testCredential(
	credential: TestCredential,
	type: 'phpRankApi' | 'phpRankN8nApi' = 'phpRankApi',
): Promise<INodeCredentialTestResult> {
	if ('test' in credentialTypes[type])
		throw new Error('The app would run the declarative test, not testedBy');
	for (const nodeType of [new PhpRank(), new PhpRankTrigger()] as INodeType[]) {
		const entry = nodeType.description.credentials?.find((c) => c.name === type);
		if (typeof entry?.testedBy !== 'string') continue;
		const test = nodeType.methods?.credentialTest?.[entry.testedBy];
		if (!test)
			throw new Error(
				`${nodeType.description.name} names ${entry.testedBy} but has no such method`,
			);
		const context = new CredentialTestContext(additionalDataFor(credential));
		return await test.call(context, {
			id: 'cred-1',
			name: 'phpRank account',
			type,
			data: { ...credential } as unknown as ICredentialDataDecryptedObject,
		});
	}
	throw new Error(`No node of the package names a test for ${type}`);
}

/** A resource locator's "From List" search, as the editor calls it. */
export async function listSearch(
	method: 'searchReports' | 'searchProjects' | 'searchHistoryTables',
	credential: TestCredential,
	filter?: string,
	paginationToken?: string,
	/** History Table's picker: the n8n API credential, on a node set to the table store. */
	n8nApi?: TestN8nApiCredential,
): Promise<INodeListSearchResult> {
	const node = n8nApi
		? makeNode(
				{
					resource: 'report',
					operation: 'createOrRerun',
					output: 'sites',
					historyStore: 'dataTable',
				},
				{ n8nApi: true },
			)
		: makeNode({});
	const { workflow } = workflowOf([node], {});
	const context = new LoadOptionsContext(
		workflow,
		node,
		additionalDataFor(credential, undefined, 'manual', n8nApi),
		'parameters',
	);
	const nodeType = registry[NODE_TYPE] as INodeType & {
		methods: {
			listSearch: Record<
				string,
				(this: unknown, f?: string, t?: string) => Promise<INodeListSearchResult>
			>;
		};
	};
	return await nodeType.methods.listSearch[method].call(context, filter, paginationToken);
}
