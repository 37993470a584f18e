import { z } from '../../shared/zod-setup';
import { assetDtoSchema } from '../assets/assets.schema';
import { maintenanceOrderDtoSchema } from '../maintenance-orders/maintenance-orders.schema';
import {
  assetCategoryDtoSchema,
  productCategoryDtoSchema,
  taxDtoSchema,
  timeTrackingReasonDtoSchema,
  uomCategoryDtoSchema,
} from '../master-data/master-data.schema';
import { companyDtoSchema } from '../organization/organization.schema';
import { partDtoSchema } from '../parts/parts.schema';
import { serviceDtoSchema } from '../service-catalog/service-catalog.schema';
import { workOrderDtoSchema } from '../work-orders/work-orders.schema';
import { workStationDtoSchema } from '../work-stations/work-stations.schema';
import { userDtoSchema } from './users.schema';

/**
 * GET /user/get-app-data's answer (spec section 7 "Application data", issue 28): every feature's DTO, master data
 * and people whole, the big lists only their most recent rows.
 */
export const appDataSchema = z.object({
  loggedInUser: userDtoSchema,
  company: companyDtoSchema,
  workers: z.array(userDtoSchema),
  assetCategories: z.array(assetCategoryDtoSchema),
  assets: z.array(assetDtoSchema),
  maintenanceOrders: z.array(maintenanceOrderDtoSchema),
  services: z.object({ services: z.array(serviceDtoSchema) }),
  workOrders: z.array(workOrderDtoSchema),
  workStations: z.array(workStationDtoSchema),
  parts: z.array(partDtoSchema),
  uomCategories: z.array(uomCategoryDtoSchema),
  productCategories: z.array(productCategoryDtoSchema),
  taxes: z.array(taxDtoSchema),
  timeTrackReasons: z.array(timeTrackingReasonDtoSchema),
});
