import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { simplifyParameter } from '../common';

const properties: INodeProperties[] = [simplifyParameter];

export const description = updateDisplayOptions(
	{ show: { resource: ['report'], operation: ['get'] } },
	properties,
);
