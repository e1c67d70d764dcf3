import type { INode, INodeParameters } from 'n8n-workflow';

import { secretParameterPaths } from './resource';

const HIDDEN = '[hidden]';

/**
 * The node as errors carry it. n8n stores a failed execution's error with the node it names,
 * parameters included; the parameters that resources declare secret (report passwords) are masked
 * there. The API key is never a parameter: it stays in the credential.
 */
export function redactedNode(node: INode): INode {
	const parameters = structuredClone(node.parameters);
	for (const path of secretParameterPaths()) {
		const parent = path.slice(0, -1).reduce<INodeParameters | undefined>(
			(at, key) => (at?.[key] && typeof at[key] === 'object' ? (at[key] as INodeParameters) : undefined),
			parameters,
		);
		const key = path[path.length - 1];
		if (parent && parent[key] !== undefined && parent[key] !== '') parent[key] = HIDDEN;
	}
	return { ...node, parameters };
}
