/**
 * n8n data tables through the REST API, as the editor's Overview → Data tables makes and shows them
 * (NOTES.md, "Forms": the calls, verified on 2.41.1). Used by form.ts.
 */
import type { RestSession } from './rest';

export interface DataTable {
	projectId: string;
	id: string;
}

export type ColumnType = 'string' | 'number' | 'boolean' | 'date';

/** A data table in the owner's personal project, with its columns. */
export async function createDataTable(
	session: RestSession,
	name: string,
	columns: Array<{ name: string; type: ColumnType }>,
): Promise<DataTable> {
	const project = await session.request<{ data: { id: string } }>('GET', '/rest/projects/personal');
	const projectId = project.body.data.id;
	const table = await session.request<{ data: { id: string } }>(
		'POST',
		`/rest/projects/${projectId}/data-tables`,
		{ name, columns },
	);
	if (table.status !== 200)
		throw new Error(`data table not created: ${table.status} ${JSON.stringify(table.body)}`);
	return { projectId, id: table.body.data.id };
}

/** The table's rows, in the order they were added. */
export async function dataTableRows(
	session: RestSession,
	table: DataTable,
): Promise<Array<Record<string, unknown>>> {
	const res = await session.request<{ data: { data: Array<Record<string, unknown>> } }>(
		'GET',
		`/rest/projects/${table.projectId}/data-tables/${table.id}/rows`,
	);
	return [...res.body.data.data].sort((a, b) => Number(a.id) - Number(b.id));
}
