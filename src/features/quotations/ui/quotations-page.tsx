import { DocumentsList } from '../../commercial-documents/ui/documents-list';
import { QUOTATION_UI } from './quotation-strings';

/** /dashboard/quotations: the list (title and status filters, 500 ms) and the quotation drawer. */
export default function QuotationsPage() {
  return <DocumentsList kind={QUOTATION_UI} />;
}
