import type { Resolver } from 'react-hook-form';
import type { LoginInput } from '@kinchart/shared/auth';

/*
 * The login form validates with the shared loginSchema (it only trims and lower-cases the email,
 * SPEC §5), which needs zod: the largest download of /login, and one the form uses only when it is
 * sent. So it follows the first paint instead of holding it back (DESIGN §9): the page starts the
 * download once shown, and a submit waits for it if it has not arrived.
 */

let loading: Promise<Resolver<LoginInput>> | undefined;

/** Fetches zod and the schema once; a failed download is tried again on the next call. */
export function loadLoginResolver(): Promise<Resolver<LoginInput>> {
  loading ??= Promise.all([import('@hookform/resolvers/zod'), import('@kinchart/shared/auth')]).then(
    ([{ zodResolver }, { loginSchema }]) => zodResolver(loginSchema),
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

export const loginResolver: Resolver<LoginInput> = async (values, context, options) =>
  (await loadLoginResolver())(values, context, options);
