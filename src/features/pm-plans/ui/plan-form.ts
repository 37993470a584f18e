import type { PlanDto } from '../pm-plans.schema';

export interface FormValues {
  name: string;
  assetIds: number[];
  workStationId: number | null;
  title: string;
  instructions: string;
  priority: string;
  duration: string;
  teamId: number | null;
  procedureId: number | null;
  assignees: string[];
  parts: { partId: number; quantity: number }[];
  trigger: string;
  frequency: string;
  interval: number | string;
  weekdays: string[];
  monthlyMode: string;
  monthDay: number | string;
  monthWeek: string | null;
  monthWeekday: string | null;
  schedule: string;
  startDate: string;
  endDate: string;
  leadDays: number | string;
  meterId: string | null;
  meterEvery: number | string;
  meterThreshold: number | string;
  meterLeadUnits: number | string;
}

const today = () => new Date().toISOString().slice(0, 10);

export function toForm(p: PlanDto | undefined): FormValues {
  return {
    name: p?.name ?? '',
    assetIds: p?.assetIds ?? [],
    workStationId: p?.workStationId ?? null,
    title: p?.title ?? '',
    instructions: p?.instructions ?? '',
    priority: p?.priority ?? 'medium',
    duration: p?.duration ?? '',
    teamId: p?.teamId ?? null,
    procedureId: p?.procedureId ?? null,
    assignees: (p?.assignees ?? []).map(String),
    parts: (p?.parts ?? []).map(({ partId, quantity }) => ({ partId, quantity })),
    trigger: p?.trigger ?? 'calendar',
    frequency: p?.frequency ?? 'weekly',
    interval: p?.interval ?? 1,
    weekdays: p?.weekdays ?? [],
    monthlyMode: p?.monthlyMode ?? 'day',
    monthDay: p?.monthDay ?? '',
    monthWeek: p?.monthWeek ? String(p.monthWeek) : null,
    monthWeekday: p?.monthWeekday ?? null,
    schedule: p?.schedule ?? 'fixed',
    startDate: p?.startDate ?? today(),
    endDate: p?.endDate ?? '',
    leadDays: p?.leadDays ?? 0,
    meterId: p?.meterId ? String(p.meterId) : null,
    meterEvery: p?.meterEvery ?? '',
    meterThreshold: p?.meterThreshold ?? '',
    meterLeadUnits: p?.meterLeadUnits ?? 0,
  };
}

/** The form as the API takes it: the schema's own preprocessing turns blanks into "not given". */
export const toBody = (v: FormValues) => ({ ...v, meterId: v.meterId ? Number(v.meterId) : null, monthWeek: v.monthWeek ? Number(v.monthWeek) : null });
