import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { ClinicalKind } from '@kinchart/shared/clinical';

/**
 * The sentences each list of the health records screen says about its items (issue 35): whole
 * sentences per kind, never "Add" + a kind's name, so every language words them its own way.
 */
export interface RecordTexts {
  /** The Add button and the add dialog's title ("Add immunization"). */
  add: MessageDescriptor;
  edit: MessageDescriptor;
  saveFailed: MessageDescriptor;
  deleteTitle: MessageDescriptor;
  deleteFailed: MessageDescriptor;
  loading: MessageDescriptor;
  loadFailed: MessageDescriptor;
}

export const RECORD_TEXTS: Record<ClinicalKind | 'allergies', RecordTexts> = {
  immunizations: {
    add: msg`Add immunization`,
    edit: msg`Edit immunization`,
    saveFailed: msg`The immunization could not be saved. Please try again.`,
    deleteTitle: msg`Delete immunization`,
    deleteFailed: msg`The immunization could not be deleted. Please try again.`,
    loading: msg`Loading immunizations...`,
    loadFailed: msg`The immunizations could not be loaded.`,
  },
  'lab-results': {
    add: msg`Add lab result`,
    edit: msg`Edit lab result`,
    saveFailed: msg`The lab result could not be saved. Please try again.`,
    deleteTitle: msg`Delete lab result`,
    deleteFailed: msg`The lab result could not be deleted. Please try again.`,
    loading: msg`Loading lab results...`,
    loadFailed: msg`The lab results could not be loaded.`,
  },
  conditions: {
    add: msg`Add condition`,
    edit: msg`Edit condition`,
    saveFailed: msg`The condition could not be saved. Please try again.`,
    deleteTitle: msg`Delete condition`,
    deleteFailed: msg`The condition could not be deleted. Please try again.`,
    loading: msg`Loading conditions...`,
    loadFailed: msg`The conditions could not be loaded.`,
  },
  procedures: {
    add: msg`Add procedure`,
    edit: msg`Edit procedure`,
    saveFailed: msg`The procedure could not be saved. Please try again.`,
    deleteTitle: msg`Delete procedure`,
    deleteFailed: msg`The procedure could not be deleted. Please try again.`,
    loading: msg`Loading procedures...`,
    loadFailed: msg`The procedures could not be loaded.`,
  },
  allergies: {
    add: msg`Add allergy`,
    edit: msg`Edit allergy`,
    saveFailed: msg`The allergy could not be saved. Please try again.`,
    deleteTitle: msg`Delete allergy`,
    deleteFailed: msg`The allergy could not be deleted. Please try again.`,
    loading: msg`Loading allergies...`,
    loadFailed: msg`The allergies could not be loaded.`,
  },
};
