/** Whether the page can reach the server: the app's one answer (lib/connection). */
export { useOnline } from '../../../lib/connection';
