import { defineResource } from '../../transport/resource';

/** What the request layer knows of projects (see transport/resource.ts). */
export const projectSpec = defineResource({
	noun: 'project',
	plural: 'projects',
	path: '/projects',
	key: 'project',
	keyName: 'project name',
	quoteKey: true,
});
