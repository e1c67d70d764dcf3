import type {
	IDataObject,
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { PhpRank } from '../../nodes/PhpRank/PhpRank.node';
import { makeNode, registerNodeType, runWorkflow, type TestCredential } from './engine';

export const TOOL_TYPE = 'n8n-nodes-phprank.phpRankTool';
const CALLER_TYPE = 'test.toolCaller';

/**
 * The tool type as n8n 2.41's NodeTypes builds it for a `usableAsTool` declarative node
 * (packages/cli: node-types.ts `getByNameAndVersion`, tool-generation `convertNodeToAiTool`): the
 * name gets "Tool", the only output is `ai_tool`, and (registerNodeType, as n8n's
 * shouldAssignExecuteMethod) `execute` runs RoutingNode. The node declares its own
 * `toolDescription`, so n8n adds no description parameters of its own.
 */
function phpRankToolType(): INodeType {
	const base = new PhpRank();
	return {
		...base,
		description: {
			...base.description,
			name: 'phpRankTool',
			displayName: 'phpRank Tool',
			inputs: [],
			outputs: [NodeConnectionTypes.AiTool],
		},
	};
}

export interface ToolCall {
	/** The node (tool) to call, by node name. */
	node: string;
	args: IDataObject;
}

interface SeenTool {
	name: string;
	description: string;
	parameters: string[];
}

/**
 * Stands in for the AI Agent and the MCP Server Trigger: asks n8n-core for the tools connected to
 * it (n8n-core's createNodeAsTool over the tool nodes), then invokes them as a model would.
 */
function toolCallerType(calls: ToolCall[]): INodeType {
	return {
		description: {
			displayName: 'Tool caller',
			name: 'toolCaller',
			group: ['transform'],
			version: 1,
			description: 'Calls connected tools',
			defaults: { name: 'Tool caller' },
			inputs: [
				NodeConnectionTypes.Main,
				{ type: NodeConnectionTypes.AiTool, displayName: 'Tools' },
			],
			outputs: [NodeConnectionTypes.Main],
			properties: [],
		},
		async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
			const tools = (await this.getInputConnectionData(NodeConnectionTypes.AiTool, 0)) as Array<{
				name: string;
				description: string;
				schema: { shape: Record<string, unknown> };
				metadata?: { sourceNodeName?: string };
				invoke(args: IDataObject): Promise<unknown>;
			}>;
			const out: INodeExecutionData[] = tools.map((tool) => ({
				json: {
					tool: tool.name,
					description: tool.description,
					parameters: Object.keys(tool.schema.shape),
				},
			}));
			for (const call of calls) {
				const tool = tools.find((t) => t.metadata?.sourceNodeName === call.node);
				let result: unknown;
				try {
					result = await tool!.invoke(call.args);
				} catch (error) {
					result = `thrown ${(error as Error).name}: ${(error as Error).message}`;
				}
				out.push({ json: { call: call.node, result: result as string } });
			}
			return [out];
		},
	};
}

registerNodeType(TOOL_TYPE, phpRankToolType());

/** phpRank Tool nodes, as a workflow holds them (parameters filled with `$fromAI(...)`). */
export function toolNode(name: string, parameters: INodeParameters): INode {
	return makeNode(parameters, { type: TOOL_TYPE, name });
}

/** Calls `tool` once per set of arguments, as a model would. */
export const callTool = (tool: INode, credential: TestCredential, ...calls: IDataObject[]) =>
	runTools(
		[tool],
		calls.map((args) => ({ node: tool.name, args })),
		credential,
	);

export interface ToolRun {
	tools: SeenTool[];
	/** What each call returned to the model, in call order (n8n hands tools' results over as JSON text). */
	results: string[];
	error?: unknown;
}

/** Runs the tool nodes under a caller that lists them and makes `calls`, through n8n-core's engine. */
export async function runTools(
	toolNodes: INode[],
	calls: ToolCall[],
	credential: TestCredential,
): Promise<ToolRun> {
	registerNodeType(CALLER_TYPE, toolCallerType(calls));
	const caller = makeNode({}, { type: CALLER_TYPE, name: 'Tool caller', credentials: false });
	const connections = Object.fromEntries(
		toolNodes.map((node) => [
			node.name,
			{ ai_tool: [[{ node: caller.name, type: NodeConnectionTypes.AiTool, index: 0 }]] },
		]),
	);
	const { run, outputs } = await runWorkflow([caller, ...toolNodes], connections, credential);
	const items = (outputs[caller.name] ?? []).map((item) => item.json);
	return {
		tools: items
			.filter((json) => json.tool !== undefined)
			.map(({ tool, ...seen }) => ({ name: tool, ...seen }) as unknown as SeenTool),
		results: items.filter((json) => json.call !== undefined).map((json) => json.result as string),
		error: run.data.resultData.error,
	};
}
