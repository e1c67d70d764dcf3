export { setup as default } from './userFolder';
