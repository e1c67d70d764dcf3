import { defineResource } from '../../transport/resource';
import { NODE_SECRETS } from '../secrets';

// IDs only grow, and phpRank sorts by ID, newest first, unless told otherwise.
const NEWEST_FIRST = { sort_by: 'id', sort: 'desc' };

/** What the request layer knows of reports (see transport/resource.ts). */
export const reportSpec = defineResource({
	noun: 'report',
	plural: 'reports',
	path: '/reports',
	key: 'id',
	keyName: 'report ID',
	record: { describe: 'report with an ID in "data"', key: /^\d+$/ },
	createdFrom: 'url',
	secretParameters: NODE_SECRETS,
	newestFirst: NEWEST_FIRST,
	pickerOrder: NEWEST_FIRST,
	searchBy: 'url',
	// A create, or an update with results=1, analyses the page before phpRank answers.
	slowRequests: [{ method: 'POST' }, { method: 'PUT', body: { results: 1 } }],
});
