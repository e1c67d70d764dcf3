import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { reportLocator } from '../common';

const properties: INodeProperties[] = [reportLocator];

export const description = updateDisplayOptions(
	{ show: { resource: ['report'], operation: ['delete'] } },
	properties,
);
