import dayjs from 'dayjs';
import 'dayjs/locale/ar';
import { formatNumber } from '../../shared/format';

/**
 * The date boxes' Arabic (dayjs, which Mantine's pickers format with) writes digits as `Intl` does for Arabic, so
 * a box shows a day exactly as the lists do (decision 066); it reads back both kinds of digits.
 */
dayjs.locale(
  {
    ...dayjs.Ls.ar,
    postformat: (s: string) => s.replace(/\d/g, (d) => formatNumber(Number(d), 'ar', 0)).replace(/,/g, '،'),
    preparse: (s: string) => s.replace(/[٠-٩]/g, (d) => String('٠١٢٣٤٥٦٧٨٩'.indexOf(d))).replace(/،/g, ','),
  } as ILocale,
  undefined,
  true,
);
