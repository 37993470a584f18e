import { commercialDocumentRoutes } from '../commercial-documents/commercial-documents.routes';
import { QUOTATION_KIND, QUOTATION_SCHEMAS, quotationDtoSchema } from './quotations.schema';
import { quotationDocs } from './quotations.service';

/** Quotations (prefix /api/quotations): get-quotations, add-quotation, … Everyone signed in prepares them; managers delete. */
export const quotationsRoutes = commercialDocumentRoutes(QUOTATION_KIND, { ...QUOTATION_SCHEMAS, dto: quotationDtoSchema }, quotationDocs);
