import { lazy } from 'react';
import { createRecordMultiSelect, createRecordSelect, type RecordSelectConfig, type SelectOption } from '../../../web/components';
import type { ServiceDto } from '../service-catalog.schema';

// The creation form loads when "Add New" is chosen, not with every page that shows the picker.
const ServiceCreateModal = lazy(() => import('./service-form').then((m) => ({ default: m.ServiceCreateModal })));

export const SERVICE_OPTIONS_PATH = '/services/get-services-options';

/** A service option: value, label and price. */
export interface ServiceOption extends SelectOption {
  price: number;
}

const servicePicker: RecordSelectConfig<ServiceDto, ServiceOption> = {
  path: SERVICE_OPTIONS_PATH,
  queryKey: 'services',
  managersOnly: true,
  CreateModal: ServiceCreateModal,
  toOption: (service) => ({ value: service.id, label: service.title, price: service.price }),
};

/**
 * A searchable service picker (10 at a time, fetched as you type); options carry the price. Its "Add New"
 * entry (value 0, for managers) opens the creation dialog in place and selects the new service.
 */
export const ServiceSelect = createRecordSelect<ServiceDto, ServiceOption>(servicePicker);

/** Several services; "Add New" creates one in place and adds it to the chosen values. */
export const ServiceMultiSelect = createRecordMultiSelect<ServiceDto, ServiceOption>(servicePicker);
