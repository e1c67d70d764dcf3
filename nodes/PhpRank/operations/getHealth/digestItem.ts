import { type Digest, type Flat, flatten } from '../../site/types';
import { DIGEST_FLATTENERS } from './digestText';

/*
 * One Digest as the node outputs it (made by `digest` in digest.ts): Simplify writes `sites` as
 * short text; an AI tool gets the message alone (a few lines, not the numbers).
 */

/** The digest item; with Simplify the sites as text. */
export type DigestItem = Digest | Flat<Digest> | { digest: string };

/** The digest shaped as Simplify (or an AI tool) wants it. */
export function digestItem(
	item: Digest,
	{ simplify, tool }: { simplify: boolean; tool: boolean },
): DigestItem {
	if (simplify && tool) return { digest: item.summary_text };
	return simplify ? flatten(item, DIGEST_FLATTENERS) : item;
}
