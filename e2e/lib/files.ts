import type { Page } from 'playwright-core';
import { baseUrl } from './browser';

// Small real files for the journeys, made from bytes here, and a fast way to store one.

/** A one-page PDF with a correct cross-reference table, so viewers and sniffers both accept it. */
export function tinyPdf(text: string): Buffer {
  const content = `BT /F1 18 Tf 20 50 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 100] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(pdf.length);
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) pdf += `${String(offset).padStart(10, '0')} 00000 n \n`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}

export interface Seed {
  fileName: string;
  mimeType: string;
  buffer: Buffer;
  customName?: string;
  customDate?: string;
  providerName?: string;
  visitLocation?: string;
  visitReason?: string;
  /** Whose record it is (DESIGN §11); sent before the file part, as the server needs. */
  personId?: string;
}

/** Uploads through the API, as the record form would (fast set-up for tests about other things). */
export async function seedRecord(page: Page, seed: Seed): Promise<{ id: string; url: string }> {
  const { fileName, mimeType, buffer, personId, ...fields } = seed;
  const res = await page.request.post('/api/user/files', {
    headers: { Origin: baseUrl() },
    multipart: { ...(personId ? { personId } : {}), file: { name: fileName, mimeType, buffer }, ...fields },
  });
  if (res.status() !== 201) throw new Error(`seeding ${fileName} answered ${res.status()}: ${await res.text()}`);
  return (await res.json()) as { id: string; url: string };
}
