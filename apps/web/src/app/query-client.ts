import { QueryCache, QueryClient, onlineManager } from '@tanstack/react-query';
import { ApiError, isReauthRequired } from '../lib/api-client';
import { isOnline, subscribeConnection } from '../lib/connection';
import { LOGGED_OUT, SIGNED_OUT, authQueryKey, isLoggingOut } from '../features/auth/api/check-auth';

/**
 * A 401 on any data query means the session ended (idle or absolute expiry, DESIGN §5); record
 * that so the private layout sends the user to /login. Mutations are left alone: a wrong
 * current password, for example, must not sign anybody out.
 */
export function createQueryClient(): QueryClient {
  // What waits for the network (paused queries and saves) waits for the app's own idea of it: the
  // browser's events plus requests that got no answer (lib/connection).
  onlineManager.setEventListener((setOnline) => {
    setOnline(isOnline());
    return subscribeConnection(() => setOnline(isOnline()));
  });
  const queryClient: QueryClient = new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => {
        // A 401 asking for the password again (docs/decisions/0024) is a prompt, not an ended session.
        if (error instanceof ApiError && error.status === 401 && !isReauthRequired(error) && query.queryKey[0] !== authQueryKey[0]) {
          queryClient.setQueryData(authQueryKey, isLoggingOut() ? LOGGED_OUT : SIGNED_OUT);
        }
      },
    }),
    defaultOptions: {
      queries: {
        retry: (failureCount, error) => !(error instanceof ApiError && error.status >= 400 && error.status < 500) && failureCount < 2,
        refetchOnWindowFocus: false,
      },
    },
  });
  return queryClient;
}
