// Kept for features/import/import.repository.ts until it imports db/account-lock.repository.ts itself:
// the statement lives there.
export { lockAccount } from './account-lock.repository';
