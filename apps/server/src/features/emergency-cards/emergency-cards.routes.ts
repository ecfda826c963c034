import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { messageSchema } from '@kinchart/shared/common';
import type { PersonAccessService } from '../../common/person-access';
import { actorOf, routePerson } from '../../common/request-actor';
import type { CardDownload, CardFormat, EmergencyCardService } from './emergency-cards.service';
import { CARD_NOT_FOUND_MESSAGE } from './emergency-cards.service';

const memberParams = z.object({ id: z.string().max(64) });
const cardQuery = z.object({
  paper: z.enum(['a4', 'letter']).default('a4'),
  /** Only to print it on the card; checked against the stored hash, never logged (plugins/logging.ts). */
  pin: z.string().max(64).optional(),
});
const errors = { 400: messageSchema, 404: messageSchema };

/** A file to save, never cached, named without the share id (DESIGN §7). */
function sendDownload(reply: FastifyReply, download: CardDownload) {
  return reply
    .headers({
      'Content-Type': download.contentType,
      'Content-Disposition': `attachment; filename="${download.fileName}"`,
      'Cache-Control': 'no-store',
    })
    .send(download.body);
}

/**
 * The owner's downloads per code, own and member (DESIGN §7): `card.pdf`, `qr.png`,
 * `lockscreen.png` under each code's settings path. They carry the code's link (its share id), so a
 * member's are for its owner and the person's managers, like the code itself (DESIGN §11).
 */
export async function emergencyCardRoutes(
  app: FastifyInstance,
  opts: { cards: EmergencyCardService; access: PersonAccessService; requireUser: (r: FastifyRequest) => Promise<void> },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  app.addHook('onRequest', opts.requireUser);

  const files: [string, CardFormat][] = [
    ['card.pdf', 'card_pdf'],
    ['qr.png', 'qr_png'],
    ['lockscreen.png', 'lockscreen_png'],
  ];
  for (const [file, format] of files) {
    for (const path of [`/api/user/wearable-qr/${file}`, `/api/user/family/members/:id/qr/${file}`]) {
      const params = path.includes(':id') ? memberParams : z.object({});
      r.get(path, { exposeHeadRoute: false, schema: { params, querystring: cardQuery, response: errors } }, async (request, reply) => {
        const memberId = (request.params as { id?: string }).id;
        // One 404 for every kind of "not there": no code, an inactive one, a person out of reach.
        const person = await routePerson(opts.access, request, memberId, 'manager', CARD_NOT_FOUND_MESSAGE);
        const download = await opts.cards.download(person, actorOf(request), format, {
          pin: request.query.pin,
          paper: request.query.paper,
        });
        return sendDownload(reply, download);
      });
    }
  }
}
