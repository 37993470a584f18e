/**
 * What the PDF tests print: a one-line quotation and a work order, as the renderers take them (no database).
 * `over` replaces whole keys.
 */
import type { PrintableDocument } from '../../features/commercial-documents/document-pdf.service';
import { renderWorkOrderPdf, type PrintableWorkOrder } from '../../features/procedures/work-order-pdf.service';

/** A service line of 100.00, untaxed. */
export const printLine = (name: string) => ({ name, quantity: 1, unitPrice: 100, discount: 0, taxAmount: 0, subtotal: 100, Tax: null }) as never;

/** A draft quotation of Acme to `partyName`: one service line `lineName`, no dates, no note. */
export function printableQuotation(partyName: string, lineName: string, over: Partial<PrintableDocument> = {}): PrintableDocument {
  return {
    title: 'Quotation',
    number: 'Q-0001',
    statusLabel: 'Draft',
    currency: 'USD',
    company: { organization: 'Acme', addressStreet1: null, addressStreet2: null, city: null, zipCode: null, country: null, phoneNumber: null, website: null },
    logo: null,
    party: { label: 'Customer', name: partyName, email: null, address: [] },
    person: { label: 'Sales person', name: 'Alex' },
    dates: [],
    serviceLines: [printLine(lineName)],
    partLines: [],
    totals: { rawSubtotal: 100, totalDiscount: 0, untaxed: 100, totalTax: 0, total: 100 },
    note: null,
    ...over,
  };
}

/** An order WO-0007 with the fields the PDF prints (the rest of the DTO left out): no dates, no assignees. */
export const printableWorkOrder = (over: Record<string, unknown> = {}) =>
  ({
    workOrderId: 'WO-0007',
    title: 'Pump service',
    status: 'in-progress',
    priority: 'high',
    asset: { name: 'Main pump' },
    assignees: [],
    startDate: null,
    endDate: null,
    dueDate: null,
    duration: null,
    instructions: '<p>Check the seals</p>',
    ...over,
  }) as unknown as PrintableWorkOrder['workOrder'];

/** The order's PDF for Acme, without a procedure or images. */
export const workOrderPdf = (
  workOrder: PrintableWorkOrder['workOrder'],
  options: Partial<Pick<PrintableWorkOrder, 'organization' | 'timeZone' | 'language'>> = {},
) => renderWorkOrderPdf({ organization: 'Acme', workOrder, procedure: null, images: new Map(), ...options });
