/** Display ids of the spec: AS-0001, SV-0001. Apart from the schemas: the shell shows them without zod. */
export const displayId = (prefix: string, id: number) => `${prefix}-${String(id).padStart(4, '0')}`;
