import type { INode, INodeParameters } from 'n8n-workflow';

/** Node parameters that hold report passwords. */
const SECRET_PARAMETERS = [['password'], ['updateFields', 'password']];
const HIDDEN = '[hidden]';

/**
 * The node as errors carry it. n8n stores a failed execution's error with the node it names,
 * parameters included; report passwords are parameters, so they are masked there.
 */
export function redactedNode(node: INode): INode {
	const parameters = structuredClone(node.parameters);
	for (const path of SECRET_PARAMETERS) {
		const parent = path.slice(0, -1).reduce<INodeParameters | undefined>(
			(at, key) => (at?.[key] && typeof at[key] === 'object' ? (at[key] as INodeParameters) : undefined),
			parameters,
		);
		const key = path[path.length - 1];
		if (parent && parent[key] !== undefined && parent[key] !== '') parent[key] = HIDDEN;
	}
	return { ...node, parameters };
}
