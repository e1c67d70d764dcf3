/**
 * The one builder of n8n workflow JSON for the e2e suites and the bench: nodes, their credentials and the
 * connections between them, ready for `n8n import:workflow` or `POST /rest/workflows`.
 */
import { randomUUID } from 'crypto';

export const PACKAGE = 'n8n-nodes-phprank';
export const NODE_TYPE = `${PACKAGE}.phpRank`;
export const TRIGGER_TYPE = `${PACKAGE}.phpRankTrigger`;

export interface WorkflowNode {
	id?: string;
	name: string;
	type: string;
	typeVersion: number;
	position?: [number, number];
	parameters: Record<string, unknown>;
	credentials?: Record<string, { id: string; name: string }>;
	webhookId?: string;
	/** The node's settings: Retry On Fail. */
	retryOnFail?: boolean;
	maxTries?: number;
	waitBetweenTries?: number;
}

export interface WorkflowJson {
	id: string;
	name: string;
	nodes: WorkflowNode[];
	connections: Record<string, unknown>;
	[key: string]: unknown;
}

/** A stored credential as a node names it. */
export interface CredentialRef {
	id: string;
	name: string;
}

/** `from` → `to` on output 0 / input 0; `type` is the connection kind (main, ai_tool, ai_languageModel). */
export type Link = [from: string, to: string, type?: string];

/** A node with a fresh id; `more` sets typeVersion (default 1), position, credentials, webhookId. */
export function node(
	name: string,
	type: string,
	parameters: Record<string, unknown> = {},
	more: Partial<WorkflowNode> = {},
): WorkflowNode {
	return { id: randomUUID(), name, type, typeVersion: 1, parameters, ...more };
}

export function manualTrigger(name = 'Manual', more: Partial<WorkflowNode> = {}): WorkflowNode {
	return node(name, 'n8n-nodes-base.manualTrigger', {}, more);
}

/** A POST webhook at `/webhook/<path>`, answering at once (onReceived) or with the last node's items. */
export function webhook(
	path: string,
	responseMode: 'onReceived' | 'lastNode',
	more: Partial<WorkflowNode> = {},
): WorkflowNode {
	return node(
		'Webhook',
		'n8n-nodes-base.webhook',
		{ httpMethod: 'POST', path, responseMode, options: {} },
		{ typeVersion: 2, webhookId: randomUUID(), ...more },
	);
}

/** The phpRank action node with a credential. */
export function phpRank(
	name: string,
	parameters: Record<string, unknown>,
	credential: CredentialRef,
	more: Partial<WorkflowNode> = {},
): WorkflowNode {
	return node(name, NODE_TYPE, parameters, { credentials: { phpRankApi: credential }, ...more });
}

/** The phpRank Trigger with a credential. */
export function phpRankTrigger(
	name: string,
	parameters: Record<string, unknown>,
	credential: CredentialRef,
): WorkflowNode {
	return node(name, TRIGGER_TYPE, parameters, { credentials: { phpRankApi: credential } });
}

/** Poll Times at these fixed seconds of every minute (2.41 refuses lists and steps in the seconds field). */
export function pollAt(seconds: number[]): Record<string, unknown> {
	return {
		item: seconds.map((second) => ({ mode: 'custom', cronExpression: `${second} * * * * *` })),
	};
}

/** n8n's connections object: links from one node share its output 0, in the order given. */
export function connect(links: Link[]): Record<string, unknown> {
	const out: Record<string, Record<string, Array<Array<Record<string, unknown>>>>> = {};
	for (const [from, to, type = 'main'] of links) {
		const outputs = ((out[from] ??= {})[type] ??= [[]]);
		outputs[0].push({ node: to, type, index: 0 });
	}
	return out;
}

/**
 * An inactive workflow (execution order v1): nodes without an id get one, nodes without a position are
 * placed left to right in the order given.
 */
export function workflow(
	id: string,
	name: string,
	nodes: WorkflowNode[],
	links: Link[] = [],
): WorkflowJson {
	return {
		id,
		name,
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: nodes.map((n, i) => ({
			...n,
			id: n.id ?? randomUUID(),
			position: n.position ?? [240 * i, 0],
		})),
		connections: connect(links),
	};
}
