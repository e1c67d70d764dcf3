import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { simplifyParameter } from '../common';
import { RESULT_CLASSES_TEXT } from '../../api';

const properties: INodeProperties[] = [simplifyParameter];

export const description = updateDisplayOptions(
	{ show: { resource: ['report'], operation: ['get'] } },
	properties,
);

/** What an AI model reads about this operation when the node is a tool (see `toolDescriptionFields`). */
export const toolDescription = `Get one phpRank SEO report by its ID: URL, score from 0 to 100, class (${RESULT_CLASSES_TEXT}) and the checks it failed, grouped by importance, with what was wrong. Use it to explain what is wrong with a page and what to fix first.`;
