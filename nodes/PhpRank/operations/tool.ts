import type {
	DeclarativeRestApiSettings,
	IExecutePaginationFunctions,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INodeExecutionData,
	INodePropertyRouting,
	PreSendAction,
} from 'n8n-workflow';

import { DEFAULT_RATE_LIMIT } from '../api';
import { isToolRun } from '../transport/n8nInternals';

/*
 * The node used as an AI tool (an AI Agent's tool, or a tool of the MCP Server Trigger): its
 * errors answered as items the model reads. How long a tool waits out a rate limit is in
 * transport/rateLimit.ts.
 */

export { isToolRun };

interface ToolError {
	message?: unknown;
	description?: unknown;
	httpCode?: unknown;
	failure?: { cause?: string; retryAfterMs?: number };
}

/** The text an AI model reads for a failed call: what went wrong and what to do, in one line. */
export function toolErrorText(error: unknown): string {
	const { message, description, httpCode, failure } = (error ?? {}) as ToolError;
	if (failure?.cause === 'rate-limited' || httpCode === '429') {
		const seconds = Math.max(1, Math.round((failure?.retryAfterMs ?? 60_000) / 1000));
		return `phpRank is rate limiting requests (HTTP 429; by default it allows ${DEFAULT_RATE_LIMIT} a minute): try again in ${seconds} seconds.`;
	}
	const sentence = (text: unknown) => String(text ?? '').trim().replace(/[.:]?$/, '.');
	const text = [message, description].filter((part) => typeof part === 'string' && part.trim() !== '').map(sentence);
	return text.length ? text.join(' ') : 'The phpRank call failed for an unknown reason.';
}

type Pagination = (
	this: IExecutePaginationFunctions,
	routing: DeclarativeRestApiSettings.ResultOptions,
) => Promise<INodeExecutionData[]>;

const INPUT_ERROR = Symbol('phpRank input error');
type DeferredOptions = IHttpRequestOptions & { [INPUT_ERROR]?: unknown };

/** A tool run's refused input waits on the request until the operation can answer with it. */
function deferInToolRuns(action: PreSendAction): PreSendAction {
	return async function deferredPreSend(this: IExecuteSingleFunctions, options: DeferredOptions) {
		if (!isToolRun(this)) return await action.call(this, options);
		if (options[INPUT_ERROR] !== undefined) return options;
		try {
			return await action.call(this, options);
		} catch (error) {
			return { ...options, [INPUT_ERROR]: error } as DeferredOptions;
		}
	};
}

/**
 * An operation's routing, made to answer an AI tool call with `{ error }` instead of throwing:
 * n8n hands a thrown error to MCP clients as "NodeOperationError: …" (and an AI Agent sees the
 * message alone), while an item reaches the model as it is. Workflow runs are unchanged.
 */
export function forTools(routing: INodePropertyRouting): INodePropertyRouting {
	const pagination = routing.operations?.pagination as Pagination;
	async function answerToolErrors(
		this: IExecutePaginationFunctions,
		routingData: DeclarativeRestApiSettings.ResultOptions,
	): Promise<INodeExecutionData[]> {
		if (!isToolRun(this)) return await pagination.call(this, routingData);
		const answer = (error: unknown) => [{ json: { error: toolErrorText(error) }, pairedItem: { item: this.getItemIndex() } }];
		const refused = (routingData.options as DeferredOptions)[INPUT_ERROR];
		if (refused !== undefined) return answer(refused);
		try {
			return await pagination.call(this, routingData);
		} catch (error) {
			return answer(error);
		}
	}
	return {
		...routing,
		send: { ...routing.send, preSend: (routing.send?.preSend ?? []).map(deferInToolRuns) },
		operations: { ...routing.operations, pagination: answerToolErrors },
	};
}
