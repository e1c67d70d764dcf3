import type { IExecuteSingleFunctions, INodeExecutionData } from 'n8n-workflow';

// What Report → Delete and Project → Delete output: the deletion as phpRank confirmed it.

/** Output step of Report → Delete: `{ deleted: true, id }`, the ID as phpRank confirmed it. */
export async function reportDeleted(
	this: IExecuteSingleFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const { id } = items[0]?.json ?? {};
	// Instances that answer 204 confirm nothing: the ID is the one the request named.
	const confirmed = /^\d+$/.test(String(id))
		? Number(id)
		: Number(this.getNodeParameter('reportId', undefined, { extractValue: true }));
	return [{ json: { deleted: true, id: confirmed } }];
}

/** Output step of Project → Delete: `{ deleted: true, project }`, the name the request used. */
export async function projectDeleted(
	this: IExecuteSingleFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const { id } = items[0]?.json ?? {};
	const named = String(this.getNodeParameter('project', '', { extractValue: true })).trim();
	const project = typeof id === 'string' && id ? id : named;
	return [{ json: { deleted: true, project } }];
}
