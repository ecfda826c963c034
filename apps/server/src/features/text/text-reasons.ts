// Issue 33: why a file's text could not be read, as the record card says it (short sentences a
// person can act on). Every reason the server stores comes from here; none names the file.

export const TEXT_REASONS = {
  unsupported: 'This file type is not searchable.',
  heic: 'HEIC photos are not searchable yet.',
  pdf: 'This PDF could not be read.',
  pdfLocked: 'This PDF is protected by a password, so it could not be read.',
  image: 'This image could not be read.',
  imageTooLarge: 'The image is too large to read.',
  document: 'This document could not be read.',
  timeout: 'Reading this page took too long.',
  tooManyTries: 'Reading this file failed several times.',
} as const;

/** A failure that belongs to the file itself: the job fails at once with this reason (no retry). */
export class UnreadableError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'UnreadableError';
  }
}

/** The file is a kind nobody reads: the job ends `unsupported` with this reason. */
export class UnsupportedError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'UnsupportedError';
  }
}
