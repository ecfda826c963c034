import type { FastifyRequest } from 'fastify';
import type { PersonRole } from '@kinchart/shared/people';
import { currentUser } from '../plugins/session';
import type { AccessNeed, Actor, PersonAccess, PersonAccessService } from './person-access';

/** Who asks, for the one access function and the owner's audit trail (DESIGN §11). */
export function actorOf(request: FastifyRequest): Actor {
  return { userId: currentUser(request).id, ip: request.ip };
}

/**
 * What a route needs of a person, named by its method and path pattern ("GET
 * /api/user/files/:id/content"): the owner's access history lists that — no ids, no names.
 */
export function needOf(request: FastifyRequest, need: PersonRole): AccessNeed {
  return { need, what: `${request.method} ${request.routeOptions.url ?? ''}` };
}

/**
 * The person a route pair names (STYLE habit 4): the signed-in user's own profile on the personal
 * route (`/api/user/wearable-qr…`, always theirs), or the member on `/api/user/family/members/:id…`
 * when the user may `need` that person (the one access function, DESIGN §11); `missing` is the 404's
 * message when the route answers one of its own for every kind of "not there".
 */
export function routePerson(
  access: PersonAccessService,
  request: FastifyRequest,
  memberId: string | undefined,
  need: PersonRole,
  missing?: string,
): Promise<PersonAccess> {
  return memberId === undefined
    ? access.own(currentUser(request).id)
    : access.member(actorOf(request), memberId, needOf(request, need), missing);
}
