import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';

import { MAX_PAGE_SIZE } from '../api';
import { projectSpec } from '../descriptions/project/projectSpec';
import { reportSpec } from '../descriptions/report/reportSpec';
import { classify } from '../report';
import { cursorFromToken, readList } from '../transport/paging';
import { recordLinks } from '../transport/request';
import type { ResourceSpec } from '../transport/resource';

/**
 * One page of a resource's list for a picker, in the spec's picker order, searched in its search
 * field; the paging cursor is the picker's pagination token.
 */
async function listPage(
	ctx: ILoadOptionsFunctions,
	spec: ResourceSpec,
	filter: string | undefined,
	paginationToken: string | undefined,
): Promise<{ records: IDataObject[]; paginationToken?: string }> {
	const qs: IDataObject = { ...spec.pickerOrder };
	if (filter?.trim()) Object.assign(qs, { search: filter.trim(), search_by: spec.searchBy });
	const page = await readList({ ctx, spec }, qs, {
		perPage: MAX_PAGE_SIZE,
		maxPages: 1,
		resume: cursorFromToken(paginationToken),
	});
	return {
		records: page.items,
		paginationToken: page.complete ? undefined : JSON.stringify(page.cursor),
	};
}

/** Report picker: newest first, searchable by URL. */
export async function searchReports(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const { records, paginationToken: next } = await listPage(
		this,
		reportSpec,
		filter,
		paginationToken,
	);
	const link = await recordLinks({ ctx: this, spec: reportSpec });
	const results: INodeListSearchItems[] = records.map((report) => {
		const { score, result_class } = classify(report.result);
		const grade =
			score !== null
				? `score ${score}${result_class ? `, ${result_class}` : ''}`
				: (result_class ?? '');
		return {
			name: `${String(report.url)} (${grade ? `${grade} · ` : ''}#${String(report.id)})`,
			value: String(report.id),
			// The report's page in phpRank, for the picker's "open" link.
			url: link(report.id),
		};
	});
	return { results, paginationToken: next };
}

/** Project picker: by name. */
export async function searchProjects(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const { records, paginationToken: next } = await listPage(
		this,
		projectSpec,
		filter,
		paginationToken,
	);
	const results: INodeListSearchItems[] = records.map((project) => ({
		name:
			project.reports === undefined
				? String(project.project)
				: `${String(project.project)} (${String(project.reports)} report${Number(project.reports) === 1 ? '' : 's'})`,
		value: String(project.project),
	}));
	return { results, paginationToken: next };
}
