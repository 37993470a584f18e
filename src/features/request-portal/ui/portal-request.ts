import type { PortalStatus, PortalUrgency } from '../request-portal.schema';

export interface PortalRequestDto {
  id: number;
  number: string;
  description: string;
  urgency: PortalUrgency;
  targetKind: 'asset' | 'work-station' | null;
  targetId: number | null;
  targetName: string | null;
  photos: string[];
  name: string | null;
  email: string | null;
  phone: string | null;
  status: PortalStatus;
  declineReason: string | null;
  workOrderId: number | null;
  maintenanceRequestId: number | null;
  mergedIntoId: number | null;
  heldAt: string | null;
  createdAt: string;
  replies?: { id: number; author: 'requester' | 'team'; body: string; photos: string[]; createdAt: string }[];
}

export const URGENCY_COLOR: Record<PortalUrgency, string> = { low: 'gray', normal: 'blue', high: 'orange', urgent: 'red' };
export const STATUS_COLOR: Record<PortalStatus, string> = {
  received: 'blue',
  accepted: 'teal',
  scheduled: 'cyan',
  'in-progress': 'yellow',
  done: 'green',
  declined: 'gray',
};

/** "3 h", "2 d": how long a request has waited. */
export function age(iso: string) {
  const minutes = Math.max(0, Math.round((Date.now() - new Date(iso).getTime()) / 60000));
  if (minutes < 60) return `${minutes} min`;
  if (minutes < 48 * 60) return `${Math.round(minutes / 60)} h`;
  return `${Math.round(minutes / 1440)} d`;
}
