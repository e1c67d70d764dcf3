import { defineResource } from '../../transport/resource';
import { NODE_SECRETS } from '../secrets';

/** What the request layer knows of projects (see transport/resource.ts). */
export const projectSpec = defineResource({
	noun: 'project',
	plural: 'projects',
	path: '/projects',
	key: 'project',
	keyName: 'project name',
	quoteKey: true,
	pickerOrder: { sort_by: 'project', sort: 'asc' },
	searchBy: 'project',
	secretParameters: NODE_SECRETS,
});
