import type { Tx } from '../../server/db/client';
import { procedures, procedureSteps } from '../../server/db/schema';
import type { StepKind } from './procedures.schema';

type SeedStep = {
  kind: StepKind;
  label: string;
  required?: boolean;
  unit?: string;
  min?: number;
  max?: number;
  options?: string[];
  followUpOnFailure?: boolean;
};

const SAMPLES: { name: string; description: string; steps: SeedStep[] }[] = [
  {
    name: 'Centrifugal pump monthly check',
    description: 'Monthly inspection of process and utility pumps while running.',
    steps: [
      { kind: 'heading', label: 'Safety' },
      { kind: 'checkbox', label: 'Permit to work signed and area barricaded', required: true },
      { kind: 'heading', label: 'Running checks' },
      { kind: 'number', label: 'Discharge pressure', unit: 'bar', min: 3, max: 6, required: true, followUpOnFailure: true },
      { kind: 'number', label: 'Drive end bearing temperature', unit: '°C', max: 80, required: true, followUpOnFailure: true },
      { kind: 'pass-fail', label: 'Mechanical seal free of leaks', required: true, followUpOnFailure: true },
      { kind: 'choice', label: 'Noise level', options: ['Normal', 'Slightly loud', 'Abnormal'] },
      { kind: 'photo', label: 'Photo of the pressure gauge' },
      { kind: 'text', label: 'Remarks' },
      { kind: 'signature', label: 'Technician signature', required: true },
    ],
  },
  {
    name: 'Fire extinguisher monthly inspection',
    description: 'Visual inspection per NFPA 10.',
    steps: [
      { kind: 'pass-fail', label: 'Pressure gauge in the green zone', required: true, followUpOnFailure: true },
      { kind: 'checkbox', label: 'Safety pin and tamper seal in place', required: true },
      { kind: 'checkbox', label: 'Access unobstructed and signage visible', required: true },
      { kind: 'text', label: 'Location and extinguisher number' },
    ],
  },
];

/** Demo procedures in the library (Settings -> Procedures); none is attached, so every seeded order closes as before. */
export async function seedProcedures(tx: Tx, orgId: number) {
  for (const sample of SAMPLES) {
    const [procedure] = await tx.insert(procedures).values({ orgId, name: sample.name, description: sample.description }).returning({ id: procedures.id });
    await tx.insert(procedureSteps).values(
      sample.steps.map((s, i) => ({
        orgId,
        procedureId: procedure.id,
        position: i + 1,
        kind: s.kind,
        label: s.label,
        required: s.required ?? false,
        unit: s.unit ?? null,
        min: s.min ?? null,
        max: s.max ?? null,
        options: s.options ?? [],
        followUpOnFailure: s.followUpOnFailure ?? false,
      })),
    );
  }
}
