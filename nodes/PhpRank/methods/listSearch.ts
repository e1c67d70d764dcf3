import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';

import { classify } from '../helpers/output';
import { getListPage } from '../transport/request';

/** One page of a list for a picker; the page number is the picker's pagination token. */
async function listPage(
	ctx: ILoadOptionsFunctions,
	url: string,
	qs: IDataObject,
	paginationToken: string | undefined,
): Promise<{ records: IDataObject[]; paginationToken?: string }> {
	const page = Math.max(1, Number(paginationToken) || 1);
	const { records, meta } = await getListPage.call(ctx, url, { ...qs, per_page: 100, page });
	const more = Number(meta.current_page) < Number(meta.last_page);
	return { records, paginationToken: more ? String(page + 1) : undefined };
}

/** Report picker: newest first, searchable by URL. */
export async function searchReports(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const qs: IDataObject = { sort_by: 'id', sort: 'desc' };
	if (filter?.trim()) Object.assign(qs, { search: filter.trim(), search_by: 'url' });
	const { records, paginationToken: next } = await listPage(this, '/reports', qs, paginationToken);
	const results: INodeListSearchItems[] = records.map((report) => {
		const { score, result_class } = classify(report.result);
		const grade = [score, result_class].filter((part) => part !== null).join(', ');
		return {
			name: `${String(report.url)} (#${String(report.id)}${grade ? `, ${grade}` : ''})`,
			value: String(report.id),
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
	const qs: IDataObject = { sort_by: 'project', sort: 'asc' };
	if (filter?.trim()) Object.assign(qs, { search: filter.trim(), search_by: 'project' });
	const { records, paginationToken: next } = await listPage(this, '/projects', qs, paginationToken);
	const results: INodeListSearchItems[] = records.map((project) => ({
		name:
			project.reports === undefined
				? String(project.project)
				: `${String(project.project)} (${String(project.reports)} report${Number(project.reports) === 1 ? '' : 's'})`,
		value: String(project.project),
	}));
	return { results, paginationToken: next };
}
