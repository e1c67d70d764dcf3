export { teardown as default } from './userFolder';
