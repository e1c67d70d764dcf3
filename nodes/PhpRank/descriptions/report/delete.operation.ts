// Report → Delete: its one field, the Report ID, is the report locator Get and Update share
// (Report.resource.ts).

/** What an AI model reads about this operation when the node is a tool (see `toolDescriptionFields`). */
export const toolDescription =
	'Delete one phpRank SEO report by its ID. It cannot be undone: use it only when the user asks to delete that report.';
