import { Select, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { FailureCodeDto } from '../failure-codes.schema';
import './failure-codes-i18n';

export interface FailureCodeChoice {
  problemCodeId: number | null;
  causeCodeId: number | null;
  remedyCodeId: number | null;
}
export const NO_CODES: FailureCodeChoice = { problemCodeId: null, causeCodeId: null, remedyCodeId: null };

/** The codes offered for an asset category: its problems and those for all categories, with their causes and remedies. */
export function codesFor(all: FailureCodeDto[], assetCategoryId: number | null) {
  const problems = all.filter((c) => c.kind === 'problem' && (c.assetCategoryId === null || c.assetCategoryId === assetCategoryId));
  const causesOf = (problemId: number | null) => all.filter((c) => c.kind === 'cause' && c.parentId === problemId);
  const remediesOf = (causeId: number | null) => all.filter((c) => c.kind === 'remedy' && c.parentId === causeId);
  return { problems, causesOf, remediesOf };
}

/** Problem, then cause (of the problem), then remedy (of the cause): the picker of closing a reactive work order (decision 080). */
export function FailureCodeSelect(props: {
  codes: FailureCodeDto[];
  assetCategoryId: number | null;
  value: FailureCodeChoice;
  onChange(value: FailureCodeChoice): void;
  required?: boolean;
  size?: 'sm' | 'md' | 'lg';
}) {
  const { t } = useTranslation('failureCodes');
  const { problems, causesOf, remediesOf } = codesFor(props.codes, props.assetCategoryId);
  const v = props.value;
  const num = (s: string | null) => (s ? Number(s) : null);
  // one level's picker: its codes, the chosen one, and the choice it makes (a new pick clears the levels below)
  const level = (
    kind: 'problem' | 'cause' | 'remedy',
    rows: FailureCodeDto[],
    id: number | null,
    choose: (id: number | null) => FailureCodeChoice,
    disabled?: boolean,
  ) => (
    <Select
      label={t(kind)}
      withAsterisk={props.required}
      size={props.size}
      data={rows.map((c) => ({ value: String(c.id), label: `${c.code} · ${c.name}` }))}
      value={id ? String(id) : null}
      onChange={(s) => props.onChange(choose(num(s)))}
      disabled={disabled}
      searchable
      data-testid={`failure-${kind}`}
    />
  );
  return (
    <Stack gap="xs">
      {level('problem', problems, v.problemCodeId, (id) => ({ problemCodeId: id, causeCodeId: null, remedyCodeId: null }))}
      {level('cause', causesOf(v.problemCodeId), v.causeCodeId, (id) => ({ ...v, causeCodeId: id, remedyCodeId: null }), !v.problemCodeId)}
      {level('remedy', remediesOf(v.causeCodeId), v.remedyCodeId, (id) => ({ ...v, remedyCodeId: id }), !v.causeCodeId)}
    </Stack>
  );
}
