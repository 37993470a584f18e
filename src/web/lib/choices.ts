/** The choices of a select over fixed values, each labelled by its translation `<prefix>.<value>`. */
export function choices(values: readonly string[], t: (key: string) => string, prefix: string) {
  return values.map((v) => ({ value: v, label: t(`${prefix}.${v}`) }));
}
