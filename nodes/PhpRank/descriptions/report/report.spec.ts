import { defineResource } from '../../transport/resource';

/** What the request layer knows of reports (see transport/resource.ts). */
export const reportSpec = defineResource({
	noun: 'report',
	plural: 'reports',
	path: '/reports',
	key: 'id',
	keyName: 'report ID',
	record: { describe: 'report with an ID in "data"', test: (data) => /^\d+$/.test(String(data.id)) },
	createdFrom: 'url',
	// Create's Password, and Update's.
	secretParameters: [['password'], ['updateFields', 'password']],
	// IDs only grow, and phpRank sorts by ID, newest first, unless told otherwise.
	newestFirst: (qs) => (qs.sort_by ?? 'id') === 'id' && (qs.sort ?? 'desc') === 'desc',
	// A create, or an update with results=1, analyses the page before phpRank answers.
	isSlow: (method, body) => method === 'POST' || (method === 'PUT' && Number(body?.results) === 1),
});
