import { randomUUID } from 'node:crypto';
import { PassThrough, Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import type { Selectable } from 'kysely';
import { ZipFile } from 'yazl';
import { EXPORT_FORMAT_VERSION } from '@kinchart/shared/export';
import type { Db } from '../../db/database';
import type { MedicalFilesTable } from '../../db/schema';
import { fromFlag } from '../../lib/flags';
import { badRequest, notFound } from '../../lib/http-errors';
import { isValidTimeZone, withOffset } from '../../lib/time-zone';
import type { BlobStore } from '../../storage/blob-store';
import { decryptStream, fileAssociatedData, fileBlobAssociatedData, unwrapDataKey } from '../../storage/envelope';
import { recordAudit } from '../../common/audit';
import { createTimeZones } from '../../common/time-zones';
import type { AccountCare } from '../care/care-transfer';
import { careTransfer } from '../care/care-transfer';
import { allergyTransfer } from '../allergies/allergies.service';
import type { IpsDocument } from './fhir-collection';
import type { IpsDose } from './fhir-ips';
import { buildPersonBundles } from './fhir-ips';
import type { AccountData } from './export.repository';
import { loadAccountData } from './export.repository';
import { buildKinchartDocument, medicationCodings, personBundle, personClinical } from './kinchart-format';
import { safeSegment, uniqueNamer, withExtension } from './zip-names';

// GET /api/user/export (decision 0004): one zip, streamed. Entries are stored uncompressed (the files are
// mostly PDFs and images, already compressed) with their sizes known up front, so yazl can say the
// exact length before the first byte: the browser shows real progress, and a download cut short is
// always detectable. Files are decrypted one at a time as the zip reaches them (addReadStreamLazy),
// so memory stays flat whatever the size.

export interface ExportDeps {
  db: Db;
  blobs: BlobStore;
  masterKey: Buffer;
  log: FastifyBaseLogger;
}

export interface ExportStream {
  body: Readable;
  /** Exact byte length of the zip. */
  size: number;
  filename: string;
}

type FileRow = Selectable<MedicalFilesTable>;

/** One person's logged doses for the FHIR collection, each at its time in the person's zone (decision 0046). */
function dosesOf(data: AccountData, care: AccountCare, profileId: string, zone: string): IpsDose[] {
  return data.medications
    .filter((m) => m.profile_id === profileId)
    .flatMap((m) =>
      (care.doses.get(m.id) ?? []).map((d) => ({
        id: d.id,
        medication_id: m.id,
        status: d.status,
        // Taken: when it was taken; skipped: when it was due.
        effective: withOffset(new Date(d.status === 'taken' ? (d.taken_at ?? d.scheduled_at) : d.scheduled_at), zone),
      })),
    );
}

export function readme(now: Date, people: { name: string; path: string; other?: string | undefined }[], fileCount: number): string {
  const lines = [
    'Kinchart export',
    '===============',
    '',
    `Made ${now.toISOString()} — everything your Kinchart account holds, in open formats.`,
    '',
    'kinchart.json',
    `  Every profile (yours and each family member's, pets included), emergency contact, healthcare`,
    `  provider, medication (with its schedule and the doses logged), immunization, lab result and`,
    `  vital sign, condition, procedure, appointment, notification, and every file's details; your settings (time zone,`,
    "  reminder channels, language and units), your reminder choices for each of your people and your calendar feeds'",
    '  settings. Format "kinchart-export" version',
    `  ${EXPORT_FORMAT_VERSION}, documented in Kinchart's docs/decisions/0004-export-format.md.`,
    '  Import this whole zip into Kinchart (Settings > Import) to restore it, into this or another account.',
    '',
    'fhir/',
    '  For each person, a FHIR R4 International Patient Summary (IPS) document (HL7 IPS):',
    '  allergies, medications, problems, immunizations, procedures, results and blood group, vital',
    '  signs, past illnesses, care team, advance directives and alerts, each section readable as a',
    "  table. Clinicians' systems and personal health apps that speak FHIR can read it.",
    '  Beside it, "<name>-other.json": a FHIR R4 collection Bundle with the person\'s appointments',
    "  (times with your time zone's offset), a DocumentReference for each of their files, whose",
    '  URL points into files/ of this zip and which holds the file itself too, so the two FHIR files',
    '  alone bring everything back, and a MedicationAdministration for each dose logged taken or',
    '  skipped (only for people who have appointments, files or logged doses).',
    ...people.flatMap((p) => [
      `    ${p.path}  ${p.name}`,
      ...(p.other ? [`    ${p.other}  ${p.name}: appointments, files and doses`] : []),
    ]),
    '',
    'files/',
    `  The original of each of your ${fileCount} uploaded file${fileCount === 1 ? '' : 's'}, decrypted, under its record name`,
    '  (made safe for any computer; a repeated name gets " (2)", " (3)", ...).',
    '',
    'Not included: your password, sessions, the audit log, emergency QR codes with their PINs and the',
    'browsers that receive your push reminders — set those up again after an import — and the private',
    'addresses of your calendar feeds: an import restores each feed without its address, so give each',
    'imported feed a new address in Settings > Calendar ("New address") and subscribe to that one.',
    'This zip is not encrypted: keep it somewhere safe.',
    '',
  ];
  return lines.join('\r\n');
}

/** A collection's text split where its files' bytes go: text, then a file, then text … */
type CollectionPart = { text: string } | { file: FileRow };

function withFiles(text: string, placeholder: string, files: FileRow[]): CollectionPart[] {
  const parts: CollectionPart[] = [];
  let rest = text;
  for (const file of files) {
    const at = rest.indexOf(`${placeholder}${file.id}"`);
    if (at < 0) continue;
    parts.push({ text: rest.slice(0, at) }, { file });
    rest = rest.slice(at + placeholder.length + file.id.length);
  }
  parts.push({ text: rest });
  return parts;
}

/** The collection's exact length: its text, and each file as base64 (4 characters per 3 bytes, padded). */
function collectionSize(parts: CollectionPart[]): number {
  return parts.reduce((sum, part) => sum + ('text' in part ? Buffer.byteLength(part.text) : 4 * Math.ceil(Number(part.file.size) / 3)), 0);
}

/** The collection's bytes, each file decrypted and encoded to base64 as it streams (whole 3-byte groups at a time). */
async function* collectionBytes(parts: CollectionPart[], open: (file: FileRow) => Promise<Readable>): AsyncGenerator<Buffer> {
  for (const part of parts) {
    if ('text' in part) {
      yield Buffer.from(part.text, 'utf8');
      continue;
    }
    let carry: Buffer = Buffer.alloc(0);
    for await (const chunk of await open(part.file)) {
      const all = carry.length ? Buffer.concat([carry, chunk as Buffer]) : (chunk as Buffer);
      const whole = all.length - (all.length % 3);
      if (whole > 0) yield Buffer.from(all.subarray(0, whole).toString('base64'), 'ascii');
      carry = all.subarray(whole);
    }
    if (carry.length) yield Buffer.from(carry.toString('base64'), 'ascii');
  }
}

export function createExportService(deps: ExportDeps) {
  const { db, blobs, masterKey } = deps;

  async function openDecrypted(row: FileRow): Promise<Readable> {
    const dataKey = unwrapDataKey(masterKey, row.wrapped_key, fileAssociatedData(row.id, row.user_id));
    const source = await blobs.get(row.storage_key);
    return Readable.from(decryptStream(source, dataKey, fileBlobAssociatedData(row.id, row.user_id)), { objectMode: false });
  }

  /**
   * Zip paths, safe and unique: fhir/<person>.json (the IPS document), fhir/<person>-other.json (the
   * collection, for people with appointments or files; named after the documents, so those keep
   * the names they had before there were collections) and files/<record name>.
   */
  function namePaths(data: AccountData, selfId: string | undefined, care: AccountCare) {
    const fhirName = uniqueNamer();
    const fileName = uniqueNamer();
    const label = (p: AccountData['profiles'][number]) => p.name?.trim() || (fromFlag(p.is_self) ? 'Me' : 'Family member');
    const fhir = new Map<string, string>();
    for (const p of data.profiles) fhir.set(p.id, `fhir/${fhirName(safeSegment(`${label(p)}.json`, 'person'))}`);
    const other = new Map<string, string>();
    const owner = (row: { profile_id: string | null }) => row.profile_id ?? selfId;
    const logged = data.medications.filter((m) => (care.doses.get(m.id)?.length ?? 0) > 0).map((m) => m.profile_id);
    const withOther = new Set([...data.appointments.map(owner), ...data.files.map(owner), ...logged]);
    for (const p of data.profiles) {
      if (!withOther.has(p.id)) continue;
      // Cut the name first, so "-other" survives the length limit.
      other.set(p.id, `fhir/${fhirName(safeSegment(`${Array.from(label(p)).slice(0, 100).join('')}-other.json`, 'person-other'))}`);
    }
    const files = new Map<string, string>();
    for (const f of data.files) files.set(f.id, `files/${fileName(safeSegment(withExtension(f.display_name, f.file_type), 'file'))}`);
    return { fhir, other, files };
  }

  return {
    /**
     * Appointments' wall-clock times are placed in their person's zone (their own, else the
     * account's; issue 32) and written with its offset (decision 0023); `timeZone` (the web app
     * sends the browser's) stands in for a person with neither.
     */
    async export(userId: string, ip: string, timeZone = 'UTC', now = new Date()): Promise<ExportStream> {
      // The same check and message as the calendar file's ?tz= (appointment.service.ts).
      if (!isValidTimeZone(timeZone)) throw badRequest('tz must be an IANA time zone such as Europe/London');
      const data = await loadAccountData(db, userId);
      if (!data) throw notFound('Account not found');
      const selfId = data.profiles.find((p) => fromFlag(p.is_self))?.id;
      // Issue 32: schedules and the dose log; each logged dose's time is written in its person's zone.
      const care = await careTransfer(db).items(userId);
      // Issue 34: the allergies as entries (docs/decisions/0053), by person.
      const allergies = await allergyTransfer(db).accountEntries(userId);
      const timeZones = createTimeZones(db);
      const zones = await timeZones.ofPeople(data.profiles.map((p) => p.id));
      // Appointment times are wall-clock times of their person's zone (issue 32); the browser's
      // `timeZone` only for a person with none of their own and no account zone.
      const chosenZones = await timeZones.chosenOfPeople(data.profiles.map((p) => p.id));
      const paths = namePaths(data, selfId, care);

      const zip = new ZipFile();
      const stored = { compress: false, mtime: now } as const;
      const json = (value: unknown) => Buffer.from(`${JSON.stringify(value, null, 2)}\n`, 'utf8');

      const people = data.profiles.map((p) => ({
        name: p.name?.trim() || '(no name given)',
        path: paths.fhir.get(p.id) ?? '',
        other: paths.other.get(p.id),
      }));
      zip.addBuffer(Buffer.from(readme(now, people, data.files.length), 'utf8'), 'README.txt', stored);
      zip.addBuffer(json(buildKinchartDocument(data, paths, now, care, allergies)), 'kinchart.json', stored);

      // Files and collections are streamed when the zip reaches them (a file decrypted on the fly).
      const body = new PassThrough();
      // An error on the body must never be an uncaught error, whenever it comes; whoever sends the
      // body sees it as an errored stream and cuts the download short.
      body.on('error', () => undefined);
      // No file is opened before the response has started reading: a file that fails then cuts the
      // download short (the headers are out), and a response nobody reads opens nothing.
      const reading = new Promise<void>((resolve) => body.once('resume', () => resolve()));
      let current: Readable | undefined;
      let aborted = false;
      const fail = (error: unknown, fileId?: string) => {
        if (aborted) return;
        aborted = true;
        current?.destroy();
        // The log names the file by id only (DESIGN §5: no health data in logs).
        deps.log.error({ err: { message: (error as Error).message }, fileId }, 'export failed while streaming');
        body.destroy(new Error('Export failed'));
      };
      body.on('close', () => {
        if (!body.writableFinished) {
          aborted = true;
          current?.destroy();
        }
      });
      /** An entry of `size` bytes whose stream is opened only when the zip reaches it. */
      const addLazy = (name: string, mtime: Date, size: number, open: () => Promise<Readable>, fileId?: string) => {
        zip.addReadStreamLazy(name, { ...stored, mtime, size }, (cb) => {
          if (aborted) return cb(new Error('Export aborted'), new PassThrough());
          reading
            .then(() => {
              if (aborted) throw new Error('Export aborted');
              return open();
            })
            .then(
              (stream) => {
                current = stream;
                stream.on('error', (err) => fail(err, fileId));
                cb(null, stream);
              },
              (err: unknown) => fail(err, fileId),
            );
        });
      };

      // Each file and appointment goes in the collection of the person it belongs to (DESIGN §4; the
      // account holder's when none). The collection carries each file's bytes too (base64 in the
      // attachment's data), streamed in where a placeholder stands, so its size is known up front.
      const placeholder = `kinchart-file-${randomUUID()}-`;
      const codings = medicationCodings(data);
      for (const p of data.profiles) {
        const documents: IpsDocument[] = data.files
          .filter((f) => (f.profile_id ?? selfId) === p.id)
          .map((f) => ({
            id: f.id,
            display_name: f.display_name,
            file_type: f.file_type,
            size: Number(f.size),
            created_at: f.created_at,
            record_date: f.record_date,
            provider_name: f.provider_name,
            visit_location: f.visit_location,
            visit_reason: f.visit_reason,
            url: paths.files.get(f.id) ?? '',
            data: `${placeholder}${f.id}`,
          }));
        const bundles = buildPersonBundles({
          person: personBundle(data, p),
          clinical: personClinical(data, p.id),
          medicationCodings: codings,
          allergies: allergies.get(p.id) ?? [],
          profileUpdatedAt: p.updated_at,
          appointments: data.appointments.filter((a) => (a.profile_id ?? selfId) === p.id),
          documents,
          doses: dosesOf(data, care, p.id, zones.get(p.id) ?? 'UTC'),
          now,
          timeZone: chosenZones.get(p.id) ?? timeZone,
        });
        zip.addBuffer(json(bundles.document), paths.fhir.get(p.id) ?? 'fhir/person.json', stored);
        const otherPath = paths.other.get(p.id);
        if (bundles.other && otherPath) {
          const parts = withFiles(json(bundles.other).toString('utf8'), placeholder, data.files);
          addLazy(otherPath, now, collectionSize(parts), async () => Readable.from(collectionBytes(parts, openDecrypted)));
        }
      }

      // Files last, each opened only when the zip reaches it. If the client goes away, the open
      // file is closed and no further file is opened.
      for (const f of data.files)
        addLazy(paths.files.get(f.id) ?? `files/${f.id}`, new Date(f.updated_at), Number(f.size), () => openDecrypted(f), f.id);
      zip.on('error', (err) => fail(err));

      const size = await new Promise<number>((resolve) => {
        (zip.end as (options: undefined, callback: (size: number) => void) => void)(undefined, resolve);
      });
      // The zip starts only when the response starts reading it.
      body.once('resume', () => zip.outputStream.pipe(body));

      await recordAudit(db, {
        userId,
        action: 'export',
        ip,
        detail: { profiles: data.profiles.length, files: data.files.length, bytes: size },
      });
      return { body, size, filename: `kinchart-export-${now.toISOString().slice(0, 10)}.zip` };
    },
  };
}
export type ExportService = ReturnType<typeof createExportService>;
