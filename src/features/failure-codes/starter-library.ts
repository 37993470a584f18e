/**
 * The starter library of failure codes (decision 080): problem > cause > remedy for pumps, motors, conveyors,
 * HVAC and electrical equipment, plus a few that apply to every category. Names in English and Arabic; the
 * import writes one language and the organisation edits them afterwards. Browser-safe data.
 */
type Named = { code: string; en: string; ar: string };
export type StarterRemedy = Named;
export type StarterCause = Named & { remedies: StarterRemedy[] };
export type StarterProblem = Named & { causes: StarterCause[] };
/** `category` null: the problems apply to every asset category. */
export type StarterGroup = { category: Named | null; problems: StarterProblem[] };

const r = (code: string, en: string, ar: string): StarterRemedy => ({ code, en, ar });
const c = (code: string, en: string, ar: string, remedies: StarterRemedy[]): StarterCause => ({ code, en, ar, remedies });
const p = (code: string, en: string, ar: string, causes: StarterCause[]): StarterProblem => ({ code, en, ar, causes });

const replace = r('REPL', 'Replace the part', 'استبدال القطعة');
const adjust = r('ADJ', 'Adjust and re-test', 'ضبط وإعادة الاختبار');
const clean = r('CLN', 'Clean', 'تنظيف');
const tighten = r('TGT', 'Tighten connections', 'شد الوصلات');
const lubricate = r('LUB', 'Lubricate', 'تزييت');
const align = r('ALN', 'Realign', 'إعادة المحاذاة');
const reset = r('RST', 'Reset and restart', 'إعادة الضبط والتشغيل');

export const starterLibrary: StarterGroup[] = [
  {
    category: { code: 'PUMP', en: 'Pumps', ar: 'المضخات' },
    problems: [
      p('LEAK', 'Leak', 'تسريب', [
        c('SEAL', 'Worn mechanical seal', 'تآكل مانع التسرب الميكانيكي', [replace]),
        c('GASK', 'Damaged gasket', 'تلف الحشية', [replace, tighten]),
      ]),
      p('NOFLOW', 'No or low flow', 'تدفق منخفض أو معدوم', [
        c('CLOG', 'Clogged impeller or strainer', 'انسداد الدافع أو المصفاة', [clean]),
        c('CAV', 'Cavitation', 'تكهف', [adjust]),
        c('AIR', 'Air in the suction line', 'هواء في خط السحب', [r('BLEED', 'Bleed and prime', 'تنفيس وتحضير')]),
      ]),
      p('VIB', 'Excessive vibration', 'اهتزاز مفرط', [
        c('MISAL', 'Misalignment', 'عدم محاذاة', [align]),
        c('BRG', 'Bearing wear', 'تآكل المحامل', [replace, lubricate]),
      ]),
    ],
  },
  {
    category: { code: 'MOTOR', en: 'Motors', ar: 'المحركات' },
    problems: [
      p('OVHT', 'Overheating', 'ارتفاع الحرارة', [c('OVLD', 'Overload', 'حمل زائد', [adjust]), c('VENT', 'Blocked ventilation', 'انسداد التهوية', [clean])]),
      p('NOSTART', 'Does not start', 'لا يعمل', [
        c('WIND', 'Winding failure', 'عطل في الملفات', [r('REWIND', 'Rewind', 'إعادة لف'), replace]),
        c('TRIP', 'Protection tripped', 'فصل الحماية', [reset]),
      ]),
      p('NOISE', 'Abnormal noise', 'صوت غير طبيعي', [c('BRG', 'Bearing wear', 'تآكل المحامل', [replace, lubricate])]),
    ],
  },
  {
    category: { code: 'CONV', en: 'Conveyors', ar: 'السيور الناقلة' },
    problems: [
      p('BELT', 'Belt slipping or tracking off', 'انزلاق السير أو انحرافه', [
        c('TENS', 'Wrong tension', 'شد غير صحيح', [adjust]),
        c('WEAR', 'Worn belt', 'تآكل السير', [replace]),
      ]),
      p('JAM', 'Jam', 'انحشار', [c('DEBR', 'Debris or spillage', 'مخلفات أو انسكاب', [clean])]),
      p('ROLL', 'Seized roller', 'تعطل بكرة', [c('BRG', 'Bearing wear', 'تآكل المحامل', [replace, lubricate])]),
    ],
  },
  {
    category: { code: 'HVAC', en: 'HVAC', ar: 'التكييف والتهوية' },
    problems: [
      p('NOCOOL', 'Not cooling', 'لا يبرد', [
        c('REFR', 'Low refrigerant', 'نقص غاز التبريد', [r('RECH', 'Repair leak and recharge', 'إصلاح التسريب وإعادة الشحن')]),
        c('COIL', 'Dirty coil', 'اتساخ الملف', [clean]),
      ]),
      p('AIRFLOW', 'Low airflow', 'ضعف تدفق الهواء', [
        c('FILT', 'Clogged filter', 'انسداد الفلتر', [replace]),
        c('FAN', 'Fan belt worn', 'تآكل سير المروحة', [replace, adjust]),
      ]),
      p('CTRL', 'Control fault', 'عطل في التحكم', [c('SENS', 'Faulty sensor or thermostat', 'حساس أو منظم حرارة معطل', [replace, adjust])]),
    ],
  },
  {
    category: { code: 'ELEC', en: 'Electrical', ar: 'الكهرباء' },
    problems: [
      p('TRIP', 'Breaker trips', 'فصل القاطع', [
        c('SHORT', 'Short circuit', 'دائرة قصر', [r('REPAIR', 'Repair wiring', 'إصلاح الأسلاك')]),
        c('OVLD', 'Overload', 'حمل زائد', [adjust]),
      ]),
      p('NOPWR', 'No power', 'انقطاع التيار', [c('LOOSE', 'Loose connection', 'وصلة مرتخية', [tighten]), c('FUSE', 'Blown fuse', 'احتراق المصهر', [replace])]),
    ],
  },
  {
    category: null,
    problems: [
      p('BREAK', 'Broken part', 'قطعة مكسورة', [
        c('WEAR', 'Normal wear', 'تآكل طبيعي', [replace]),
        c('MISUSE', 'Misuse or accident', 'سوء استخدام أو حادث', [replace, r('TRAIN', 'Train the operator', 'تدريب المشغل')]),
      ]),
      p('OTHER', 'Other', 'أخرى', [c('UNKN', 'Unknown', 'غير معروف', [adjust, reset])]),
    ],
  },
];
