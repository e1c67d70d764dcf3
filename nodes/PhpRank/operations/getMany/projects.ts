import type { IExecuteSingleFunctions, INodeExecutionData } from 'n8n-workflow';

import { classify } from '../../report';

// Project → Get Many: phpRank's `result` of a project is the sum of its reports' scores; the
// average and its class are what a digest needs, added to the record or in the simplified one.
export async function shapeProjects(
	this: IExecuteSingleFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const simplify = this.getNodeParameter('simplify', true) as boolean;
	return items.map(({ json }) => {
		const reports = Number(json.reports);
		const total = Number(json.result);
		const average =
			reports > 0 && Number.isFinite(total) ? Math.round((total / reports) * 10) / 10 : null;
		const { result_class } = classify(average);
		if (!simplify) return { json: { ...json, average_score: average, result_class } };
		return {
			json: {
				project: json.project,
				reports: Number.isFinite(reports) ? reports : null,
				average_score: average,
				result_class,
				first_created_at: json.created_at ?? null,
			},
		};
	});
}
