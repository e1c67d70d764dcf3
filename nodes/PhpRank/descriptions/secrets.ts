/**
 * The phpRank node's parameters that hold secrets: Create's Password and Update's. Every resource
 * spec of the node lists them, so an error about any resource (a project picker on a report form,
 * a credential error) masks them.
 */
export const NODE_SECRETS = [['password'], ['updateFields', 'password']];
